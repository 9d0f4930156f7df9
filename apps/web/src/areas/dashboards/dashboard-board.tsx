import { Box, Button, Group, Menu, Stack, Text, Title, Tooltip } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconChevronDown, IconRefresh } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import {
  DASHBOARD_PREVIEW_INTERVAL,
  dashboardSchema,
  displayName,
  type Dashboard,
  type SearchIntervalType,
} from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { dashboardPath, dashboardsKey } from './api';
import { ChartTile } from './chart-tile';
import { DashboardEditor } from './dashboard-editor';
import { useAddFromLibrary } from './library-list';
import { RangeSelect, RefreshSelect } from './range-selects';

/** A dashboard: its tiles over one time range, refreshed on demand or on a timer, and its actions. */
export function DashboardBoard({
  orgId,
  dashboard,
  picker,
  open,
  children,
}: {
  orgId: string;
  dashboard: Dashboard;
  /** Shows a dashboard in the calling area; with it, a library dashboard offers to add a copy. */
  open?: (dashboardId: string) => void;
  /** Shown in place of the dashboard's name (the old dashboards' dropdown of dashboards). */
  picker?: ReactNode;
  /** Cards shown after the tiles (the default dashboard's system status). */
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const small = useMediaQuery('(max-width: 62em)');
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  // A library dashboard is previewed over 30 days (spec 3 section 9).
  const [intervalType, setIntervalType] = useState<SearchIntervalType>(
    dashboard.type === 'LIBRARY' ? DASHBOARD_PREVIEW_INTERVAL : dashboard.intervalType,
  );
  const [refreshSeconds, setRefreshSeconds] = useState(dashboard.refreshSeconds);
  const [editing, setEditing] = useState<Dashboard | 'new' | null>(null);
  const [deleting, setDeleting] = useState(false);
  const columns = small ? 1 : dashboard.chartsPerRow;
  const add = useAddFromLibrary(orgId, (id) => open?.(id));

  const refreshAll = () =>
    void queryClient.invalidateQueries({ queryKey: [...dashboardsKey(orgId), 'data'] });
  const makeDefault = useMutation({
    mutationFn: () =>
      apiFetch(`${dashboardPath(orgId, dashboard.id)}/default`, { method: 'POST', schema: dashboardSchema }),
    onSuccess: async () => {
      notifyMessage('dashboards.done.default');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
    },
    meta: { errorKey: 'dashboards.actionFailed' },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(`${dashboardPath(orgId, dashboard.id)}/delete`, { method: 'POST' }),
    onSuccess: async () => {
      setDeleting(false);
      notifyMessage('dashboards.done.delete');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
      await navigate({ to: '/dashboards/default' });
    },
    meta: { errorKey: 'dashboards.actionFailed' },
  });

  return (
    <Stack gap="md">
      <Title order={1}>{t('dashboards.title')}</Title>
      <Group justify="space-between" align="flex-end" wrap="wrap">
        <Stack gap={2}>
          {picker ?? (
            <Title order={2} title={dashboard.name}>
              {displayName(dashboard.name)}
            </Title>
          )}
          {dashboard.description && (
            <Text c="dimmed" size="sm">
              {dashboard.description}
            </Text>
          )}
        </Stack>
        <Group gap="xs" align="flex-end">
          <RangeSelect value={intervalType} onChange={setIntervalType} w={170} />
          <RefreshSelect value={refreshSeconds} onChange={setRefreshSeconds} w={170} />
          <Tooltip label={t('dashboards.refreshAll')}>
            <Button variant="default" leftSection={<IconRefresh size={16} />} onClick={refreshAll}>
              {t('dashboards.refresh')}
            </Button>
          </Tooltip>
          {open && canEdit && dashboard.type === 'LIBRARY' && (
            <Button loading={add.isPending} onClick={() => add.mutate(dashboard.id)}>
              {t('dashboards.add')}
            </Button>
          )}
          <Menu position="bottom-end">
            <Menu.Target>
              <Button variant="light" rightSection={<IconChevronDown size={16} />}>
                {t('dashboards.actions')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              {!dashboard.isDefault && dashboard.type === 'NORMAL' && (
                <Menu.Item onClick={() => makeDefault.mutate()}>{t('dashboards.makeDefault')}</Menu.Item>
              )}
              {canEdit && dashboard.editable && (
                <Menu.Item onClick={() => setEditing(dashboard)}>{t('dashboards.edit')}</Menu.Item>
              )}
              {canEdit && <Menu.Item onClick={() => setEditing('new')}>{t('dashboards.new')}</Menu.Item>}
              <Menu.Item onClick={() => void navigate({ to: '/dashboards' })}>
                {t('dashboards.all')}
              </Menu.Item>
              <Menu.Item onClick={() => void navigate({ to: '/dashboards/library' })}>
                {t('dashboards.library')}
              </Menu.Item>
              {canEdit && dashboard.editable && (
                <Menu.Item color="red" onClick={() => setDeleting(true)}>
                  {t('dashboards.delete')}
                </Menu.Item>
              )}
            </Menu.Dropdown>
          </Menu>
        </Group>
      </Group>
      {dashboard.tiles.length === 0 ? (
        <Text c="dimmed">{t('dashboards.noTiles')}</Text>
      ) : (
        <Box
          style={{
            display: 'grid',
            gap: 'var(--mantine-spacing-md)',
            gridTemplateColumns: `repeat(${columns}, minmax(0, 1fr))`,
          }}
        >
          {dashboard.tiles.map((tile, index) => (
            <Box
              key={`${tile.chartId}-${index}`}
              style={{
                gridColumn: `span ${Math.min(tile.width, columns)}`,
                gridRow: `span ${tile.height}`,
              }}
            >
              <ChartTile
                orgId={orgId}
                chart={tile.chart}
                intervalType={intervalType}
                refreshSeconds={refreshSeconds}
                rows={tile.height}
              />
            </Box>
          ))}
        </Box>
      )}
      {children}
      {editing && (
        <DashboardEditor
          orgId={orgId}
          dashboard={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting}
        title={t('dashboards.deleteTitle')}
        message={t('dashboards.deleteMessage', { name: displayName(dashboard.name) })}
        confirmLabel={t('dashboards.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setDeleting(false)}
      />
    </Stack>
  );
}
