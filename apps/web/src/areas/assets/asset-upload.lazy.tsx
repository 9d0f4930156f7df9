import {
  Alert,
  Button,
  Card,
  Code,
  FileInput,
  Group,
  List,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { IconArrowLeft, IconCheck, IconDownload, IconFileTypeCsv, IconUpload } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  ASSET_UPLOAD_COLUMNS,
  ASSET_UPLOAD_ERROR_TABLE_LIMIT,
  ASSET_UPLOAD_MAX_FILE_BYTES,
  ASSET_UPLOAD_MAX_FILES,
  ASSET_UPLOAD_VALUE_SEPARATOR,
  assetUploadResultSchema,
  NOTIFICATION_DURATION_MS,
  type AssetUploadResult,
} from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch, apiFetchFile } from '../../lib/api';
import { saveBlob } from '../../lib/download';
import { i18n } from '../../lib/i18n';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink, ButtonLink } from '../../shell/links';
import { assetsKey, orgPath, uploadCheck } from './queries';

export const Route = createLazyRoute('/asset-upload')({
  component: AssetUploadPage,
});

/** Spec 2 sections 2 and 5: assets from CSV files, checked line by line before anything is stored. */
function AssetUploadPage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('assets.upload.title')} allowed={useHasPermission('ASSET_EDIT')} maw={1100}>
      <AssetUpload />
    </GatedPage>
  );
}

/** A file to start from: the header and two example lines. */
export const UPLOAD_TEMPLATE = [
  ASSET_UPLOAD_COLUMNS.join(','),
  'Mail server,,mail01;mail01.bank.example,10.0.4.20;10.0.4.21,00:1a:2b:3c:4d:5e;00:1a:2b:3c:4d:5f,high,Scanner;Health Monitored',
  'Branch router,,branch-rtr-02,192.168.10.1,,medium,',
  '',
].join('\r\n');

type UploadMode = 'validate' | 'all' | 'valid';

/** The client-side refusal of a choice of files, before anything is sent; null when they may go. */
export function fileProblem(files: File[], t: TFunction, maxFiles = ASSET_UPLOAD_MAX_FILES): string | null {
  // Spec 2 section 5: fewer than 50 files.
  if (files.length > maxFiles) return t('ASSET_UPLOAD_TOO_MANY_FILES', { max: maxFiles + 1 });
  const tooLarge = files.find((file) => file.size > ASSET_UPLOAD_MAX_FILE_BYTES);
  return tooLarge ? t('ASSET_UPLOAD_FILE_TOO_LARGE', { 0: tooLarge.name }) : null;
}

/** The catalogue text of a failed upload, naming the files when the server did not. */
function uploadFailure(error: unknown, files: File[]): string {
  const names = files.map((file) => file.name).join(', ');
  if (
    error instanceof ApiRequestError &&
    error.error.key.startsWith('ASSET_UPLOAD_') &&
    i18n.exists(error.error.key)
  ) {
    return i18n.t(error.error.key, { 0: names, max: ASSET_UPLOAD_MAX_FILES + 1, ...error.error.params });
  }
  if (
    error instanceof ApiRequestError &&
    error.status < 500 &&
    error.status !== 0 &&
    i18n.exists(error.error.key)
  ) {
    return i18n.t(error.error.key, { ...error.error.params });
  }
  return i18n.t('ASSET_UPLOAD_FAILED', { 0: names });
}

function notifyUploadFailure(error: unknown, files: File[]) {
  notifications.show({
    color: 'red',
    title: i18n.t('assets.upload.failedTitle'),
    message: uploadFailure(error, files),
    autoClose: NOTIFICATION_DURATION_MS,
  });
}

function uploadForm(files: File[]): FormData {
  const form = new FormData();
  for (const file of files) form.append('file', file, file.name);
  return form;
}

function AssetUpload() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const [files, setFiles] = useState<File[]>([]);
  const [problem, setProblem] = useState<string | null>(null);
  const [result, setResult] = useState<AssetUploadResult | null>(null);
  const [confirmingValid, setConfirmingValid] = useState(false);

  const chooseFiles = (chosen: File[]) => {
    setFiles(chosen);
    setProblem(fileProblem(chosen, t));
    setResult(null);
  };

  const upload = useMutation({
    mutationFn: async (mode: UploadMode): Promise<{ refused: string } | { answer: AssetUploadResult }> => {
      if (mode === 'validate' && files.length > 0) {
        // Asks the server about the largest file first, so that a refusal comes before the upload.
        const largest = files.reduce((a, b) => (b.size > a.size ? b : a));
        const check = await uploadCheck(orgId, largest.size).catch(() => null);
        if (check && !check.allowed)
          return { refused: t('ASSET_UPLOAD_FILE_TOO_LARGE', { 0: largest.name }) };
        if (check && files.length > check.maxFiles) {
          return { refused: t('ASSET_UPLOAD_TOO_MANY_FILES', { max: check.maxFiles + 1 }) };
        }
      }
      const answer = await apiFetch(`${orgPath(orgId)}/asset-upload?mode=${mode}`, {
        method: 'POST',
        formData: uploadForm(files),
        schema: assetUploadResultSchema,
      });
      return { answer };
    },
    meta: { notifyError: false },
    onSuccess: (outcome) => {
      setConfirmingValid(false);
      if ('refused' in outcome) {
        setProblem(outcome.refused);
        return;
      }
      const { answer } = outcome;
      setResult(answer);
      if (answer.stored) {
        notifyMessage('assets.upload.imported', 'green', {
          created: answer.created,
          updated: answer.updated,
        });
        void queryClient.invalidateQueries({ queryKey: assetsKey(orgId) });
      }
    },
    onError: (error) => {
      setConfirmingValid(false);
      notifyUploadFailure(error, files);
    },
  });

  const errorsCsv = useMutation({
    mutationFn: async () => {
      const blob = await apiFetchFile(`${orgPath(orgId)}/asset-upload?mode=errors-csv`, {
        method: 'POST',
        formData: uploadForm(files),
      });
      saveBlob(blob, 'asset-upload-errors.csv');
    },
    meta: { notifyError: false },
    onError: (error) => notifyUploadFailure(error, files),
  });

  const stored = result?.stored === true;

  return (
    <Stack gap="lg">
      <ButtonLink
        to="/assets"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        style={{ alignSelf: 'flex-start' }}
      >
        {t('assets.upload.back')}
      </ButtonLink>

      <Card withBorder>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {t('assets.upload.formatTitle')}
          </Title>
          <Text size="sm">{t('assets.upload.formatIntro')}</Text>
          <Table maw={820}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('assets.upload.column')}</Table.Th>
                <Table.Th>{t('assets.upload.meaning')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {ASSET_UPLOAD_COLUMNS.map((column) => (
                <Table.Tr key={column}>
                  <Table.Td>
                    <Code>{column}</Code>
                  </Table.Td>
                  <Table.Td>{t(`assets.upload.columns.${column}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          <List size="sm" spacing={4}>
            <List.Item>
              {t('assets.upload.separatorRule', { separator: ASSET_UPLOAD_VALUE_SEPARATOR })}
            </List.Item>
            <List.Item>{t('assets.upload.pairRule')}</List.Item>
            <List.Item>{t('assets.upload.idRule')}</List.Item>
            <List.Item>
              {t('assets.upload.limitsRule', {
                maxFiles: ASSET_UPLOAD_MAX_FILES + 1,
                maxMiB: ASSET_UPLOAD_MAX_FILE_BYTES / 1024 / 1024,
              })}
            </List.Item>
          </List>
          <Button
            variant="default"
            leftSection={<IconFileTypeCsv size={16} />}
            style={{ alignSelf: 'flex-start' }}
            onClick={() =>
              saveBlob(new Blob([UPLOAD_TEMPLATE], { type: 'text/csv' }), 'asset-upload-template.csv')
            }
          >
            {t('assets.upload.template')}
          </Button>
        </Stack>
      </Card>

      <Group align="flex-end">
        <FileInput
          label={t('assets.upload.files')}
          placeholder={t('assets.upload.filesPlaceholder')}
          multiple
          clearable
          accept=".csv,text/csv"
          leftSection={<IconUpload size={16} />}
          value={files}
          error={problem}
          w={420}
          onChange={chooseFiles}
        />
        <Button
          disabled={files.length === 0 || problem !== null}
          loading={upload.isPending && upload.variables === 'validate'}
          onClick={() => upload.mutate('validate')}
        >
          {t('assets.upload.check', { count: Math.max(1, files.length) })}
        </Button>
      </Group>

      {result && (
        <Stack gap="md">
          <SimpleGrid cols={3} maw={560}>
            <Stat label={t('assets.upload.lines')} value={result.lines} />
            <Stat label={t('assets.upload.valid')} value={result.validLines} />
            <Stat
              label={t('assets.upload.errorCount')}
              value={result.errorCount}
              color={result.errorCount > 0 ? 'red' : undefined}
            />
          </SimpleGrid>

          {stored ? (
            <Alert color="green" icon={<IconCheck size={18} />} title={t('assets.upload.importedTitle')}>
              <Stack gap={4} align="flex-start">
                {t('assets.upload.imported', { created: result.created, updated: result.updated })}
                <AnchorLink to="/assets" size="sm">
                  {t('assets.upload.toAssets')}
                </AnchorLink>
              </Stack>
            </Alert>
          ) : (
            <Group>
              {result.errorCount === 0 && result.validLines > 0 && (
                <Button
                  loading={upload.isPending && upload.variables === 'all'}
                  onClick={() => upload.mutate('all')}
                >
                  {t('assets.upload.importAll', { count: result.validLines })}
                </Button>
              )}
              {result.errorCount > 0 && result.validLines > 0 && (
                <Button variant="light" onClick={() => setConfirmingValid(true)}>
                  {t('assets.upload.importValid', { count: result.validLines })}
                </Button>
              )}
              {result.validLines === 0 && (
                <Text size="sm" c="dimmed">
                  {t('assets.upload.nothingToImport')}
                </Text>
              )}
            </Group>
          )}

          {result.errorCount > ASSET_UPLOAD_ERROR_TABLE_LIMIT && (
            <Alert color="yellow" title={t('assets.upload.manyErrorsTitle')}>
              <Stack gap="xs" align="flex-start">
                {t('assets.upload.manyErrors', {
                  count: result.errorCount,
                  limit: ASSET_UPLOAD_ERROR_TABLE_LIMIT,
                })}
                <Button
                  size="xs"
                  variant="light"
                  color="yellow"
                  leftSection={<IconDownload size={14} />}
                  loading={errorsCsv.isPending}
                  onClick={() => errorsCsv.mutate()}
                >
                  {t('assets.upload.errorsCsv')}
                </Button>
              </Stack>
            </Alert>
          )}

          {result.errors.length > 0 && (
            <Table.ScrollContainer minWidth={700}>
              <Table striped aria-label={t('assets.upload.errorTable')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('assets.upload.file')}</Table.Th>
                    <Table.Th>{t('assets.upload.line')}</Table.Th>
                    <Table.Th>{t('assets.upload.column')}</Table.Th>
                    <Table.Th>{t('assets.upload.error')}</Table.Th>
                    <Table.Th>{t('assets.upload.value')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {result.errors.slice(0, ASSET_UPLOAD_ERROR_TABLE_LIMIT).map((error, index) => (
                    <Table.Tr key={`${error.file}:${error.line}:${error.field}:${index}`}>
                      <Table.Td>{error.file}</Table.Td>
                      <Table.Td>{error.line}</Table.Td>
                      <Table.Td>
                        <Code>{error.field}</Code>
                      </Table.Td>
                      <Table.Td>{t(`assets.upload.errors.${error.key}`)}</Table.Td>
                      <Table.Td>
                        <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                          {error.value}
                        </Text>
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </Stack>
      )}

      <ConfirmDialog
        opened={confirmingValid}
        title={t('assets.upload.importValidTitle', { count: result?.validLines ?? 0 })}
        message={t('assets.upload.importValidMessage', { count: result?.errorCount ?? 0 })}
        confirmLabel={t('assets.upload.importValid', { count: result?.validLines ?? 0 })}
        loading={upload.isPending}
        onCancel={() => setConfirmingValid(false)}
        onConfirm={() => upload.mutate('valid')}
      />
    </Stack>
  );
}

function Stat({ label, value, color }: { label: string; value: number; color?: string }) {
  return (
    <Paper withBorder p="sm">
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text size="xl" fw={700} c={color}>
        {value}
      </Text>
    </Paper>
  );
}
