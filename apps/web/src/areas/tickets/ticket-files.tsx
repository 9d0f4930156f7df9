import { Button, FileButton, Group, Paper, Stack, Table, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { ticketDetailSchema, type TicketDetail, type TicketFile } from '@vigil/contracts';
import { useState, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { notifyError, notifyMessage } from '../../lib/notify';
import { ConfirmDialog } from '../../shell/confirm-dialog';

/** Bytes in the largest unit that keeps the number at least 1 (B, KB, MB). */
function sizeOf(bytes: number, language: string): string {
  const format = new Intl.NumberFormat(language, { maximumFractionDigits: 1 });
  if (bytes < 1024) return `${format.format(bytes)} B`;
  if (bytes < 1024 * 1024) return `${format.format(bytes / 1024)} KB`;
  return `${format.format(bytes / 1024 / 1024)} MB`;
}

/**
 * The files of a ticket: a list to download from, and for editors a drop zone and button to attach
 * more and a confirmed delete. Every change answers the ticket as it is now, passed to `onChanged`.
 */
export function TicketFiles({
  path,
  ticket,
  canEdit,
  onChanged,
}: {
  /** The ticket's API path. */
  path: string;
  ticket: TicketDetail;
  canEdit: boolean;
  onChanged: (updated: TicketDetail) => Promise<void>;
}) {
  const { t, i18n } = useTranslation();
  const [dragging, setDragging] = useState(false);
  const [deleting, setDeleting] = useState<TicketFile | null>(null);
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  const upload = useMutation({
    mutationFn: (files: File[]) => {
      const formData = new FormData();
      for (const file of files) formData.append('file', file, file.name);
      return apiFetch(`${path}/files`, { method: 'POST', formData, schema: ticketDetailSchema });
    },
    onSuccess: async (updated) => {
      notifyMessage('tickets.uploaded', 'green');
      await onChanged(updated);
    },
    onError: (error) => notifyError(error, 'tickets.uploadFailed'),
    meta: { notifyError: false },
  });
  const remove = useMutation({
    mutationFn: (file: TicketFile) =>
      apiFetch(`${path}/files/${file.id}`, { method: 'DELETE', schema: ticketDetailSchema }),
    onSuccess: async (updated) => {
      setDeleting(null);
      notifyMessage('tickets.fileDeleted', 'green');
      await onChanged(updated);
    },
    onError: (error) => notifyError(error, 'tickets.deleteFileFailed'),
    meta: { notifyError: false },
  });
  const download = useMutation({
    mutationFn: async (file: TicketFile) => {
      const blob = await apiFetchFile(`${path}/files/${file.id}`, {
        accept: `${file.contentType}, application/json`,
      });
      saveBlob(blob, file.name);
    },
    onError: (error) => notifyError(error, 'tickets.downloadFileFailed'),
    meta: { notifyError: false },
  });

  const attach = (files: File[]) => {
    if (files.length > 0) upload.mutate(files);
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    attach([...event.dataTransfer.files]);
  };

  return (
    <Stack gap="xs">
      {ticket.files.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('tickets.noFiles')}
        </Text>
      ) : (
        <Table aria-label={t('tickets.files')}>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>{t('tickets.fileName')}</Table.Th>
              <Table.Th>{t('tickets.fileSize')}</Table.Th>
              <Table.Th>{t('tickets.fileAddedBy')}</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ticket.files.map((file) => (
              <Table.Tr key={file.id}>
                <Table.Td>{file.name}</Table.Td>
                <Table.Td>{sizeOf(file.size, i18n.language)}</Table.Td>
                <Table.Td>
                  {file.createdByName ?? '—'} · {dateFormat.format(new Date(file.createdOn))}
                </Table.Td>
                <Table.Td>
                  <Group gap={4} wrap="nowrap" justify="flex-end">
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      aria-label={t('tickets.downloadFile', { name: file.name })}
                      onClick={() => download.mutate(file)}
                    >
                      {t('tickets.fileDownload')}
                    </Button>
                    {canEdit && (
                      <Button
                        size="compact-xs"
                        variant="subtle"
                        color="red"
                        aria-label={t('tickets.deleteFile', { name: file.name })}
                        onClick={() => setDeleting(file)}
                      >
                        {t('tickets.fileDelete')}
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {canEdit && (
        <Paper
          withBorder
          p="sm"
          data-testid="ticket-file-drop"
          style={{
            borderStyle: 'dashed',
            background: dragging ? 'var(--mantine-color-blue-light)' : undefined,
          }}
          onDragOver={(event) => {
            event.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
        >
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm" c="dimmed">
              {upload.isPending ? t('tickets.uploading') : t('tickets.filesHint')}
            </Text>
            <FileButton multiple onChange={attach}>
              {(props) => (
                <Button {...props} size="xs" variant="default" loading={upload.isPending}>
                  {t('tickets.chooseFiles')}
                </Button>
              )}
            </FileButton>
          </Group>
        </Paper>
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('tickets.deleteFileTitle')}
        message={t('tickets.deleteFileMessage', { name: deleting?.name ?? '' })}
        confirmLabel={t('tickets.fileDelete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
