import {
  Button,
  EmptyState,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconFilePencil, IconPlus, IconSearch } from '@tabler/icons-react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  TICKET_TEXT_MAX_LENGTH,
  TICKET_TITLE_MAX_LENGTH,
  ticketDetailSchema,
  ticketDraftListSchema,
  ticketDraftSchema,
  type TicketDraft,
  type TicketKind,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch, orgPath } from '../../lib/api';
import { isoOf, localOf } from '../../lib/local-time';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { useTicketPeople } from './ticket-badges';
import { ticketsKey } from './tickets';

const draftsKey = (orgId: string) => [...ticketsKey(orgId), 'drafts'] as const;
const draftPath = (orgId: string, id?: string) => `${orgPath(orgId)}/ticket-draft${id ? `/${id}` : ''}`;

/**
 * Global drafts (/universal-ticket-inbox/draft; TRAC_ENGINEER, feature universalTicketInbox): tickets
 * not yet submitted, of every organisation the engineer works in, each labelled with its organisation.
 */
export function DraftsPage() {
  const { t } = useTranslation();
  const isEngineer = useHasPermission('TRAC_ENGINEER');
  const inboxOn = useFeature('universalTicketInbox');
  const allowed = isEngineer && inboxOn;
  return (
    <GatedPage title={t('tickets.drafts.title')} allowed={allowed} maw={1300}>
      <DraftList />
    </GatedPage>
  );
}

type KindFilter = TicketKind | 'all';
type Editing = { draft: TicketDraft | null; orgId: string };

function DraftList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [q] = useDebouncedValue(search.trim(), 300);
  const [kind, setKind] = useState<KindFilter>('all');
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Editing | null>(null);
  const [deleting, setDeleting] = useState<TicketDraft | null>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  const params = { q, kind, pageNumber };
  const list = useQuery({
    queryKey: [...draftsKey(orgId), params],
    queryFn: ({ signal }) => {
      const query = new URLSearchParams({
        pageSize: String(DEFAULT_PAGE_SIZE),
        pageNumber: String(pageNumber),
      });
      if (q) query.set('q', q);
      if (kind !== 'all') query.set('kind', kind);
      return apiFetch(`${orgPath(orgId)}/universal-inbox/drafts?${query}`, {
        schema: ticketDraftListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: ticketsKey(orgId) });
  const submit = useMutation({
    mutationFn: (draft: TicketDraft) =>
      apiFetch(`${draftPath(draft.orgId, draft.id)}/submit`, {
        method: 'POST',
        body: { version: draft.version },
        schema: ticketDetailSchema,
      }),
    onSuccess: async (ticket, draft) => {
      notifyMessage('tickets.drafts.submitted', 'green', { slug: ticket.slug, org: draft.orgName });
      await refresh();
    },
    meta: { errorKey: 'tickets.drafts.submitFailed' },
  });
  const remove = useMutation({
    mutationFn: (draft: TicketDraft) =>
      apiFetch(draftPath(draft.orgId, draft.id), { method: 'DELETE', body: { version: draft.version } }),
    onSuccess: async () => {
      setDeleting(null);
      await refresh();
    },
    meta: { errorKey: 'tickets.drafts.deleteFailed' },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <SegmentedControl
            aria-label={t('tickets.kind')}
            value={kind}
            onChange={(value) => {
              setKind(value as KindFilter);
              setPageNumber(1);
            }}
            data={[
              { value: 'all', label: t('tickets.drafts.allKinds') },
              { value: 'incident', label: t('tickets.incident.title') },
              { value: 'task', label: t('tickets.task.title') },
            ]}
          />
          <TextInput
            label={t('tickets.drafts.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
          />
        </Group>
        <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing({ draft: null, orgId })}>
          {t('tickets.drafts.new')}
        </Button>
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('tickets.drafts.loading')}
        failedTitle={t('tickets.drafts.loadFailed')}
        empty={
          <EmptyState
            icon={<IconFilePencil size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('tickets.drafts.emptyTitle')}
            description={q || kind !== 'all' ? t('tickets.noMatch') : t('tickets.drafts.empty')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('tickets.titleField')}</Table.Th>
                  <Table.Th>{t('tickets.kind')}</Table.Th>
                  <Table.Th>{t('tickets.universal.org')}</Table.Th>
                  <Table.Th>{t('tickets.drafts.createdBy')}</Table.Th>
                  <Table.Th>{t('tickets.drafts.modified')}</Table.Th>
                  <Table.Th>{t('tickets.drafts.actions')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((draft) => (
                  <Table.Tr key={draft.id}>
                    <Table.Td>
                      <Button
                        variant="subtle"
                        size="compact-sm"
                        onClick={() => setEditing({ draft, orgId: draft.orgId })}
                      >
                        {draft.title}
                      </Button>
                    </Table.Td>
                    <Table.Td>{t(`tickets.drafts.kinds.${draft.kind}`)}</Table.Td>
                    <Table.Td>{draft.orgName}</Table.Td>
                    <Table.Td>{draft.createdByName ?? '—'}</Table.Td>
                    <Table.Td>{dateFormat.format(new Date(draft.modifiedOn))}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Button
                          size="compact-xs"
                          aria-label={t('tickets.drafts.submitNamed', { title: draft.title })}
                          loading={submit.isPending && submit.variables.id === draft.id}
                          onClick={() => submit.mutate(draft)}
                        >
                          {t('tickets.drafts.submit')}
                        </Button>
                        <Button
                          size="compact-xs"
                          variant="subtle"
                          color="red"
                          aria-label={t('tickets.drafts.deleteNamed', { title: draft.title })}
                          onClick={() => setDeleting(draft)}
                        >
                          {t('tickets.drafts.delete')}
                        </Button>
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {editing && (
        <DraftDialog
          editing={editing}
          orgs={list.data?.orgs ?? []}
          onClose={() => setEditing(null)}
          onSaved={async () => {
            setEditing(null);
            await refresh();
          }}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('tickets.drafts.deleteTitle')}
        message={t('tickets.drafts.deleteMessage', {
          title: deleting?.title ?? '',
          org: deleting?.orgName ?? '',
        })}
        confirmLabel={t('tickets.drafts.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

interface DraftForm {
  orgId: string;
  kind: TicketKind;
  title: string;
  description: string;
  ownerId: string | null;
  dueDate: string;
  slaDate: string;
  externalId: string;
}

/** A new draft, or one opened from the list: saved as it is, or saved and submitted as a ticket. */
function DraftDialog({
  editing,
  orgs,
  onClose,
  onSaved,
}: {
  editing: Editing;
  orgs: { id: string; name: string }[];
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const { draft } = editing;
  const [form, setForm] = useState<DraftForm>({
    orgId: editing.orgId,
    kind: (draft?.kind ?? 'incident') as TicketKind,
    title: draft?.title ?? '',
    description: draft?.description ?? '',
    ownerId: draft?.ownerId ?? null,
    dueDate: localOf(draft?.dueDate ?? null),
    slaDate: localOf(draft?.slaDate ?? null),
    externalId: draft?.externalId ?? '',
  });
  const [touched, setTouched] = useState(false);
  const people = useTicketPeople(form.orgId);
  const set =
    <K extends keyof DraftForm>(key: K) =>
    (value: DraftForm[K]) =>
      setForm((current) => ({ ...current, [key]: value }));
  const save = useMutation({
    mutationFn: async (andSubmit: boolean) => {
      const body = {
        kind: form.kind,
        title: form.title.trim(),
        description: form.description,
        ownerId: form.ownerId,
        dueDate: isoOf(form.dueDate),
        slaDate: isoOf(form.slaDate),
        externalId: form.externalId.trim() || null,
      };
      const saved = await apiFetch(draftPath(form.orgId, draft?.id), {
        method: draft ? 'PUT' : 'POST',
        body: draft ? { ...body, version: draft.version } : body,
        schema: ticketDraftSchema,
      });
      if (!andSubmit) return null;
      return apiFetch(`${draftPath(saved.orgId, saved.id)}/submit`, {
        method: 'POST',
        body: { version: saved.version },
        schema: ticketDetailSchema,
      });
    },
    onSuccess: async (ticket) => {
      if (ticket) {
        const org = orgs.find((entry) => entry.id === form.orgId)?.name ?? '';
        notifyMessage('tickets.drafts.submitted', 'green', { slug: ticket.slug, org });
      } else notifyMessage('tickets.drafts.saved', 'green');
      await onSaved();
    },
    onError: (error) =>
      notifyError(
        error,
        error instanceof ApiRequestError && error.error.key === 'TICKET_MODIFIED'
          ? undefined
          : 'tickets.drafts.saveFailed',
      ),
    meta: { notifyError: false },
  });
  const titleMissing = !form.title.trim();
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (!titleMissing) save.mutate(false);
  };

  return (
    <Modal
      opened
      onClose={onClose}
      title={t(draft ? 'tickets.drafts.editTitle' : 'tickets.drafts.newTitle')}
      size="lg"
    >
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Group grow>
            <Select
              label={t('tickets.universal.org')}
              data={orgs.map((org) => ({ value: org.id, label: org.name }))}
              value={form.orgId}
              onChange={(value) =>
                value && setForm((current) => ({ ...current, orgId: value, ownerId: null }))
              }
              disabled={draft !== null}
              allowDeselect={false}
            />
            <Select
              label={t('tickets.kind')}
              data={(['incident', 'task'] as const).map((value) => ({
                value,
                label: t(`tickets.drafts.kinds.${value}`),
              }))}
              value={form.kind}
              onChange={(value) => value && set('kind')(value as TicketKind)}
              allowDeselect={false}
            />
          </Group>
          <TextInput
            label={t('tickets.titleField')}
            required
            data-autofocus
            maxLength={TICKET_TITLE_MAX_LENGTH}
            value={form.title}
            onChange={(event) => set('title')(event.currentTarget.value)}
            error={touched && titleMissing ? t('tickets.titleRequired') : undefined}
          />
          <Textarea
            label={t('tickets.description')}
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
              clearable
              searchable
            />
            <TextInput
              label={t('tickets.externalId')}
              value={form.externalId}
              onChange={(event) => set('externalId')(event.currentTarget.value)}
            />
          </Group>
          <Group grow>
            <TextInput
              type="datetime-local"
              label={t('tickets.dueDate')}
              value={form.dueDate}
              onChange={(event) => set('dueDate')(event.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label={t('tickets.slaDate')}
              value={form.slaDate}
              onChange={(event) => set('slaDate')(event.currentTarget.value)}
            />
          </Group>
          <Text size="xs" c="dimmed">
            {t('tickets.drafts.checkedOnSubmit')}
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" variant="default" loading={save.isPending && save.variables === false}>
              {t('tickets.drafts.save')}
            </Button>
            <Button
              loading={save.isPending && save.variables === true}
              onClick={() => {
                setTouched(true);
                if (!titleMissing) save.mutate(true);
              }}
            >
              {t('tickets.drafts.saveAndSubmit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
