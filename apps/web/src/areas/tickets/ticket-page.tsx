import {
  Alert as Notice,
  Badge,
  Button,
  Card,
  Group,
  MultiSelect,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  TICKET_COMMENT_MAX_LENGTH,
  TICKET_STATES_OF,
  TICKET_TEXT_MAX_LENGTH,
  TICKET_TITLE_MAX_LENGTH,
  ticketDetailSchema,
  type TicketDetail,
  type TicketKind,
  type TicketState,
} from '@vigil/contracts';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch, type HttpMethod } from '../../lib/api';
import { isoOf, localOf } from '../../lib/local-time';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { QueryStates } from '../../shell/query-status';
import { CreateTicketDialog } from './create-ticket-dialog';
import { TicketPolicies } from '../governance/ticket-policies';
import { TicketLink, TicketStateBadge, useTicketPeople } from './ticket-badges';
import { TicketNotes, TicketSearches } from './ticket-activity';
import { TicketFiles } from './ticket-files';
import { IncidentRisksPanel } from '../risk/risk-links';
import { linkedAlertsQuery, similarIncidentsQuery, ticketPath, ticketQuery, ticketsKey } from './tickets';
import { EDIT_PERMISSION, VIEW_PERMISSION } from './tickets-page';

/** One incident or task: its fields, state, comments, links, subtasks and history. */
export function TicketPage({ kind, slug }: { kind: TicketKind; slug: string }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const allowed = useHasPermission(VIEW_PERMISSION[kind]);
  const ticket = useQuery({ ...ticketQuery(orgId, kind, slug), enabled: allowed && orgId !== '' });
  return (
    <GatedPage
      title={ticket.data ? `${ticket.data.slug} ${ticket.data.title}` : slug.toUpperCase()}
      allowed={allowed}
      maw={1400}
    >
      <QueryStates
        query={ticket}
        loadingLabel={t('tickets.loadingOne')}
        failedTitle={t('tickets.loadOneFailed')}
      >
        {(data) => <TicketDetails key={data.id} orgId={orgId} ticket={data} />}
      </QueryStates>
    </GatedPage>
  );
}

interface FormValues {
  title: string;
  description: string;
  ownerId: string | null;
  watcherIds: string[];
  dueDate: string;
  slaDate: string;
  externalId: string;
  summaryNote: string;
  parentSlug: string;
}

const formOf = (ticket: TicketDetail): FormValues => ({
  title: ticket.title,
  description: ticket.description,
  ownerId: ticket.ownerId,
  watcherIds: ticket.watchers.map((watcher) => watcher.id),
  dueDate: localOf(ticket.dueDate),
  slaDate: localOf(ticket.slaDate),
  externalId: ticket.externalId ?? '',
  summaryNote: ticket.summaryNote,
  parentSlug: ticket.parent?.slug ?? '',
});

/** Only what the user changed travels, so an untouched field is never rewritten. */
function changesOf(initial: FormValues, form: FormValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  if (form.title !== initial.title) body.title = form.title.trim();
  if (form.description !== initial.description) body.description = form.description;
  if (form.ownerId !== initial.ownerId) body.ownerId = form.ownerId;
  if ([...form.watcherIds].sort().join() !== [...initial.watcherIds].sort().join())
    body.watcherIds = form.watcherIds;
  if (form.dueDate !== initial.dueDate) body.dueDate = isoOf(form.dueDate);
  if (form.slaDate !== initial.slaDate) body.slaDate = isoOf(form.slaDate);
  if (form.externalId !== initial.externalId) body.externalId = form.externalId.trim() || null;
  if (form.summaryNote !== initial.summaryNote) body.summaryNote = form.summaryNote;
  if (form.parentSlug !== initial.parentSlug) body.parentSlug = form.parentSlug.trim() || null;
  return body;
}

function TicketDetails({ orgId, ticket }: { orgId: string; ticket: TicketDetail }) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const kind = ticket.kind;
  const canEdit = useHasPermission(EDIT_PERMISSION[kind]);
  const canSeePolicies = useHasPermission('POLICY_LINK_VIEW');
  const people = useTicketPeople(orgId);
  // The version the form was filled from: a save names it, and the server refuses it if stale.
  const [initial, setInitial] = useState(() => ({ version: ticket.version, values: formOf(ticket) }));
  const [form, setForm] = useState<FormValues>(initial.values);
  const [stale, setStale] = useState(false);
  const [nextState, setNextState] = useState<TicketState | null>(null);
  const [resolution, setResolution] = useState('');
  const [comment, setComment] = useState('');
  const [linkSlug, setLinkSlug] = useState('');
  const [creatingSubtask, setCreatingSubtask] = useState(false);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const path = ticketPath(orgId, kind, ticket.slug);

  const refresh = async (updated: TicketDetail) => {
    // A change made here moves the form on to the new version; fields the user is editing keep their text.
    const fresh = formOf(updated);
    setForm((current) => {
      const next: Record<string, unknown> = { ...fresh };
      for (const key of Object.keys(fresh) as (keyof FormValues)[]) {
        if (JSON.stringify(current[key]) !== JSON.stringify(initial.values[key])) next[key] = current[key];
      }
      return next as unknown as FormValues;
    });
    setInitial({ version: updated.version, values: fresh });
    await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
  };
  const reload = async () => {
    const fresh = await queryClient.fetchQuery({ ...ticketQuery(orgId, kind, ticket.slug), staleTime: 0 });
    setInitial({ version: fresh.version, values: formOf(fresh) });
    setForm(formOf(fresh));
    setStale(false);
    await queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
  };
  const change = useMutation({
    mutationFn: ({ method, suffix, body }: { method: HttpMethod; suffix: string; body?: object }) =>
      apiFetch(`${path}${suffix}`, { method, body, schema: ticketDetailSchema }),
    onSuccess: async (updated, { suffix }) => {
      if (suffix === '/state') {
        setNextState(null);
        setResolution('');
      }
      if (suffix === '/comments') setComment('');
      if (suffix === '/links') setLinkSlug('');
      if (suffix === '') notifyMessage('tickets.saved', 'green');
      await refresh(updated);
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.key === 'TICKET_MODIFIED') setStale(true);
      else notifyError(error, 'tickets.saveFailed');
    },
    meta: { notifyError: false },
  });
  const versioned = (body: object) => ({ ...body, version: initial.version });

  const save = (event: FormEvent) => {
    event.preventDefault();
    const body = changesOf(initial.values, form);
    if (Object.keys(body).length === 0 || !form.title.trim()) return;
    change.mutate({ method: 'PATCH', suffix: '', body: versioned(body) });
  };
  const needsResolution = nextState === 'RESOLVED' && !resolution.trim();
  const states = TICKET_STATES_OF[kind].filter((state) => state !== ticket.state);
  const set =
    <K extends keyof FormValues>(key: K) =>
    (value: FormValues[K]) =>
      setForm((current) => ({ ...current, [key]: value }));

  return (
    <Stack gap="lg">
      <Group gap="sm">
        <TicketStateBadge state={ticket.state} />
        <Text size="sm">{t('tickets.ownedBy', { name: ticket.ownerName ?? t('tickets.unowned') })}</Text>
        {ticket.resolution && (
          <Badge variant="outline">{t('tickets.resolvedAs', { resolution: ticket.resolution })}</Badge>
        )}
        {ticket.parent && (
          <Text size="sm">
            {t('tickets.parent')}: <TicketLink ticket={ticket.parent} />
          </Text>
        )}
      </Group>
      {stale && (
        <Notice color="yellow" title={t('tickets.staleTitle')}>
          <Stack gap="xs" align="flex-start">
            <Text size="sm">{t('TICKET_MODIFIED')}</Text>
            <Button size="xs" onClick={() => void reload()}>
              {t('tickets.reload')}
            </Button>
          </Stack>
        </Notice>
      )}
      {canEdit && (
        <Group align="flex-end">
          <Select
            label={t('tickets.newState')}
            data={states.map((value) => ({ value, label: t(`tickets.states.${value}`) }))}
            value={nextState}
            onChange={(value) => setNextState(value as TicketState | null)}
            w={200}
          />
          {kind === 'incident' && nextState && (
            <TextInput
              label={t('tickets.resolution')}
              required={nextState === 'RESOLVED'}
              value={resolution}
              onChange={(event) => setResolution(event.currentTarget.value)}
              error={needsResolution ? t('TICKET_RESOLUTION_REQUIRED') : undefined}
              w={320}
            />
          )}
          <Button
            disabled={!nextState || needsResolution}
            loading={change.isPending && change.variables.suffix === '/state'}
            onClick={() =>
              nextState &&
              change.mutate({
                method: 'PUT',
                suffix: '/state',
                body: versioned({
                  state: nextState,
                  ...(resolution.trim() && { resolution: resolution.trim() }),
                }),
              })
            }
          >
            {t('tickets.changeState')}
          </Button>
          {!ticket.ownerId && (
            <Button variant="default" onClick={() => change.mutate({ method: 'POST', suffix: '/claim' })}>
              {t('tickets.claim')}
            </Button>
          )}
        </Group>
      )}
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <Section title={t('tickets.details')}>
          <form onSubmit={save} noValidate>
            <Stack gap="sm">
              <TextInput
                label={t('tickets.titleField')}
                required
                readOnly={!canEdit}
                maxLength={TICKET_TITLE_MAX_LENGTH}
                value={form.title}
                onChange={(event) => set('title')(event.currentTarget.value)}
                error={!form.title.trim() ? t('tickets.titleRequired') : undefined}
              />
              <Textarea
                label={t('tickets.description')}
                readOnly={!canEdit}
                maxLength={TICKET_TEXT_MAX_LENGTH}
                value={form.description}
                onChange={(event) => set('description')(event.currentTarget.value)}
                autosize
                minRows={3}
              />
              <Group grow>
                <Select
                  label={t('tickets.owner')}
                  data={people}
                  value={form.ownerId}
                  onChange={set('ownerId')}
                  readOnly={!canEdit}
                  clearable
                  searchable
                />
                <TextInput
                  label={t('tickets.externalId')}
                  readOnly={!canEdit}
                  value={form.externalId}
                  onChange={(event) => set('externalId')(event.currentTarget.value)}
                />
              </Group>
              <MultiSelect
                label={t('tickets.watchers')}
                data={people}
                value={form.watcherIds}
                onChange={set('watcherIds')}
                readOnly={!canEdit}
                searchable
              />
              <Group grow>
                <TextInput
                  type="datetime-local"
                  label={t('tickets.dueDate')}
                  readOnly={!canEdit}
                  value={form.dueDate}
                  onChange={(event) => set('dueDate')(event.currentTarget.value)}
                />
                <TextInput
                  type="datetime-local"
                  label={t('tickets.slaDate')}
                  readOnly={!canEdit}
                  value={form.slaDate}
                  onChange={(event) => set('slaDate')(event.currentTarget.value)}
                />
              </Group>
              <TextInput
                label={t('tickets.parentSlug')}
                readOnly={!canEdit}
                value={form.parentSlug}
                onChange={(event) => set('parentSlug')(event.currentTarget.value)}
              />
              <Textarea
                label={t('tickets.summaryNote')}
                readOnly={!canEdit}
                maxLength={TICKET_TEXT_MAX_LENGTH}
                value={form.summaryNote}
                onChange={(event) => set('summaryNote')(event.currentTarget.value)}
                autosize
                minRows={2}
              />
              {canEdit && (
                <Group justify="flex-end">
                  <Button type="submit" loading={change.isPending && change.variables.suffix === ''}>
                    {t('common.save')}
                  </Button>
                </Group>
              )}
            </Stack>
          </form>
        </Section>
        <Stack gap="lg">
          {kind === 'incident' && <LinkedAlerts orgId={orgId} slug={ticket.slug} />}
          {kind === 'incident' && <SimilarIncidents orgId={orgId} slug={ticket.slug} />}
          {kind === 'incident' && <IncidentRisksPanel orgId={orgId} ticket={ticket} />}
          <Section title={t('tickets.links')}>
            <RefTable
              refs={ticket.links}
              empty={t('tickets.noLinks')}
              action={
                canEdit
                  ? (ref) => (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        aria-label={t('tickets.unlinkNamed', { slug: ref.slug })}
                        onClick={() =>
                          change.mutate({
                            method: 'DELETE',
                            suffix: `/links/${encodeURIComponent(ref.slug)}`,
                          })
                        }
                      >
                        {t('tickets.unlink')}
                      </Button>
                    )
                  : undefined
              }
            />
            {canEdit && (
              <form
                onSubmit={(event) => {
                  event.preventDefault();
                  if (linkSlug.trim())
                    change.mutate({ method: 'POST', suffix: '/links', body: { slug: linkSlug.trim() } });
                }}
              >
                <Group align="flex-end" gap="xs">
                  <TextInput
                    label={t('tickets.linkSlug')}
                    placeholder="INC-12"
                    value={linkSlug}
                    onChange={(event) => setLinkSlug(event.currentTarget.value)}
                  />
                  <Button type="submit" variant="default">
                    {t('tickets.link')}
                  </Button>
                </Group>
              </form>
            )}
          </Section>
          <Section title={t('tickets.subtasks')}>
            <RefTable refs={ticket.subtasks} empty={t('tickets.noSubtasks')} />
            {canEdit && (
              <Group>
                <Button size="xs" variant="default" onClick={() => setCreatingSubtask(true)}>
                  {t('tickets.addSubtask')}
                </Button>
              </Group>
            )}
          </Section>
        </Stack>
      </SimpleGrid>
      <Section title={t('tickets.comments')}>
        {ticket.comments.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('tickets.noComments')}
          </Text>
        ) : (
          <Stack gap="xs" role="list" aria-label={t('tickets.comments')}>
            {ticket.comments.map((entry) => (
              <Card key={entry.id} withBorder padding="sm" role="listitem">
                <Text size="xs" c="dimmed">
                  {entry.authorName ?? '—'} · {dateFormat.format(new Date(entry.createdOn))}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                  {entry.body}
                </Text>
              </Card>
            ))}
          </Stack>
        )}
        {canEdit && (
          <form
            onSubmit={(event) => {
              event.preventDefault();
              if (comment.trim())
                change.mutate({ method: 'POST', suffix: '/comments', body: { body: comment.trim() } });
            }}
          >
            <Stack gap="xs">
              <Textarea
                label={t('tickets.newComment')}
                value={comment}
                maxLength={TICKET_COMMENT_MAX_LENGTH}
                onChange={(event) => setComment(event.currentTarget.value)}
                autosize
                minRows={2}
              />
              <Group justify="flex-end">
                <Button type="submit" variant="default" disabled={!comment.trim()}>
                  {t('tickets.addComment')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
      </Section>
      <Section title={t('tickets.files')}>
        <TicketFiles path={path} ticket={ticket} canEdit={canEdit} onChanged={refresh} />
      </Section>
      {canSeePolicies && (
        <Section title={t('governance.policies.ticket.title')}>
          <TicketPolicies orgId={orgId} kind={kind} slug={ticket.slug} canEditTicket={canEdit} />
        </Section>
      )}
      <Section title={t('tickets.notes.title')}>
        <TicketNotes orgId={orgId} kind={kind} path={path} slug={ticket.slug} canEdit={canEdit} />
      </Section>
      <Section title={t('tickets.searches.title')}>
        <TicketSearches orgId={orgId} kind={kind} path={path} slug={ticket.slug} canEdit={canEdit} />
      </Section>
      <Section title={t('tickets.history')}>
        <Table>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('tickets.when')}</Table.Th>
              <Table.Th>{t('tickets.who')}</Table.Th>
              <Table.Th>{t('tickets.what')}</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ticket.history.map((entry) => (
              <Table.Tr key={entry.id}>
                <Table.Td>{dateFormat.format(new Date(entry.at))}</Table.Td>
                <Table.Td>{entry.actorName ?? '—'}</Table.Td>
                <Table.Td>{describeHistory(t, entry.action, entry.details)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Section>
      {creatingSubtask && (
        <CreateTicketDialog
          orgId={orgId}
          kind="task"
          parentSlug={ticket.slug}
          onClose={() => setCreatingSubtask(false)}
        />
      )}
    </Stack>
  );
}

type Translate = ReturnType<typeof useTranslation>['t'];

/** One history entry in words: the action, and the state move or fields it made. */
function describeHistory(t: Translate, action: string, details: Record<string, unknown>): string {
  const state = (details.state ?? (action === 'state-changed' ? details : undefined)) as
    { from?: string; to?: string } | undefined;
  const parts = [t(`tickets.actions.${action}`, { defaultValue: action })];
  if (Array.isArray(details.fields))
    parts.push(
      (details.fields as string[])
        .map((field) => t(`tickets.fields.${field}`, { defaultValue: field }))
        .join(', '),
    );
  if (typeof details.slug === 'string') parts.push(details.slug);
  if (Array.isArray(details.files))
    parts.push((details.files as { name?: string }[]).map((file) => file.name ?? '').join(', '));
  if (typeof details.name === 'string') parts.push(details.name);
  if (state?.from && state.to) {
    parts.push(`${t(`tickets.states.${state.from}`)} → ${t(`tickets.states.${state.to}`)}`);
  }
  if (typeof details.resolution === 'string') parts.push(details.resolution);
  if (typeof details.query === 'string') parts.push(details.query || '*');
  return parts.join(' · ');
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

function RefTable({
  refs,
  empty,
  action,
}: {
  refs: TicketDetail['links'];
  empty: string;
  action?: (ref: TicketDetail['links'][number]) => ReactNode;
}) {
  if (refs.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {empty}
      </Text>
    );
  }
  return (
    <Table>
      <Table.Tbody>
        {refs.map((ref) => (
          <Table.Tr key={ref.id}>
            <Table.Td w={110}>
              <TicketLink ticket={ref} />
            </Table.Td>
            <Table.Td>{ref.title}</Table.Td>
            <Table.Td w={130}>
              <TicketStateBadge state={ref.state} />
            </Table.Td>
            {action && <Table.Td w={90}>{action(ref)}</Table.Td>}
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function LinkedAlerts({ orgId, slug }: { orgId: string; slug: string }) {
  const { t, i18n } = useTranslation();
  const alerts = useQuery(linkedAlertsQuery(orgId, slug));
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Section title={t('tickets.linkedAlerts')}>
      <QueryStates
        query={alerts}
        loadingLabel={t('tickets.loadingAlerts')}
        failedTitle={t('tickets.alertsFailed')}
      >
        {(items) =>
          items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('tickets.noAlerts')}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {items.map((alert) => (
                  <Table.Tr key={alert.id}>
                    <Table.Td>{alert.title}</Table.Td>
                    <Table.Td>{alert.triggerName ?? '—'}</Table.Td>
                    <Table.Td>
                      {t(`alerts.severities.${alert.severity}`, { defaultValue: alert.severity })}
                    </Table.Td>
                    <Table.Td>{dateFormat.format(new Date(alert.firedAt))}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryStates>
    </Section>
  );
}

function SimilarIncidents({ orgId, slug }: { orgId: string; slug: string }) {
  const { t } = useTranslation();
  const similar = useQuery(similarIncidentsQuery(orgId, slug));
  return (
    <Section title={t('tickets.similar')}>
      <QueryStates
        query={similar}
        loadingLabel={t('tickets.loadingSimilar')}
        failedTitle={t('tickets.similarFailed')}
      >
        {(items) =>
          items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('tickets.noSimilar')}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {items.map((incident) => (
                  <Table.Tr key={incident.id}>
                    <Table.Td w={110}>
                      <TicketLink ticket={incident} />
                    </Table.Td>
                    <Table.Td>{incident.title}</Table.Td>
                    <Table.Td>
                      <Text size="xs">
                        {(['hosts', 'ips', 'users', 'triggers'] as const)
                          .filter((key) => incident.shared[key].length > 0)
                          .map((key) => `${t(`tickets.shared.${key}`)}: ${incident.shared[key].join(', ')}`)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )
        }
      </QueryStates>
    </Section>
  );
}
