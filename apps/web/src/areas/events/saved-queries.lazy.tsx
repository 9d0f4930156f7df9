import {
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
import { IconBookmarks, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import { DEFAULT_PAGE_SIZE, type SavedQuery } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { savedQueriesKey, savedQueriesQuery, savedQueryPath } from './saved-queries';
import { SavedQueryDialog } from './saved-query-dialog';
import { EditDeleteButtons } from '../../shell/row-actions';

export const Route = createLazyRoute('/search/saved')({
  component: SavedQueriesPage,
});

/** Saved and library queries: SAVED_SEARCH_VIEW to see them, SAVED_SEARCH_EDIT to change them. */
function SavedQueriesPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('nav.tabs.savedQueries')} allowed={useHasPermission('SAVED_SEARCH_VIEW')} maw={1200}>
      <SavedQueryList />
    </GatedPage>
  );
}

export function SavedQueryList() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('SAVED_SEARCH_EDIT');
  // Provider administrators add queries to the library; the server also checks their home organisation.
  const canPromote = useHasPermission('TRAC_ADMIN');
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<SavedQuery | null>(null);
  const [deleting, setDeleting] = useState<SavedQuery | null>(null);
  const list = useQuery(
    savedQueriesQuery(orgId, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(savedQueryPath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('events.saved.deleted');
      await queryClient.invalidateQueries({ queryKey: savedQueriesKey(orgId) });
    },
    meta: { errorKey: 'events.saved.deleteFailed' },
  });
  const promote = useMutation({
    mutationFn: (id: string) => apiFetch(`${savedQueryPath(orgId, id)}/promote`, { method: 'POST' }),
    onSuccess: async () => {
      notifyMessage('events.saved.promoted');
      await queryClient.invalidateQueries({ queryKey: savedQueriesKey(orgId) });
    },
    meta: { errorKey: 'events.saved.promoteFailed' },
  });

  return (
    <Stack gap="md">
      <TextInput
        label={t('events.saved.search')}
        leftSection={<IconSearch size={16} />}
        value={search}
        onChange={(event) => {
          setSearch(event.currentTarget.value);
          setPageNumber(1);
        }}
        w={320}
      />
      <ListStates
        query={list}
        loadingLabel={t('events.saved.loading')}
        failedTitle={t('events.saved.loadFailed')}
        empty={
          <EmptyState
            icon={<IconBookmarks size={32} stroke={1.5} />}
            withIndicatorBackground
            title={debouncedSearch ? t('events.saved.noMatchTitle') : t('events.saved.emptyTitle')}
            description={debouncedSearch ? t('events.saved.noMatchMessage') : t('events.saved.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={700}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('events.saved.name')}</Table.Th>
                    <Table.Th>{t('events.saved.description')}</Table.Th>
                    <Table.Th>{t('events.saved.query')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((saved) => (
                    <Table.Tr key={saved.id}>
                      <Table.Td>
                        <Group gap="xs" wrap="nowrap">
                          <Text size="sm" fw={500}>
                            {saved.name}
                          </Text>
                          {saved.library && (
                            <Badge size="sm" variant="light" color="violet">
                              {t('events.saved.library')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" c={saved.description ? undefined : 'dimmed'}>
                          {saved.description || '—'}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace" lineClamp={2}>
                          {saved.query}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-label={t('events.saved.openNamed', { name: saved.name })}
                            onClick={() => void navigate({ to: '/search', search: { query: saved.query } })}
                          >
                            {t('events.saved.open')}
                          </Button>
                          {canPromote && !saved.library && (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('events.saved.promoteNamed', { name: saved.name })}
                              loading={promote.isPending && promote.variables === saved.id}
                              onClick={() => promote.mutate(saved.id)}
                            >
                              {t('events.saved.promote')}
                            </Button>
                          )}
                          {canEdit && saved.editable && (
                            <>
                              <EditDeleteButtons
                                editLabel={t('events.saved.editNamed', { name: saved.name })}
                                deleteLabel={t('events.saved.deleteNamed', { name: saved.name })}
                                deleteText={t('events.saved.delete')}
                                onEdit={() => setEditing(saved)}
                                onDelete={() => setDeleting(saved)}
                              />
                            </>
                          )}
                        </Group>
                      </Table.Td>
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
      {editing && <SavedQueryDialog orgId={orgId} savedQuery={editing} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('events.saved.deleteTitle')}
        message={t('events.saved.deleteMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('events.saved.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
