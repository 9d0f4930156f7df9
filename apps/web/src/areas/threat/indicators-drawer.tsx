import {
  Alert,
  Button,
  Drawer,
  EmptyState,
  FileInput,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconSearch, IconShieldSearch, IconUpload } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  THREAT_INDICATOR_RATINGS,
  THREAT_INDICATOR_REASON_MAX_LENGTH,
  THREAT_INDICATOR_SEVERITIES,
  THREAT_INDICATOR_TYPES,
  THREAT_INDICATOR_VALUE_MAX_LENGTH,
  THREAT_UPLOAD_MAX_FILE_BYTES,
  threatIndicatorSchema,
  threatUploadResultSchema,
  type ThreatIndicator,
  type ThreatIndicatorType,
  type ThreatSource,
  type ThreatUploadResult,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyError, notifyMessage } from '../../lib/notify';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { threatIndicatorPath, threatIndicatorsQuery, threatSourcePath, threatSourcesKey } from './threat';
import { EditDeleteButtons } from '../../shell/row-actions';
import { isoOf, localOf } from '../../lib/local-time';

const ALL = 'ALL';

/** A source's indicators: paged and filtered, added, changed, deleted and uploaded by those who may edit. */
export function IndicatorsDrawer({
  orgId,
  source,
  canEdit,
  onClose,
}: {
  orgId: string;
  source: ThreatSource;
  canEdit: boolean;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [type, setType] = useState<ThreatIndicatorType | null>(null);
  const [search, setSearch] = useState('');
  const [debouncedSearch] = useDebouncedValue(search.trim(), 300);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<ThreatIndicator | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ThreatIndicator | null>(null);
  const list = useQuery(
    threatIndicatorsQuery(orgId, source.id, {
      type,
      search: debouncedSearch,
      pageNumber,
      pageSize: DEFAULT_PAGE_SIZE,
    }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: threatSourcesKey(orgId) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(threatIndicatorPath(orgId, source.id, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('threat.indicators.deleted');
      await refresh();
    },
    meta: { errorKey: 'threat.indicators.deleteFailed' },
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium' });
  const date = (value: string | null) => (value ? dateFormat.format(new Date(value)) : '—');

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={t('threat.indicators.title', { name: source.name })}
    >
      <Stack gap="md">
        {source.description && <Text size="sm">{source.description}</Text>}
        {canEdit && <UploadForm orgId={orgId} sourceId={source.id} onStored={refresh} />}
        <Group justify="space-between" align="flex-end">
          <Group align="flex-end">
            <Select
              label={t('threat.indicators.type')}
              data={[
                { value: ALL, label: t('threat.indicators.allTypes') },
                ...THREAT_INDICATOR_TYPES.map((value) => ({
                  value,
                  label: t(`threat.indicators.types.${value}`),
                })),
              ]}
              value={type ?? ALL}
              allowDeselect={false}
              onChange={(value) => {
                setType(value && value !== ALL ? (value as ThreatIndicatorType) : null);
                setPageNumber(1);
              }}
              w={160}
            />
            <TextInput
              label={t('threat.indicators.search')}
              leftSection={<IconSearch size={16} />}
              value={search}
              onChange={(event) => {
                setSearch(event.currentTarget.value);
                setPageNumber(1);
              }}
            />
          </Group>
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t('threat.indicators.new')}
            </Button>
          )}
        </Group>
        <ListStates
          query={list}
          loadingLabel={t('threat.indicators.loading')}
          failedTitle={t('threat.indicators.loadFailed')}
          empty={
            <EmptyState
              icon={<IconShieldSearch size={32} stroke={1.5} />}
              withIndicatorBackground
              title={t('threat.indicators.emptyTitle')}
              description={t('threat.indicators.emptyMessage')}
            />
          }
        >
          {(data) => (
            <>
              <Table.ScrollContainer minWidth={700}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('threat.indicators.type')}</Table.Th>
                      <Table.Th>{t('threat.indicators.value')}</Table.Th>
                      <Table.Th>{t('threat.indicators.rating')}</Table.Th>
                      <Table.Th>{t('threat.indicators.severity')}</Table.Th>
                      <Table.Th>{t('threat.indicators.reason')}</Table.Th>
                      <Table.Th>{t('threat.indicators.validFrom')}</Table.Th>
                      <Table.Th>{t('threat.indicators.expires')}</Table.Th>
                      {canEdit && (
                        <Table.Th>
                          <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                        </Table.Th>
                      )}
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((indicator) => (
                      <Table.Tr key={indicator.id}>
                        <Table.Td>{t(`threat.indicators.types.${indicator.type}`)}</Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace" style={{ wordBreak: 'break-all' }}>
                            {indicator.value}
                          </Text>
                        </Table.Td>
                        <Table.Td>{indicator.rating}</Table.Td>
                        <Table.Td>{indicator.severity ?? '—'}</Table.Td>
                        <Table.Td>
                          <Text size="sm" lineClamp={2}>
                            {indicator.reason || '—'}
                          </Text>
                        </Table.Td>
                        <Table.Td>{date(indicator.validFrom)}</Table.Td>
                        <Table.Td>{date(indicator.expiresAt)}</Table.Td>
                        {canEdit && (
                          <Table.Td>
                            <Group gap="xs" justify="flex-end" wrap="nowrap">
                              <EditDeleteButtons
                                editLabel={t('threat.indicators.editNamed', { value: indicator.value })}
                                deleteLabel={t('threat.indicators.deleteNamed', { value: indicator.value })}
                                deleteText={t('threat.indicators.delete')}
                                onEdit={() => setEditing(indicator)}
                                onDelete={() => setDeleting(indicator)}
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
              />
            </>
          )}
        </ListStates>
      </Stack>
      {editing && (
        <IndicatorDialog
          orgId={orgId}
          sourceId={source.id}
          indicator={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
          onSaved={refresh}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('threat.indicators.deleteTitle')}
        message={t('threat.indicators.deleteMessage', { value: deleting?.value ?? '' })}
        confirmLabel={t('threat.indicators.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Drawer>
  );
}

function IndicatorDialog({
  orgId,
  sourceId,
  indicator,
  onClose,
  onSaved,
}: {
  orgId: string;
  sourceId: string;
  indicator: ThreatIndicator | null;
  onClose: () => void;
  onSaved: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [type, setType] = useState<ThreatIndicatorType>(indicator?.type ?? 'IP');
  const [value, setValue] = useState(indicator?.value ?? '');
  const [rating, setRating] = useState(indicator?.rating ?? 'HIGH');
  const [severity, setSeverity] = useState<string | null>(indicator?.severity ?? null);
  const [reason, setReason] = useState(indicator?.reason ?? '');
  const [validFrom, setValidFrom] = useState(localOf(indicator?.validFrom ?? null));
  const [expires, setExpires] = useState(localOf(indicator?.expiresAt ?? null));
  const [error, setError] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(threatIndicatorPath(orgId, sourceId, indicator?.id), {
        method: indicator ? 'PUT' : 'POST',
        body: {
          type,
          value,
          rating,
          severity,
          reason,
          validFrom: isoOf(validFrom),
          expiresAt: isoOf(expires),
        },
        schema: threatIndicatorSchema,
      }),
    onSuccess: async () => {
      notifyMessage(indicator ? 'threat.indicators.saved' : 'threat.indicators.created');
      onClose();
      await onSaved();
    },
    // Rule breaks are shown in the form, with the valid values where the server lists them.
    onError: (failure) =>
      failure instanceof ApiRequestError && failure.status < 500
        ? setError(describeError(failure, t))
        : notifyError(failure, 'threat.indicators.saveFailed'),
    meta: { notifyError: false },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={indicator ? t('threat.indicators.editTitle') : t('threat.indicators.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setError(null);
          if (value.trim() === '') setError(t('ERROR_REQUIRED'));
          else save.mutate();
        }}
      >
        <Stack gap="sm">
          {error && (
            <Alert color="red" role="alert">
              {error}
            </Alert>
          )}
          <Select
            label={t('threat.indicators.type')}
            data={THREAT_INDICATOR_TYPES.map((entry) => ({
              value: entry,
              label: t(`threat.indicators.types.${entry}`),
            }))}
            value={type}
            allowDeselect={false}
            onChange={(next) => next && setType(next as ThreatIndicatorType)}
          />
          <TextInput
            label={t('threat.indicators.value')}
            required
            data-autofocus
            maxLength={THREAT_INDICATOR_VALUE_MAX_LENGTH}
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
          />
          <Group grow>
            <Select
              label={t('threat.indicators.rating')}
              data={[...THREAT_INDICATOR_RATINGS]}
              value={rating}
              allowDeselect={false}
              onChange={(next) => next && setRating(next)}
            />
            <Select
              label={t('threat.indicators.severity')}
              data={[...THREAT_INDICATOR_SEVERITIES]}
              value={severity}
              clearable
              onChange={setSeverity}
            />
          </Group>
          <TextInput
            label={t('threat.indicators.reason')}
            maxLength={THREAT_INDICATOR_REASON_MAX_LENGTH}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
          />
          <Group grow>
            <TextInput
              type="datetime-local"
              label={t('threat.indicators.validFrom')}
              required={type === 'IP'}
              value={validFrom}
              onChange={(event) => setValidFrom(event.currentTarget.value)}
            />
            <TextInput
              type="datetime-local"
              label={t('threat.indicators.expires')}
              required={type === 'IP'}
              value={expires}
              onChange={(event) => setExpires(event.currentTarget.value)}
            />
          </Group>
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

/** Upload of one file of one indicator type; nothing is stored unless every line is valid. */
function UploadForm({
  orgId,
  sourceId,
  onStored,
}: {
  orgId: string;
  sourceId: string;
  onStored: () => Promise<void>;
}) {
  const { t } = useTranslation();
  const [type, setType] = useState<ThreatIndicatorType>('IP');
  const [file, setFile] = useState<File | null>(null);
  const [result, setResult] = useState<ThreatUploadResult | null>(null);
  const upload = useMutation({
    mutationFn: (chosen: File) => {
      const form = new FormData();
      form.append('file', chosen, chosen.name);
      return apiFetch(`${threatSourcePath(orgId, sourceId)}/indicators/upload?type=${type}`, {
        method: 'POST',
        formData: form,
        schema: threatUploadResultSchema,
      });
    },
    onSuccess: async (answer, chosen) => {
      setResult(answer);
      if (answer.stored > 0 || answer.totalErrors === 0) {
        setFile(null);
        notifyMessage('threat.indicators.uploaded', 'green', { count: answer.stored, file: chosen.name });
        await onStored();
      }
    },
    meta: { errorKey: 'threat.indicators.uploadFailed' },
  });
  const tooLarge = file !== null && file.size > THREAT_UPLOAD_MAX_FILE_BYTES;
  return (
    <Stack gap="xs" component="section" aria-label={t('threat.indicators.upload')}>
      <Group align="flex-end">
        <Select
          label={t('threat.indicators.uploadType')}
          data={THREAT_INDICATOR_TYPES.map((entry) => ({
            value: entry,
            label: t(`threat.indicators.types.${entry}`),
          }))}
          value={type}
          allowDeselect={false}
          onChange={(next) => next && setType(next as ThreatIndicatorType)}
          w={160}
        />
        <FileInput
          label={t('threat.indicators.uploadFile')}
          description={t('threat.indicators.uploadHint')}
          accept=".csv,text/csv"
          clearable
          value={file}
          onChange={(chosen) => {
            setFile(chosen);
            setResult(null);
          }}
          error={tooLarge ? t('THREAT_UPLOAD_TOO_LARGE', { 0: file.name }) : undefined}
          style={{ flex: 1 }}
        />
        <Button
          leftSection={<IconUpload size={16} />}
          variant="light"
          disabled={!file || tooLarge}
          loading={upload.isPending}
          onClick={() => file && upload.mutate(file)}
        >
          {t('threat.indicators.upload')}
        </Button>
      </Group>
      {result && result.totalErrors > 0 && (
        <Alert color="red" title={t('threat.indicators.uploadRefused', { count: result.totalErrors })}>
          <Table withRowBorders={false} verticalSpacing={2} aria-label={t('threat.indicators.uploadErrors')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('threat.indicators.line')}</Table.Th>
                <Table.Th>{t('threat.indicators.column')}</Table.Th>
                <Table.Th>{t('threat.indicators.problem')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {result.errors.map((entry) => (
                <Table.Tr key={`${entry.line}-${entry.field}`}>
                  <Table.Td>{entry.line}</Table.Td>
                  <Table.Td>{entry.field}</Table.Td>
                  <Table.Td>
                    {t(entry.key, { value: entry.value, max: THREAT_INDICATOR_REASON_MAX_LENGTH })}
                    {entry.validValues &&
                      ` ${t('errors.validValues', { values: entry.validValues.join(', ') })}`}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Alert>
      )}
    </Stack>
  );
}
