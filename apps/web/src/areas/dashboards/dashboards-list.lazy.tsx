import {
  Badge,
  Button,
  Checkbox,
  EmptyState,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconLayoutDashboard, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, displayName, type ChartState, type DashboardSummary } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { dashboardPath, dashboardsKey, dashboardsQuery } from './api';
import { useBulkDelete, type Seen } from './bulk-delete';
import { DashboardEditor } from './dashboard-editor';

export const Route = createLazyRoute('/dashboards')({ component: DashboardsPage });

/** A dashboard picked for deleting, named in the confirmation. */
type Picked = Seen & { name: string };

/** /dashboards: the organisation's dashboards, and the deleted ones to restore. */
function DashboardsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('dashboards.all')} allowed={useHasPermission('DASHBOARD_VIEW')} maw={1100}>
      <DashboardList />
    </GatedPage>
  );
}

const picked = (dashboard: DashboardSummary): Picked => ({
  id: dashboard.id,
  modifiedOn: dashboard.lastModifiedOn,
  name: dashboard.name,
});

function DashboardList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  const queryClient = useQueryClient();
  const [state, setState] = useState<ChartState>('ACTIVE');
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [deleting, setDeleting] = useState<Picked[] | null>(null);
  const list = useQuery(dashboardsQuery(orgId, { state, pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const { selected, toggle, clear, remove } = useBulkDelete<Picked>(orgId, 'dashboards');
  const selecting = canEdit && state === 'ACTIVE';
  const restore = useMutation({
    mutationFn: (id: string) => apiFetch(`${dashboardPath(orgId, id)}/restore`, { method: 'POST' }),
    onSuccess: async () => {
      notifyMessage('dashboards.done.restore');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
    },
    meta: { errorKey: 'dashboards.actionFailed' },
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <SegmentedControl
          aria-label={t('dashboards.stateFilter')}
          data={[
            { value: 'ACTIVE', label: t('dashboards.live') },
            { value: 'DELETED', label: t('dashboards.deleted') },
          ]}
          value={state}
          onChange={(value) => {
            setState(value as ChartState);
            clear();
            setPageNumber(1);
          }}
        />
        <Group>
          {selecting && selected.size > 0 && (
            <Button color="red" variant="light" onClick={() => setDeleting([...selected.values()])}>
              {t('dashboards.deleteSelected', { count: selected.size })}
            </Button>
          )}
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
              {t('dashboards.new')}
            </Button>
          )}
        </Group>
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('dashboards.loading')}
        failedTitle={t('dashboards.loadFailed')}
        empty={
          <EmptyState
            icon={<IconLayoutDashboard size={32} stroke={1.5} />}
            withIndicatorBackground
            title={state === 'DELETED' ? t('dashboards.noDeleted') : t('dashboards.emptyTitle')}
            description={state === 'DELETED' ? undefined : t('dashboards.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  {selecting && (
                    <Table.Th w={40}>
                      <VisuallyHidden>{t('dashboards.select')}</VisuallyHidden>
                    </Table.Th>
                  )}
                  <Table.Th>{t('dashboards.name')}</Table.Th>
                  <Table.Th>{t('dashboards.charts')}</Table.Th>
                  <Table.Th>{t('dashboards.lastModified')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((dashboard) => (
                  <Table.Tr key={dashboard.id}>
                    {selecting && (
                      <Table.Td>
                        <Checkbox
                          aria-label={t('dashboards.selectNamed', { name: dashboard.name })}
                          checked={selected.has(dashboard.id)}
                          disabled={!dashboard.editable}
                          onChange={() => toggle(picked(dashboard))}
                        />
                      </Table.Td>
                    )}
                    <Table.Td>
                      <Group gap="xs">
                        {state === 'ACTIVE' ? (
                          <AnchorLink
                            to="/dashboards/$dashboardId/view"
                            params={{ dashboardId: dashboard.id }}
                            title={dashboard.name}
                          >
                            {displayName(dashboard.name)}
                          </AnchorLink>
                        ) : (
                          <Text size="sm">{displayName(dashboard.name)}</Text>
                        )}
                        {dashboard.isDefault && (
                          <Badge size="sm" variant="light">
                            {t('dashboards.default')}
                          </Badge>
                        )}
                        {dashboard.copiedFromId && (
                          <Badge size="sm" variant="light" color="gray">
                            {t('dashboards.fromLibraryBadge')}
                          </Badge>
                        )}
                      </Group>
                    </Table.Td>
                    <Table.Td>{dashboard.chartCount}</Table.Td>
                    <Table.Td>{format.format(new Date(dashboard.lastModifiedOn))}</Table.Td>
                    <Table.Td>
                      {canEdit && dashboard.editable && (
                        <Button
                          size="xs"
                          variant="subtle"
                          color={state === 'ACTIVE' ? 'red' : undefined}
                          aria-label={t(
                            state === 'ACTIVE' ? 'dashboards.deleteNamed' : 'dashboards.restoreNamed',
                            {
                              name: dashboard.name,
                            },
                          )}
                          onClick={() =>
                            state === 'ACTIVE'
                              ? setDeleting([picked(dashboard)])
                              : restore.mutate(dashboard.id)
                          }
                        >
                          {state === 'ACTIVE' ? t('dashboards.delete') : t('dashboards.restore')}
                        </Button>
                      )}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              total={data.total}
              pageSize={DEFAULT_PAGE_SIZE}
              page={pageNumber}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {creating && <DashboardEditor orgId={orgId} dashboard={null} onClose={() => setCreating(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('dashboards.deleteListTitle', { count: deleting?.length ?? 0 })}
        message={t('dashboards.deleteListMessage', {
          count: deleting?.length ?? 0,
          name: displayName(deleting?.[0]?.name ?? ''),
        })}
        confirmLabel={t('dashboards.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, { onSuccess: () => setDeleting(null) })}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
