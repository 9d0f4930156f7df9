import {
  Badge,
  Button,
  Checkbox,
  Code,
  Drawer,
  Group,
  Modal,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  IAM_ROLE_ARN_PATTERN,
  S3_BUCKET_PATTERN,
  S3_LOGS_TYPES,
  s3LogSourceSchema,
  type Integration,
  type S3LogSource,
  type S3LogsType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import {
  integrationsKey,
  logObjectsQuery,
  logSourcePath,
  logSourcesPath,
  logSourcesQuery,
} from './integration-queries';
import { IntegrationStatusBadge, useDateTime } from './integration-status';

const OBJECTS_PAGE_SIZE = 20;

/** The S3 log sources of an AWS account with their progress, errors and the objects they read. */
export function LogSourcesDrawer({
  orgId,
  account,
  onClose,
}: {
  orgId: string;
  account: Integration;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const canEdit = useHasPermission('INTEGRATION_EDIT');
  const dateTime = useDateTime();
  const queryClient = useQueryClient();
  const sources = useQuery(logSourcesQuery(orgId, account.id));
  const [editing, setEditing] = useState<S3LogSource | 'new' | null>(null);
  const [deleting, setDeleting] = useState<S3LogSource | null>(null);
  const [objectsOf, setObjectsOf] = useState<S3LogSource | null>(null);
  const invalidate = () => queryClient.invalidateQueries({ queryKey: integrationsKey(orgId) });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(logSourcePath(orgId, id), { method: 'DELETE' }),
    meta: { errorKey: 'settings.integrations.logSources.deleteFailed' },
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('settings.integrations.logSources.deleted');
      await invalidate();
    },
  });
  const poll = useMutation({
    mutationFn: (id: string) => apiFetch(`${logSourcePath(orgId, id)}/poll`, { method: 'POST' }),
    onSuccess: () => notifyMessage('settings.integrations.logSources.pollQueued', 'blue'),
  });

  return (
    <Drawer
      opened
      onClose={onClose}
      position="right"
      size="xl"
      title={t('settings.integrations.logSources.title', { name: account.name })}
      closeButtonProps={{ 'aria-label': t('settings.integrations.logSources.close') }}
    >
      <Stack gap="md">
        {canEdit && (
          <Group>
            <Button onClick={() => setEditing('new')}>{t('settings.integrations.logSources.add')}</Button>
          </Group>
        )}
        <ListStates
          query={sources}
          loadingLabel={t('settings.integrations.logSources.loading')}
          failedTitle={t('settings.integrations.logSources.loadFailed')}
          empty={<Text c="dimmed">{t('settings.integrations.logSources.empty')}</Text>}
        >
          {(data) => (
            <Stack gap="sm">
              {data.items.map((source) => (
                <Stack
                  key={source.id}
                  gap={4}
                  p="sm"
                  component="section"
                  aria-label={source.bucket}
                  style={{ border: '1px solid var(--mantine-color-default-border)', borderRadius: 8 }}
                >
                  <Group justify="space-between">
                    <Group gap="xs">
                      <Code>{source.prefix ? `${source.bucket}/${source.prefix}` : source.bucket}</Code>
                      <Badge variant="outline">
                        {t(`settings.integrations.logSources.types.${source.logsType}`)}
                      </Badge>
                    </Group>
                    <IntegrationStatusBadge status={source.enabled ? source.status : 'NO_DATA'} />
                  </Group>
                  <Text size="sm">
                    {t('settings.integrations.logSources.progress', {
                      objects: source.objectsRead,
                      events: source.eventsIngested,
                      failed: source.failedObjects,
                    })}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {source.lastPolledAt
                      ? t('settings.integrations.logSources.lastPolled', {
                          time: dateTime(source.lastPolledAt),
                        })
                      : t('settings.integrations.logSources.notPolled')}
                    {source.lastDataAt &&
                      ` · ${t('settings.integrations.columns.lastData')}: ${dateTime(source.lastDataAt)}`}
                  </Text>
                  {source.lastError && (
                    <Text size="sm" c="red" role="status">
                      {source.lastErrorKey
                        ? `${t(source.lastErrorKey)} ${source.lastError}`
                        : source.lastError}
                    </Text>
                  )}
                  <Group gap="xs">
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      onClick={() => setObjectsOf(source)}
                      aria-label={t('settings.integrations.logSources.objectsNamed', {
                        bucket: source.bucket,
                      })}
                    >
                      {t('settings.integrations.logSources.objects')}
                    </Button>
                    {canEdit && (
                      <>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          disabled={!source.enabled}
                          loading={poll.isPending && poll.variables === source.id}
                          aria-label={t('settings.integrations.logSources.pollNowNamed', {
                            bucket: source.bucket,
                          })}
                          onClick={() => poll.mutate(source.id)}
                        >
                          {t('settings.integrations.logSources.pollNow')}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setEditing(source)}
                          aria-label={t('settings.integrations.editNamed', { name: source.bucket })}
                        >
                          {t('settings.integrations.edit')}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => setDeleting(source)}
                          aria-label={t('settings.integrations.deleteNamed', { name: source.bucket })}
                        >
                          {t('settings.integrations.delete')}
                        </Button>
                      </>
                    )}
                  </Group>
                </Stack>
              ))}
            </Stack>
          )}
        </ListStates>
      </Stack>
      {editing && (
        <LogSourceForm
          orgId={orgId}
          accountId={account.id}
          source={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {objectsOf && <LogObjects orgId={orgId} source={objectsOf} onClose={() => setObjectsOf(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('settings.integrations.logSources.deleteTitle')}
        message={t('settings.integrations.logSources.deleteMessage', { bucket: deleting?.bucket ?? '' })}
        confirmLabel={t('settings.integrations.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(null)}
      />
    </Drawer>
  );
}

function LogSourceForm({
  orgId,
  accountId,
  source,
  onClose,
}: {
  orgId: string;
  accountId: string;
  source: S3LogSource | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [bucket, setBucket] = useState(source?.bucket ?? '');
  const [roleArn, setRoleArn] = useState(source?.roleArn ?? '');
  const [prefix, setPrefix] = useState(source?.prefix ?? '');
  const [logsType, setLogsType] = useState<S3LogsType>(source?.logsType ?? 'DEFAULT');
  const [enabled, setEnabled] = useState(source?.enabled ?? true);
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const bucketProblem =
    bucket.trim() === ''
      ? t('ERROR_REQUIRED')
      : S3_BUCKET_PATTERN.test(bucket.trim())
        ? undefined
        : t('GENERIC_INVALID_FIELD_VALUE', {
            field: t('settings.integrations.logSources.bucket'),
            value: bucket.trim(),
          });
  const roleProblem =
    roleArn.trim() !== '' && !IAM_ROLE_ARN_PATTERN.test(roleArn.trim()) ? t('INVALID_CLOUD_ROLE') : undefined;
  const save = useMutation({
    mutationFn: () =>
      apiFetch(source ? logSourcePath(orgId, source.id) : logSourcesPath(orgId, accountId), {
        method: source ? 'PUT' : 'POST',
        body: {
          bucket: bucket.trim(),
          roleArn: roleArn.trim() || null,
          prefix: prefix.trim(),
          logsType,
          enabled,
        },
        schema: s3LogSourceSchema,
      }),
    meta: { notifyError: false },
    onSuccess: async () => {
      notifyMessage('settings.integrations.logSources.saved');
      onClose();
      await queryClient.invalidateQueries({ queryKey: integrationsKey(orgId) });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.error.field : undefined;
      if (error instanceof ApiRequestError && field)
        setServerErrors({ [field]: errorMessage(error.error, t) });
      else notifyError(error, 'settings.integrations.logSources.saveFailed');
    },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={
        source
          ? t('settings.integrations.logSources.editTitle', { bucket: source.bucket })
          : t('settings.integrations.logSources.addTitle')
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (!bucketProblem && !roleProblem) save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.integrations.logSources.bucket')}
            required
            data-autofocus
            maxLength={63}
            value={bucket}
            onChange={(event) => {
              setBucket(event.currentTarget.value);
              setServerErrors({});
            }}
            error={serverErrors.bucket ?? (submitted ? bucketProblem : undefined)}
          />
          <TextInput
            label={t('settings.integrations.logSources.roleArn')}
            description={t('settings.integrations.logSources.roleArnHint')}
            value={roleArn}
            onChange={(event) => {
              setRoleArn(event.currentTarget.value);
              setServerErrors({});
            }}
            error={serverErrors.roleArn ?? (submitted ? roleProblem : undefined)}
          />
          {/* The organisation id is the external id the collector assumes the role with. */}
          <TextInput
            label={t('settings.integrations.logSources.externalId')}
            description={t('settings.integrations.logSources.externalIdHint')}
            value={orgId}
            readOnly
          />
          <TextInput
            label={t('settings.integrations.logSources.prefix')}
            value={prefix}
            onChange={(event) => setPrefix(event.currentTarget.value)}
          />
          <Select
            label={t('settings.integrations.logSources.logsType')}
            required
            allowDeselect={false}
            data={S3_LOGS_TYPES.map((type) => ({
              value: type,
              label: t(`settings.integrations.logSources.types.${type}`),
            }))}
            value={logsType}
            onChange={(choice) => choice && setLogsType(choice as S3LogsType)}
          />
          <Switch
            label={t('settings.integrations.logSources.enabled')}
            checked={enabled}
            onChange={(event) => setEnabled(event.currentTarget.checked)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={save.isPending}>
              {t('settings.integrations.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function LogObjects({ orgId, source, onClose }: { orgId: string; source: S3LogSource; onClose: () => void }) {
  const { t } = useTranslation();
  const dateTime = useDateTime();
  const [pageNumber, setPageNumber] = useState(1);
  const [failedOnly, setFailedOnly] = useState(false);
  const objects = useQuery(
    logObjectsQuery(orgId, source.id, { pageNumber, pageSize: OBJECTS_PAGE_SIZE, failedOnly }),
  );
  return (
    <Modal
      opened
      onClose={onClose}
      size="xl"
      title={t('settings.integrations.logSources.objectsNamed', { bucket: source.bucket })}
    >
      <Stack gap="sm">
        <Checkbox
          label={t('settings.integrations.logSources.failedOnly')}
          checked={failedOnly}
          onChange={(event) => {
            setFailedOnly(event.currentTarget.checked);
            setPageNumber(1);
          }}
        />
        <ListStates
          query={objects}
          loadingLabel={t('settings.integrations.logSources.loading')}
          failedTitle={t('settings.integrations.logSources.loadFailed')}
          empty={<Text c="dimmed">{t('settings.integrations.logSources.noObjects')}</Text>}
        >
          {(data) => (
            <>
              <Table.ScrollContainer minWidth={640}>
                <Table striped>
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>{t('settings.integrations.logSources.objectKey')}</Table.Th>
                      <Table.Th>{t('settings.integrations.logSources.objectEvents')}</Table.Th>
                      <Table.Th>{t('settings.integrations.logSources.objectRejected')}</Table.Th>
                      <Table.Th>{t('settings.integrations.logSources.objectReadAt')}</Table.Th>
                      <Table.Th>
                        <VisuallyHidden>{t('settings.integrations.logSources.objectError')}</VisuallyHidden>
                      </Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.items.map((object) => (
                      <Table.Tr key={`${object.key}\n${object.etag}`}>
                        <Table.Td>
                          <Code>{object.key}</Code>
                        </Table.Td>
                        <Table.Td>{object.events}</Table.Td>
                        <Table.Td>{object.rejected}</Table.Td>
                        <Table.Td>{dateTime(object.readAt)}</Table.Td>
                        <Table.Td>
                          {object.error && (
                            <Text size="sm" c="red">
                              {object.error}
                            </Text>
                          )}
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
              <ListPager
                page={pageNumber}
                pageSize={OBJECTS_PAGE_SIZE}
                total={data.total}
                onChange={setPageNumber}
                withRange={false}
              />
            </>
          )}
        </ListStates>
      </Stack>
    </Modal>
  );
}
