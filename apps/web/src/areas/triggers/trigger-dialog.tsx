import {
  Button,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  AGGREGATION_TYPES,
  MAX_PAGE_SIZE,
  TRIGGER_DESCRIPTION_MAX_LENGTH,
  TRIGGER_INTERVAL_MAX_SECONDS,
  TRIGGER_INTERVAL_MIN_SECONDS,
  TRIGGER_MAX_ACTIONS,
  TRIGGER_NAME_MAX_LENGTH,
  TRIGGER_PERIOD_SECONDS,
  TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS,
  TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS,
  TRIGGER_SEQUENCE_MIN_STEPS,
  TRIGGER_SEVERITIES,
  TRIGGER_TYPES,
  libraryTriggerSchema,
  triggerSchema,
  type AggregationType,
  type LibraryTrigger,
  type Trigger,
  type TriggerDomain,
  type TriggerSeverity,
  type TriggerType,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { savedQueriesQuery } from '../events/saved-queries';
import { personSummariesQuery } from '../settings/metadata-queries';
import { actionsQuery } from '../settings/pending-actions';
import { useFeature } from '../../lib/org-context';
import { useHasPermission } from '../../lib/session';
import { libraryKey, libraryTriggerPath } from './library';
import { schedulesQuery, triggerPath, triggersKey } from './triggers';

type FieldName =
  | 'name'
  | 'savedQueryId'
  | 'sequence'
  | 'intervalSeconds'
  | 'aggregation'
  | 'minMatch'
  | 'emailRecipients'
  | 'customHeaders'
  | 'importantFields'
  | 'scheduleId'
  | 'ticketOwnerId'
  | 'groupId'
  | 'actionIds';

/** The keys the server answers beside a field of this form. */
const FIELD_ERRORS: Record<string, FieldName> = {
  TRIGGER_MISSING_SAVED_QUERY: 'savedQueryId',
  TRIGGER_AGGREGATE_QUERY_NOT_ALLOWED: 'savedQueryId',
  TRIGGER_MISSING_AGGREGATION: 'aggregation',
  TRIGGER_INVALID_MATCH_RANGE: 'minMatch',
  TRIGGER_SEQUENCE_STEPS_REQUIRED: 'sequence',
  TRIGGER_INVALID_SEQUENCE_INTERVAL: 'intervalSeconds',
  TRIGGER_INVALID_INTERVAL: 'intervalSeconds',
  TRIGGER_PERIOD_INTERVAL_REQUIRED: 'intervalSeconds',
  TRIGGER_INVALID_EMAIL: 'emailRecipients',
  TRIGGER_INVALID_HEADER: 'customHeaders',
  TRIGGER_INVALID_FIELD: 'importantFields',
  TRIGGER_SCHEDULE_NOT_FOUND: 'scheduleId',
  TRIGGER_INVALID_USER: 'ticketOwnerId',
  TRIGGER_LIBRARY_QUERY_REQUIRED: 'savedQueryId',
  TRIGGER_LIBRARY_GROUP_NOT_FOUND: 'groupId',
  TRIGGER_INVALID_ACTION: 'actionIds',
};

interface Values {
  name: string;
  description: string;
  type: TriggerType;
  savedQueryId: string | null;
  sequence: string[];
  intervalSeconds: number | string;
  aggregationType: AggregationType | null;
  aggregationField: string;
  minMatch: number | string;
  maxMatch: number | string;
  severity: TriggerSeverity;
  notifyOnly: boolean;
  labels: string[];
  emailRecipients: string[];
  emailDigest: boolean;
  importantFields: string[];
  headers: string;
  scheduleId: string | null;
  ticketOwnerId: string | null;
  watcherIds: string[];
  groupId: string | null;
  actionIds: string[];
}

const valuesOf = (trigger: Trigger | LibraryTrigger | null | undefined, groupId?: string): Values => ({
  name: trigger?.name ?? '',
  description: trigger?.description ?? '',
  type: trigger?.type ?? 'THRESHOLD',
  savedQueryId: trigger?.type === 'SEQUENCE' ? null : (trigger?.savedQueryId ?? null),
  sequence: trigger?.sequence?.map((step) => step.savedQueryId) ?? [],
  intervalSeconds: trigger?.intervalSeconds ?? 600,
  aggregationType: (trigger?.aggregation?.type as AggregationType | undefined) ?? null,
  aggregationField: trigger?.aggregation?.field ?? '',
  minMatch: trigger?.minMatch ?? '',
  maxMatch: trigger?.maxMatch ?? '',
  severity: trigger?.severity ?? 'MEDIUM',
  notifyOnly: trigger?.notifyOnly ?? false,
  labels: trigger?.labels ?? [],
  emailRecipients: trigger?.emailRecipients ?? [],
  emailDigest: trigger?.emailDigest ?? false,
  importantFields: trigger?.importantFields ?? [],
  headers: Object.entries(trigger?.customHeaders ?? {})
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n'),
  scheduleId: trigger?.scheduleId ?? null,
  ticketOwnerId: trigger?.ticketOwnerId ?? null,
  watcherIds: trigger?.watcherIds ?? [],
  groupId: (trigger && 'groupId' in trigger ? trigger.groupId : groupId) ?? null,
  actionIds: trigger?.actionIds ?? [],
});

/** "Name: value" lines as headers; the server checks the names and values. */
function headersOf(text: string): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (line.trim() === '') continue;
    const colon = line.indexOf(':');
    if (colon < 0) headers[line.trim()] = '';
    else headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return headers;
}

const numberOrNull = (value: number | string) => (value === '' ? null : Number(value));

/** The same bounds the server applies, so that most mistakes show before saving. */
function localErrors(
  values: Values,
  library: boolean,
): Partial<Record<FieldName, { key: string; params?: Record<string, number> }>> {
  const errors: Partial<Record<FieldName, { key: string; params?: Record<string, number> }>> = {};
  if (values.name.trim() === '') errors.name = { key: 'ERROR_REQUIRED' };
  if (library && !values.groupId) errors.groupId = { key: 'ERROR_REQUIRED' };
  if (values.type === 'SEQUENCE') {
    if (values.sequence.length < TRIGGER_SEQUENCE_MIN_STEPS) {
      errors.sequence = {
        key: 'TRIGGER_SEQUENCE_STEPS_REQUIRED',
        params: { min: TRIGGER_SEQUENCE_MIN_STEPS },
      };
    }
  } else if (!values.savedQueryId) errors.savedQueryId = { key: 'TRIGGER_MISSING_SAVED_QUERY' };
  const interval = Number(values.intervalSeconds);
  if (values.type === 'SEQUENCE') {
    if (!(
      interval >= TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS && interval <= TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS
    )) {
      errors.intervalSeconds = {
        key: 'TRIGGER_INVALID_SEQUENCE_INTERVAL',
        params: { min: TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS, max: TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS },
      };
    }
  } else if (values.type === 'TEMPORAL_ANOMALY' && interval !== TRIGGER_PERIOD_SECONDS) {
    errors.intervalSeconds = {
      key: 'TRIGGER_PERIOD_INTERVAL_REQUIRED',
      params: { seconds: TRIGGER_PERIOD_SECONDS },
    };
  } else if (!(interval >= TRIGGER_INTERVAL_MIN_SECONDS && interval <= TRIGGER_INTERVAL_MAX_SECONDS)) {
    errors.intervalSeconds = {
      key: 'TRIGGER_INVALID_INTERVAL',
      params: { min: TRIGGER_INTERVAL_MIN_SECONDS, max: TRIGGER_INTERVAL_MAX_SECONDS },
    };
  }
  if (values.type === 'AGGREGATION' && (!values.aggregationType || values.aggregationField.trim() === '')) {
    errors.aggregation = { key: 'TRIGGER_MISSING_AGGREGATION' };
  }
  const min = numberOrNull(values.minMatch);
  const max = numberOrNull(values.maxMatch);
  if (
    (min !== null && min < 0) ||
    (max !== null && max < 0) ||
    (min !== null && max !== null && min > max) ||
    (values.type === 'THRESHOLD' && min === null && max === null)
  ) {
    errors.minMatch = { key: 'TRIGGER_INVALID_MATCH_RANGE' };
  }
  return errors;
}

const usesMatchRange = (type: TriggerType) => type === 'THRESHOLD' || type === 'AGGREGATION';

/** Threshold triggers may count per value of a field; sequences correlate their steps by one. */
const usesKeyField = (type: TriggerType) => type === 'THRESHOLD' || type === 'SEQUENCE';

function aggregationOf(input: Values) {
  const field = input.aggregationField.trim();
  if (input.type === 'AGGREGATION') {
    return input.aggregationType ? { type: input.aggregationType, field } : null;
  }
  return usesKeyField(input.type) && field ? { type: 'terms' as const, field } : null;
}

/** Library mode: the groups a library trigger may belong to, and the one a new trigger starts in. */
export interface LibraryDialogProps {
  groups: { value: string; label: string }[];
  groupId?: string;
}

/**
 * Creates a trigger of `domain` or changes one. A change to the alert conditions archives the
 * current version: the server asks for confirmation (409) and the dialog asks the user. With
 * `library`, it edits a library trigger instead: in a group, on library queries, without the
 * organisation's people and schedule.
 */
export function TriggerDialog({
  orgId,
  domain,
  trigger,
  library,
  onClose,
}: {
  orgId: string;
  domain: TriggerDomain;
  trigger?: Trigger | LibraryTrigger | null;
  library?: LibraryDialogProps;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>(() => valuesOf(trigger, library?.groupId));
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [confirmingArchive, setConfirmingArchive] = useState(false);
  const savedQueries = useQuery(savedQueriesQuery(orgId, { pageSize: MAX_PAGE_SIZE, pageNumber: 1 }));
  const schedules = useQuery({
    ...schedulesQuery(orgId, { pageSize: MAX_PAGE_SIZE, pageNumber: 1 }),
    enabled: !library,
  });
  const people = useQuery({ ...personSummariesQuery(orgId), enabled: !library });
  // Actions are picked with the automatedIntervention feature by those who see them; others leave them as they are.
  const actionsEnabled = useFeature('automatedIntervention');
  const seesActions = useHasPermission('ACTION_VIEW');
  const picksActions = actionsEnabled && seesActions && !library;
  const actions = useQuery({ ...actionsQuery(orgId), enabled: picksActions });
  // The server accepts the organisation's own active users; people already chosen stay listed.
  const personOptions = (people.data ?? [])
    .filter(
      (person) =>
        person.homeOrgId === orgId &&
        (person.active || person.id === values.ticketOwnerId || values.watcherIds.includes(person.id)),
    )
    .map((person) => ({ value: person.id, label: person.fullName }));
  const queryOptions = (savedQueries.data?.items ?? [])
    .filter((query) => !library || query.library)
    .map((query) => ({
      value: query.id,
      label: query.name,
    }));

  const save = useMutation({
    mutationFn: ({ input, confirmArchive }: { input: Values; confirmArchive: boolean }) =>
      apiFetch(library ? libraryTriggerPath(orgId, trigger?.id) : triggerPath(orgId, trigger?.id), {
        method: trigger ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          description: input.description.trim(),
          type: input.type,
          savedQueryId: input.type === 'SEQUENCE' ? null : input.savedQueryId,
          sequence:
            input.type === 'SEQUENCE' ? input.sequence.map((savedQueryId) => ({ savedQueryId })) : null,
          intervalSeconds:
            input.type === 'DYNAMIC_THRESHOLD' ? TRIGGER_PERIOD_SECONDS : Number(input.intervalSeconds),
          aggregation: aggregationOf(input),
          minMatch: usesMatchRange(input.type) ? numberOrNull(input.minMatch) : null,
          maxMatch: usesMatchRange(input.type) ? numberOrNull(input.maxMatch) : null,
          severity: input.severity,
          notifyOnly: input.notifyOnly,
          labels: input.labels,
          emailRecipients: input.emailRecipients,
          emailDigest: input.emailDigest,
          importantFields: input.importantFields,
          customHeaders: headersOf(input.headers),
          // Kept as it is: the form does not show it.
          inTest: trigger?.inTest ?? false,
          ...(library
            ? { groupId: input.groupId }
            : {
                scheduleId: input.scheduleId,
                ticketOwnerId: input.ticketOwnerId,
                watcherIds: input.watcherIds,
                ...(picksActions && { actionIds: input.actionIds }),
                ...(trigger ? { confirmArchive } : { domain }),
              }),
        },
        schema: library ? libraryTriggerSchema : triggerSchema,
      }),
    onSuccess: async (saved) => {
      notifyMessage(
        trigger && saved.id !== trigger.id
          ? 'triggers.versioned'
          : trigger
            ? 'triggers.saved'
            : 'triggers.created',
      );
      onClose();
      await queryClient.invalidateQueries({ queryKey: library ? libraryKey(orgId) : triggersKey(orgId) });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.key === 'TRIGGER_MISSING_ARCHIVE_CONFIRMATION') {
        setConfirmingArchive(true);
        return;
      }
      const target = error instanceof ApiRequestError ? FIELD_ERRORS[error.error.key] : undefined;
      if (target && error instanceof ApiRequestError) {
        setServerErrors({ [target]: t(error.error.key, error.error.params ?? {}) });
      } else notifyError(error, 'triggers.saveFailed');
    },
    meta: { notifyError: false },
  });

  const local = localErrors(values, Boolean(library));
  const errorOf = (field: FieldName) => {
    if (serverErrors[field]) return serverErrors[field];
    const found = submitted ? local[field] : undefined;
    return found ? t(found.key, found.params ?? {}) : undefined;
  };
  const update =
    <K extends keyof Values>(key: K, field?: FieldName) =>
    (next: Values[K]) => {
      if (field) setServerErrors((current) => ({ ...current, [field]: undefined }));
      setValues((current) => ({ ...current, [key]: next }));
    };
  const typeOptions = TRIGGER_TYPES.map((type) => ({ value: type, label: t(`triggers.types.${type}`) }));

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={
        library
          ? t(trigger ? 'triggerLibrary.editTitle' : 'triggerLibrary.newTitle')
          : t(trigger ? 'triggers.editTitle' : 'triggers.newTitle')
      }
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (Object.keys(local).length === 0) save.mutate({ input: values, confirmArchive: false });
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('triggers.name')}
            required
            data-autofocus
            maxLength={TRIGGER_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => update('name', 'name')(event.currentTarget.value)}
            error={errorOf('name')}
          />
          {library && (
            <Select
              label={t('triggerLibrary.group')}
              required
              allowDeselect={false}
              data={library.groups}
              value={values.groupId}
              onChange={update('groupId', 'groupId')}
              error={errorOf('groupId')}
            />
          )}
          <Textarea
            label={t('triggers.description')}
            autosize
            minRows={2}
            maxLength={TRIGGER_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => update('description')(event.currentTarget.value)}
          />
          <SimpleGrid cols={2}>
            <Select
              label={t('triggers.type')}
              required
              allowDeselect={false}
              data={typeOptions}
              value={values.type}
              onChange={(next) => update('type', 'intervalSeconds')((next ?? 'THRESHOLD') as TriggerType)}
            />
            <Select
              label={t('triggers.severity')}
              required
              allowDeselect={false}
              data={TRIGGER_SEVERITIES.map((severity) => ({
                value: severity,
                label: t(`triggers.severities.${severity}`),
              }))}
              value={values.severity}
              onChange={(next) => update('severity')((next ?? 'MEDIUM') as TriggerSeverity)}
            />
          </SimpleGrid>
          {values.type === 'SEQUENCE' ? (
            <MultiSelect
              label={t('triggers.sequence')}
              description={t('triggers.sequenceHint')}
              required
              searchable
              data={queryOptions}
              value={values.sequence}
              onChange={update('sequence', 'sequence')}
              error={errorOf('sequence')}
            />
          ) : (
            <Select
              label={t('triggers.savedQuery')}
              required
              searchable
              data={queryOptions}
              value={values.savedQueryId}
              onChange={update('savedQueryId', 'savedQueryId')}
              error={
                errorOf('savedQueryId') ??
                (savedQueries.isError ? t('triggers.savedQueriesFailed') : undefined)
              }
            />
          )}
          <NumberInput
            label={t('triggers.intervalSeconds')}
            description={
              values.type === 'DYNAMIC_THRESHOLD' ? t('triggers.dynamicHint') : t('triggers.intervalHint')
            }
            required
            min={0}
            allowDecimal={false}
            disabled={values.type === 'DYNAMIC_THRESHOLD'}
            value={values.type === 'DYNAMIC_THRESHOLD' ? TRIGGER_PERIOD_SECONDS : values.intervalSeconds}
            onChange={update('intervalSeconds', 'intervalSeconds')}
            error={errorOf('intervalSeconds')}
          />
          {values.type === 'AGGREGATION' && (
            <SimpleGrid cols={2}>
              <Select
                label={t('triggers.aggregationType')}
                required
                data={[...AGGREGATION_TYPES]}
                value={values.aggregationType}
                onChange={(next) => update('aggregationType', 'aggregation')(next as AggregationType | null)}
                error={errorOf('aggregation')}
              />
              <TextInput
                label={t('triggers.aggregationField')}
                required
                value={values.aggregationField}
                onChange={(event) => update('aggregationField', 'aggregation')(event.currentTarget.value)}
              />
            </SimpleGrid>
          )}
          {usesKeyField(values.type) && (
            <TextInput
              label={values.type === 'SEQUENCE' ? t('triggers.correlationField') : t('triggers.groupField')}
              description={
                values.type === 'SEQUENCE' ? t('triggers.correlationFieldHint') : t('triggers.groupFieldHint')
              }
              value={values.aggregationField}
              onChange={(event) => update('aggregationField', 'aggregation')(event.currentTarget.value)}
            />
          )}
          {usesMatchRange(values.type) && (
            <SimpleGrid cols={2}>
              <NumberInput
                label={t('triggers.minMatch')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={values.minMatch}
                onChange={update('minMatch', 'minMatch')}
                error={errorOf('minMatch')}
              />
              <NumberInput
                label={t('triggers.maxMatch')}
                min={0}
                allowDecimal={false}
                allowNegative={false}
                value={values.maxMatch}
                onChange={update('maxMatch', 'minMatch')}
              />
            </SimpleGrid>
          )}
          {!library && (
            <>
              <Select
                label={t('triggers.schedule')}
                description={t('triggers.scheduleHint')}
                clearable
                data={(schedules.data?.items ?? []).map((schedule) => ({
                  value: schedule.id,
                  label: schedule.name,
                }))}
                value={values.scheduleId}
                onChange={update('scheduleId', 'scheduleId')}
                error={errorOf('scheduleId')}
              />
              <SimpleGrid cols={2}>
                <Select
                  label={t('triggers.ticketOwner')}
                  clearable
                  searchable
                  data={personOptions}
                  value={values.ticketOwnerId}
                  onChange={update('ticketOwnerId', 'ticketOwnerId')}
                  error={
                    errorOf('ticketOwnerId') ?? (people.isError ? t('triggers.peopleFailed') : undefined)
                  }
                />
                <MultiSelect
                  label={t('triggers.watchers')}
                  searchable
                  data={personOptions}
                  value={values.watcherIds}
                  onChange={update('watcherIds', 'ticketOwnerId')}
                />
              </SimpleGrid>
              {picksActions && (
                <MultiSelect
                  label={t('triggers.attachedActions')}
                  description={t('triggers.actionsHint')}
                  searchable
                  clearable
                  maxValues={TRIGGER_MAX_ACTIONS}
                  data={(actions.data?.items ?? []).map((action) => ({
                    value: action.id,
                    label: action.name,
                  }))}
                  value={values.actionIds}
                  onChange={update('actionIds', 'actionIds')}
                  error={errorOf('actionIds') ?? (actions.isError ? t('triggers.actionsFailed') : undefined)}
                />
              )}
            </>
          )}
          <TagsInput label={t('triggers.labels')} value={values.labels} onChange={update('labels')} />
          <TagsInput
            label={t('triggers.importantFields')}
            value={values.importantFields}
            onChange={update('importantFields', 'importantFields')}
            error={errorOf('importantFields')}
          />
          <TagsInput
            label={t('triggers.emailRecipients')}
            value={values.emailRecipients}
            onChange={update('emailRecipients', 'emailRecipients')}
            error={errorOf('emailRecipients')}
          />
          <Textarea
            label={t('triggers.customHeaders')}
            description={t('triggers.customHeadersHint')}
            autosize
            minRows={2}
            ff="monospace"
            value={values.headers}
            onChange={(event) => update('headers', 'customHeaders')(event.currentTarget.value)}
            error={errorOf('customHeaders')}
          />
          <Group>
            <Switch
              label={t('triggers.emailDigest')}
              checked={values.emailDigest}
              onChange={(event) => update('emailDigest')(event.currentTarget.checked)}
            />
            <Switch
              label={t('triggers.notifyOnly')}
              checked={values.notifyOnly}
              onChange={(event) => update('notifyOnly')(event.currentTarget.checked)}
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
      <ConfirmDialog
        opened={confirmingArchive}
        title={t('triggers.archiveTitle')}
        message={t('TRIGGER_MISSING_ARCHIVE_CONFIRMATION')}
        confirmLabel={t('triggers.archiveConfirm')}
        loading={save.isPending}
        onConfirm={() => {
          setConfirmingArchive(false);
          save.mutate({ input: values, confirmArchive: true });
        }}
        onCancel={() => setConfirmingArchive(false)}
      />
    </Modal>
  );
}
