import { Button, EmptyState, Group, Stack, Table, Text } from '@mantine/core';
import { IconBooks, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  dashboardSchema,
  displayName,
  dashboardLibraryCopyResultSchema,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { orgPath } from '../assets/queries';
import { useProviderAdmin } from '../reports/library-view';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { dashboardPath, dashboardsKey, dashboardsQuery } from './api';
import { DashboardEditor } from './dashboard-editor';

/** "Add to my dashboards": a copy of a library dashboard and its charts, then `open` shows the copy. */
export function useAddFromLibrary(orgId: string, open: (dashboardId: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${dashboardPath(orgId, id)}/copy`, { method: 'POST', schema: dashboardSchema }),
    onSuccess: async (copy) => {
      notifyMessage('dashboards.done.copy');
      await queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
      open(copy.id);
    },
    meta: { errorKey: 'dashboards.actionFailed' },
  });
}

/**
 * The provider's library dashboards: preview one, add a copy to the organisation, or (provider
 * administrators) make library dashboards and copy them all to every customer. `open` shows a
 * dashboard in the calling area.
 */
export function LibraryList({ open }: { open: (dashboardId: string) => void }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  const providerAdmin = useProviderAdmin();
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const list = useQuery(dashboardsQuery(orgId, { library: true, pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const add = useAddFromLibrary(orgId, open);
  const copyAll = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/dashboards/library/copy-to-customers`, {
        method: 'POST',
        schema: dashboardLibraryCopyResultSchema,
      }),
    onSuccess: (result) => notifyMessage('dashboards.done.copyAll', 'green', result),
    meta: { errorKey: 'dashboards.actionFailed' },
  });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Text c="dimmed" size="sm">
          {t('dashboards.libraryIntro')}
        </Text>
        {providerAdmin && (
          <Group gap="xs">
            <Button variant="light" loading={copyAll.isPending} onClick={() => copyAll.mutate()}>
              {t('dashboards.copyToCustomers')}
            </Button>
            {canEdit && (
              <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
                {t('dashboards.newLibrary')}
              </Button>
            )}
          </Group>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('dashboards.loading')}
        failedTitle={t('dashboards.loadFailed')}
        empty={
          <EmptyState
            icon={<IconBooks size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('dashboards.libraryEmpty')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('dashboards.name')}</Table.Th>
                  <Table.Th>{t('dashboards.description')}</Table.Th>
                  <Table.Th>{t('dashboards.charts')}</Table.Th>
                  <Table.Th>{t('common.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((dashboard) => (
                  <Table.Tr key={dashboard.id}>
                    <Table.Td title={dashboard.name}>{displayName(dashboard.name)}</Table.Td>
                    <Table.Td>{dashboard.description}</Table.Td>
                    <Table.Td>{dashboard.chartCount}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button size="xs" variant="subtle" onClick={() => open(dashboard.id)}>
                          {t('dashboards.preview')}
                        </Button>
                        {canEdit && (
                          <Button
                            size="xs"
                            variant="light"
                            aria-label={t('dashboards.addNamed', { name: dashboard.name })}
                            loading={add.isPending && add.variables === dashboard.id}
                            onClick={() => add.mutate(dashboard.id)}
                          >
                            {t('dashboards.add')}
                          </Button>
                        )}
                      </Group>
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
      {creating && (
        <DashboardEditor orgId={orgId} dashboard={null} library onClose={() => setCreating(false)} />
      )}
    </Stack>
  );
}
