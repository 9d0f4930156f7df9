import {
  ActionIcon,
  Button,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Tabs,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  DASHBOARD_MAX_CHARTS,
  DASHBOARD_MAX_CHARTS_PER_ROW,
  dashboardSchema,
  type Dashboard,
  type SearchIntervalType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { chartsQuery, dashboardPath, dashboardsKey } from './api';
import { RangeSelect, RefreshSelect } from './range-selects';
import { NameFields } from './name-fields';

interface Tile {
  chartId: string;
  width: number;
}

/**
 * Creates or changes a dashboard. QuickStart picks the charts; Expert Mode sets the charts per row,
 * the order of the tiles and how many columns each spans. A library dashboard (`library` when
 * creating one; provider administrators) shows library charts only.
 */
export function DashboardEditor({
  orgId,
  dashboard,
  library: newLibrary = false,
  onClose,
}: {
  orgId: string;
  dashboard: Dashboard | null;
  library?: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const library = dashboard ? dashboard.type === 'LIBRARY' : newLibrary;
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [name, setName] = useState(dashboard?.name ?? '');
  const [description, setDescription] = useState(dashboard?.description ?? '');
  const [chartsPerRow, setChartsPerRow] = useState(dashboard?.chartsPerRow ?? 3);
  const [intervalType, setIntervalType] = useState<SearchIntervalType>(dashboard?.intervalType ?? '7D');
  const [refreshSeconds, setRefreshSeconds] = useState(dashboard?.refreshSeconds ?? 0);
  const [tiles, setTiles] = useState<Tile[]>(
    dashboard?.tiles.map((tile) => ({ chartId: tile.chartId, width: tile.width })) ?? [],
  );
  const charts = useQuery(chartsQuery(orgId, { pageSize: 500, pageNumber: 1, library }));
  const names = new Map((charts.data?.items ?? []).map((chart) => [chart.id, chart.name]));
  dashboard?.tiles.forEach((tile) => tile.chart && names.set(tile.chartId, tile.chart.name));

  const save = useMutation({
    mutationFn: () =>
      apiFetch(dashboard ? dashboardPath(orgId, dashboard.id) : dashboardPath(orgId), {
        method: dashboard ? 'PUT' : 'POST',
        body: {
          name,
          description,
          chartsPerRow,
          intervalType,
          refreshSeconds,
          tiles: tiles.map((tile) => ({ ...tile, width: Math.min(tile.width, chartsPerRow) })),
          library,
        },
        schema: dashboardSchema,
      }),
    onSuccess: async (saved) => {
      notifyMessage(dashboard ? 'dashboards.done.update' : 'dashboards.done.create');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
      onClose();
      if (!dashboard)
        await navigate({ to: '/dashboards/$dashboardId/view', params: { dashboardId: saved.id } });
    },
    meta: { errorKey: 'dashboards.saveFailed' },
  });

  const pick = (ids: string[]) =>
    setTiles((current) =>
      ids.map((chartId) => current.find((tile) => tile.chartId === chartId) ?? { chartId, width: 1 }),
    );
  const move = (index: number, by: number) =>
    setTiles((current) => {
      const next = [...current];
      const [tile] = next.splice(index, 1);
      next.splice(index + by, 0, tile!);
      return next;
    });

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t(
        library ? 'dashboards.libraryTitle' : dashboard ? 'dashboards.editTitle' : 'dashboards.newTitle',
      )}
    >
      <Stack gap="sm">
        <NameFields
          labels={{ name: t('dashboards.name'), description: t('dashboards.description') }}
          name={name}
          onName={setName}
          description={description}
          onDescription={setDescription}
        />
        <Group grow>
          <RangeSelect value={intervalType} onChange={setIntervalType} />
          <RefreshSelect value={refreshSeconds} onChange={setRefreshSeconds} />
        </Group>
        <Tabs defaultValue="quickstart">
          <Tabs.List>
            <Tabs.Tab value="quickstart">{t('dashboards.quickStart')}</Tabs.Tab>
            <Tabs.Tab value="expert">{t('dashboards.expertMode')}</Tabs.Tab>
          </Tabs.List>
          <Tabs.Panel value="quickstart" pt="sm">
            <MultiSelect
              label={t('dashboards.charts')}
              description={t('dashboards.chartsHint', { max: DASHBOARD_MAX_CHARTS })}
              placeholder={charts.isPending ? t('charts.loading') : undefined}
              data={(charts.data?.items ?? []).map((chart) => ({ value: chart.id, label: chart.name }))}
              value={tiles.map((tile) => tile.chartId)}
              onChange={pick}
              searchable
              maxValues={DASHBOARD_MAX_CHARTS}
            />
          </Tabs.Panel>
          <Tabs.Panel value="expert" pt="sm">
            <Stack gap="xs">
              <Text size="sm" fw={500}>
                {t('dashboards.chartsPerRow')}
              </Text>
              <SegmentedControl
                aria-label={t('dashboards.chartsPerRow')}
                data={Array.from({ length: DASHBOARD_MAX_CHARTS_PER_ROW }, (_, index) => String(index + 1))}
                value={String(chartsPerRow)}
                onChange={(value) => setChartsPerRow(Number(value))}
              />
              {tiles.length === 0 ? (
                <Text c="dimmed" size="sm">
                  {t('dashboards.noTilesPicked')}
                </Text>
              ) : (
                <Table>
                  <Table.Tbody>
                    {tiles.map((tile, index) => (
                      <Table.Tr key={tile.chartId}>
                        <Table.Td>{names.get(tile.chartId) ?? tile.chartId}</Table.Td>
                        <Table.Td w={140}>
                          <Select
                            aria-label={t('dashboards.tileWidth', { name: names.get(tile.chartId) ?? '' })}
                            size="xs"
                            data={Array.from({ length: chartsPerRow }, (_, width) => ({
                              value: String(width + 1),
                              label: t('dashboards.columns', { count: width + 1 }),
                            }))}
                            value={String(Math.min(tile.width, chartsPerRow))}
                            onChange={(value) =>
                              value &&
                              setTiles((current) =>
                                current.map((entry, at) =>
                                  at === index ? { ...entry, width: Number(value) } : entry,
                                ),
                              )
                            }
                            allowDeselect={false}
                          />
                        </Table.Td>
                        <Table.Td w={110}>
                          <Group gap={4} wrap="nowrap">
                            <ActionIcon
                              variant="subtle"
                              disabled={index === 0}
                              aria-label={t('dashboards.moveUp')}
                              onClick={() => move(index, -1)}
                            >
                              <IconArrowUp size={14} />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              disabled={index === tiles.length - 1}
                              aria-label={t('dashboards.moveDown')}
                              onClick={() => move(index, 1)}
                            >
                              <IconArrowDown size={14} />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              color="red"
                              aria-label={t('dashboards.removeTile')}
                              onClick={() => setTiles((current) => current.filter((_, at) => at !== index))}
                            >
                              <IconX size={14} />
                            </ActionIcon>
                          </Group>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              )}
            </Stack>
          </Tabs.Panel>
        </Tabs>
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button loading={save.isPending} disabled={!name.trim()} onClick={() => save.mutate()}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
