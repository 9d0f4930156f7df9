import { Button, EmptyState, Group, Stack, Table, Text, TextInput, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconAlertTriangle, IconDownload, IconListSearch, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, type Watchlist, type WatchlistDomain } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { useHasSku } from '../../lib/org-context';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { WatchlistDialog } from './watchlist-dialog';
import { WatchlistDrawer } from './watchlist-drawer';
import { watchlistPath, watchlistsKey, watchlistsQuery } from './watchlists';
import { EditDeleteButtons } from '../../shell/row-actions';

/**
 * Watchlists of the security domain (/watchlists) or the fraud domain (/fraud/watchlists, with the
 * fraud product): THREATMATCH_VIEW to see them, THREATMATCH_EDIT to change them.
 */
export function WatchlistsPage({ domain }: { domain: WatchlistDomain }) {
  const { t } = useTranslation();
  const canView = useHasPermission('THREATMATCH_VIEW');
  const hasFraud = useHasSku('fraud');
  return (
    <GatedPage
      title={domain === 'fraud' ? t('watchlists.fraudTitle') : t('watchlists.title')}
      allowed={canView && (domain === 'security' || hasFraud)}
      maw={1200}
    >
      <WatchlistList domain={domain} />
    </GatedPage>
  );
}

function WatchlistList({ domain }: { domain: WatchlistDomain }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('THREATMATCH_EDIT');
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Watchlist | null>(null);
  const [opened, setOpened] = useState<Watchlist | null>(null);
  const [deleting, setDeleting] = useState<Watchlist | null>(null);
  const list = useQuery(
    watchlistsQuery(orgId, domain, { search: debouncedSearch, pageNumber, pageSize: DEFAULT_PAGE_SIZE }),
  );
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(watchlistPath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('watchlists.deleted');
      await queryClient.invalidateQueries({ queryKey: watchlistsKey(orgId) });
    },
    meta: { errorKey: 'watchlists.deleteFailed' },
  });
  const exportCsv = useMutation({
    mutationFn: async (watchlist: Watchlist) => {
      const blob = await apiFetchFile(`${watchlistPath(orgId, watchlist.id)}/export`);
      saveBlob(blob, `${watchlist.name}.csv`);
    },
    onError: (error) => notifyError(error, 'watchlists.exportFailed'),
    meta: { notifyError: false },
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <TextInput
          label={t('watchlists.search')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
          w={320}
        />
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setCreating(true)}>
            {t('watchlists.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('watchlists.loading')}
        failedTitle={t('watchlists.loadFailed')}
        empty={
          <EmptyState
            icon={<IconListSearch size={32} stroke={1.5} />}
            withIndicatorBackground
            title={debouncedSearch ? t('watchlists.noMatchTitle') : t('watchlists.emptyTitle')}
            description={debouncedSearch ? t('watchlists.noMatchMessage') : t('watchlists.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={700}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('watchlists.name')}</Table.Th>
                    <Table.Th>{t('watchlists.field')}</Table.Th>
                    <Table.Th>{t('watchlists.itemCount')}</Table.Th>
                    <Table.Th>{t('watchlists.modified')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((watchlist) => (
                    <Table.Tr key={watchlist.id}>
                      <Table.Td>
                        <Text size="sm" fw={500}>
                          {watchlist.name}
                        </Text>
                        {watchlist.description && (
                          <Text size="xs" c="dimmed" lineClamp={1}>
                            {watchlist.description}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace">
                          {watchlist.field}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap={4} wrap="nowrap">
                          <Text size="sm">{watchlist.itemCount.toLocaleString(i18n.language)}</Text>
                          {watchlist.nearLimit && (
                            <IconAlertTriangle
                              size={16}
                              color="var(--mantine-color-yellow-7)"
                              aria-label={t('watchlists.nearLimitTitle')}
                            />
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Text size="sm">{dateFormat.format(new Date(watchlist.modifiedOn))}</Text>
                      </Table.Td>
                      <Table.Td>
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-label={t('watchlists.openNamed', { name: watchlist.name })}
                            onClick={() => setOpened(watchlist)}
                          >
                            {t('watchlists.open')}
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            leftSection={<IconDownload size={14} />}
                            aria-label={t('watchlists.exportNamed', { name: watchlist.name })}
                            loading={exportCsv.isPending && exportCsv.variables.id === watchlist.id}
                            onClick={() => exportCsv.mutate(watchlist)}
                          >
                            {t('watchlists.export')}
                          </Button>
                          {canEdit && (
                            <>
                              <EditDeleteButtons
                                editLabel={t('watchlists.editNamed', { name: watchlist.name })}
                                deleteLabel={t('watchlists.deleteNamed', { name: watchlist.name })}
                                deleteText={t('watchlists.delete')}
                                onEdit={() => setEditing(watchlist)}
                                onDelete={() => setDeleting(watchlist)}
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
            />
          </>
        )}
      </ListStates>
      {(creating || editing) && (
        <WatchlistDialog
          orgId={orgId}
          domain={domain}
          watchlist={editing}
          onClose={() => {
            setCreating(false);
            setEditing(null);
          }}
        />
      )}
      {opened && (
        <WatchlistDrawer orgId={orgId} watchlist={opened} canEdit={canEdit} onClose={() => setOpened(null)} />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('watchlists.deleteTitle')}
        message={t('watchlists.deleteMessage', {
          name: deleting?.name ?? '',
          count: deleting?.itemCount ?? 0,
        })}
        confirmLabel={t('watchlists.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
