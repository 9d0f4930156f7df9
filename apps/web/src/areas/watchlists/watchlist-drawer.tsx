import {
  Alert,
  Button,
  Drawer,
  FileInput,
  Group,
  SegmentedControl,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { notifications } from '@mantine/notifications';
import { IconAlertTriangle, IconSearch, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  NOTIFICATION_DURATION_MS,
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_UPLOAD_MAX_BYTES,
  watchlistSchema,
  watchlistUploadResultSchema,
  type Watchlist,
  type WatchlistUploadMode,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { i18n } from '../../lib/i18n';
import { notifyMessage } from '../../lib/notify';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { linesOf, watchlistItemsQuery, watchlistPath, watchlistQuery, watchlistsKey } from './watchlists';

/** The catalogue text of a failed upload; failures the server did not explain name the file. */
export function uploadFailure(error: unknown, filename: string): string {
  if (
    error instanceof ApiRequestError &&
    error.status > 0 &&
    error.status < 500 &&
    i18n.exists(error.error.key)
  ) {
    return i18n.t(error.error.key, { 0: filename, ...error.error.params });
  }
  return i18n.t('WATCHLIST_UPLOAD_FAILED', { 0: filename });
}

/** The limit banner: a warning from 29,000 items, an error when full. */
export function LimitBanner({ watchlist }: { watchlist: Watchlist }) {
  const { t } = useTranslation();
  if (!watchlist.nearLimit) return null;
  const full = watchlist.itemCount >= WATCHLIST_MAX_ITEMS;
  return (
    <Alert
      color={full ? 'red' : 'yellow'}
      icon={<IconAlertTriangle size={18} />}
      title={t('watchlists.nearLimitTitle')}
    >
      {full
        ? t('watchlists.atLimit', { max: WATCHLIST_MAX_ITEMS })
        : t('watchlists.nearLimit', { count: watchlist.itemCount, max: WATCHLIST_MAX_ITEMS })}
    </Alert>
  );
}

/** A watchlist's values: paged, searchable, with adding, removing and file upload for editors. */
export function WatchlistDrawer({
  orgId,
  watchlist: initial,
  canEdit,
  onClose,
}: {
  orgId: string;
  watchlist: Watchlist;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const watchlist = useQuery({ ...watchlistQuery(orgId, initial.id), initialData: initial }).data;
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [adding, setAdding] = useState('');
  const [addError, setAddError] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<WatchlistUploadMode>('append');
  const [confirmingReplace, setConfirmingReplace] = useState(false);
  const items = useQuery(
    watchlistItemsQuery(orgId, initial.id, {
      search: debouncedSearch,
      pageNumber,
      pageSize: DEFAULT_PAGE_SIZE,
    }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: watchlistsKey(orgId) });

  const add = useMutation({
    mutationFn: (values: string[]) =>
      apiFetch(`${watchlistPath(orgId, initial.id)}/items`, {
        method: 'POST',
        body: { values },
        schema: watchlistSchema,
      }),
    onSuccess: async (saved) => {
      notifyMessage('watchlists.added', 'green', { count: saved.itemCount - watchlist.itemCount });
      setAdding('');
      await refresh();
    },
    onError: (error) =>
      setAddError(
        error instanceof ApiRequestError && i18n.exists(error.error.key)
          ? t(error.error.key, error.error.params ?? {})
          : t('watchlists.addFailed'),
      ),
    meta: { notifyError: false },
  });
  const remove = useMutation({
    mutationFn: (value: string) =>
      apiFetch(`${watchlistPath(orgId, initial.id)}/items`, {
        method: 'DELETE',
        body: { values: [value] },
        schema: watchlistSchema,
      }),
    onSuccess: async () => {
      setRemoving(null);
      notifyMessage('watchlists.removed');
      await refresh();
    },
    meta: { errorKey: 'watchlists.removeFailed' },
  });
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      const form = new FormData();
      form.append('file', chosen, chosen.name);
      return apiFetch(`${watchlistPath(orgId, initial.id)}/upload?mode=${mode}`, {
        method: 'POST',
        formData: form,
        schema: watchlistUploadResultSchema,
      });
    },
    onSuccess: async (result, chosen) => {
      setConfirmingReplace(false);
      setFile(null);
      notifyMessage('watchlists.uploaded', 'green', {
        read: result.read,
        added: result.added,
        file: chosen.name,
      });
      await refresh();
    },
    onError: (error, chosen) => {
      setConfirmingReplace(false);
      notifications.show({
        color: 'red',
        title: t('watchlists.uploadFailedTitle'),
        message: uploadFailure(error, chosen.name),
        autoClose: NOTIFICATION_DURATION_MS,
      });
    },
    meta: { notifyError: false },
  });

  const startUpload = () => {
    if (!file) return;
    if (file.size > WATCHLIST_UPLOAD_MAX_BYTES) {
      notifications.show({
        color: 'red',
        title: t('watchlists.uploadFailedTitle'),
        message: t('WATCHLIST_UPLOAD_TOO_LARGE', { 0: file.name }),
        autoClose: NOTIFICATION_DURATION_MS,
      });
      return;
    }
    if (mode === 'replace') setConfirmingReplace(true);
    else upload.mutate(file);
  };

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="lg"
      title={t('watchlists.detailsTitle', { name: watchlist.name, field: watchlist.field })}
    >
      <Stack gap="md">
        {watchlist.description && <Text size="sm">{watchlist.description}</Text>}
        <LimitBanner watchlist={watchlist} />
        {canEdit && (
          <form
            noValidate
            onSubmit={(event) => {
              event.preventDefault();
              const values = linesOf(adding);
              if (values.length === 0) setAddError(t('ERROR_REQUIRED'));
              else add.mutate(values);
            }}
          >
            <Stack gap="xs">
              <Textarea
                label={t('watchlists.addValues')}
                description={t('watchlists.addValuesHint')}
                autosize
                minRows={2}
                maxRows={6}
                ff="monospace"
                value={adding}
                onChange={(event) => {
                  setAddError(null);
                  setAdding(event.currentTarget.value);
                }}
                error={addError}
              />
              <Group justify="flex-end">
                <Button type="submit" size="compact-md" loading={add.isPending}>
                  {t('watchlists.add')}
                </Button>
              </Group>
            </Stack>
          </form>
        )}
        {canEdit && (
          <Stack gap="xs">
            <FileInput
              label={t('watchlists.uploadFile')}
              accept=".csv,.txt,text/csv,text/plain"
              clearable
              value={file}
              onChange={setFile}
            />
            <Group justify="space-between">
              <SegmentedControl
                aria-label={t('watchlists.uploadMode')}
                value={mode}
                onChange={(next) => setMode(next as WatchlistUploadMode)}
                data={[
                  { value: 'append', label: t('watchlists.append') },
                  { value: 'replace', label: t('watchlists.replace') },
                ]}
              />
              <Button
                leftSection={<IconUpload size={16} />}
                variant="light"
                disabled={!file}
                loading={upload.isPending}
                onClick={startUpload}
              >
                {t('watchlists.upload')}
              </Button>
            </Group>
          </Stack>
        )}
        <TextInput
          label={t('watchlists.itemSearch')}
          leftSection={<IconSearch size={16} />}
          value={search}
          onChange={(event) => {
            setSearch(event.currentTarget.value);
            setPageNumber(1);
          }}
        />
        <ListStates
          query={items}
          loadingLabel={t('watchlists.itemsLoading')}
          failedTitle={t('watchlists.itemsLoadFailed')}
          empty={
            <Stack gap={4}>
              <Text fw={500}>{t('watchlists.itemsEmpty')}</Text>
              <Text size="sm" c="dimmed">
                {t('watchlists.itemsEmptyMessage')}
              </Text>
            </Stack>
          }
        >
          {(data) => (
            <>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('watchlists.value')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((value) => (
                    <Table.Tr key={value}>
                      <Table.Td>
                        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {value}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        {canEdit && (
                          <Group justify="flex-end">
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('watchlists.removeNamed', { value })}
                              onClick={() => setRemoving(value)}
                            >
                              {t('watchlists.remove')}
                            </Button>
                          </Group>
                        )}
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
      </Stack>
      <ConfirmDialog
        opened={removing !== null}
        title={t('watchlists.removeTitle')}
        message={t('watchlists.removeMessage', { value: removing ?? '', name: watchlist.name })}
        confirmLabel={t('watchlists.remove')}
        loading={remove.isPending}
        onConfirm={() => {
          if (removing !== null) remove.mutate(removing);
        }}
        onCancel={() => setRemoving(null)}
      />
      <ConfirmDialog
        opened={confirmingReplace}
        title={t('watchlists.replaceTitle')}
        message={t('watchlists.replaceMessage', { name: watchlist.name, file: file?.name ?? '' })}
        confirmLabel={t('watchlists.replace')}
        loading={upload.isPending}
        onConfirm={() => {
          if (file) upload.mutate(file);
        }}
        onCancel={() => setConfirmingReplace(false)}
      />
    </Drawer>
  );
}
