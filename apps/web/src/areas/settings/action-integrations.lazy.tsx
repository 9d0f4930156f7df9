import {
  Badge,
  Button,
  Code,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  ACTION_MAX_FIELDS,
  ACTION_MULTIPLE_VALUES,
  ACTION_PROVIDERS,
  ACTION_TYPE_PROVIDERS,
  ACTION_TYPES,
  INTEGRATION_NAME_MAX_LENGTH,
  SYMXCHANGE_WARNING_CODE_MAX,
  SYMXCHANGE_WARNING_CODE_MIN,
  actionIntegrationListSchema,
  actionIntegrationSchema,
  actionSchema,
  isWellFormedUrl,
  pendingActionSchema,
  type Action,
  type ActionIntegration,
  type ActionMultipleValues,
  type ActionProvider,
  type ActionType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { ApiRequestError, apiFetch, orgPath } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListStates } from '../../shell/query-status';
import { actionIntegrationsKey, actionsQuery, PendingActions } from './pending-actions';

export const Route = createLazyRoute('/settings/action-integrations')({ component: ActionIntegrationsPage });

const key = actionIntegrationsKey;
const P = 'settings.actionIntegrations';

const integrationsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...key(orgId), 'integrations'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/action-integrations`, { schema: actionIntegrationListSchema, signal }),
  });
/** Action integrations, actions and pending actions (spec 3; feature automatedIntervention). */
function ActionIntegrationsPage() {
  const { t } = useTranslation();
  const enabled = useFeature('automatedIntervention');
  const allowed = useHasPermission('INTEGRATION_VIEW');
  const seesActions = useHasPermission('ACTION_VIEW');
  return (
    <GatedPage title={t(`${P}.title`)} allowed={allowed} maw={1200}>
      {enabled ? (
        <Stack gap="xl">
          <Integrations />
          {seesActions && (
            <>
              <Actions />
              <PendingActions />
            </>
          )}
        </Stack>
      ) : (
        <Text>{t(`${P}.notEnabled`)}</Text>
      )}
    </GatedPage>
  );
}

/** Saves with the server's field errors shown beside their fields, other failures notified. */
function useSave<T>(onDone: () => void, fallbackKey: string, save: () => Promise<T>) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId() ?? '';
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: save,
    meta: { notifyError: false },
    onSuccess: async () => {
      notifyMessage(`${P}.saved`);
      onDone();
      await queryClient.invalidateQueries({ queryKey: key(orgId) });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.error.field : undefined;
      if (error instanceof ApiRequestError && field)
        setFieldErrors({ [field]: errorMessage(error.error, t) });
      else notifyError(error, fallbackKey);
    },
  });
  return { mutation, fieldErrors, clear: () => setFieldErrors({}) };
}

function useRemove(path: (id: string) => string, onDone: () => void) {
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId() ?? '';
  return useMutation({
    mutationFn: (id: string) => apiFetch(path(id), { method: 'DELETE' }),
    meta: { errorKey: `${P}.deleteFailed` },
    onSuccess: async () => {
      notifyMessage(`${P}.deleted`);
      onDone();
      await queryClient.invalidateQueries({ queryKey: key(orgId) });
    },
  });
}

function Integrations() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('INTEGRATION_EDIT');
  const list = useQuery(integrationsQuery(orgId));
  const [editing, setEditing] = useState<ActionIntegration | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ActionIntegration | null>(null);
  const remove = useRemove(
    (id) => `${orgPath(orgId)}/action-integration/${encodeURIComponent(id)}`,
    () => setDeleting(null),
  );
  return (
    <Stack gap="sm" component="section" aria-label={t(`${P}.integrations`)}>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t(`${P}.integrations`)}
        </Title>
        {canEdit && <Button onClick={() => setEditing('new')}>{t(`${P}.addIntegration`)}</Button>}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t(`${P}.loading`)}
        failedTitle={t(`${P}.loadFailed`)}
        empty={<Text c="dimmed">{t(`${P}.noIntegrations`)}</Text>}
      >
        {(data) => (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t(`${P}.provider`)}</Table.Th>
                <Table.Th>{t(`${P}.apiBaseUrl`)}</Table.Th>
                <Table.Th>{t(`${P}.clientId`)}</Table.Th>
                <Table.Th>{t(`${P}.clientSecret`)}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((item) => {
                const name = t(`${P}.providers.${item.provider}`);
                return (
                  <Table.Tr key={item.id}>
                    <Table.Td>{name}</Table.Td>
                    <Table.Td>
                      <Code>{item.apiBaseUrl}</Code>
                    </Table.Td>
                    <Table.Td>{item.clientId}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color="green">
                        {t(`${P}.secretSet`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {canEdit && (
                        <Group gap={4} justify="flex-end" wrap="nowrap">
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            aria-label={t(`${P}.editNamed`, { name })}
                            onClick={() => setEditing(item)}
                          >
                            {t(`${P}.edit`)}
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color="red"
                            aria-label={t(`${P}.deleteNamed`, { name })}
                            onClick={() => setDeleting(item)}
                          >
                            {t(`${P}.delete`)}
                          </Button>
                        </Group>
                      )}
                    </Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      {editing && (
        <IntegrationForm
          orgId={orgId}
          integration={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t(`${P}.deleteIntegrationTitle`)}
        message={t(`${P}.deleteIntegrationMessage`, {
          provider: deleting ? t(`${P}.providers.${deleting.provider}`) : '',
        })}
        confirmLabel={t(`${P}.delete`)}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function IntegrationForm({
  orgId,
  integration,
  onClose,
}: {
  orgId: string;
  integration: ActionIntegration | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [provider, setProvider] = useState<ActionProvider>(integration?.provider ?? 'Q2');
  const [apiBaseUrl, setApiBaseUrl] = useState(integration?.apiBaseUrl ?? '');
  const [authBaseUrl, setAuthBaseUrl] = useState(integration?.authBaseUrl ?? '');
  const [clientId, setClientId] = useState(integration?.clientId ?? '');
  const [clientSecret, setClientSecret] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const { mutation, fieldErrors, clear } = useSave(onClose, `${P}.saveFailed`, () =>
    apiFetch(
      integration
        ? `${orgPath(orgId)}/action-integration/${encodeURIComponent(integration.id)}`
        : `${orgPath(orgId)}/action-integrations`,
      {
        method: integration ? 'PUT' : 'POST',
        body: {
          provider,
          apiBaseUrl: apiBaseUrl.trim(),
          authBaseUrl: authBaseUrl.trim(),
          clientId: clientId.trim(),
          clientSecret: clientSecret || null,
        },
        schema: actionIntegrationSchema,
      },
    ),
  );
  const urlProblem = (value: string) =>
    value.trim() === ''
      ? t('ERROR_REQUIRED')
      : isWellFormedUrl(value.trim())
        ? undefined
        : t('INVALID_BASE_URL', { value });
  const problems = {
    apiBaseUrl: urlProblem(apiBaseUrl),
    authBaseUrl: urlProblem(authBaseUrl),
    clientId: clientId.trim() === '' ? t('ERROR_REQUIRED') : undefined,
    clientSecret: !integration && clientSecret === '' ? t('ERROR_REQUIRED') : undefined,
  };
  const shown = (field: keyof typeof problems) =>
    fieldErrors[field] ?? (submitted ? problems[field] : undefined);
  return (
    <Modal
      opened
      onClose={onClose}
      title={
        integration
          ? t(`${P}.editIntegrationTitle`, { provider: t(`${P}.providers.${integration.provider}`) })
          : t(`${P}.addIntegrationTitle`)
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (Object.values(problems).every((problem) => !problem)) mutation.mutate();
        }}
      >
        <Stack gap="sm">
          <Select
            label={t(`${P}.provider`)}
            required
            allowDeselect={false}
            data={ACTION_PROVIDERS.map((value) => ({ value, label: t(`${P}.providers.${value}`) }))}
            value={provider}
            onChange={(value) => {
              if (value) setProvider(value as ActionProvider);
              clear();
            }}
            error={fieldErrors.provider}
          />
          <TextInput
            label={t(`${P}.apiBaseUrl`)}
            required
            value={apiBaseUrl}
            error={shown('apiBaseUrl')}
            onChange={(event) => {
              setApiBaseUrl(event.currentTarget.value);
              clear();
            }}
          />
          <TextInput
            label={t(`${P}.authBaseUrl`)}
            required
            value={authBaseUrl}
            error={shown('authBaseUrl')}
            onChange={(event) => {
              setAuthBaseUrl(event.currentTarget.value);
              clear();
            }}
          />
          <TextInput
            label={t(`${P}.clientId`)}
            required
            value={clientId}
            error={shown('clientId')}
            onChange={(event) => {
              setClientId(event.currentTarget.value);
              clear();
            }}
          />
          <PasswordInput
            label={integration ? t(`${P}.secretReplace`) : t(`${P}.clientSecret`)}
            description={integration ? t(`${P}.secretReplaceHint`) : undefined}
            required={!integration}
            autoComplete="off"
            value={clientSecret}
            error={shown('clientSecret')}
            onChange={(event) => {
              setClientSecret(event.currentTarget.value);
              clear();
            }}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t(`${P}.save`)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function Actions() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ACTION_EDIT');
  const list = useQuery(actionsQuery(orgId));
  const [editing, setEditing] = useState<Action | 'new' | null>(null);
  const [deleting, setDeleting] = useState<Action | null>(null);
  const [running, setRunning] = useState<Action | null>(null);
  const remove = useRemove(
    (id) => `${orgPath(orgId)}/action/${encodeURIComponent(id)}`,
    () => setDeleting(null),
  );
  return (
    <Stack gap="sm" component="section" aria-label={t(`${P}.actions`)}>
      <Group justify="space-between">
        <Title order={2} size="h3">
          {t(`${P}.actions`)}
        </Title>
        {canEdit && <Button onClick={() => setEditing('new')}>{t(`${P}.addAction`)}</Button>}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t(`${P}.loading`)}
        failedTitle={t(`${P}.loadFailed`)}
        empty={<Text c="dimmed">{t(`${P}.noActions`)}</Text>}
      >
        {(data) => (
          <Table striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t(`${P}.name`)}</Table.Th>
                <Table.Th>{t(`${P}.type`)}</Table.Th>
                <Table.Th>{t(`${P}.fields`)}</Table.Th>
                <Table.Th>{t(`${P}.multiple`)}</Table.Th>
                <Table.Th>
                  <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.items.map((action) => (
                <Table.Tr key={action.id}>
                  <Table.Td>{action.name}</Table.Td>
                  <Table.Td>
                    {t(`${P}.types.${action.type}`)}
                    {action.warningCode !== null && ` (${action.warningCode})`}
                    <Text size="xs" c="dimmed">
                      {t(`${P}.providers.${action.provider}`)}
                    </Text>
                  </Table.Td>
                  <Table.Td>
                    <Code>{action.fields.join(', ')}</Code>
                  </Table.Td>
                  <Table.Td>{t(`${P}.multipleValues.${action.multipleValues}`)}</Table.Td>
                  <Table.Td>
                    {canEdit && (
                      <Group gap={4} justify="flex-end" wrap="nowrap">
                        <Button
                          size="compact-sm"
                          variant="light"
                          onClick={() => setRunning(action)}
                          aria-label={t(`${P}.runNamed`, { name: action.name })}
                        >
                          {t(`${P}.run`)}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          onClick={() => setEditing(action)}
                          aria-label={t(`${P}.editNamed`, { name: action.name })}
                        >
                          {t(`${P}.edit`)}
                        </Button>
                        <Button
                          size="compact-sm"
                          variant="subtle"
                          color="red"
                          onClick={() => setDeleting(action)}
                          aria-label={t(`${P}.deleteNamed`, { name: action.name })}
                        >
                          {t(`${P}.delete`)}
                        </Button>
                      </Group>
                    )}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      {editing && (
        <ActionForm
          orgId={orgId}
          action={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {running && <RunForm orgId={orgId} action={running} onClose={() => setRunning(null)} />}
      <ConfirmDialog
        opened={deleting !== null}
        title={t(`${P}.deleteActionTitle`)}
        message={t(`${P}.deleteActionMessage`, { name: deleting?.name ?? '' })}
        confirmLabel={t(`${P}.delete`)}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function ActionForm({
  orgId,
  action,
  onClose,
}: {
  orgId: string;
  action: Action | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [name, setName] = useState(action?.name ?? '');
  const [type, setType] = useState<ActionType>(action?.type ?? 'ADD_WARNING_CODE');
  const [provider, setProvider] = useState<ActionProvider>(action?.provider ?? 'SYMXCHANGE');
  const [fields, setFields] = useState<string[]>(action?.fields ?? []);
  const [multipleValues, setMultipleValues] = useState<ActionMultipleValues>(
    action?.multipleValues ?? 'SEND_ALL',
  );
  const [warningCode, setWarningCode] = useState<number | ''>(action?.warningCode ?? '');
  const [submitted, setSubmitted] = useState(false);
  const { mutation, fieldErrors, clear } = useSave(onClose, `${P}.saveFailed`, () =>
    apiFetch(
      action ? `${orgPath(orgId)}/action/${encodeURIComponent(action.id)}` : `${orgPath(orgId)}/actions`,
      {
        method: action ? 'PUT' : 'POST',
        body: {
          name: name.trim(),
          type,
          provider,
          fields,
          multipleValues,
          warningCode: type === 'ADD_WARNING_CODE' && warningCode !== '' ? warningCode : null,
        },
        schema: actionSchema,
      },
    ),
  );
  const providers = ACTION_TYPE_PROVIDERS[type];
  const problems = {
    name: name.trim() === '' ? t('ERROR_REQUIRED') : undefined,
    fields:
      fields.length === 0
        ? t('ERROR_REQUIRED')
        : fields.length > ACTION_MAX_FIELDS
          ? t('ACTION_MAX_FIELDS_REACHED', { max: ACTION_MAX_FIELDS })
          : undefined,
    warningCode:
      type === 'ADD_WARNING_CODE' &&
      (warningCode === '' ||
        warningCode < SYMXCHANGE_WARNING_CODE_MIN ||
        warningCode > SYMXCHANGE_WARNING_CODE_MAX)
        ? t('SYMXCHANGE_INVALID_WARNING_CODE')
        : undefined,
  };
  const shown = (field: keyof typeof problems) =>
    fieldErrors[field] ?? (submitted ? problems[field] : undefined);
  return (
    <Modal
      opened
      onClose={onClose}
      title={action ? t(`${P}.editActionTitle`, { name: action.name }) : t(`${P}.addActionTitle`)}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (Object.values(problems).every((problem) => !problem)) mutation.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t(`${P}.name`)}
            required
            maxLength={INTEGRATION_NAME_MAX_LENGTH}
            value={name}
            error={shown('name')}
            onChange={(event) => {
              setName(event.currentTarget.value);
              clear();
            }}
          />
          <Select
            label={t(`${P}.type`)}
            required
            allowDeselect={false}
            data={ACTION_TYPES.map((value) => ({ value, label: t(`${P}.types.${value}`) }))}
            value={type}
            onChange={(value) => {
              if (!value) return;
              setType(value as ActionType);
              setProvider(ACTION_TYPE_PROVIDERS[value as ActionType][0]!);
              clear();
            }}
          />
          <Select
            label={t(`${P}.provider`)}
            required
            allowDeselect={false}
            data={providers.map((value) => ({ value, label: t(`${P}.providers.${value}`) }))}
            value={provider}
            onChange={(value) => value && setProvider(value as ActionProvider)}
            error={fieldErrors.provider}
          />
          {type === 'ADD_WARNING_CODE' && (
            <NumberInput
              label={t(`${P}.warningCode`)}
              required
              min={SYMXCHANGE_WARNING_CODE_MIN}
              max={SYMXCHANGE_WARNING_CODE_MAX}
              allowDecimal={false}
              value={warningCode}
              error={shown('warningCode')}
              onChange={(value) => {
                setWarningCode(typeof value === 'number' ? value : '');
                clear();
              }}
            />
          )}
          <TagsInput
            label={t(`${P}.fields`)}
            description={t(`${P}.fieldsHint`, { max: ACTION_MAX_FIELDS })}
            required
            value={fields}
            error={shown('fields')}
            onChange={(value) => {
              setFields(value);
              clear();
            }}
          />
          <Select
            label={t(`${P}.multiple`)}
            allowDeselect={false}
            data={ACTION_MULTIPLE_VALUES.map((value) => ({
              value,
              label: t(`${P}.multipleValues.${value}`),
            }))}
            value={multipleValues}
            onChange={(value) => value && setMultipleValues(value as ActionMultipleValues)}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={mutation.isPending}>
              {t(`${P}.save`)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function RunForm({ orgId, action, onClose }: { orgId: string; action: Action; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState('');
  const list = values
    .split('\n')
    .map((value) => value.trim())
    .filter(Boolean);
  const run = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/action/${encodeURIComponent(action.id)}/run`, {
        method: 'POST',
        body: { values: list },
        schema: z.object({ items: z.array(pendingActionSchema) }),
      }),
    meta: { errorKey: `${P}.runFailed` },
    onSuccess: async ({ items }) => {
      const executed = items.filter((item) => item.state === 'EXECUTED').length;
      notifyMessage(`${P}.ran`, executed === items.length ? 'green' : 'yellow', {
        executed,
        failed: items.length - executed,
      });
      onClose();
      await queryClient.invalidateQueries({ queryKey: key(orgId) });
    },
  });
  return (
    <Modal opened onClose={onClose} title={t(`${P}.runTitle`, { name: action.name })}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          if (list.length > 0) run.mutate();
        }}
      >
        <Stack gap="sm">
          <Textarea
            label={t(`${P}.runValues`)}
            description={t(`${P}.runValuesHint`)}
            autosize
            minRows={3}
            value={values}
            onChange={(event) => setValues(event.currentTarget.value)}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={run.isPending} disabled={list.length === 0}>
              {t(`${P}.run`)}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
