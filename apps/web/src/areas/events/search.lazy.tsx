import {
  ActionIcon,
  Alert,
  Button,
  Card,
  EmptyState,
  Grid,
  Group,
  Menu,
  Stack,
  Table,
  Text,
} from '@mantine/core';
import { IconBookmark, IconDownload, IconHistory, IconListSearch, IconX } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import {
  SEARCH_CSV_MAX_ROWS,
  SEARCH_MAX_PAGE_SIZE,
  SEARCH_MAX_RESULT_WINDOW,
  type Event,
} from '@vigil/contracts';
import { andQueries, buildQuery } from '@vigil/query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { usePreferences, useRecentSearches, type RecentSearch } from '../../lib/preferences';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { ListPager, pageRange } from '../../shell/list-pager';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { SortableHeader } from '../../shell/sortable-header';
import { orgPath } from '../assets/queries';
import { ColumnPicker } from './column-picker';
import { EventDetail } from './event-detail';
import { FieldSidebar, FilterChips } from './field-sidebar';
import { useEventTime } from './format';
import { HitsHistogram } from './histogram';
import { eventSearchQuery, histogramQuery, isSearchTimeout } from './queries';
import { QueryBar } from './query-bar';
import { SearchRangeControls, serverSyntaxError, useSearchDrafts } from './search-form';
import { SavedQueryDialog } from './saved-query-dialog';
import {
  addFilterValue,
  columnValue,
  removeFilterValue,
  searchScope,
  type EventSearch,
} from './search-params';

export const Route = createLazyRoute('/search')({
  component: SearchPage,
});

/** Spec 3: the event search. EVENT_VIEW to see it. */
function SearchPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('events.search.title')} allowed={useHasPermission('EVENT_VIEW')}>
      <EventSearchView />
    </GatedPage>
  );
}

/** A recent search as the preference keeps it: the query, and each filter as `field` → JSON. */
function recentOf(search: EventSearch): RecentSearch {
  const filters: Record<string, string> = {};
  for (const filter of search.filters ?? []) {
    filters[`${filter.exclude ? '-' : ''}${filter.field}`] = JSON.stringify(filter.values);
  }
  return { query: search.query ?? '', filters };
}

function fromRecent(recent: RecentSearch): Pick<EventSearch, 'query' | 'filters'> {
  const filters = Object.entries(recent.filters).flatMap(([key, json]) => {
    try {
      const values = JSON.parse(json) as unknown;
      if (!Array.isArray(values) || values.length === 0) return [];
      const exclude = key.startsWith('-');
      return [
        { field: exclude ? key.slice(1) : key, values: values.map(String), ...(exclude && { exclude }) },
      ];
    } catch {
      return [];
    }
  });
  return { query: recent.query || undefined, filters: filters.length > 0 ? filters : undefined };
}

function EventSearchView() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const search = Route.useSearch();
  const navigate = useNavigate({ from: '/search' });
  const preferences = usePreferences();
  const [recentSearches, recordSearch] = useRecentSearches();
  const pageSize = Math.min(preferences.pageSize, SEARCH_MAX_PAGE_SIZE);
  const format = useEventTime();

  /** Changes the search in the address; any change but paging starts again at the first page. */
  const update = (patch: Partial<EventSearch>) =>
    void navigate({ search: (previous) => ({ ...previous, page: undefined, ...patch }) });

  const drafts = useSearchDrafts(search, update);
  const { typed, syntaxError, setSyntaxError } = drafts;
  const [selected, setSelected] = useState<Event | null>(null);
  const [saving, setSaving] = useState(false);
  const canSave = useHasPermission('SAVED_SEARCH_EDIT');

  const scope = searchScope(search);
  const page = search.page ?? 1;
  const sortOrder = search.sort === 'asc' ? 'asc' : 'desc';
  const sortField = search.sortField ?? 'timestamp';
  const columns = search.columns ?? [];
  const results = useQuery({
    ...eventSearchQuery(orgId, scope, { sortField, sortOrder, pageSize, pageNumber: page }),
    placeholderData: keepPreviousData,
  });
  const histogram = useQuery(histogramQuery(orgId, scope));
  const serverError = results.isError ? serverSyntaxError(results.error, scope.query) : null;
  const shownError = syntaxError ?? serverError;

  const run = () => {
    const ran = drafts.run();
    if (!ran) return;
    recordSearch(recentOf({ ...search, ...ran.patch }));
    if (ran.same) {
      void results.refetch();
      void histogram.refetch();
    }
  };

  const retry = () => {
    void results.refetch();
    if (histogram.isError) void histogram.refetch();
  };

  const exportCsv = useMutation({
    mutationFn: async () => {
      const blob = await apiFetchFile(`${orgPath(orgId)}/search/csv`, {
        method: 'POST',
        body: { ...scope, sortField, sortOrder, columns },
      });
      saveBlob(blob, 'events.csv');
    },
    meta: { errorKey: 'events.results.exportFailed' },
  });

  /** Sorts by `field` (undefined: the time), newest or largest first; the same field again flips the order. */
  const sortBy = (field: string | undefined) =>
    update({
      sortField: field,
      sort: (field ?? 'timestamp') === sortField && sortOrder === 'desc' ? 'asc' : undefined,
    });
  const addColumn = (name: string) => update({ columns: [...columns, name] });
  const removeColumn = (name: string) => {
    const rest = columns.filter((column) => column !== name);
    update({
      columns: rest.length > 0 ? rest : undefined,
      ...(sortField === name && { sortField: undefined, sort: undefined }),
    });
  };

  const total = results.data?.total ?? 0;
  const { first, last } = pageRange(page, pageSize, total);
  const pagedTotal = Math.min(total, SEARCH_MAX_RESULT_WINDOW);

  return (
    <Stack gap="md">
      <QueryBar
        value={typed}
        onChange={drafts.setTyped}
        onSubmit={run}
        error={shownError}
        running={results.isFetching}
      >
        <SearchRangeControls search={search} drafts={drafts} />
        {recentSearches.length > 0 && (
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <Button variant="default" leftSection={<IconHistory size={16} />}>
                {t('events.recent.button')}
              </Button>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{t('events.recent.title')}</Menu.Label>
              {recentSearches.map((recent, index) => (
                <Menu.Item
                  key={index}
                  onClick={() => {
                    setSyntaxError(null);
                    update(fromRecent(recent));
                  }}
                >
                  <Text size="sm" ff="monospace" truncate maw={360}>
                    {recent.query || t('events.recent.everything')}
                    {Object.keys(recent.filters).length > 0 &&
                      ` ${t('events.recent.filters', { count: Object.keys(recent.filters).length })}`}
                  </Text>
                </Menu.Item>
              ))}
            </Menu.Dropdown>
          </Menu>
        )}
        {canSave && (
          <Button variant="default" leftSection={<IconBookmark size={16} />} onClick={() => setSaving(true)}>
            {t('events.saved.saveButton')}
          </Button>
        )}
      </QueryBar>
      {saving && (
        // The filters are part of what is saved: written into the query as the query builder does.
        <SavedQueryDialog
          orgId={orgId}
          initialQuery={andQueries(typed, buildQuery(search.filters ?? []))}
          onClose={() => setSaving(false)}
        />
      )}

      <FilterChips
        filters={search.filters ?? []}
        onRemove={(index, value) => {
          const filters = removeFilterValue(search.filters ?? [], index, value);
          update({ filters: filters.length > 0 ? filters : undefined });
        }}
        onClear={() => update({ filters: undefined })}
      />

      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Card withBorder padding="sm">
            <FieldSidebar
              orgId={orgId}
              scope={scope}
              onFilter={(field, value, exclude) =>
                update({ filters: addFilterValue(search.filters ?? [], field, value, exclude) })
              }
              columns={columns}
              onAddColumn={addColumn}
            />
          </Card>
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Stack gap="sm">
            {histogram.data?.buckets && histogram.data.buckets.length > 0 && (
              <Card withBorder padding="sm">
                <HitsHistogram
                  buckets={histogram.data.buckets}
                  interval={histogram.data.interval}
                  onZoom={(begin, end) => update({ begin, end, intervalType: undefined })}
                />
              </Card>
            )}
            {results.isPending ? (
              <LoadingLine label={t('events.results.loading')} />
            ) : results.isError ? (
              serverError ? null : (
                <LoadFailed
                  title={t(
                    isSearchTimeout(results.error) ? 'events.results.timedOut' : 'events.results.failed',
                  )}
                  error={results.error}
                  onRetry={retry}
                />
              )
            ) : results.data.items.length === 0 ? (
              <EmptyState
                icon={<IconListSearch size={32} stroke={1.5} />}
                withIndicatorBackground
                title={t('events.results.emptyTitle')}
                description={t('events.results.empty')}
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
                  <Group gap="xs">
                    <ColumnPicker orgId={orgId} scope={scope} columns={columns} onAdd={addColumn} />
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
                </Group>
                {total > SEARCH_MAX_RESULT_WINDOW && (
                  <Alert color="blue" variant="light">
                    {t('events.results.windowNote', { count: SEARCH_MAX_RESULT_WINDOW })}
                  </Alert>
                )}
                <Table.ScrollContainer minWidth={900}>
                  <Table striped highlightOnHover aria-label={t('events.results.title')}>
                    <Table.Thead>
                      <Table.Tr>
                        <SortableHeader
                          sorted={sortField === 'timestamp'}
                          desc={sortOrder === 'desc'}
                          onSort={() => sortBy(undefined)}
                          style={{ minWidth: 170 }}
                        >
                          {t('events.columns.timestamp')}
                        </SortableHeader>
                        <Table.Th>{t('events.columns.host')}</Table.Th>
                        <Table.Th>{t('events.columns.srcIp')}</Table.Th>
                        <Table.Th>{t('events.columns.dstIp')}</Table.Th>
                        <Table.Th>{t('events.columns.userName')}</Table.Th>
                        <Table.Th>{t('events.columns.dataSource')}</Table.Th>
                        {columns.map((name) => (
                          <SortableHeader
                            key={name}
                            sorted={sortField === name}
                            desc={sortOrder === 'desc'}
                            onSort={() => sortBy(name)}
                            actions={
                              <ActionIcon
                                size="xs"
                                variant="subtle"
                                color="gray"
                                aria-label={t('events.columnPicker.remove', { name })}
                                onClick={() => removeColumn(name)}
                              >
                                <IconX size={12} />
                              </ActionIcon>
                            }
                          >
                            <Text span size="sm" fw={600} ff="monospace">
                              {name}
                            </Text>
                          </SortableHeader>
                        ))}
                        <Table.Th>{t('events.columns.message')}</Table.Th>
                      </Table.Tr>
                    </Table.Thead>
                    <Table.Tbody>
                      {results.data.items.map((event) => (
                        <Table.Tr
                          key={event.id}
                          style={{ cursor: 'pointer' }}
                          tabIndex={0}
                          aria-label={t('events.results.open', { time: format(event.timestamp) })}
                          onClick={() => setSelected(event)}
                          onKeyDown={(keyEvent) => {
                            if (keyEvent.key === 'Enter') setSelected(event);
                          }}
                        >
                          <Table.Td style={{ whiteSpace: 'nowrap' }}>{format(event.timestamp)}</Table.Td>
                          <Table.Td>{event.host ?? '—'}</Table.Td>
                          <Table.Td ff="monospace">{event.srcIp ?? '—'}</Table.Td>
                          <Table.Td ff="monospace">{event.dstIp ?? '—'}</Table.Td>
                          <Table.Td>{event.userName ?? '—'}</Table.Td>
                          <Table.Td>{event.dataSource ?? '—'}</Table.Td>
                          {columns.map((name) => (
                            <Table.Td key={name} ff="monospace">
                              {columnValue(event.fields, name) || '—'}
                            </Table.Td>
                          ))}
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
                  total={pagedTotal}
                  withRange={false}
                  onChange={(next) =>
                    void navigate({
                      search: (previous) => ({ ...previous, page: next > 1 ? next : undefined }),
                    })
                  }
                />
              </>
            )}
          </Stack>
        </Grid.Col>
      </Grid>

      <EventDetail
        event={selected}
        onClose={() => setSelected(null)}
        onSearchAround={({ query, begin, end }) => {
          setSelected(null);
          setSyntaxError(null);
          recordSearch(recentOf({ query }));
          update({ query, begin, end, intervalType: undefined, filters: undefined });
        }}
      />
    </Stack>
  );
}
