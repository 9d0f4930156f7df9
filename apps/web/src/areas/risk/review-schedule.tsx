import {
  Badge,
  Button,
  Card,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  REVIEW_EVERY_MAX,
  REVIEW_UNITS,
  reviewScheduleSchema,
  type ReviewReminder,
  type ReviewSchedule,
  type ReviewUnit,
} from '@vigil/contracts';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { useHasPermission } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { useTicketPeople } from '../tickets/ticket-badges';
import { riskKey } from './api';

/** The colour of a review status, and of a risk's due-date status. */
export const STATUS_COLORS = { EARLY: 'green', ALMOST_DUE: 'yellow', LATE: 'red' } as const;

/** The review schedule of a risk or a control: shown, added, edited, deleted and marked reviewed. */
export function ReviewScheduleCard({
  orgId,
  target,
  id,
}: {
  orgId: string;
  target: 'risk' | 'control';
  id: string;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const canEdit = useHasPermission('RISK_EDIT');
  const path = `${orgPath(orgId)}/${target}/${encodeURIComponent(id)}/review-schedule`;
  const key = [...riskKey(orgId), 'review', target, id] as const;
  const schedule = useQuery({
    queryKey: key,
    queryFn: ({ signal }) => apiFetch(path, { schema: reviewScheduleSchema.nullable(), signal }),
  });
  const [editing, setEditing] = useState(false);
  const [deleting, setDeleting] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: riskKey(orgId) });
  const reviewed = useMutation({
    mutationFn: () => apiFetch(`${path}/reviewed`, { method: 'POST', schema: reviewScheduleSchema }),
    onSuccess: refresh,
    meta: { errorKey: 'risk.saveFailed' },
  });
  const remove = useMutation({
    mutationFn: () => apiFetch(path, { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(false);
      await refresh();
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const current = schedule.data ?? null;
  return (
    <Card withBorder mt="lg">
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={3}>{t('risk.review.title')}</Title>
          {canEdit && !schedule.isPending && (
            <Group gap="xs">
              {current ? (
                <>
                  <Button
                    variant="light"
                    disabled={current.status === 'EARLY'}
                    title={current.status === 'EARLY' ? t('risk.review.tooEarly') : undefined}
                    loading={reviewed.isPending}
                    onClick={() => reviewed.mutate()}
                  >
                    {t('risk.review.markReviewed')}
                  </Button>
                  <Button variant="default" onClick={() => setEditing(true)}>
                    {t('risk.review.edit')}
                  </Button>
                  <Button variant="subtle" color="red" onClick={() => setDeleting(true)}>
                    {t('risk.delete')}
                  </Button>
                </>
              ) : (
                <Button variant="default" onClick={() => setEditing(true)}>
                  {t('risk.review.add')}
                </Button>
              )}
            </Group>
          )}
        </Group>
        {schedule.isError ? (
          <Text c="red">{t('risk.loadFailed')}</Text>
        ) : current ? (
          <Group gap="md">
            <Badge color={STATUS_COLORS[current.status]}>{t(`risk.review.statuses.${current.status}`)}</Badge>
            <Text size="sm">
              {t('risk.review.summary', {
                every: current.every,
                unit: t(`risk.review.units.${current.unit}`),
                next: current.nextReview,
              })}
            </Text>
            <Text size="sm" c="dimmed">
              {t('risk.review.lastReviewed')}: {current.lastReviewed ?? '—'}
            </Text>
            <Text size="sm" c="dimmed">
              {t('risk.review.watchers')}: {current.watchers.map((watcher) => watcher.name).join(', ')}
            </Text>
            <ReminderState reminder={current.lastReminder} />
            {current.status === 'EARLY' && canEdit && (
              <Text size="xs" c="dimmed">
                {t('risk.review.tooEarly')}
              </Text>
            )}
          </Group>
        ) : (
          !schedule.isPending && (
            <Text size="sm" c="dimmed">
              {t('risk.review.none')}
            </Text>
          )
        )}
      </Stack>
      {editing && (
        <ScheduleDialog
          orgId={orgId}
          path={path}
          schedule={current}
          onClose={() => setEditing(false)}
          onSaved={refresh}
        />
      )}
      {deleting && (
        <Modal opened onClose={() => setDeleting(false)} title={t('risk.review.delete')} centered>
          <Stack>
            <Text>{t('risk.review.deleteConfirm')}</Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setDeleting(false)}>
                {t('common.cancel')}
              </Button>
              <Button color="red" loading={remove.isPending} onClick={() => remove.mutate()}>
                {t('risk.delete')}
              </Button>
            </Group>
          </Stack>
        </Modal>
      )}
    </Card>
  );
}

/** The last reminder sent to the watchers, and the reminder task while it is open. */
function ReminderState({ reminder }: { reminder: ReviewReminder | null }) {
  const { t, i18n } = useTranslation();
  if (!reminder) {
    return (
      <Text size="sm" c="dimmed">
        {t('risk.review.reminder.none')}
      </Text>
    );
  }
  const sentOn = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(reminder.sentOn),
  );
  return (
    <>
      <Text size="sm" c="dimmed">
        {t('risk.review.reminder.last', {
          stage: t(`risk.review.statuses.${reminder.stage}`),
          date: sentOn,
          count: reminder.recipients,
        })}
      </Text>
      {reminder.openTask && (
        <Text size="sm">
          {t('risk.review.reminder.task')}:{' '}
          <AnchorLink to="/tickets/task/$slug" params={{ slug: reminder.openTask.slug }}>
            {`${reminder.openTask.slug} ${reminder.openTask.title}`}
          </AnchorLink>
        </Text>
      )}
    </>
  );
}

function ScheduleDialog({
  orgId,
  path,
  schedule,
  onClose,
  onSaved,
}: {
  orgId: string;
  path: string;
  schedule: ReviewSchedule | null;
  onClose: () => void;
  onSaved: () => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const people = useTicketPeople(orgId);
  const [every, setEvery] = useState<number>(schedule?.every ?? 1);
  const [unit, setUnit] = useState<ReviewUnit>(schedule?.unit ?? 'year');
  const [nextReview, setNextReview] = useState(schedule?.nextReview ?? '');
  const [watcherIds, setWatcherIds] = useState<string[]>(
    schedule?.watchers.map((watcher) => watcher.id) ?? [],
  );
  const [checked, setChecked] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiFetch(path, {
        method: schedule ? 'PUT' : 'POST',
        body: { every, unit, nextReview, watcherIds },
        schema: reviewScheduleSchema,
      }),
    onSuccess: async () => {
      await onSaved();
      onClose();
    },
    meta: { errorKey: 'risk.saveFailed' },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (nextReview && watcherIds.length > 0) save.mutate();
  };
  return (
    <Modal opened onClose={onClose} title={t('risk.review.title')} centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Group grow>
            <NumberInput
              label={t('risk.review.every')}
              min={1}
              max={REVIEW_EVERY_MAX}
              value={every}
              onChange={(value) => setEvery(typeof value === 'number' ? value : 1)}
            />
            <Select
              label={t('risk.review.unit')}
              data={REVIEW_UNITS.map((value) => ({ value, label: t(`risk.review.units.${value}`) }))}
              value={unit}
              onChange={(value) => value && setUnit(value as ReviewUnit)}
              allowDeselect={false}
            />
          </Group>
          <TextInput
            type="date"
            label={t('risk.review.nextReview')}
            required
            value={nextReview}
            onChange={(event) => setNextReview(event.currentTarget.value)}
            error={checked && !nextReview ? t('common.required') : undefined}
          />
          <MultiSelect
            label={t('risk.review.watchers')}
            required
            data={people}
            value={watcherIds}
            onChange={setWatcherIds}
            searchable
            error={checked && watcherIds.length === 0 ? t('risk.review.watcherRequired') : undefined}
          />
          <Group justify="flex-end">
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
