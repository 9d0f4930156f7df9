import {
  ActionIcon,
  Box,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  SegmentedControl,
  Select,
  Stack,
  Tabs,
  Text,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconGripVertical, IconX } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  DASHBOARD_MAX_CHARTS,
  DASHBOARD_MAX_CHARTS_PER_ROW,
  DASHBOARD_MAX_TILE_HEIGHT,
  dashboardSchema,
  type Dashboard,
  type DashboardTile,
  type SearchIntervalType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { chartsQuery, dashboardPath, dashboardsKey } from './api';
import { RangeSelect, RefreshSelect } from './range-selects';
import { NameFields } from './name-fields';

/**
 * Creates or changes a dashboard. QuickStart picks the charts; Expert Mode lays the tiles out as the
 * dashboard shows them, in a grid of the charts per row, where each is dragged onto another's place
 * (or moved with its buttons) and given its columns and rows. A library dashboard (`library` when
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
  const [tiles, setTiles] = useState<DashboardTile[]>(
    dashboard?.tiles.map(({ chartId, width, height }) => ({ chartId, width, height })) ?? [],
  );
  // The tile being dragged and the one it is over, by index.
  const [dragged, setDragged] = useState<number | null>(null);
  const [over, setOver] = useState<number | null>(null);
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
      ids.map(
        (chartId) => current.find((tile) => tile.chartId === chartId) ?? { chartId, width: 1, height: 1 },
      ),
    );
  /** Puts the tile at `from` in the place of the one at `to`. */
  const move = (from: number, to: number) =>
    setTiles((current) => {
      const next = [...current];
      const [tile] = next.splice(from, 1);
      next.splice(to, 0, tile!);
      return next;
    });
  const change = (index: number, values: Partial<DashboardTile>) =>
    setTiles((current) => current.map((entry, at) => (at === index ? { ...entry, ...values } : entry)));
  const endDrag = () => {
    setDragged(null);
    setOver(null);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
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
                <>
                  <Text c="dimmed" size="sm">
                    {t('dashboards.layoutHint')}
                  </Text>
                  <Box
                    style={{
                      display: 'grid',
                      gap: 'var(--mantine-spacing-xs)',
                      gridTemplateColumns: `repeat(${chartsPerRow}, minmax(0, 1fr))`,
                    }}
                  >
                    {tiles.map((tile, index) => {
                      const name = names.get(tile.chartId) ?? tile.chartId;
                      return (
                        <Card
                          key={tile.chartId}
                          withBorder
                          padding="xs"
                          component="section"
                          aria-label={name}
                          draggable
                          onDragStart={(event) => {
                            // Firefox starts a drag only with data set.
                            event.dataTransfer?.setData('text/plain', tile.chartId);
                            setDragged(index);
                          }}
                          onDragOver={(event) => {
                            if (dragged === null) return;
                            event.preventDefault();
                            setOver(index);
                          }}
                          onDragLeave={() => setOver((current) => (current === index ? null : current))}
                          onDrop={(event) => {
                            event.preventDefault();
                            if (dragged !== null && dragged !== index) move(dragged, index);
                            endDrag();
                          }}
                          onDragEnd={endDrag}
                          style={{
                            gridColumn: `span ${Math.min(tile.width, chartsPerRow)}`,
                            gridRow: `span ${tile.height}`,
                            cursor: 'grab',
                            opacity: dragged === index ? 0.5 : 1,
                            borderColor:
                              over === index && dragged !== index
                                ? 'var(--mantine-primary-color-filled)'
                                : undefined,
                          }}
                        >
                          <Stack gap={6}>
                            <Group gap={4} wrap="nowrap" align="flex-start">
                              <IconGripVertical
                                size={14}
                                aria-hidden
                                style={{ flexShrink: 0, marginTop: 3 }}
                              />
                              <Text size="sm" fw={500} lineClamp={2} title={name}>
                                {name}
                              </Text>
                            </Group>
                            <SpanSelect
                              label={t('dashboards.tileWidth', { name })}
                              unit="dashboards.columns"
                              max={chartsPerRow}
                              value={Math.min(tile.width, chartsPerRow)}
                              onChange={(width) => change(index, { width })}
                            />
                            <SpanSelect
                              label={t('dashboards.tileHeight', { name })}
                              unit="dashboards.rows"
                              max={DASHBOARD_MAX_TILE_HEIGHT}
                              value={tile.height}
                              onChange={(height) => change(index, { height })}
                            />
                            <Group gap={4} wrap="nowrap">
                              <ActionIcon
                                variant="subtle"
                                disabled={index === 0}
                                aria-label={t('dashboards.moveUp')}
                                onClick={() => move(index, index - 1)}
                              >
                                <IconArrowUp size={14} />
                              </ActionIcon>
                              <ActionIcon
                                variant="subtle"
                                disabled={index === tiles.length - 1}
                                aria-label={t('dashboards.moveDown')}
                                onClick={() => move(index, index + 1)}
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
                          </Stack>
                        </Card>
                      );
                    })}
                  </Box>
                </>
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

/** How many columns or rows a tile spans, 1 up to `max`. */
function SpanSelect({
  label,
  unit,
  max,
  value,
  onChange,
}: {
  label: string;
  unit: 'dashboards.columns' | 'dashboards.rows';
  max: number;
  value: number;
  onChange: (value: number) => void;
}) {
  const { t } = useTranslation();
  return (
    <Select
      aria-label={label}
      size="xs"
      data={Array.from({ length: max }, (_, at) => ({
        value: String(at + 1),
        label: t(unit, { count: at + 1 }),
      }))}
      value={String(value)}
      onChange={(picked) => picked && onChange(Number(picked))}
      allowDeselect={false}
    />
  );
}
