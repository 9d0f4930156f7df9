import {
  ActionIcon,
  Badge,
  Button,
  EmptyState,
  Group,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconArrowDown, IconArrowUp, IconFilter, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CLASSIFIER_OPTIONS, DEFAULT_PAGE_SIZE, type Classifier } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useHasSku } from '../../lib/org-context';
import { useCurrentOrgId } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { ClassifierDialog } from './classifier-dialog';
import {
  classifiersKey,
  classifiersPath,
  classifiersQuery,
  moveClassifier,
  type ClassifierMode,
} from './queries';
import { EditDeleteButtons } from '../../shell/row-actions';

/**
 * The organisation's classifiers or the library, in the order they apply at ingest. Whether the
 * caller may change them comes from the server (`editable`): library classifiers only for provider
 * staff. Moving needs the whole order, so it is offered while no search narrows the list.
 */
export function ClassifierList({ mode }: { mode: ClassifierMode }) {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const hasArchiveTier = useHasSku('acceleratedArchive');
  // Library classifiers serve every organisation; the flag takes effect where the tier is held.
  const archiveAllowed = mode === 'library' || hasArchiveTier;
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<Classifier | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Classifier | null>(null);
  const list = useQuery(
    classifiersQuery(orgId, mode, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: classifiersKey(orgId, mode) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(classifiersPath(orgId, mode, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('classifiers.deleted');
      await refresh();
    },
    meta: { errorKey: 'classifiers.deleteFailed' },
  });
  const pause = useMutation({
    mutationFn: ({ id, paused }: { id: string; paused: boolean }) =>
      apiFetch(`${classifiersPath(orgId, mode, id)}/paused`, { method: 'PUT', body: { paused } }),
    onSuccess: async (_, { paused }) => {
      notifyMessage(paused ? 'classifiers.pausedDone' : 'classifiers.resumedDone');
      await refresh();
    },
    meta: { errorKey: 'classifiers.pauseFailed' },
  });
  const move = useMutation({
    mutationFn: ({ id, step }: { id: string; step: -1 | 1 }) => moveClassifier(orgId, mode, id, step),
    onSettled: refresh,
    meta: { errorKey: 'classifiers.moveFailed' },
  });
  const canMove = debouncedSearch === '' && search.trim() === '';

  return (
    <Stack gap="md">
      <Text size="sm" c="dimmed">
        {mode === 'library' ? t('classifiers.libraryIntro') : t('classifiers.intro')}
      </Text>
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('classifiers.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
          w={320}
        />
        {list.data?.editable && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('classifiers.add')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('classifiers.loading')}
        failedTitle={t('classifiers.loadFailed')}
        empty={
          <EmptyState
            icon={<IconFilter size={32} stroke={1.5} />}
            withIndicatorBackground
            title={debouncedSearch ? t('classifiers.noMatchTitle') : t('classifiers.emptyTitle')}
            description={debouncedSearch ? t('classifiers.noMatchMessage') : t('classifiers.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('classifiers.order')}</Table.Th>
                    <Table.Th>{t('classifiers.name')}</Table.Th>
                    <Table.Th>{t('classifiers.query')}</Table.Th>
                    <Table.Th>{t('classifiers.metadata')}</Table.Th>
                    <Table.Th>{t('classifiers.actionsApplied')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((classifier, index) => {
                    const place = (pageNumber - 1) * DEFAULT_PAGE_SIZE + index;
                    const moving = move.isPending && move.variables?.id === classifier.id;
                    return (
                      <Table.Tr key={classifier.id}>
                        <Table.Td>
                          <Group gap={4} wrap="nowrap">
                            <Text size="sm" w={28}>
                              {classifier.position}
                            </Text>
                            {data.editable && canMove && (
                              <>
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={t('classifiers.moveUp', { name: classifier.name })}
                                  disabled={place === 0 || move.isPending}
                                  loading={moving && move.variables?.step === -1}
                                  onClick={() => move.mutate({ id: classifier.id, step: -1 })}
                                >
                                  <IconArrowUp size={16} />
                                </ActionIcon>
                                <ActionIcon
                                  variant="subtle"
                                  aria-label={t('classifiers.moveDown', { name: classifier.name })}
                                  disabled={place === data.total - 1 || move.isPending}
                                  loading={moving && move.variables?.step === 1}
                                  onClick={() => move.mutate({ id: classifier.id, step: 1 })}
                                >
                                  <IconArrowDown size={16} />
                                </ActionIcon>
                              </>
                            )}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          <Group gap="xs" wrap="nowrap">
                            <Text size="sm" fw={500}>
                              {classifier.name}
                            </Text>
                            {classifier.paused && (
                              <Badge size="sm" variant="light" color="gray">
                                {t('classifiers.paused')}
                              </Badge>
                            )}
                          </Group>
                          {classifier.description && (
                            <Text size="xs" c="dimmed" lineClamp={2}>
                              {classifier.description}
                            </Text>
                          )}
                        </Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace" lineClamp={2}>
                            {classifier.query}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Stack gap={2}>
                            {Object.entries(classifier.metadata).map(([key, value]) => (
                              <Text key={key} size="xs" ff="monospace">
                                {key}: {value}
                              </Text>
                            ))}
                            {Object.keys(classifier.metadata).length === 0 && (
                              <Text size="sm" c="dimmed">
                                —
                              </Text>
                            )}
                          </Stack>
                        </Table.Td>
                        <Table.Td>
                          <Group gap={4}>
                            {CLASSIFIER_OPTIONS.filter((option) => classifier[option]).map((option) => (
                              <Badge
                                key={option}
                                size="sm"
                                variant="light"
                                color={option === 'dropEvent' ? 'red' : 'blue'}
                              >
                                {t(`classifiers.options.${option}`)}
                              </Badge>
                            ))}
                          </Group>
                        </Table.Td>
                        <Table.Td>
                          {data.editable && (
                            <Group gap="xs" justify="flex-end" wrap="nowrap">
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                aria-label={t(
                                  classifier.paused ? 'classifiers.resumeNamed' : 'classifiers.pauseNamed',
                                  {
                                    name: classifier.name,
                                  },
                                )}
                                loading={pause.isPending && pause.variables?.id === classifier.id}
                                onClick={() =>
                                  pause.mutate({ id: classifier.id, paused: !classifier.paused })
                                }
                              >
                                {classifier.paused ? t('classifiers.resume') : t('classifiers.pause')}
                              </Button>
                              <EditDeleteButtons
                                editLabel={t('classifiers.editNamed', { name: classifier.name })}
                                deleteLabel={t('classifiers.deleteNamed', { name: classifier.name })}
                                deleteText={t('classifiers.delete')}
                                onEdit={() => setEditing(classifier)}
                                onDelete={() => setDeleting(classifier)}
                              />
                            </Group>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    );
                  })}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
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
        <ClassifierDialog
          orgId={orgId}
          mode={mode}
          classifier={editing === 'new' ? null : editing}
          archiveAllowed={archiveAllowed}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('classifiers.deleteTitle')}
        message={t('classifiers.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('classifiers.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
