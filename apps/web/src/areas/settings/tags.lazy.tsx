import {
  Badge,
  Button,
  ColorSwatch,
  EmptyState,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch, IconTags } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  DEFAULT_PAGE_SIZE,
  TAG_COLORS,
  TAG_DESCRIPTION_MAX_LENGTH,
  TAG_NAME_MAX_LENGTH,
  tagSchema,
  type Tag,
  type TagColor,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { SortableHeader } from '../../shell/sortable-header';
import { tagPath, tagsKey, tagsQuery } from './metadata-queries';
import { ListStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';

export const Route = createLazyRoute('/settings/tags')({
  component: TagsPage,
});

/** The organisation's tags: TAG_VIEW to see them, TAG_EDIT to create, change and delete. */
function TagsPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.tags')} allowed={useHasPermission('TAG_VIEW')} maw={1000}>
      <TagList />
    </GatedPage>
  );
}

/** The form's target: a new tag, or the tag being changed. */
type Editing = { tag: Tag | null } | null;

function TagList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('TAG_EDIT');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [desc, setDesc] = useState(false);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const [deleting, setDeleting] = useState<Tag | null>(null);
  const tags = useQuery(
    tagsQuery(orgId, { search: debouncedSearch, desc, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(tagPath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('settings.tags.deleted');
      await queryClient.invalidateQueries({ queryKey: tagsKey(orgId) });
    },
    meta: { errorKey: 'settings.tags.deleteFailed' },
  });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('settings.tags.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
          w={320}
        />
        {canEdit && <Button onClick={() => setEditing({ tag: null })}>{t('settings.tags.new')}</Button>}
      </Group>
      <ListStates
        query={tags}
        loadingLabel={t('settings.tags.loading')}
        failedTitle={t('settings.tags.loadFailed')}
        empty={
          <EmptyState
            icon={<IconTags size={32} stroke={1.5} />}
            withIndicatorBackground
            title={debouncedSearch ? t('settings.tags.noMatchTitle') : t('settings.tags.emptyTitle')}
            description={
              debouncedSearch ? t('settings.tags.noMatchMessage') : t('settings.tags.emptyMessage')
            }
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={600}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <SortableHeader
                      sorted
                      desc={desc}
                      onSort={() => setDesc((current) => !current)}
                      buttonLabel={
                        desc ? t('settings.tags.sortAscending') : t('settings.tags.sortDescending')
                      }
                    >
                      {t('settings.tags.name')}
                    </SortableHeader>
                    <Table.Th>{t('settings.tags.description')}</Table.Th>
                    {canEdit && (
                      <Table.Th>
                        <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                      </Table.Th>
                    )}
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((tag) => (
                    <Table.Tr key={tag.id}>
                      <Table.Td>
                        <Badge color={tag.color} variant="light">
                          {tag.name}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={tag.description ? undefined : 'dimmed'}>
                          {tag.description || '—'}
                        </Text>
                      </Table.Td>
                      {canEdit && (
                        <Table.Td>
                          <Group gap="xs" justify="flex-end" wrap="nowrap">
                            <EditDeleteButtons
                              editLabel={t('settings.tags.editNamed', { name: tag.name })}
                              deleteLabel={t('settings.tags.deleteNamed', { name: tag.name })}
                              deleteText={t('settings.tags.delete')}
                              onEdit={() => setEditing({ tag })}
                              onDelete={() => setDeleting(tag)}
                            />
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
              onChange={setPageNumber}
              withRange={false}
            />
          </>
        )}
      </ListStates>
      {editing && <TagForm orgId={orgId} tag={editing.tag} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.tags.deleteTitle')}
        message={t('settings.tags.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('settings.tags.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

interface TagFormValues {
  name: string;
  color: TagColor;
  description: string;
}

function nameProblem(name: string): 'required' | 'tooLong' | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'required';
  return trimmed.length > TAG_NAME_MAX_LENGTH ? 'tooLong' : null;
}

function TagForm({ orgId, tag, onClose }: { orgId: string; tag: Tag | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<TagFormValues>({
    name: tag?.name ?? '',
    color: tag?.color ?? 'gray',
    description: tag?.description ?? '',
  });
  const [submitted, setSubmitted] = useState(false);
  const [nameTaken, setNameTaken] = useState(false);
  const save = useMutation({
    mutationFn: (input: TagFormValues) =>
      apiFetch(tagPath(orgId, tag?.id), {
        method: tag ? 'PUT' : 'POST',
        body: { ...input, name: input.name.trim(), description: input.description.trim() },
        schema: tagSchema,
      }),
    onSuccess: async () => {
      notifyMessage(tag ? 'settings.tags.saved' : 'settings.tags.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: tagsKey(orgId) });
    },
    // A taken name shows beside the field; anything else as a notification.
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.key === 'TAG_NAME_TAKEN') setNameTaken(true);
      else notifyError(error, 'settings.tags.saveFailed');
    },
    meta: { notifyError: false },
  });
  const problem = nameProblem(values.name);
  const nameError = nameTaken
    ? t('TAG_NAME_TAKEN')
    : submitted && problem === 'required'
      ? t('ERROR_REQUIRED')
      : problem === 'tooLong'
        ? t('settings.tags.nameTooLong', { max: TAG_NAME_MAX_LENGTH })
        : undefined;

  return (
    <Modal opened onClose={onClose} title={tag ? t('settings.tags.editTitle') : t('settings.tags.newTitle')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (!problem) save.mutate(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.tags.name')}
            required
            data-autofocus
            value={values.name}
            onChange={(event) => {
              const name = event.currentTarget.value;
              setNameTaken(false);
              setValues((current) => ({ ...current, name }));
            }}
            error={nameError}
          />
          <Select
            label={t('settings.tags.color')}
            data={TAG_COLORS.map((color) => ({ value: color, label: t(`settings.tags.colors.${color}`) }))}
            value={values.color}
            allowDeselect={false}
            leftSection={<ColorSwatch color={`var(--mantine-color-${values.color}-filled)`} size={14} />}
            renderOption={({ option }) => (
              <Group gap="xs" wrap="nowrap">
                <ColorSwatch color={`var(--mantine-color-${option.value}-filled)`} size={14} />
                {option.label}
              </Group>
            )}
            onChange={(color) => {
              if (color) setValues((current) => ({ ...current, color: color as TagColor }));
            }}
          />
          <Textarea
            label={t('settings.tags.description')}
            autosize
            minRows={2}
            maxLength={TAG_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => {
              const description = event.currentTarget.value;
              setValues((current) => ({ ...current, description }));
            }}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
