import {
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MAX_PAGE_SIZE,
  TASK_DUE_UNITS,
  TASK_SCHEDULE_MAX_COUNT,
  TASK_SCHEDULE_NAME_MAX_LENGTH,
  TASK_SCHEDULE_TEXT_MAX_LENGTH,
  TASK_SCHEDULE_UNITS,
  taskScheduleSchema,
  type TaskDueUnit,
  type TaskSchedule,
  type TaskScheduleUnit,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { savedQueriesQuery } from '../events/saved-queries';
import { personSummariesQuery } from '../settings/metadata-queries';
import { schedulePath, schedulesKey, taskSchedulesQuery, type ScheduleScope } from './api';

interface Values {
  name: string;
  description: string;
  count: number | string;
  unit: TaskScheduleUnit;
  /** Local date and time, as the datetime-local input gives it. */
  nextRun: string;
  skipWeekends: boolean;
  dueCount: number | string;
  dueUnit: TaskDueUnit | null;
  queryIds: string[];
  parentId: string | null;
  taskTitle: string;
  taskDescription: string;
  ownerId: string | null;
  watcherIds: string[];
}

/** The server's field for each rule key, to show the refusal beside its field. */
const FIELD_OF: Record<string, keyof Values> = {
  TASK_SCHEDULE_NEXT_RUN_IN_PAST: 'nextRun',
  TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY: 'nextRun',
  TASK_SCHEDULE_INVALID_QUERY: 'queryIds',
  TASK_SCHEDULE_INVALID_OWNER: 'ownerId',
  TASK_SCHEDULE_INVALID_WATCHER: 'watcherIds',
  TASK_SCHEDULE_INVALID_PARENT: 'parentId',
  TASK_SCHEDULE_PARENT_INTERVAL: 'parentId',
  TASK_SCHEDULE_PARENT_CYCLE: 'parentId',
  TASK_SCHEDULE_TOO_MANY_LEVELS: 'parentId',
  TASK_SCHEDULE_CHILDREN_INTERVAL: 'count',
};

const pad = (value: number) => String(value).padStart(2, '0');
/** An instant as the local value of a datetime-local input. */
const toLocalInput = (iso: string) => {
  const date = new Date(iso);
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(
    date.getMinutes(),
  )}`;
};

/** Tomorrow at 09:00, local time. */
const tomorrowMorning = () => {
  const date = new Date();
  date.setDate(date.getDate() + 1);
  date.setHours(9, 0, 0, 0);
  return toLocalInput(date.toISOString());
};

/** Creates or changes a task schedule; library schedules have no queries, people or parent. */
export function TaskScheduleDialog({
  orgId,
  scope,
  schedule,
  onClose,
}: {
  orgId: string;
  scope: ScheduleScope;
  schedule: TaskSchedule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const org = scope === 'org';
  const [values, setValues] = useState<Values>({
    name: schedule?.name ?? '',
    description: schedule?.description ?? '',
    count: schedule?.interval.count ?? 1,
    unit: schedule?.interval.unit ?? 'week',
    nextRun: schedule ? toLocalInput(schedule.nextRunAt) : tomorrowMorning(),
    skipWeekends: schedule?.skipWeekends ?? false,
    dueCount: schedule?.dueIn?.count ?? '',
    dueUnit: schedule?.dueIn?.unit ?? null,
    queryIds: schedule?.queries.map((query) => query.id) ?? [],
    parentId: schedule?.parent?.id ?? null,
    taskTitle: schedule?.taskTitle ?? '',
    taskDescription: schedule?.taskDescription ?? '',
    ownerId: schedule?.ownerId ?? null,
    watcherIds: schedule?.watcherIds ?? [],
  });
  const [submitted, setSubmitted] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<keyof Values, string>>>({});
  const savedQueries = useQuery({
    ...savedQueriesQuery(orgId, { pageSize: MAX_PAGE_SIZE, pageNumber: 1 }),
    enabled: org,
  });
  const people = useQuery({ ...personSummariesQuery(orgId), enabled: org });
  const parents = useQuery({
    ...taskSchedulesQuery(orgId, 'org', {
      search: '',
      deleted: false,
      sortBy: 'name',
      desc: false,
      pageSize: MAX_PAGE_SIZE,
      pageNumber: 1,
    }),
    enabled: org,
  });
  const personOptions = (people.data ?? [])
    .filter(
      (person) => person.active || person.id === values.ownerId || values.watcherIds.includes(person.id),
    )
    .map((person) => ({ value: person.id, label: person.fullName }));

  const set = <K extends keyof Values>(key: K, value: Values[K]) => {
    setFieldErrors((current) => ({ ...current, [key]: undefined }));
    setValues((current) => ({ ...current, [key]: value }));
  };

  const save = useMutation({
    mutationFn: (input: Values) =>
      apiFetch(schedulePath(orgId, scope, schedule?.id), {
        method: schedule ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          description: input.description.trim(),
          interval: { count: Number(input.count), unit: input.unit },
          nextRunAt: new Date(input.nextRun).toISOString(),
          skipWeekends: input.skipWeekends,
          dueIn:
            input.dueUnit && input.dueCount !== ''
              ? { count: Number(input.dueCount), unit: input.dueUnit }
              : null,
          taskTitle: input.taskTitle.trim(),
          taskDescription: input.taskDescription.trim(),
          ...(org && {
            queryIds: input.queryIds,
            parentId: input.parentId,
            ownerId: input.ownerId,
            watcherIds: input.watcherIds,
          }),
        },
        schema: taskScheduleSchema,
      }),
    onSuccess: async () => {
      notifyMessage(schedule ? 'taskSchedules.saved' : 'taskSchedules.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: schedulesKey(orgId) });
    },
    onError: (error) => {
      const field = error instanceof ApiRequestError ? FIELD_OF[error.error.key] : undefined;
      if (error instanceof ApiRequestError && field) {
        setFieldErrors({ [field]: t(error.error.key, error.error.params ?? {}) });
      } else notifyError(error, 'taskSchedules.saveFailed');
    },
    meta: { notifyError: false },
  });

  const required = (value: string) => (submitted && value.trim() === '' ? t('ERROR_REQUIRED') : undefined);
  const valid =
    values.name.trim() !== '' &&
    values.taskTitle.trim() !== '' &&
    values.nextRun !== '' &&
    Number(values.count) >= 1;

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={schedule ? t('taskSchedules.editTitle') : t('taskSchedules.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (valid) save.mutate(values);
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('taskSchedules.name')}
            required
            data-autofocus
            maxLength={TASK_SCHEDULE_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => set('name', event.currentTarget.value)}
            error={required(values.name)}
          />
          <Textarea
            label={t('taskSchedules.description')}
            autosize
            minRows={2}
            maxLength={TASK_SCHEDULE_TEXT_MAX_LENGTH}
            value={values.description}
            onChange={(event) => set('description', event.currentTarget.value)}
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t('taskSchedules.every')}
              required
              min={1}
              max={TASK_SCHEDULE_MAX_COUNT}
              allowDecimal={false}
              value={values.count}
              onChange={(count) => set('count', count)}
              error={fieldErrors.count}
            />
            <Select
              label={t('taskSchedules.unit')}
              required
              allowDeselect={false}
              data={TASK_SCHEDULE_UNITS.map((unit) => ({
                value: unit,
                label: t(`taskSchedules.units.${unit}`),
              }))}
              value={values.unit}
              onChange={(unit) => set('unit', (unit as TaskScheduleUnit | null) ?? values.unit)}
            />
          </Group>
          <TextInput
            type="datetime-local"
            label={t('taskSchedules.nextRun')}
            description={t('taskSchedules.nextRunHint')}
            required
            value={values.nextRun}
            onChange={(event) => set('nextRun', event.currentTarget.value)}
            error={fieldErrors.nextRun ?? required(values.nextRun)}
          />
          <Checkbox
            label={t('taskSchedules.skipWeekends')}
            checked={values.skipWeekends}
            onChange={(event) => set('skipWeekends', event.currentTarget.checked)}
          />
          <Group grow align="flex-start">
            <NumberInput
              label={t('taskSchedules.dueIn')}
              min={1}
              max={TASK_SCHEDULE_MAX_COUNT}
              allowDecimal={false}
              value={values.dueCount}
              onChange={(count) => set('dueCount', count)}
            />
            <Select
              label={t('taskSchedules.dueUnit')}
              clearable
              data={TASK_DUE_UNITS.map((unit) => ({
                value: unit,
                label: t(`taskSchedules.dueUnits.${unit}`),
              }))}
              value={values.dueUnit}
              onChange={(unit) => set('dueUnit', unit as TaskDueUnit | null)}
            />
          </Group>
          <TextInput
            label={t('taskSchedules.taskTitle')}
            required
            maxLength={TASK_SCHEDULE_NAME_MAX_LENGTH}
            value={values.taskTitle}
            onChange={(event) => set('taskTitle', event.currentTarget.value)}
            error={required(values.taskTitle)}
          />
          <Textarea
            label={t('taskSchedules.taskDescription')}
            autosize
            minRows={2}
            maxLength={TASK_SCHEDULE_TEXT_MAX_LENGTH}
            value={values.taskDescription}
            onChange={(event) => set('taskDescription', event.currentTarget.value)}
          />
          {org && (
            <>
              <MultiSelect
                label={t('taskSchedules.queries')}
                searchable
                data={(savedQueries.data?.items ?? []).map((query) => ({
                  value: query.id,
                  label: query.name,
                }))}
                value={values.queryIds}
                onChange={(queryIds) => set('queryIds', queryIds)}
                error={fieldErrors.queryIds}
              />
              <Select
                label={t('taskSchedules.parent')}
                clearable
                searchable
                data={(parents.data?.items ?? [])
                  .filter((item) => item.id !== schedule?.id)
                  .map((item) => ({ value: item.id, label: item.name }))}
                value={values.parentId}
                onChange={(parentId) => set('parentId', parentId)}
                error={fieldErrors.parentId}
              />
              <Select
                label={t('taskSchedules.owner')}
                clearable
                searchable
                data={personOptions}
                value={values.ownerId}
                onChange={(ownerId) => set('ownerId', ownerId)}
                error={fieldErrors.ownerId}
              />
              <MultiSelect
                label={t('taskSchedules.watchers')}
                searchable
                data={personOptions}
                value={values.watcherIds}
                onChange={(watcherIds) => set('watcherIds', watcherIds)}
                error={fieldErrors.watcherIds}
              />
            </>
          )}
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
