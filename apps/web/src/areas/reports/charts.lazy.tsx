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
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconChartBar, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, chartSchema, type Chart, type ChartState } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { chartPath, chartsQuery, dashboardsKey } from '../dashboards/api';
import { useBulkDelete } from '../dashboards/bulk-delete';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';
import { ChartDialog } from './chart-dialog';
import { LibrarySwitch, useProviderAdmin } from './library-view';

export const Route = createLazyRoute('/reports/charts/list')({ component: ChartsPage });

/** /reports/charts/list: CHART_VIEW to see charts; CHART_EDIT with Event Search and Saved Search R&W to change them. */
function ChartsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('charts.title')} allowed={useHasPermission('CHART_VIEW')} maw={1300}>
      <ChartList />
    </GatedPage>
  );
}

/**
 * The organisation's charts, or the provider's library charts (changed by provider administrators
 * only; customers get them with the library dashboards and report templates that show them).
 */
function ChartList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const chartEdit = useHasPermission('CHART_EDIT');
  const eventEdit = useHasPermission('EVENT_EDIT');
  const savedSearchEdit = useHasPermission('SAVED_SEARCH_EDIT');
  const providerAdmin = useProviderAdmin();
  const [library, setLibrary] = useState(false);
  const canEdit = chartEdit && eventEdit && savedSearchEdit && (!library || providerAdmin);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [state, setState] = useState<ChartState>('ACTIVE');
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Chart | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Chart[] | null>(null);
  const list = useQuery(
    chartsQuery(orgId, {
      search: debouncedSearch,
      state,
      library,
      pageNumber,
      pageSize: DEFAULT_PAGE_SIZE,
    }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: dashboardsKey(orgId) });
  const restore = useMutation({
    mutationFn: (id: string) =>
      apiFetch(`${chartPath(orgId, id)}/restore`, { method: 'POST', schema: chartSchema }),
    onSuccess: async () => {
      notifyMessage('charts.done.restore');
      await refresh();
    },
    meta: { errorKey: 'charts.actionFailed' },
  });
  const { selected, toggle, clear, remove } = useBulkDelete<Chart>(orgId, 'charts');
  const onDeleted = { onSuccess: () => setDeleting(null) };
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('charts.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
            w={260}
          />
          <SegmentedControl
            aria-label={t('charts.stateFilter')}
            data={[
              { value: 'ACTIVE', label: t('charts.live') },
              { value: 'DELETED', label: t('charts.deleted') },
            ]}
            value={state}
            onChange={(value) => {
              setState(value as ChartState);
              clear();
              setPageNumber(1);
            }}
          />
          <LibrarySwitch
            library={library}
            onChange={(next) => {
              setLibrary(next);
              clear();
              setPageNumber(1);
            }}
          />
        </Group>
        <Group>
          {canEdit && state === 'ACTIVE' && selected.size > 0 && (
            <Button color="red" variant="light" onClick={() => setDeleting([...selected.values()])}>
              {t('charts.deleteSelected', { count: selected.size })}
            </Button>
          )}
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t(library ? 'charts.newLibrary' : 'charts.new')}
            </Button>
          )}
        </Group>
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('charts.loading')}
        failedTitle={t('charts.listFailed')}
        empty={
          <EmptyState
            icon={<IconChartBar size={32} stroke={1.5} />}
            withIndicatorBackground
            title={state === 'DELETED' ? t('charts.noDeleted') : t('charts.emptyTitle')}
            description={state === 'DELETED' ? undefined : t('charts.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    {canEdit && state === 'ACTIVE' && (
                      <Table.Th w={40}>
                        <VisuallyHidden>{t('charts.select')}</VisuallyHidden>
                      </Table.Th>
                    )}
                    <Table.Th>{t('charts.name')}</Table.Th>
                    <Table.Th>{t('charts.type')}</Table.Th>
                    <Table.Th>{t('charts.family')}</Table.Th>
                    <Table.Th>{t('charts.modified')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((chart) => (
                    <Table.Tr key={chart.id}>
                      {canEdit && state === 'ACTIVE' && (
                        <Table.Td>
                          <Checkbox
                            aria-label={t('charts.selectNamed', { name: chart.name })}
                            checked={selected.has(chart.id)}
                            disabled={!chart.editable}
                            onChange={() => toggle(chart)}
                          />
                        </Table.Td>
                      )}
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {chart.name}
                        </Text>
                        {chart.copiedFromId && (
                          <Badge size="xs" variant="light">
                            {t('charts.fromLibrary')}
                          </Badge>
                        )}
                        {chart.description && (
                          <Text size="xs" c="dimmed" lineClamp={1}>
                            {chart.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{t(`charts.types.${chart.type}`)}</Table.Td>
                      <Table.Td>
                        {t(`charts.families.${chart.family}`)}
                        {chart.family !== 'SAVED_QUERIES' && chart.domain === 'fraud' && (
                          <Badge ml="xs" size="xs" variant="light" color="grape">
                            {t('charts.domains.fraud')}
                          </Badge>
                        )}
                      </Table.Td>
                      <Table.Td>{format.format(new Date(chart.modifiedOn))}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {canEdit && chart.editable && state === 'ACTIVE' && (
                            <EditDeleteButtons
                              editLabel={t('charts.editNamed', { name: chart.name })}
                              deleteLabel={t('charts.deleteNamed', { name: chart.name })}
                              deleteText={t('charts.delete')}
                              onEdit={() => setEditing(chart)}
                              onDelete={() => setDeleting([chart])}
                            />
                          )}
                          {canEdit && chart.editable && state === 'DELETED' && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('charts.restoreNamed', { name: chart.name })}
                              onClick={() => restore.mutate(chart.id)}
                            >
                              {t('charts.restore')}
                            </Button>
                          )}
                        </Group>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              total={data.total}
              pageSize={DEFAULT_PAGE_SIZE}
              page={pageNumber}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {editing && (
        <ChartDialog
          orgId={orgId}
          library={library}
          chart={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('charts.deleteTitle')}
        message={t('charts.deleteMessage', { count: deleting?.length ?? 0, name: deleting?.[0]?.name ?? '' })}
        confirmLabel={t('charts.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting, onDeleted)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
