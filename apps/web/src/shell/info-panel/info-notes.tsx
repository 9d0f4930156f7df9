import { Badge, Button, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { INFO_NOTE_MAX_LENGTH, infoNoteSchema, sortInfoNotes, type InfoNote } from '@vigil/contracts';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { useCurrentOrgId, useCurrentUser } from '../../lib/session';
import { ConfirmDialog } from '../confirm-dialog';
import { infoNotesQuery, infoPath, useInfoPanelAllowed } from './queries';
import { LoadFailed } from '../query-status';

/** The notes of the info panel and what can be done with them (spec 1 section 4.5). */
export function InfoNotes() {
  const { t } = useTranslation();
  const headingId = useId();
  const orgId = useCurrentOrgId();
  const allowed = useInfoPanelAllowed();
  const notes = useQuery({ ...infoNotesQuery(orgId ?? ''), enabled: Boolean(orgId) && allowed });

  return (
    <Stack gap="sm" component="section" aria-labelledby={headingId}>
      <Title order={2} size="h4" id={headingId}>
        {t('infoPanel.notes')}
      </Title>
      {orgId && <AddNoteForm orgId={orgId} />}
      {notes.isPending ? (
        <Loader size="sm" aria-label={t('app.loading')} />
      ) : notes.isError ? (
        <LoadFailed
          title={t('ERROR_LOADING_INFO_NOTES')}
          error={notes.error}
          onRetry={() => void notes.refetch()}
        />
      ) : notes.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('infoPanel.noNotes')}
        </Text>
      ) : (
        <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }}>
          {notes.data.map((note) => (
            <NoteItem key={note.id} orgId={orgId ?? ''} note={note} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

/** Puts a saved note into the cached list where the rule wants it, or takes a deleted one out. */
function useNotesCache(orgId: string) {
  const queryClient = useQueryClient();
  const key = infoNotesQuery(orgId).queryKey;
  return {
    put: (note: InfoNote) =>
      queryClient.setQueryData<InfoNote[]>(key, (notes = []) =>
        sortInfoNotes([note, ...notes.filter((existing) => existing.id !== note.id)]),
      ),
    remove: (id: string) =>
      queryClient.setQueryData<InfoNote[]>(key, (notes = []) => notes.filter((note) => note.id !== id)),
  };
}

function AddNoteForm({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const cache = useNotesCache(orgId);
  const [text, setText] = useState('');
  const add = useMutation({
    mutationFn: (noteText: string) =>
      apiFetch(`${infoPath(orgId)}/notes`, {
        method: 'POST',
        body: { noteText, pinned: false },
        schema: infoNoteSchema,
      }),
    onSuccess: (note) => {
      cache.put(note);
      setText('');
    },
    meta: { errorKey: 'ERROR_ADDING_INFO_NOTE' },
  });
  const trimmed = text.trim();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (trimmed) add.mutate(trimmed);
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={t('infoPanel.note')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={INFO_NOTE_MAX_LENGTH}
        />
        <Group justify="flex-end">
          <Button type="submit" size="xs" disabled={!trimmed} loading={add.isPending}>
            {t('infoPanel.addNote')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function NoteItem({ orgId, note }: { orgId: string; note: InfoNote }) {
  const { t } = useTranslation();
  const user = useCurrentUser();
  const cache = useNotesCache(orgId);
  const [editing, setEditing] = useState(false);
  const [confirmingDelete, setConfirmingDelete] = useState(false);
  const notePath = `${infoPath(orgId)}/notes/${encodeURIComponent(note.id)}`;

  const pin = useMutation({
    mutationFn: (pinned: boolean) =>
      apiFetch(`${notePath}/pin`, { method: 'PUT', body: { pinned }, schema: infoNoteSchema }),
    onSuccess: cache.put,
    meta: { errorKey: 'ERROR_EDITING_INFO_NOTE' },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(notePath, { method: 'DELETE' }),
    onSuccess: () => {
      setConfirmingDelete(false);
      cache.remove(note.id);
    },
    meta: { errorKey: 'ERROR_DELETING_INFO_NOTE' },
  });

  // Spec 1 section 4.5: only the author edits a note; pinning and deleting are open to all.
  const isAuthor = user?.id === note.createdBy;
  const modified = new Date(note.modifiedOn);

  return (
    <Paper component="li" withBorder p="sm">
      {editing ? (
        <EditNoteForm
          notePath={notePath}
          note={note}
          onSaved={(saved) => {
            cache.put(saved);
            setEditing(false);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <Stack gap={6}>
          <Group justify="space-between" gap="xs" wrap="nowrap">
            <Text size="xs" c="dimmed">
              {t('infoPanel.noteMeta', {
                name: note.createdByName,
                time: Number.isNaN(modified.getTime()) ? note.modifiedOn : modified.toLocaleString(),
              })}
            </Text>
            {note.pinned && (
              <Badge size="xs" variant="light">
                {t('infoPanel.pinned')}
              </Badge>
            )}
          </Group>
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {note.noteText}
          </Text>
          <Group gap={4}>
            {isAuthor && (
              <Button size="compact-xs" variant="subtle" onClick={() => setEditing(true)}>
                {t('infoPanel.edit')}
              </Button>
            )}
            <Button
              size="compact-xs"
              variant="subtle"
              loading={pin.isPending}
              onClick={() => pin.mutate(!note.pinned)}
            >
              {note.pinned ? t('infoPanel.unpin') : t('infoPanel.pin')}
            </Button>
            <Button size="compact-xs" variant="subtle" color="red" onClick={() => setConfirmingDelete(true)}>
              {t('infoPanel.delete')}
            </Button>
          </Group>
        </Stack>
      )}
      <ConfirmDialog
        opened={confirmingDelete}
        title={t('infoPanel.deleteTitle')}
        message={t('infoPanel.deleteMessage')}
        confirmLabel={t('infoPanel.delete')}
        loading={remove.isPending}
        onConfirm={() => remove.mutate()}
        onCancel={() => setConfirmingDelete(false)}
      />
    </Paper>
  );
}

function EditNoteForm({
  notePath,
  note,
  onSaved,
  onCancel,
}: {
  notePath: string;
  note: InfoNote;
  onSaved: (note: InfoNote) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState(note.noteText);
  const edit = useMutation({
    mutationFn: (noteText: string) =>
      apiFetch(notePath, { method: 'PUT', body: { noteText }, schema: infoNoteSchema }),
    onSuccess: onSaved,
    meta: { errorKey: 'ERROR_EDITING_INFO_NOTE' },
  });
  const trimmed = text.trim();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (trimmed && trimmed !== note.noteText) edit.mutate(trimmed);
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={t('infoPanel.editNote')}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={2}
          maxLength={INFO_NOTE_MAX_LENGTH}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button size="xs" variant="default" onClick={onCancel}>
            {t('common.cancel')}
          </Button>
          <Button
            type="submit"
            size="xs"
            disabled={!trimmed || trimmed === note.noteText}
            loading={edit.isPending}
          >
            {t('infoPanel.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
