import {
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  PasswordInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  AWS_ACCOUNT_ID_PATTERN,
  AWS_INTEGRATION_TYPES,
  AZURE_NO_DATA_THRESHOLD_MAX_HOURS,
  AZURE_STORAGE_ACCOUNT_PATTERN,
  GUID_PATTERN,
  INTEGRATION_NAME_MAX_LENGTH,
  INTEGRATION_SECRET_FIELDS,
  INTEGRATION_SECRET_MAX_LENGTH,
  INTEGRATION_TEXT_MAX_LENGTH,
  integrationSchema,
  isWellFormedUrl,
  type Integration,
  type IntegrationKind,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { errorMessage, notifyError, notifyMessage } from '../../lib/notify';
import { integrationPath, integrationsKey, integrationsPath } from './integration-queries';

type FieldType = 'text' | 'select' | 'switch' | 'hours';
interface FieldSpec {
  name: string;
  type: FieldType;
  /** The catalogue key of the rule the value breaks, or undefined when it is acceptable. */
  check?: (value: string) => string | undefined;
}

const pattern = (regex: RegExp, key: string) => (value: string) => (regex.test(value) ? undefined : key);
const url = (key: string) => (value: string) => (isWellFormedUrl(value) ? undefined : key);
const guid = pattern(GUID_PATTERN, 'INVALID_GUID');

/** The plain settings of each kind, in form order, with the spec's rules (the server checks them too). */
const FIELDS: Record<IntegrationKind, FieldSpec[]> = {
  AWS: [
    { name: 'accountId', type: 'text', check: pattern(AWS_ACCOUNT_ID_PATTERN, 'INVALID_CLOUD_ACCOUNT') },
    { name: 'integrationType', type: 'select' },
  ],
  AZURE: [
    { name: 'subscriptionId', type: 'text', check: guid },
    { name: 'resourceGroup', type: 'text' },
    {
      name: 'storageAccount',
      type: 'text',
      check: pattern(AZURE_STORAGE_ACCOUNT_PATTERN, 'INVALID_STORAGE_ACCOUNT'),
    },
    { name: 'alertOnNoData', type: 'switch' },
    { name: 'noDataThresholdHours', type: 'hours' },
    { name: 'deletionEnabled', type: 'switch' },
  ],
  CRM: [
    { name: 'instanceUrl', type: 'text', check: url('INVALID_BASE_URL') },
    { name: 'clientId', type: 'text' },
  ],
  APITURE: [
    { name: 'url', type: 'text', check: url('INVALID_URI') },
    { name: 'clientId', type: 'text' },
  ],
  FINXACT: [
    { name: 'url', type: 'text', check: url('INVALID_BASE_URL') },
    { name: 'clientId', type: 'text' },
    { name: 'userRole', type: 'text' },
  ],
  ENTRA_ID: [
    { name: 'tenantId', type: 'text' },
    { name: 'applicationId', type: 'text', check: guid },
    { name: 'secretId', type: 'text', check: guid },
  ],
};

type Values = Record<string, string | boolean | number>;

function initialValues(kind: IntegrationKind, integration: Integration | null): Values {
  const defaults: Values = { integrationType: AWS_INTEGRATION_TYPES[0], noDataThresholdHours: 24 };
  const values: Values = { name: integration?.name ?? '' };
  for (const field of FIELDS[kind]) {
    const stored = integration?.settings[field.name];
    values[field.name] =
      typeof stored === 'string' || typeof stored === 'number' || typeof stored === 'boolean'
        ? stored
        : (defaults[field.name] ?? (field.type === 'switch' ? false : ''));
  }
  return values;
}

/** Add or edit an integration of `kind`. Secrets show as set or not set; a blank replace field keeps them. */
export function IntegrationForm({
  orgId,
  kind,
  integration,
  onClose,
}: {
  orgId: string;
  kind: IntegrationKind;
  integration: Integration | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => initialValues(kind, integration));
  const [secrets, setSecrets] = useState<Record<string, string>>({});
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Record<string, string>>({});
  const secretFields: readonly string[] = INTEGRATION_SECRET_FIELDS[kind];

  const text = (name: string) => String(values[name] ?? '').trim();
  const problemOf = (field: FieldSpec | { name: string; type: 'text' }): string | undefined => {
    if (field.type !== 'text') return undefined;
    if (text(field.name) === '') return 'ERROR_REQUIRED';
    return 'check' in field ? field.check?.(text(field.name)) : undefined;
  };
  const nameProblem = text('name') === '' ? 'ERROR_REQUIRED' : undefined;
  const secretProblem = (name: string) => (!integration && !secrets[name] ? 'ERROR_REQUIRED' : undefined);
  const valid =
    !nameProblem &&
    FIELDS[kind].every((field) => !problemOf(field)) &&
    secretFields.every((name) => !secretProblem(name));
  const shown = (path: string, problem: string | undefined, params: Record<string, string> = {}) =>
    serverErrors[path] ?? (submitted && problem ? t(problem, params) : undefined);

  const save = useMutation({
    mutationFn: () => {
      const settings = Object.fromEntries(
        FIELDS[kind].map((field) => [
          field.name,
          field.type === 'text'
            ? text(field.name)
            : field.type === 'hours'
              ? Number(values[field.name])
              : values[field.name],
        ]),
      );
      const body = {
        kind,
        name: text('name'),
        settings,
        ...(secretFields.length > 0 && {
          secrets: Object.fromEntries(secretFields.map((name) => [name, secrets[name] || null])),
        }),
      };
      return apiFetch(integration ? integrationPath(orgId, integration.id) : integrationsPath(orgId), {
        method: integration ? 'PUT' : 'POST',
        body,
        schema: integrationSchema,
      });
    },
    meta: { notifyError: false },
    onSuccess: async () => {
      notifyMessage(integration ? 'settings.integrations.saved' : 'settings.integrations.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: integrationsKey(orgId) });
    },
    // An error naming a field shows beside it; Entra ID's two validation failures and others notify.
    onError: (error) => {
      const field = error instanceof ApiRequestError ? error.error.field : undefined;
      if (error instanceof ApiRequestError && field) {
        setServerErrors({ [field]: errorMessage(error.error, t) });
      } else {
        notifyError(
          error,
          integration ? 'settings.integrations.editFailed' : 'settings.integrations.createFailed',
        );
      }
    },
  });

  const set = (name: string, value: string | boolean | number) => {
    setValues((current) => ({ ...current, [name]: value }));
    setServerErrors({});
  };
  const label = (name: string) => t(`settings.integrations.fields.${name}`);

  return (
    <Modal
      opened
      onClose={onClose}
      title={
        integration
          ? t('settings.integrations.editTitle', { name: integration.name })
          : t('settings.integrations.addTitle', { kind: t(`settings.integrations.kinds.${kind}`) })
      }
      size="lg"
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (valid) save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={label('name')}
            required
            data-autofocus
            maxLength={INTEGRATION_NAME_MAX_LENGTH}
            value={String(values.name)}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={shown('name', nameProblem)}
          />
          {FIELDS[kind].map((field) => {
            const path = `settings.${field.name}`;
            if (field.type === 'select') {
              return (
                <Select
                  key={field.name}
                  label={label(field.name)}
                  required
                  allowDeselect={false}
                  data={AWS_INTEGRATION_TYPES.map((type) => ({
                    value: type,
                    label: t(`settings.integrations.integrationTypes.${type}`),
                  }))}
                  value={String(values[field.name])}
                  onChange={(choice) => choice && set(field.name, choice)}
                  error={serverErrors[path]}
                />
              );
            }
            if (field.type === 'switch') {
              return (
                <Switch
                  key={field.name}
                  label={label(field.name)}
                  checked={Boolean(values[field.name])}
                  onChange={(event) => set(field.name, event.currentTarget.checked)}
                />
              );
            }
            if (field.type === 'hours') {
              return (
                <NumberInput
                  key={field.name}
                  label={label(field.name)}
                  min={1}
                  max={AZURE_NO_DATA_THRESHOLD_MAX_HOURS}
                  allowDecimal={false}
                  disabled={!values.alertOnNoData}
                  value={Number(values[field.name])}
                  onChange={(value) => set(field.name, typeof value === 'number' ? value : 24)}
                  error={serverErrors[path]}
                />
              );
            }
            return (
              <TextInput
                key={field.name}
                label={label(field.name)}
                required
                maxLength={INTEGRATION_TEXT_MAX_LENGTH}
                value={String(values[field.name])}
                onChange={(event) => set(field.name, event.currentTarget.value)}
                error={shown(path, problemOf(field), { field: label(field.name), value: text(field.name) })}
              />
            );
          })}
          {secretFields.map((name) => {
            const stored = integration?.secretsSet[name] ?? false;
            return (
              <Stack key={name} gap={4}>
                {integration && (
                  <Group gap="xs">
                    <Text size="sm" fw={500}>
                      {label(name)}
                    </Text>
                    <Badge variant="light" color={stored ? 'green' : 'gray'}>
                      {stored
                        ? t('settings.integrations.secretSet')
                        : t('settings.integrations.secretNotSet')}
                    </Badge>
                  </Group>
                )}
                <PasswordInput
                  label={
                    integration
                      ? t('settings.integrations.secretReplace', { field: label(name) })
                      : label(name)
                  }
                  description={
                    integration
                      ? t('settings.integrations.secretReplaceHint')
                      : t('settings.integrations.secretHint')
                  }
                  required={!integration}
                  autoComplete="off"
                  maxLength={INTEGRATION_SECRET_MAX_LENGTH}
                  value={secrets[name] ?? ''}
                  onChange={(event) => {
                    const value = event.currentTarget.value;
                    setSecrets((current) => ({ ...current, [name]: value }));
                    setServerErrors({});
                  }}
                  error={shown(`secrets.${name}`, secretProblem(name))}
                />
              </Stack>
            );
          })}
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
