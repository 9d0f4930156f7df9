import {
  Badge,
  Button,
  Card,
  Group,
  ScrollArea,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Timeline,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  ACTIVITY_LOG_TYPES,
  ACTIVITY_NOTE_MAX_LENGTH,
  activityNoteSchema,
  ticketSearchSchema,
  type ActivityLogType,
  type ActivityReply,
  type SearchIntervalType,
  type TicketKind,
  type TicketSearch,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';
import { useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { QueryStates } from '../../shell/query-status';
import { ticketsKey } from './tickets';

interface TicketPart {
  orgId: string;
  kind: TicketKind;
  /** The ticket's API path. */
  path: string;
  slug: string;
  canEdit: boolean;
}

function useDateFormat() {
  const { i18n } = useTranslation();
  return new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The activity log of a ticket as a timeline: top-level notes with their log type, and replies. */
export function TicketNotes({ orgId, kind, path, slug, canEdit }: TicketPart) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const key = [...ticketsKey(orgId), 'notes', kind, slug.toUpperCase()];
  const notes = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiFetch(`${path}/notes`, { schema: z.array(activityNoteSchema), signal }),
  });
  const [body, setBody] = useState('');
  const [logType, setLogType] = useState<ActivityLogType>('NOTE');
  const [replyTo, setReplyTo] = useState<string | null>(null);
  const [reply, setReply] = useState('');
  const add = useMutation({
    mutationFn: (input: { body: string; logType: ActivityLogType; parentId: string | null }) =>
      apiFetch(`${path}/notes`, { method: 'POST', body: input, schema: z.array(activityNoteSchema) }),
    onSuccess: (timeline, input) => {
      queryClient.setQueryData(key, timeline);
      if (input.parentId) {
        setReplyTo(null);
        setReply('');
      } else setBody('');
    },
    meta: { errorKey: 'tickets.notes.addFailed' },
  });
  const addNote = (event: FormEvent) => {
    event.preventDefault();
    if (body.trim()) add.mutate({ body: body.trim(), logType, parentId: null });
  };
  const typeOptions = ACTIVITY_LOG_TYPES.map((value) => ({
    value,
    label: t(`tickets.notes.types.${value}`),
  }));

  return (
    <Stack gap="sm">
      {canEdit && (
        <form onSubmit={addNote}>
          <Stack gap="xs">
            <Group align="flex-end" grow>
              <Select
                label={t('tickets.notes.logType')}
                data={typeOptions}
                value={logType}
                onChange={(value) => value && setLogType(value as ActivityLogType)}
                allowDeselect={false}
                maw={220}
              />
            </Group>
            <Textarea
              label={t('tickets.notes.newNote')}
              value={body}
              maxLength={ACTIVITY_NOTE_MAX_LENGTH}
              onChange={(event) => setBody(event.currentTarget.value)}
              autosize
              minRows={2}
            />
            <Group justify="flex-end">
              <Button
                type="submit"
                variant="default"
                disabled={!body.trim()}
                loading={add.isPending && !add.variables.parentId}
              >
                {t('tickets.notes.add')}
              </Button>
            </Group>
          </Stack>
        </form>
      )}
      <QueryStates
        query={notes}
        loadingLabel={t('tickets.notes.loading')}
        failedTitle={t('tickets.notes.loadFailed')}
      >
        {(items) =>
          items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('tickets.notes.empty')}
            </Text>
          ) : (
            <Timeline bulletSize={14} lineWidth={2} aria-label={t('tickets.notes.title')}>
              {items.map((note) => (
                <Timeline.Item key={note.id} title={<NoteHeading note={note} />}>
                  <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                    {note.body}
                  </Text>
                  {note.replies.length > 0 && (
                    <Stack
                      gap={4}
                      mt="xs"
                      pl="md"
                      role="list"
                      aria-label={t('tickets.notes.repliesTo', { body: note.body.slice(0, 40) })}
                    >
                      {note.replies.map((entry) => (
                        <Card key={entry.id} withBorder padding="xs" role="listitem">
                          <NoteHeading note={entry} />
                          <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                            {entry.body}
                          </Text>
                        </Card>
                      ))}
                    </Stack>
                  )}
                  {canEdit &&
                    (replyTo === note.id ? (
                      <form
                        onSubmit={(event) => {
                          event.preventDefault();
                          if (reply.trim())
                            add.mutate({ body: reply.trim(), logType: 'NOTE', parentId: note.id });
                        }}
                      >
                        <Stack gap={4} mt="xs" pl="md">
                          <Textarea
                            label={t('tickets.notes.reply')}
                            value={reply}
                            maxLength={ACTIVITY_NOTE_MAX_LENGTH}
                            onChange={(event) => setReply(event.currentTarget.value)}
                            autosize
                            minRows={1}
                            data-autofocus
                          />
                          <Group gap="xs" justify="flex-end">
                            <Button size="xs" variant="default" onClick={() => setReplyTo(null)}>
                              {t('common.cancel')}
                            </Button>
                            <Button
                              size="xs"
                              type="submit"
                              disabled={!reply.trim()}
                              loading={add.isPending && add.variables.parentId === note.id}
                            >
                              {t('tickets.notes.sendReply')}
                            </Button>
                          </Group>
                        </Stack>
                      </form>
                    ) : (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        mt={4}
                        onClick={() => {
                          setReplyTo(note.id);
                          setReply('');
                        }}
                      >
                        {t('tickets.notes.reply')}
                      </Button>
                    ))}
                </Timeline.Item>
              ))}
            </Timeline>
          )
        }
      </QueryStates>
    </Stack>
  );
}

function NoteHeading({ note }: { note: ActivityReply }) {
  const { t } = useTranslation();
  const dateFormat = useDateFormat();
  return (
    <Group gap="xs">
      {!note.parentId && (
        <Badge size="sm" variant="light">
          {t(`tickets.notes.types.${note.logType}`)}
        </Badge>
      )}
      <Text size="xs" c="dimmed">
        {note.authorName ?? '—'} · {dateFormat.format(new Date(note.createdOn))}
      </Text>
    </Group>
  );
}

const SEARCH_RANGES: SearchIntervalType[] = ['1H', '24H', '7D', '30D', '90D'];

/** Event searches attached to a ticket, each with the events kept when it was attached. */
export function TicketSearches({ orgId, kind, path, slug, canEdit }: TicketPart) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canSearch = useHasPermission('EVENT_VIEW');
  const key = [...ticketsKey(orgId), 'searches', kind, slug.toUpperCase()];
  const searches = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiFetch(`${path}/searches`, { schema: z.array(ticketSearchSchema), signal }),
    enabled: canSearch,
  });
  const [query, setQuery] = useState('');
  const [range, setRange] = useState<SearchIntervalType>('24H');
  const [removing, setRemoving] = useState<TicketSearch | null>(null);
  const done = async (list: TicketSearch[]) => {
    queryClient.setQueryData(key, list);
    // The history names the change.
    await queryClient.invalidateQueries({ queryKey: [...ticketsKey(orgId), 'one'] });
  };
  const attach = useMutation({
    mutationFn: () =>
      apiFetch(`${path}/searches`, {
        method: 'POST',
        body: { query: query.trim(), intervalType: range },
        schema: z.array(ticketSearchSchema),
      }),
    onSuccess: async (list) => {
      setQuery('');
      await done(list);
    },
    meta: { errorKey: 'tickets.searches.attachFailed' },
  });
  const remove = useMutation({
    mutationFn: (search: TicketSearch) =>
      apiFetch(`${path}/searches/${search.id}`, { method: 'DELETE', schema: z.array(ticketSearchSchema) }),
    onSuccess: async (list) => {
      setRemoving(null);
      await done(list);
    },
    meta: { errorKey: 'tickets.searches.removeFailed' },
  });
  if (!canSearch) {
    return (
      <Text size="sm" c="dimmed">
        {t('tickets.searches.needsEvents')}
      </Text>
    );
  }
  return (
    <Stack gap="sm">
      {canEdit && (
        <form
          onSubmit={(event) => {
            event.preventDefault();
            attach.mutate();
          }}
        >
          <Group align="flex-end" gap="xs">
            <TextInput
              label={t('tickets.searches.query')}
              placeholder="host:web-01 AND action:deny"
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
              maxLength={2048}
              style={{ flex: 1 }}
            />
            <Select
              label={t('tickets.searches.range')}
              data={SEARCH_RANGES.map((value) => ({ value, label: t(`tickets.searches.ranges.${value}`) }))}
              value={range}
              onChange={(value) => value && setRange(value as SearchIntervalType)}
              allowDeselect={false}
              w={170}
            />
            <Button type="submit" variant="default" loading={attach.isPending}>
              {t('tickets.searches.attach')}
            </Button>
          </Group>
        </form>
      )}
      <QueryStates
        query={searches}
        loadingLabel={t('tickets.searches.loading')}
        failedTitle={t('tickets.searches.loadFailed')}
      >
        {(items) =>
          items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('tickets.searches.empty')}
            </Text>
          ) : (
            <Stack gap="sm">
              {items.map((search) => (
                <SearchCard
                  key={search.id}
                  search={search}
                  onRemove={canEdit ? () => setRemoving(search) : undefined}
                />
              ))}
            </Stack>
          )
        }
      </QueryStates>
      <ConfirmDialog
        opened={removing !== null}
        title={t('tickets.searches.removeTitle')}
        message={t('tickets.searches.removeMessage', { query: removing?.query || '*' })}
        confirmLabel={t('tickets.searches.remove')}
        loading={remove.isPending}
        onConfirm={() => removing && remove.mutate(removing)}
        onCancel={() => setRemoving(null)}
      />
    </Stack>
  );
}

function SearchCard({ search, onRemove }: { search: TicketSearch; onRemove?: () => void }) {
  const { t } = useTranslation();
  const dateFormat = useDateFormat();
  return (
    <Card withBorder padding="sm">
      <Group justify="space-between" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" ff="monospace">
            {search.query || '*'}
          </Text>
          <Text size="xs" c="dimmed">
            {dateFormat.format(new Date(search.begin))} – {dateFormat.format(new Date(search.end))} ·{' '}
            {t('tickets.searches.kept', {
              kept: search.events.length + search.hiddenCount,
              total: search.total,
            })}{' '}
            · {search.createdByName ?? '—'}
          </Text>
          {search.hiddenCount > 0 && (
            <Text size="xs" c="yellow.8">
              {t('tickets.searches.hidden', { count: search.hiddenCount })}
            </Text>
          )}
        </Stack>
        {onRemove && (
          <Button
            size="compact-xs"
            variant="subtle"
            color="red"
            onClick={onRemove}
            aria-label={t('tickets.searches.removeNamed', { query: search.query || '*' })}
          >
            {t('tickets.searches.remove')}
          </Button>
        )}
      </Group>
      {search.events.length > 0 && (
        <ScrollArea.Autosize mah={260} mt="xs">
          <Table fz="xs" aria-label={t('tickets.searches.eventsOf', { query: search.query || '*' })}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('tickets.searches.time')}</Table.Th>
                <Table.Th>{t('tickets.searches.host')}</Table.Th>
                <Table.Th>{t('tickets.searches.message')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {search.events.map((event) => (
                <Table.Tr key={event.id}>
                  <Table.Td>{dateFormat.format(new Date(event.timestamp))}</Table.Td>
                  <Table.Td>{event.host ?? '—'}</Table.Td>
                  <Table.Td>{event.message}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollArea.Autosize>
      )}
    </Card>
  );
}
