import {
  ActionIcon,
  Button,
  Checkbox,
  Fieldset,
  Group,
  Modal,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  TRIGGER_DESCRIPTION_MAX_LENGTH,
  TRIGGER_SCHEDULE_MAX_WINDOWS,
  TRIGGER_SCHEDULE_NAME_MAX_LENGTH,
  triggerScheduleSchema,
  type TriggerSchedule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiRequestError, apiFetch } from '../../lib/api';
import { notifyError, notifyMessage } from '../../lib/notify';
import { minutesToTime, schedulePath, timeToMinutes, triggersKey } from './triggers';

const WEEKDAYS = [1, 2, 3, 4, 5, 6, 7] as const;
const TIME_ZONES = Intl.supportedValuesOf('timeZone');

interface WindowValues {
  days: string[];
  start: string;
  end: string;
}

interface Values {
  name: string;
  description: string;
  timezone: string;
  windows: WindowValues[];
}

const BUSINESS_HOURS: WindowValues = { days: ['1', '2', '3', '4', '5'], start: '09:00', end: '17:00' };

/** The rule the server applies to each window: weekdays, and a start before the end within the day. */
const windowValid = (window: WindowValues) => {
  const start = timeToMinutes(window.start);
  const end = timeToMinutes(window.end);
  return window.days.length > 0 && start !== null && end !== null && start < end;
};

/** Creates or changes a trigger schedule: weekdays and time ranges in a time zone. */
export function ScheduleDialog({
  orgId,
  schedule,
  onClose,
}: {
  orgId: string;
  schedule?: TriggerSchedule | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const queryClient = useQueryClient();
  const [values, setValues] = useState<Values>({
    name: schedule?.name ?? '',
    description: schedule?.description ?? '',
    timezone: schedule?.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone,
    windows: schedule?.windows.map((window) => ({
      days: window.days.map(String),
      start: minutesToTime(window.startMinute),
      end: minutesToTime(window.endMinute),
    })) ?? [BUSINESS_HOURS],
  });
  const [submitted, setSubmitted] = useState(false);
  const [nameError, setNameError] = useState<string | undefined>();
  const save = useMutation({
    mutationFn: (input: Values) =>
      apiFetch(schedulePath(orgId, schedule?.id), {
        method: schedule ? 'PUT' : 'POST',
        body: {
          name: input.name.trim(),
          description: input.description.trim(),
          timezone: input.timezone,
          windows: input.windows.map((window) => ({
            days: window.days.map(Number),
            startMinute: timeToMinutes(window.start),
            endMinute: timeToMinutes(window.end),
          })),
        },
        schema: triggerScheduleSchema,
      }),
    onSuccess: async () => {
      notifyMessage(schedule ? 'triggerSchedules.saved' : 'triggerSchedules.created');
      onClose();
      await queryClient.invalidateQueries({ queryKey: triggersKey(orgId) });
    },
    onError: (error) => {
      if (error instanceof ApiRequestError && error.error.key === 'TRIGGER_SCHEDULE_NAME_TAKEN') {
        setNameError(t(error.error.key, error.error.params ?? {}));
      } else notifyError(error, 'triggerSchedules.saveFailed');
    },
    meta: { notifyError: false },
  });
  const weekdayName = (day: number) =>
    // 2024-01-01 was a Monday: day 1.
    new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' }).format(
      new Date(Date.UTC(2024, 0, day)),
    );
  const setWindow = (index: number, next: Partial<WindowValues>) =>
    setValues((current) => ({
      ...current,
      windows: current.windows.map((window, at) => (at === index ? { ...window, ...next } : window)),
    }));

  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={schedule ? t('triggerSchedules.editTitle') : t('triggerSchedules.newTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (values.name.trim() !== '' && values.windows.length > 0 && values.windows.every(windowValid)) {
            save.mutate(values);
          }
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('triggerSchedules.name')}
            required
            data-autofocus
            maxLength={TRIGGER_SCHEDULE_NAME_MAX_LENGTH}
            value={values.name}
            onChange={(event) => {
              const name = event.currentTarget.value;
              setNameError(undefined);
              setValues((current) => ({ ...current, name }));
            }}
            error={nameError ?? (submitted && values.name.trim() === '' ? t('ERROR_REQUIRED') : undefined)}
          />
          <Textarea
            label={t('triggerSchedules.description')}
            autosize
            minRows={2}
            maxLength={TRIGGER_DESCRIPTION_MAX_LENGTH}
            value={values.description}
            onChange={(event) => {
              const description = event.currentTarget.value;
              setValues((current) => ({ ...current, description }));
            }}
          />
          <Select
            label={t('triggerSchedules.timezone')}
            required
            searchable
            allowDeselect={false}
            data={TIME_ZONES}
            value={values.timezone}
            onChange={(timezone) =>
              setValues((current) => ({ ...current, timezone: timezone ?? current.timezone }))
            }
          />
          {values.windows.map((window, index) => (
            <Fieldset key={index} legend={t('triggerSchedules.window', { number: index + 1 })}>
              <Stack gap="xs">
                <Checkbox.Group
                  label={t('triggerSchedules.days')}
                  value={window.days}
                  onChange={(days) => setWindow(index, { days })}
                >
                  <Group gap="sm" mt={4}>
                    {WEEKDAYS.map((day) => (
                      <Checkbox key={day} value={String(day)} label={weekdayName(day)} />
                    ))}
                  </Group>
                </Checkbox.Group>
                <Group align="flex-end">
                  <TextInput
                    type="time"
                    label={t('triggerSchedules.start')}
                    value={window.start}
                    onChange={(event) => setWindow(index, { start: event.currentTarget.value })}
                  />
                  <TextInput
                    type="time"
                    label={t('triggerSchedules.end')}
                    description={t('triggerSchedules.endHint')}
                    value={window.end}
                    onChange={(event) => setWindow(index, { end: event.currentTarget.value })}
                  />
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    disabled={values.windows.length === 1}
                    aria-label={t('triggerSchedules.removeWindow', { number: index + 1 })}
                    onClick={() =>
                      setValues((current) => ({
                        ...current,
                        windows: current.windows.filter((_, at) => at !== index),
                      }))
                    }
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Group>
                {submitted && !windowValid(window) && (
                  <Text size="sm" c="red" role="alert">
                    {t('TRIGGER_SCHEDULE_INVALID_WINDOW')}
                  </Text>
                )}
              </Stack>
            </Fieldset>
          ))}
          <Group justify="space-between" gap="sm">
            <Button
              variant="subtle"
              leftSection={<IconPlus size={16} />}
              disabled={values.windows.length >= TRIGGER_SCHEDULE_MAX_WINDOWS}
              onClick={() =>
                setValues((current) => ({ ...current, windows: [...current.windows, BUSINESS_HOURS] }))
              }
            >
              {t('triggerSchedules.addWindow')}
            </Button>
            <Group gap="sm">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={save.isPending}>
                {t('common.save')}
              </Button>
            </Group>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
