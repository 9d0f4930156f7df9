import {
  Button,
  Checkbox,
  Fieldset,
  Group,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TextInput,
} from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  EVENT_RETENTION_DEFAULT_DAYS,
  EVENT_RETENTION_MAX_DAYS,
  EVENT_RETENTION_MIN_DAYS,
  FEATURE_FLAG_DEFAULTS,
  FEATURE_FLAGS,
  MANAGEMENT_MODES,
  managedOrgInputSchema,
  managedOrgSchema,
  PRODUCT_SKUS,
  resolveFeatureFlags,
  type FeatureFlags,
  type ManagedOrg,
  type ManagementMode,
  type ProductSku,
} from '@vigil/contracts';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { describeError, notifyError, notifyMessage } from '../../lib/notify';
import { userOrgsQuery } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { managedOrgsPath, managedOrgsQuery } from './queries';

export type ManagedOrgInput = z.input<typeof managedOrgInputSchema>;

export interface ManagedOrgFormValues {
  name: string;
  productSkus: ProductSku[];
  managementMode: ManagementMode;
  featureFlags: FeatureFlags;
  requireTwoFactor: boolean;
  csmName: string;
  csmEmailAddress: string;
  eventRetentionDays: number | string;
}

type Field = keyof ManagedOrgFormValues;

export function formValuesOf(org: ManagedOrg | null): ManagedOrgFormValues {
  return {
    name: org?.name ?? '',
    productSkus: org?.productSkus ?? [],
    managementMode: org?.managementMode ?? 'ONBOARDING',
    featureFlags: resolveFeatureFlags(org?.featureFlags ?? {}),
    requireTwoFactor: org?.requireTwoFactor ?? false,
    csmName: org?.csmName ?? '',
    csmEmailAddress: org?.csmEmailAddress ?? '',
    eventRetentionDays: org?.eventRetentionDays ?? EVENT_RETENTION_DEFAULT_DAYS,
  };
}

/** The request body: blank contact fields become null and only the flags that differ from the defaults go. */
export function inputOf(values: ManagedOrgFormValues): ManagedOrgInput {
  const featureFlags = Object.fromEntries(
    FEATURE_FLAGS.filter((flag) => values.featureFlags[flag] !== FEATURE_FLAG_DEFAULTS[flag]).map((flag) => [
      flag,
      values.featureFlags[flag],
    ]),
  );
  return {
    name: values.name.trim(),
    productSkus: PRODUCT_SKUS.filter((sku) => values.productSkus.includes(sku)),
    managementMode: values.managementMode,
    featureFlags,
    requireTwoFactor: values.requireTwoFactor,
    csmName: values.csmName.trim() || null,
    csmEmailAddress: values.csmEmailAddress.trim() || null,
    // An empty field stays empty so that the schema reports it rather than a default replacing it.
    eventRetentionDays: values.eventRetentionDays === '' ? Number.NaN : Number(values.eventRetentionDays),
  };
}

/** The message of each field the schema refuses. */
export function validate(input: ManagedOrgInput, t: TFunction): Partial<Record<Field, string>> {
  const result = managedOrgInputSchema.safeParse(input);
  if (result.success) return {};
  const errors: Partial<Record<Field, string>> = {};
  for (const issue of result.error.issues) {
    const field = issue.path[0] as Field | undefined;
    if (!field || errors[field]) continue;
    if (field === 'name')
      errors.name = input.name === '' ? t('ERROR_REQUIRED') : t('settings.organisations.nameTooLong');
    else if (field === 'csmEmailAddress') errors.csmEmailAddress = t('auth.invalidEmail');
    else if (field === 'csmName') errors.csmName = t('settings.organisations.csmNameTooLong');
    else if (field === 'eventRetentionDays')
      errors.eventRetentionDays = t('settings.organisations.retentionRange', {
        min: EVENT_RETENTION_MIN_DAYS,
        max: EVENT_RETENTION_MAX_DAYS,
      });
    else errors[field] = t('errors.invalidField', { field });
  }
  return errors;
}

/** What an edit would take away that cannot simply be given back: described for the confirmation. */
export function destructiveChanges(before: ManagedOrg, after: ManagedOrgInput, t: TFunction): string[] {
  const changes: string[] = [];
  const removed = before.productSkus.filter((sku) => !(after.productSkus ?? []).includes(sku));
  if (removed.length > 0) {
    changes.push(
      t('settings.organisations.confirm.productsRemoved', {
        products: removed.map((sku) => t(`productSkus.${sku}`)).join(', '),
      }),
    );
  }
  if (after.managementMode === 'DEPARTING' && before.managementMode !== 'DEPARTING') {
    changes.push(t('settings.organisations.confirm.departing'));
  }
  if (after.eventRetentionDays !== undefined && after.eventRetentionDays < before.eventRetentionDays) {
    changes.push(t('settings.organisations.confirm.retentionShortened', { days: after.eventRetentionDays }));
  }
  if (before.requireTwoFactor && after.requireTwoFactor === false) {
    changes.push(t('settings.organisations.confirm.twoFactorOff'));
  }
  return changes;
}

/** Creates an organisation (org null) or edits one, for provider administrators. */
export function ManagedOrgForm({
  orgId,
  org,
  onDone,
}: {
  /** The provider organisation the administrator works in. */
  orgId: string;
  org: ManagedOrg | null;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState(() => formValuesOf(org));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [pendingConfirmation, setPendingConfirmation] = useState<string[] | null>(null);

  const save = useMutation({
    mutationFn: (input: ManagedOrgInput) =>
      apiFetch(org ? `${managedOrgsPath(orgId)}/${encodeURIComponent(org.id)}` : managedOrgsPath(orgId), {
        method: org ? 'PUT' : 'POST',
        body: input,
        schema: managedOrgSchema,
      }),
    onSuccess: async () => {
      setPendingConfirmation(null);
      notifyMessage(org ? 'settings.organisations.saved' : 'settings.organisations.created');
      // A new organisation is one the administrator may now switch to.
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: managedOrgsQuery(orgId).queryKey }),
        queryClient.invalidateQueries({ queryKey: userOrgsQuery.queryKey }),
      ]);
      onDone();
    },
    onError: (err) => {
      setPendingConfirmation(null);
      const field = err instanceof ApiRequestError ? (err.error.field as Field | undefined) : undefined;
      if (field && field in values) setServerErrors({ [field]: describeError(err, t) });
      else
        notifyError(err, org ? 'settings.organisations.saveFailed' : 'settings.organisations.createFailed');
    },
    meta: { notifyError: false },
  });

  const input = inputOf(values);
  const errors = submitted ? { ...validate(input, t), ...serverErrors } : serverErrors;
  const set = <K extends Field>(field: K, value: ManagedOrgFormValues[K]) => {
    setValues((current) => ({ ...current, [field]: value }));
    setServerErrors((current) => {
      const { [field]: _cleared, ...rest } = current;
      return rest;
    });
  };

  const submit = () => {
    setSubmitted(true);
    if (Object.keys(validate(input, t)).length > 0) return;
    const destructive = org ? destructiveChanges(org, input, t) : [];
    if (destructive.length > 0) setPendingConfirmation(destructive);
    else save.mutate(input);
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Stack gap="md">
        <TextInput
          label={t('settings.organisations.name')}
          required
          value={values.name}
          onChange={(event) => set('name', event.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <Select
          label={t('settings.organisations.managementMode')}
          data={MANAGEMENT_MODES.map((mode) => ({ value: mode, label: t(`managementModes.${mode}`) }))}
          value={values.managementMode}
          allowDeselect={false}
          onChange={(mode) => {
            if (mode) set('managementMode', mode as ManagementMode);
          }}
        />
        <Checkbox.Group
          label={t('settings.organisations.products')}
          value={values.productSkus}
          onChange={(skus) => set('productSkus', skus as ProductSku[])}
        >
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
            {PRODUCT_SKUS.map((sku) => (
              <Checkbox key={sku} value={sku} label={t(`productSkus.${sku}`)} />
            ))}
          </SimpleGrid>
        </Checkbox.Group>
        <Fieldset legend={t('settings.organisations.features')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
            {FEATURE_FLAGS.map((flag) => (
              <Switch
                key={flag}
                label={t(`featureFlags.${flag}`)}
                description={FEATURE_FLAG_DEFAULTS[flag] ? t('settings.organisations.defaultOn') : undefined}
                checked={values.featureFlags[flag]}
                onChange={(event) =>
                  set('featureFlags', { ...values.featureFlags, [flag]: event.currentTarget.checked })
                }
              />
            ))}
          </SimpleGrid>
        </Fieldset>
        <Switch
          label={t('settings.organisations.requireTwoFactor')}
          checked={values.requireTwoFactor}
          onChange={(event) => set('requireTwoFactor', event.currentTarget.checked)}
        />
        <NumberInput
          label={t('settings.organisations.eventRetention')}
          description={t('settings.organisations.eventRetentionHint')}
          min={EVENT_RETENTION_MIN_DAYS}
          max={EVENT_RETENTION_MAX_DAYS}
          allowDecimal={false}
          allowNegative={false}
          clampBehavior="none"
          suffix={` ${t('settings.organisations.days')}`}
          value={values.eventRetentionDays}
          onChange={(days) => set('eventRetentionDays', days)}
          error={errors.eventRetentionDays}
          maw={260}
        />
        <Fieldset legend={t('settings.organisations.csm')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <TextInput
              label={t('settings.organisations.csmName')}
              value={values.csmName}
              onChange={(event) => set('csmName', event.currentTarget.value)}
              error={errors.csmName}
            />
            <TextInput
              type="email"
              label={t('settings.organisations.csmEmail')}
              value={values.csmEmailAddress}
              onChange={(event) => set('csmEmailAddress', event.currentTarget.value)}
              error={errors.csmEmailAddress}
            />
          </SimpleGrid>
        </Fieldset>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onDone}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={save.isPending}>
            {org ? t('common.save') : t('settings.organisations.create')}
          </Button>
        </Group>
      </Stack>
      <ConfirmDialog
        opened={pendingConfirmation !== null}
        title={t('settings.organisations.confirm.title', { name: org?.name ?? '' })}
        message={(pendingConfirmation ?? []).join('\n')}
        confirmLabel={t('common.save')}
        loading={save.isPending}
        onConfirm={() => save.mutate(input)}
        onCancel={() => setPendingConfirmation(null)}
      />
    </form>
  );
}
