import { Alert, Badge, Button, EmptyState, Group, MultiSelect, Stack, Table, Text } from '@mantine/core';
import { IconDownload, IconListSearch } from '@tabler/icons-react';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import {
  SEARCH_CSV_MAX_ROWS,
  SEARCH_MAX_PAGE_SIZE,
  SEARCH_MAX_RESULT_WINDOW,
  crossOrgSearchResponseSchema,
  type CrossOrgEvent,
  type CrossOrgSearchRequest,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useNavContext } from '../../lib/org-context';
import { usePreferences } from '../../lib/preferences';
import { useCurrentOrgId, useUserOrgs } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager, pageRange } from '../../shell/list-pager';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { SortableHeader } from '../../shell/sortable-header';
import { orgPath } from '../assets/queries';
import type { CrossOrgSearch } from './cross-org-search-params';
import { EventDetail } from './event-detail';
import { useEventTime } from './format';
import { eventsKey, isSearchTimeout, searchRetry } from './queries';
import { QueryBar } from './query-bar';
import { SearchRangeControls, serverSyntaxError, useSearchDrafts } from './search-form';
import { searchScope } from './search-params';

export const Route = createLazyRoute('/search/cross-org-search')({
  component: CrossOrgSearchPage,
});

/** Issue 7: events of every organisation the provider's staff may act in. Provider organisation and EVENT_VIEW. */
function CrossOrgSearchPage() {
  const { t } = useTranslation();
  const nav = useNavContext();
  return (
    <GatedPage
      title={t('events.crossOrg.title')}
      allowed={nav.isProvider && nav.permissions.has('EVENT_VIEW')}
    >
      <CrossOrgSearchView />
    </GatedPage>
  );
}

type CrossOrgRequest = Omit<CrossOrgSearchRequest, 'columns'>;

/** POST /api/org/:orgId/search/cross-org (JSON), cached with the organisation's other searches. */
const crossOrgSearchQuery = (orgId: string, request: CrossOrgRequest) =>
  queryOptions({
    queryKey: [...eventsKey(orgId), 'cross-org', request] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/search/cross-org`, {
        method: 'POST',
        body: request,
        schema: crossOrgSearchResponseSchema,
        signal,
      }),
    retry: searchRetry,
  });

function CrossOrgSearchView() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const search = Route.useSearch();
  const navigate = useNavigate({ from: '/search/cross-org-search' });
  const userOrgs = useUserOrgs();
  const pageSize = Math.min(usePreferences().pageSize, SEARCH_MAX_PAGE_SIZE);
  const format = useEventTime();

  /** Changes the search in the address; any change but paging starts again at the first page. */
  const update = (patch: Partial<CrossOrgSearch>) =>
    void navigate({ search: (previous) => ({ ...previous, page: undefined, ...patch }) });

  const drafts = useSearchDrafts(search, update);
  const [selected, setSelected] = useState<CrossOrgEvent | null>(null);

  const page = search.page ?? 1;
  const sortOrder = search.sort === 'asc' ? 'asc' : 'desc';
  const scope = searchScope(search);
  const request: CrossOrgRequest = {
    ...scope,
    ...(search.orgIds && { orgIds: search.orgIds }),
    sortField: 'timestamp',
    sortOrder,
    pageSize,
    pageNumber: page,
  };
  const results = useQuery({ ...crossOrgSearchQuery(orgId, request), placeholderData: keepPreviousData });
  const serverError = results.isError ? serverSyntaxError(results.error, scope.query) : null;

  const run = () => {
    // The same search again is a refresh.
    if (drafts.run()?.same) void results.refetch();
  };

  const exportCsv = useMutation({
    mutationFn: async () => {
      const blob = await apiFetchFile(`${orgPath(orgId)}/search/cross-org`, {
        method: 'POST',
        body: request,
        accept: 'text/csv',
      });
      saveBlob(blob, 'cross-org-events.csv');
    },
    meta: { errorKey: 'events.results.exportFailed' },
  });

  const total = results.data?.total ?? 0;
  const { first, last } = pageRange(page, pageSize, total);
  const skipped = results.data?.skippedOrgs ?? [];

  return (
    <Stack gap="md">
      <MultiSelect
        label={t('events.crossOrg.orgs')}
        placeholder={search.orgIds ? undefined : t('events.crossOrg.allOrgs')}
        data={userOrgs.map((org) => ({ value: org.id, label: org.name }))}
        value={search.orgIds ?? []}
        onChange={(ids) => update({ orgIds: ids.length > 0 ? ids : undefined })}
        searchable
        clearable
        maw={720}
      />
      <QueryBar
        value={drafts.typed}
        onChange={drafts.setTyped}
        onSubmit={run}
        error={drafts.syntaxError ?? serverError}
        running={results.isFetching}
      >
        <SearchRangeControls search={search} drafts={drafts} />
      </QueryBar>

      {skipped.length > 0 && (
        <Alert color="yellow" title={t('events.crossOrg.skippedTitle', { count: skipped.length })}>
          <Stack gap={2}>
            {skipped.map((org) => (
              <Text key={org.id} size="sm">
                {t('events.crossOrg.skipped', { name: org.name, reason: t(org.reason) })}
              </Text>
            ))}
          </Stack>
        </Alert>
      )}

      {results.isPending ? (
        <LoadingLine label={t('events.results.loading')} />
      ) : results.isError ? (
        serverError ? null : (
          <LoadFailed
            title={t(isSearchTimeout(results.error) ? 'events.results.timedOut' : 'events.results.failed')}
            error={results.error}
            onRetry={() => void results.refetch()}
          />
        )
      ) : results.data.items.length === 0 ? (
        <EmptyState
          icon={<IconListSearch size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('events.results.emptyTitle')}
          description={t('events.crossOrg.empty')}
        />
      ) : (
        <>
          <Group justify="space-between">
            <Text size="sm" c="dimmed">
              {t(results.data.totalIsLowerBound ? 'events.results.rangeAtLeast' : 'shell.list.range', {
                first,
                last,
                total,
              })}
            </Text>
            <Button
              variant="default"
              size="xs"
              leftSection={<IconDownload size={14} />}
              loading={exportCsv.isPending}
              onClick={() => exportCsv.mutate()}
              title={t('events.results.exportHint', { count: SEARCH_CSV_MAX_ROWS })}
            >
              {t('events.results.export')}
            </Button>
          </Group>
          {total > SEARCH_MAX_RESULT_WINDOW && (
            <Alert color="blue" variant="light">
              {t('events.results.windowNote', { count: SEARCH_MAX_RESULT_WINDOW })}
            </Alert>
          )}
          <Table.ScrollContainer minWidth={1000}>
            <Table striped highlightOnHover aria-label={t('events.results.title')}>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('events.crossOrg.org')}</Table.Th>
                  <SortableHeader
                    sorted
                    desc={sortOrder === 'desc'}
                    onSort={() => update({ sort: sortOrder === 'desc' ? 'asc' : undefined })}
                    style={{ minWidth: 170 }}
                  >
                    {t('events.columns.timestamp')}
                  </SortableHeader>
                  <Table.Th>{t('events.columns.host')}</Table.Th>
                  <Table.Th>{t('events.columns.srcIp')}</Table.Th>
                  <Table.Th>{t('events.columns.dstIp')}</Table.Th>
                  <Table.Th>{t('events.columns.userName')}</Table.Th>
                  <Table.Th>{t('events.columns.dataSource')}</Table.Th>
                  <Table.Th>{t('events.columns.message')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {results.data.items.map((event) => (
                  <Table.Tr
                    key={`${event.orgId}:${event.id}`}
                    style={{ cursor: 'pointer' }}
                    tabIndex={0}
                    aria-label={t('events.crossOrg.open', {
                      org: event.orgName,
                      time: format(event.timestamp),
                    })}
                    onClick={() => setSelected(event)}
                    onKeyDown={(keyEvent) => {
                      if (keyEvent.key === 'Enter') setSelected(event);
                    }}
                  >
                    <Table.Td>
                      <Badge variant="light" style={{ textTransform: 'none' }}>
                        {event.orgName}
                      </Badge>
                    </Table.Td>
                    <Table.Td style={{ whiteSpace: 'nowrap' }}>{format(event.timestamp)}</Table.Td>
                    <Table.Td>{event.host ?? '—'}</Table.Td>
                    <Table.Td ff="monospace">{event.srcIp ?? '—'}</Table.Td>
                    <Table.Td ff="monospace">{event.dstIp ?? '—'}</Table.Td>
                    <Table.Td>{event.userName ?? '—'}</Table.Td>
                    <Table.Td>{event.dataSource ?? '—'}</Table.Td>
                    <Table.Td>
                      <Text size="sm" lineClamp={2} ff="monospace" style={{ wordBreak: 'break-all' }}>
                        {event.message}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          <ListPager
            page={page}
            pageSize={pageSize}
            total={Math.min(total, SEARCH_MAX_RESULT_WINDOW)}
            withRange={false}
            onChange={(next) =>
              void navigate({ search: (previous) => ({ ...previous, page: next > 1 ? next : undefined }) })
            }
          />
        </>
      )}

      <EventDetail event={selected} onClose={() => setSelected(null)} />
    </Stack>
  );
}
