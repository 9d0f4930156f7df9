import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Checkbox,
  EmptyState,
  Group,
  Modal,
  SegmentedControl,
  Select,
  Stack,
  Table,
  Text,
  TextInput,
  Textarea,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconCalendarOff, IconUsers } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  ESCALATION_NOTE_MAX_LENGTH,
  ESCALATION_STEP_NAME_MAX_LENGTH,
  TIMEZONES,
  escalationStepSchema,
  type EscalationDayWindow,
  type EscalationOutOfOffice,
  type EscalationSchedule,
  type EscalationStep,
  type EscalationStepHours,
} from '@vigil/contracts';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { isoOf } from '../../lib/local-time';
import { notifyError, notifyMessage } from '../../lib/notify';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListStates, QueryStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';
import {
  escalationKey,
  escalationPath,
  escalationScheduleQuery,
  escalationStepsQuery,
  outOfOfficeQuery,
} from './escalation-queries';
import { personSummariesQuery } from './metadata-queries';

export const Route = createLazyRoute('/settings/escalation')({ component: EscalationPage });

/** Contact steps, business hours and out of office: ESCALATION_VIEW to see, ESCALATION_EDIT to change. */
function EscalationPage() {
  const { t } = useTranslation();
  const permitted = useHasPermission('ESCALATION_VIEW');
  const enabled = useFeature('escalationPage');
  return (
    <GatedPage title={t('nav.tabs.escalation')} allowed={permitted && enabled} maw={1000}>
      <Text size="sm">{t('settings.escalation.intro')}</Text>
      <StepsCard />
      <ScheduleCard />
      <OutOfOfficeCard />
    </GatedPage>
  );
}

function useInvalidate() {
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId() ?? '';
  return () => queryClient.invalidateQueries({ queryKey: escalationKey(orgId) });
}

// ---------------------------------------------------------------------------------------------------
// Contact steps

function StepsCard() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ESCALATION_EDIT');
  const invalidate = useInvalidate();
  const steps = useQuery(escalationStepsQuery(orgId));
  const [editing, setEditing] = useState<{ step: EscalationStep | null } | null>(null);
  const [removing, setRemoving] = useState<EscalationStep | null>(null);
  const reorder = useMutation({
    mutationFn: (ids: string[]) =>
      apiFetch(escalationPath(orgId, 'steps/order'), { method: 'PUT', body: { ids } }),
    onSettled: invalidate,
    meta: { errorKey: 'settings.escalation.reorderFailed' },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(escalationPath(orgId, `step/${id}`), { method: 'DELETE' }),
    onSuccess: async () => {
      setRemoving(null);
      notifyMessage('settings.escalation.stepRemoved');
      await invalidate();
    },
    meta: { errorKey: 'settings.escalation.removeFailed' },
  });
  const move = (items: EscalationStep[], index: number, by: -1 | 1) => {
    const ids = items.map((step) => step.id);
    [ids[index], ids[index + by]] = [ids[index + by]!, ids[index]!];
    reorder.mutate(ids);
  };
  const full = steps.data ? steps.data.items.length >= steps.data.max : false;

  return (
    <Card withBorder>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} size="h4">
            {t('settings.escalation.stepsTitle')}
          </Title>
          {canEdit && (
            <Button onClick={() => setEditing({ step: null })} disabled={full || !steps.data}>
              {t('settings.escalation.addStep')}
            </Button>
          )}
        </Group>
        {steps.data && (
          <Text size="sm" c="dimmed">
            {t('settings.escalation.stepsHelp', {
              interval: steps.data.intervalMinutes,
              max: steps.data.max,
              count: steps.data.items.length,
            })}
          </Text>
        )}
        <ListStates
          query={steps}
          loadingLabel={t('settings.escalation.loadingSteps')}
          failedTitle={t('settings.escalation.stepsFailed')}
          empty={
            <EmptyState
              icon={<IconUsers size={32} stroke={1.5} />}
              withIndicatorBackground
              title={t('settings.escalation.noStepsTitle')}
              description={t('settings.escalation.noStepsMessage')}
            />
          }
        >
          {(data) => (
            <Table.ScrollContainer minWidth={640}>
              <Table striped aria-label={t('settings.escalation.stepsTitle')}>
                <HeaderRow keys={['step', 'name', 'contact', 'when']} withActions={canEdit} />
                <Table.Tbody>
                  {data.items.map((step, index) => (
                    <Table.Tr key={step.id}>
                      <Table.Td>{step.position}</Table.Td>
                      <Table.Td>{step.name}</Table.Td>
                      <Table.Td>
                        <Group gap="xs">
                          <Text size="sm">
                            {step.userName ? `${step.userName} (${step.email ?? ''})` : step.email}
                          </Text>
                          {!step.active && (
                            <Badge color="gray" variant="light">
                              {t('settings.escalation.inactive')}
                            </Badge>
                          )}
                        </Group>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={step.hours === 'ALWAYS' ? 'blue' : 'yellow'}>
                          {t(`settings.escalation.hours.${step.hours}`)}
                        </Badge>
                      </Table.Td>
                      {canEdit && (
                        <Table.Td>
                          <Group gap={4} justify="flex-end" wrap="nowrap">
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('settings.escalation.moveUp', { name: step.name })}
                              disabled={index === 0 || reorder.isPending}
                              onClick={() => move(data.items, index, -1)}
                            >
                              <IconArrowUp size={16} />
                            </ActionIcon>
                            <ActionIcon
                              variant="subtle"
                              aria-label={t('settings.escalation.moveDown', { name: step.name })}
                              disabled={index === data.items.length - 1 || reorder.isPending}
                              onClick={() => move(data.items, index, 1)}
                            >
                              <IconArrowDown size={16} />
                            </ActionIcon>
                            <EditDeleteButtons
                              editLabel={t('settings.escalation.editNamed', { name: step.name })}
                              deleteLabel={t('settings.escalation.removeNamed', { name: step.name })}
                              deleteText={t('settings.escalation.remove')}
                              onEdit={() => setEditing({ step })}
                              onDelete={() => setRemoving(step)}
                            />
                          </Group>
                        </Table.Td>
                      )}
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
          )}
        </ListStates>
      </Stack>
      {editing && <StepForm orgId={orgId} step={editing.step} onClose={() => setEditing(null)} />}
      <ConfirmDialog
        opened={removing !== null}
        title={t('settings.escalation.removeTitle')}
        message={t('settings.escalation.removeMessage', { name: removing?.name ?? '' })}
        confirmLabel={t('settings.escalation.remove')}
        loading={remove.isPending}
        onConfirm={() => {
          if (removing) remove.mutate(removing.id);
        }}
        onCancel={() => setRemoving(null)}
      />
    </Card>
  );
}

function StepForm({
  orgId,
  step,
  onClose,
}: {
  orgId: string;
  step: EscalationStep | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const invalidate = useInvalidate();
  const people = useQuery(personSummariesQuery(orgId));
  const [name, setName] = useState(step?.name ?? '');
  const [kind, setKind] = useState<'person' | 'email'>(step && !step.userId ? 'email' : 'person');
  const [userId, setUserId] = useState<string | null>(step?.userId ?? null);
  const [email, setEmail] = useState(step && !step.userId ? (step.email ?? '') : '');
  const [hours, setHours] = useState<EscalationStepHours>(step?.hours ?? 'ALWAYS');
  const [submitted, setSubmitted] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(escalationPath(orgId, step ? `step/${step.id}` : 'step'), {
        method: step ? 'PUT' : 'POST',
        body: {
          name: name.trim(),
          hours,
          ...(kind === 'person' ? { userId } : { email: email.trim() }),
        },
        schema: escalationStepSchema,
      }),
    onSuccess: async () => {
      notifyMessage(step ? 'settings.escalation.stepSaved' : 'settings.escalation.stepAdded');
      onClose();
      await invalidate();
    },
    onError: (error) => notifyError(error, 'settings.escalation.saveFailed'),
    meta: { notifyError: false },
  });
  const nameMissing = name.trim() === '';
  const contactMissing = kind === 'person' ? !userId : email.trim() === '';

  return (
    <Modal
      opened
      onClose={onClose}
      title={step ? t('settings.escalation.editTitle') : t('settings.escalation.addTitle')}
    >
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          setSubmitted(true);
          if (!nameMissing && !contactMissing) save.mutate();
        }}
      >
        <Stack gap="sm">
          <TextInput
            label={t('settings.escalation.name')}
            description={t('settings.escalation.nameHelp')}
            required
            data-autofocus
            maxLength={ESCALATION_STEP_NAME_MAX_LENGTH}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
            error={submitted && nameMissing ? t('ERROR_REQUIRED') : undefined}
          />
          <SegmentedControl
            aria-label={t('settings.escalation.contact')}
            value={kind}
            onChange={(value) => setKind(value as 'person' | 'email')}
            data={[
              { value: 'person', label: t('settings.escalation.person') },
              { value: 'email', label: t('settings.escalation.emailAddress') },
            ]}
          />
          {kind === 'person' ? (
            <Select
              label={t('settings.escalation.person')}
              required
              searchable
              data={(people.data ?? [])
                .filter((person) => person.active || person.id === userId)
                .map((person) => ({ value: person.id, label: person.fullName }))}
              value={userId}
              onChange={setUserId}
              error={submitted && contactMissing ? t('ERROR_REQUIRED') : undefined}
            />
          ) : (
            <TextInput
              label={t('settings.escalation.emailAddress')}
              type="email"
              required
              value={email}
              onChange={(event) => setEmail(event.currentTarget.value)}
              error={submitted && contactMissing ? t('ERROR_REQUIRED') : undefined}
            />
          )}
          <Select
            label={t('settings.escalation.when')}
            allowDeselect={false}
            data={(['ALWAYS', 'BUSINESS_HOURS'] as const).map((value) => ({
              value,
              label: t(`settings.escalation.hours.${value}`),
            }))}
            value={hours}
            onChange={(value) => value && setHours(value as EscalationStepHours)}
          />
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

/** A table's header: the named columns and, for editors, an unlabelled actions column. */
function HeaderRow({ keys, withActions }: { keys: string[]; withActions: boolean }) {
  const { t } = useTranslation();
  return (
    <Table.Thead>
      <Table.Tr>
        {keys.map((key) => (
          <Table.Th key={key}>{t(`settings.escalation.${key}`)}</Table.Th>
        ))}
        {withActions && (
          <Table.Th>
            <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
          </Table.Th>
        )}
      </Table.Tr>
    </Table.Thead>
  );
}

/** A card with a heading, a line of help and its content. */
function Section({
  title,
  help,
  after,
  children,
}: {
  title: string;
  help: string;
  after?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card withBorder>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          {help}
        </Text>
        {children}
      </Stack>
      {after}
    </Card>
  );
}

// ---------------------------------------------------------------------------------------------------
// Business hours

const DAYS = [1, 2, 3, 4, 5, 6, 7] as const;

function ScheduleCard() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const schedule = useQuery(escalationScheduleQuery(orgId));
  return (
    <Section title={t('settings.escalation.hoursTitle')} help={t('settings.escalation.hoursHelp')}>
      <QueryStates
        query={schedule}
        loadingLabel={t('settings.escalation.loadingHours')}
        failedTitle={t('settings.escalation.hoursFailed')}
      >
        {(data) => <ScheduleForm key={data.updatedAt ?? 'default'} orgId={orgId} schedule={data} />}
      </QueryStates>
    </Section>
  );
}

function ScheduleForm({ orgId, schedule }: { orgId: string; schedule: EscalationSchedule }) {
  const { t } = useTranslation();
  const canEdit = useHasPermission('ESCALATION_EDIT');
  const invalidate = useInvalidate();
  const [mode, setMode] = useState(schedule.mode);
  const [timezone, setTimezone] = useState(schedule.timezone);
  const [days, setDays] = useState<Record<number, EscalationDayWindow | null>>(() =>
    Object.fromEntries(DAYS.map((day) => [day, schedule.days.find((window) => window.day === day) ?? null])),
  );
  const save = useMutation({
    mutationFn: () =>
      apiFetch(escalationPath(orgId, 'schedule'), {
        method: 'PUT',
        body: {
          mode,
          timezone,
          days: mode === 'CUSTOM' ? Object.values(days).filter(Boolean) : [],
        },
      }),
    onSuccess: async () => {
      notifyMessage('settings.escalation.hoursSaved');
      await invalidate();
    },
    meta: { errorKey: 'settings.escalation.hoursSaveFailed' },
  });
  const zones = [...new Set<string>([...TIMEZONES, timezone, ...Intl.supportedValuesOf('timeZone')])];
  const setWindow = (day: number, change: Partial<EscalationDayWindow> | null) =>
    setDays((current) => ({
      ...current,
      [day]: change === null ? null : { day, start: '09:00', end: '17:00', ...current[day], ...change },
    }));

  return (
    <Stack gap="sm">
      <Badge color={schedule.businessHoursNow ? 'green' : 'gray'} variant="light">
        {schedule.businessHoursNow ? t('settings.escalation.openNow') : t('settings.escalation.closedNow')}
      </Badge>
      <SegmentedControl
        aria-label={t('settings.escalation.hoursTitle')}
        disabled={!canEdit}
        value={mode}
        onChange={(value) => setMode(value as EscalationSchedule['mode'])}
        data={[
          { value: 'WEEKDAYS', label: t('settings.escalation.weekdays') },
          { value: 'CUSTOM', label: t('settings.escalation.custom') },
        ]}
      />
      <Select
        label={t('settings.escalation.timezone')}
        searchable
        allowDeselect={false}
        disabled={!canEdit}
        data={zones}
        value={timezone}
        onChange={(value) => value && setTimezone(value)}
        maw={320}
      />
      {mode === 'CUSTOM' && (
        <Stack gap="xs">
          {DAYS.map((day) => {
            const window = days[day];
            const dayName = t(`settings.escalation.days.${day}`);
            return (
              <Group key={day} gap="sm" align="center">
                <Checkbox
                  w={140}
                  label={dayName}
                  disabled={!canEdit}
                  checked={window !== null}
                  onChange={(event) => setWindow(day, event.currentTarget.checked ? {} : null)}
                />
                {window && (
                  <>
                    <TextInput
                      type="time"
                      aria-label={t('settings.escalation.opensOn', { day: dayName })}
                      disabled={!canEdit}
                      value={window.start}
                      onChange={(event) => setWindow(day, { start: event.currentTarget.value })}
                    />
                    <TextInput
                      type="time"
                      aria-label={t('settings.escalation.closesOn', { day: dayName })}
                      disabled={!canEdit}
                      value={window.end === '24:00' ? '23:59' : window.end}
                      onChange={(event) => setWindow(day, { end: event.currentTarget.value })}
                    />
                  </>
                )}
              </Group>
            );
          })}
        </Stack>
      )}
      {mode === 'WEEKDAYS' && <Text size="sm">{t('settings.escalation.weekdaysHelp')}</Text>}
      {canEdit && (
        <Group>
          <Button onClick={() => save.mutate()} loading={save.isPending}>
            {t('settings.escalation.saveHours')}
          </Button>
        </Group>
      )}
    </Stack>
  );
}

// ---------------------------------------------------------------------------------------------------
// Out of office

function OutOfOfficeCard() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('ESCALATION_EDIT');
  const invalidate = useInvalidate();
  const periods = useQuery(outOfOfficeQuery(orgId));
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [note, setNote] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [removing, setRemoving] = useState<EscalationOutOfOffice | null>(null);
  const add = useMutation({
    mutationFn: () =>
      apiFetch(escalationPath(orgId, 'out-of-office'), {
        method: 'POST',
        body: { startsAt: isoOf(from), endsAt: isoOf(to), note: note.trim() },
      }),
    onSuccess: async () => {
      notifyMessage('settings.escalation.periodAdded');
      setFrom('');
      setTo('');
      setNote('');
      setSubmitted(false);
      await invalidate();
    },
    meta: { errorKey: 'settings.escalation.periodFailed' },
  });
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(escalationPath(orgId, `out-of-office/${id}`), { method: 'DELETE' }),
    onSuccess: async () => {
      setRemoving(null);
      await invalidate();
    },
    meta: { errorKey: 'settings.escalation.removeFailed' },
  });
  const format = (iso: string) =>
    new Date(iso).toLocaleString(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  return (
    <Section
      title={t('settings.escalation.outOfOfficeTitle')}
      help={t('settings.escalation.outOfOfficeHelp')}
      after={
        <ConfirmDialog
          opened={removing !== null}
          title={t('settings.escalation.removePeriodTitle')}
          message={t('settings.escalation.removePeriodMessage', {
            from: removing ? format(removing.startsAt) : '',
            to: removing ? format(removing.endsAt) : '',
          })}
          confirmLabel={t('settings.escalation.remove')}
          loading={remove.isPending}
          onConfirm={() => {
            if (removing) remove.mutate(removing.id);
          }}
          onCancel={() => setRemoving(null)}
        />
      }
    >
      <ListStates
        query={periods}
        loadingLabel={t('settings.escalation.loadingPeriods')}
        failedTitle={t('settings.escalation.periodsFailed')}
        empty={
          <EmptyState
            icon={<IconCalendarOff size={32} stroke={1.5} />}
            title={t('settings.escalation.noPeriodsTitle')}
            description={t('settings.escalation.noPeriodsMessage')}
          />
        }
      >
        {(data) => (
          <Table aria-label={t('settings.escalation.outOfOfficeTitle')}>
            <HeaderRow keys={['from', 'to', 'note']} withActions={canEdit} />
            <Table.Tbody>
              {data.items.map((period) => (
                <Table.Tr key={period.id}>
                  <Table.Td>{format(period.startsAt)}</Table.Td>
                  <Table.Td>{format(period.endsAt)}</Table.Td>
                  <Table.Td>{period.note || '—'}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      <Button
                        size="compact-sm"
                        variant="subtle"
                        color="red"
                        aria-label={t('settings.escalation.removePeriod', {
                          from: format(period.startsAt),
                        })}
                        onClick={() => setRemoving(period)}
                      >
                        {t('settings.escalation.remove')}
                      </Button>
                    </Table.Td>
                  )}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        )}
      </ListStates>
      {canEdit && (
        <form
          noValidate
          onSubmit={(event) => {
            event.preventDefault();
            setSubmitted(true);
            if (from && to) add.mutate();
          }}
        >
          <Group align="flex-end" gap="sm">
            <TextInput
              type="datetime-local"
              label={t('settings.escalation.from')}
              required
              value={from}
              onChange={(event) => setFrom(event.currentTarget.value)}
              error={submitted && !from ? t('ERROR_REQUIRED') : undefined}
            />
            <TextInput
              type="datetime-local"
              label={t('settings.escalation.to')}
              required
              value={to}
              onChange={(event) => setTo(event.currentTarget.value)}
              error={submitted && !to ? t('ERROR_REQUIRED') : undefined}
            />
            <Textarea
              label={t('settings.escalation.note')}
              autosize
              minRows={1}
              maxLength={ESCALATION_NOTE_MAX_LENGTH}
              value={note}
              onChange={(event) => setNote(event.currentTarget.value)}
              w={260}
            />
            <Button type="submit" loading={add.isPending}>
              {t('settings.escalation.addPeriod')}
            </Button>
          </Group>
        </form>
      )}
    </Section>
  );
}
