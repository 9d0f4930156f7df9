import {
  Anchor,
  Button,
  Code,
  EmptyState,
  Group,
  Pagination,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconHistory } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, type ActivityLogEntry } from '@vigil/contracts';
import { Fragment, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { activityLogsQuery, personSummariesQuery } from './metadata-queries';
import { LoadFailed, LoadingLine } from '../../shell/query-status';

export const Route = createLazyRoute('/settings/activity-log')({
  component: ActivityLogPage,
});

/** The organisation's activity (audit) log, for ACTIVITY_LOG_VIEW. */
function ActivityLogPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.activityLog')} allowed={useHasPermission('ACTIVITY_LOG_VIEW')} maw={1200}>
      <ActivityLog />
    </GatedPage>
  );
}

interface Filters {
  actor: { id: string; name: string } | null;
  action: string;
  /** yyyy-mm-dd in the user's timezone, both days included. */
  from: string;
  to: string;
  query: string;
}

const EMPTY_FILTERS: Filters = { actor: null, action: '', from: '', to: '', query: '' };

/** A yyyy-mm-dd day's start or end in the user's timezone, as the API's ISO time. */
function dayBound(day: string, end: boolean): string | undefined {
  if (!day) return undefined;
  const time = new Date(`${day}T${end ? '23:59:59.999' : '00:00:00'}`);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

function ActivityLog() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const [filters, setFilters] = useState<Filters>(EMPTY_FILTERS);
  const [debounced] = useDebouncedValue(filters, 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [expanded, setExpanded] = useState<number | null>(null);
  const people = useQuery(personSummariesQuery(orgId));
  const entries = useQuery(
    activityLogsQuery(orgId, {
      actorUserId: debounced.actor?.id,
      action: debounced.action.trim() || undefined,
      from: dayBound(debounced.from, false),
      to: dayBound(debounced.to, true),
      query: debounced.query.trim() || undefined,
      pageSize: DEFAULT_PAGE_SIZE,
      pageNumber,
    }),
  );
  const set = <K extends keyof Filters>(field: K, value: Filters[K]) => {
    setFilters((current) => ({ ...current, [field]: value }));
    setPageNumber(1);
  };
  // An actor picked from a row stays selectable even when the list of people is unavailable.
  const actorOptions = useMemo(() => {
    const options = new Map((people.data ?? []).map((person) => [person.id, person.fullName]));
    if (filters.actor) options.set(filters.actor.id, filters.actor.name);
    return [...options].map(([value, label]) => ({ value, label }));
  }, [people.data, filters.actor]);
  const pages = Math.max(1, Math.ceil((entries.data?.total ?? 0) / DEFAULT_PAGE_SIZE));
  const filtered = Object.entries(filters).some(([, value]) => Boolean(value));

  return (
    <Stack gap="md">
      <SimpleGrid
        cols={{ base: 1, sm: 2, lg: 5 }}
        spacing="sm"
        role="search"
        aria-label={t('settings.activityLog.filters')}
      >
        <Select
          label={t('settings.activityLog.actor')}
          data={actorOptions}
          value={filters.actor?.id ?? null}
          searchable
          clearable
          description={people.isError ? t('settings.activityLog.peopleUnavailable') : undefined}
          onChange={(id, option) => set('actor', id && option ? { id, name: option.label } : null)}
        />
        <TextInput
          label={t('settings.activityLog.action')}
          placeholder="tag."
          value={filters.action}
          onChange={(event) => set('action', event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('settings.activityLog.from')}
          value={filters.from}
          onChange={(event) => set('from', event.currentTarget.value)}
        />
        <TextInput
          type="date"
          label={t('settings.activityLog.to')}
          value={filters.to}
          onChange={(event) => set('to', event.currentTarget.value)}
        />
        <TextInput
          label={t('settings.activityLog.query')}
          value={filters.query}
          onChange={(event) => set('query', event.currentTarget.value)}
        />
      </SimpleGrid>
      {filtered && (
        <Group>
          <Button variant="subtle" size="compact-sm" onClick={() => setFilters(EMPTY_FILTERS)}>
            {t('settings.activityLog.clearFilters')}
          </Button>
        </Group>
      )}
      {entries.isPending ? (
        <LoadingLine label={t('settings.activityLog.loading')} />
      ) : entries.isError ? (
        <LoadFailed
          title={t('settings.activityLog.loadFailed')}
          error={entries.error}
          onRetry={() => void entries.refetch()}
        />
      ) : entries.data.items.length === 0 ? (
        <EmptyState
          icon={<IconHistory size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('settings.activityLog.emptyTitle')}
          description={filtered ? t('settings.activityLog.noMatch') : t('settings.activityLog.emptyMessage')}
        />
      ) : (
        <>
          <Table.ScrollContainer minWidth={900}>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('settings.activityLog.time')}</Table.Th>
                  <Table.Th>{t('settings.activityLog.actor')}</Table.Th>
                  <Table.Th>{t('settings.activityLog.action')}</Table.Th>
                  <Table.Th>{t('settings.activityLog.target')}</Table.Th>
                  <Table.Th>{t('settings.activityLog.ip')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('settings.activityLog.details')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {entries.data.items.map((entry) => (
                  <Fragment key={entry.id}>
                    <Table.Tr>
                      <Table.Td>{new Date(entry.createdAt).toLocaleString()}</Table.Td>
                      <Table.Td>
                        {entry.actorUserId ? (
                          <Anchor
                            component="button"
                            type="button"
                            size="sm"
                            title={t('settings.activityLog.filterByActor')}
                            onClick={() =>
                              set('actor', {
                                id: entry.actorUserId!,
                                name: entry.actorName ?? entry.actorUserId!,
                              })
                            }
                          >
                            {entry.actorName ?? t('settings.activityLog.removedUser')}
                          </Anchor>
                        ) : (
                          <Text size="sm" c="dimmed">
                            {t('settings.activityLog.system')}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Code>{entry.action}</Code>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">
                          {[entry.targetType, entry.targetId].filter(Boolean).join(' ') || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>{entry.ip ?? '—'}</Table.Td>
                      <Table.Td>
                        {Object.keys(entry.details).length > 0 && (
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-expanded={expanded === entry.id}
                            onClick={() => setExpanded(expanded === entry.id ? null : entry.id)}
                          >
                            {expanded === entry.id
                              ? t('settings.activityLog.hideDetails')
                              : t('settings.activityLog.details')}
                          </Button>
                        )}
                      </Table.Td>
                    </Table.Tr>
                    {expanded === entry.id && (
                      <Table.Tr>
                        <Table.Td colSpan={6}>
                          <EntryDetails details={entry.details} />
                        </Table.Td>
                      </Table.Tr>
                    )}
                  </Fragment>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
          {pages > 1 && (
            <Pagination
              total={pages}
              value={pageNumber}
              onChange={setPageNumber}
              getControlProps={(control) => ({ 'aria-label': t(`settings.pagination.${control}`) })}
            />
          )}
        </>
      )}
    </Stack>
  );
}

const shown = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'string' ? value : JSON.stringify(value, null, 2);

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Before and after side by side, field by field, the changed ones marked; other details as they are. */
function EntryDetails({ details }: { details: ActivityLogEntry['details'] }) {
  const { t } = useTranslation();
  const { before, after, ...rest } = details;
  if (!isRecord(before) && !isRecord(after)) return <Code block>{JSON.stringify(details, null, 2)}</Code>;
  const beforeFields = isRecord(before) ? before : {};
  const afterFields = isRecord(after) ? after : {};
  const fields = [...new Set([...Object.keys(beforeFields), ...Object.keys(afterFields)])];
  return (
    <Stack gap="xs">
      <Table withTableBorder layout="fixed">
        <Table.Thead>
          <Table.Tr>
            <Table.Th w={180}>{t('settings.activityLog.field')}</Table.Th>
            <Table.Th>{t('settings.activityLog.before')}</Table.Th>
            <Table.Th>{t('settings.activityLog.after')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {fields.map((field) => {
            const changed =
              isRecord(before) && isRecord(after) && shown(before[field]) !== shown(after[field]);
            return (
              <Table.Tr key={field}>
                <Table.Td fw={changed ? 700 : undefined}>{field}</Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {shown(beforeFields[field])}
                </Table.Td>
                <Table.Td style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
                  {shown(afterFields[field])}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      {Object.keys(rest).length > 0 && <Code block>{JSON.stringify(rest, null, 2)}</Code>}
    </Stack>
  );
}
