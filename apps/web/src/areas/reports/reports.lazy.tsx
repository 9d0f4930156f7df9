import {
  Badge,
  Button,
  EmptyState,
  Group,
  Loader,
  Stack,
  Table,
  Tabs,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFileTypePdf, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, REPORT_PENDING_STATES, type Report, type ReportState } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { reportPath, reportsKey, reportsQuery } from './api';
import { RequestDialog } from './request-dialog';
import { ScheduleList } from './schedules';

export const Route = createLazyRoute('/reports')({ component: ReportsPage });

const STATE_COLORS: Record<ReportState, string> = {
  REQUESTED: 'gray',
  WAITING_FOR_DATA: 'yellow',
  BUILDING: 'blue',
  COMPLETED: 'green',
  FAILED: 'red',
};

/** /reports: REPORT_VIEW to see reports and schedules; REPORT_EDIT to request, schedule and delete. */
function ReportsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('reports.title')} allowed={useHasPermission('REPORT_VIEW')} maw={1300}>
      <Tabs defaultValue="reports" keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="reports">{t('reports.tabs.reports')}</Tabs.Tab>
          <Tabs.Tab value="schedules">{t('reports.tabs.schedules')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="reports">
          <ReportList />
        </Tabs.Panel>
        <Tabs.Panel value="schedules">
          <ScheduleList />
        </Tabs.Panel>
      </Tabs>
    </GatedPage>
  );
}

export function ReportStateBadge({ report }: { report: Report }) {
  const { t } = useTranslation();
  const pending = REPORT_PENDING_STATES.includes(report.state);
  return (
    <Badge
      color={STATE_COLORS[report.state]}
      variant="light"
      leftSection={pending ? <Loader size={10} color={STATE_COLORS[report.state]} /> : undefined}
      data-testid="report-state"
    >
      {t(`reports.states.${report.state}`)}
    </Badge>
  );
}

function ReportList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('REPORT_EDIT');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [requesting, setRequesting] = useState(false);
  const [deleting, setDeleting] = useState<Report | null>(null);
  const list = useQuery(
    reportsQuery(orgId, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const download = useMutation({
    mutationFn: async (report: Report) =>
      saveBlob(
        await apiFetchFile(`${reportPath(orgId, report.id)}/pdf`, {
          accept: 'application/pdf, application/json',
        }),
        `${report.name}.pdf`,
      ),
    onError: (error) => notifyError(error, 'reports.downloadFailed'),
    meta: { notifyError: false },
  });
  const remove = useMutation({
    mutationFn: (report: Report) => apiFetch(reportPath(orgId, report.id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('reports.deleted');
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
    },
    meta: { errorKey: 'reports.deleteFailed' },
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('reports.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
          w={260}
        />
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setRequesting(true)}>
            {t('reports.request')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('reports.loading')}
        failedTitle={t('reports.listFailed')}
        empty={
          <EmptyState
            icon={<IconFileTypePdf size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('reports.emptyTitle')}
            description={t('reports.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.name')}</Table.Th>
                    <Table.Th>{t('reports.range')}</Table.Th>
                    <Table.Th>{t('reports.state')}</Table.Th>
                    <Table.Th>{t('reports.requestedBy')}</Table.Th>
                    <Table.Th>{t('reports.requestedOn')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((report) => (
                    <Table.Tr key={report.id} data-testid={`report-${report.id}`}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {report.name}
                        </Text>
                        {report.scheduleId && (
                          <Text size="xs" c="dimmed">
                            {t('reports.scheduled')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{t(`dashboards.ranges.${report.range}`)}</Text>
                        <Text size="xs" c="dimmed">
                          {format.format(new Date(report.begin))} – {format.format(new Date(report.end))}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <ReportStateBadge report={report} />
                        {report.errorKey && (
                          <Text size="xs" c="red" mt={4}>
                            {t(report.errorKey)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>{report.requestedByName ?? '—'}</Table.Td>
                      <Table.Td>{format.format(new Date(report.requestedOn))}</Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap" justify="flex-end">
                          {report.state === 'COMPLETED' && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('reports.downloadNamed', { name: report.name })}
                              loading={download.isPending && download.variables?.id === report.id}
                              onClick={() => download.mutate(report)}
                            >
                              {t('reports.download')}
                            </Button>
                          )}
                          {canEdit && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('reports.deleteNamed', { name: report.name })}
                              onClick={() => setDeleting(report)}
                            >
                              {t('reports.delete')}
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
      {requesting && <RequestDialog orgId={orgId} onClose={() => setRequesting(false)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('reports.deleteTitle')}
        message={t('reports.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('reports.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
