import {
  Badge,
  Button,
  EmptyState,
  Group,
  Modal,
  Select,
  Stack,
  Table,
  TagsInput,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { IconCalendarRepeat, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  REPORT_FREQUENCIES,
  REPORT_SCHEDULE_MAX_RECIPIENTS,
  reportScheduleSchema,
  type ReportFrequency,
  type ReportRange,
  type ReportSchedule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';
import { reportsKey, schedulePath, schedulesQuery } from './api';
import { RangePicker, useTemplateOptions } from './request-dialog';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The schedules tab of /reports: templates built and e-mailed every day, week or month. */
export function ScheduleList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('REPORT_EDIT');
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const list = useQuery(schedulesQuery(orgId, { pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
  const move = useMutation({
    mutationFn: ({ schedule, to }: { schedule: ReportSchedule; to: 'pause' | 'resume' }) =>
      apiFetch(`${schedulePath(orgId, schedule.id)}/${to}`, { method: 'POST', schema: reportScheduleSchema }),
    onSuccess: async (_, { to }) => {
      notifyMessage(to === 'pause' ? 'reports.schedules.paused' : 'reports.schedules.resumed');
      await refresh();
    },
    meta: { errorKey: 'reports.schedules.saveFailed' },
  });
  const remove = useMutation({
    mutationFn: (schedule: ReportSchedule) =>
      apiFetch(schedulePath(orgId, schedule.id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('reports.schedules.deleted');
      await refresh();
    },
    meta: { errorKey: 'reports.schedules.deleteFailed' },
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      {canEdit && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('reports.schedules.new')}
          </Button>
        </Group>
      )}
      <ListStates
        query={list}
        loadingLabel={t('reports.schedules.loading')}
        failedTitle={t('reports.schedules.listFailed')}
        empty={
          <EmptyState
            icon={<IconCalendarRepeat size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('reports.schedules.emptyTitle')}
            description={t('reports.schedules.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table.ScrollContainer minWidth={900}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('reports.template')}</Table.Th>
                    <Table.Th>{t('reports.schedules.frequency')}</Table.Th>
                    <Table.Th>{t('reports.range')}</Table.Th>
                    <Table.Th>{t('reports.schedules.recipients')}</Table.Th>
                    <Table.Th>{t('reports.state')}</Table.Th>
                    <Table.Th>{t('reports.schedules.nextRun')}</Table.Th>
                    <Table.Th>{t('reports.schedules.lastRun')}</Table.Th>
                    <Table.Th>
                      <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((schedule) => (
                    <Table.Tr key={schedule.id}>
                      <Table.Td>{schedule.templateName}</Table.Td>
                      <Table.Td>{t(`reports.schedules.frequencies.${schedule.frequency}`)}</Table.Td>
                      <Table.Td>{t(`dashboards.ranges.${schedule.range}`)}</Table.Td>
                      <Table.Td>
                        <Text size="sm" lineClamp={2}>
                          {schedule.recipients.join(', ')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={schedule.state === 'ACTIVE' ? 'green' : 'gray'}>
                          {t(`reports.schedules.states.${schedule.state}`)}
                        </Badge>
                      </Table.Td>
                      <Table.Td>
                        {schedule.state === 'ACTIVE' && schedule.nextRunAt
                          ? format.format(new Date(schedule.nextRunAt))
                          : '—'}
                      </Table.Td>
                      <Table.Td>
                        {schedule.lastRunAt ? format.format(new Date(schedule.lastRunAt)) : '—'}
                        {schedule.lastRunState && (
                          <Text size="xs" c={schedule.lastRunState === 'FAILED' ? 'red' : 'dimmed'}>
                            {t(`reports.schedules.requestStates.${schedule.lastRunState}`)}
                          </Text>
                        )}
                      </Table.Td>
                      <Table.Td>
                        {canEdit && (
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t(
                                schedule.state === 'ACTIVE'
                                  ? 'reports.schedules.pauseNamed'
                                  : 'reports.schedules.resumeNamed',
                                { name: schedule.templateName },
                              )}
                              onClick={() =>
                                move.mutate({
                                  schedule,
                                  to: schedule.state === 'ACTIVE' ? 'pause' : 'resume',
                                })
                              }
                            >
                              {t(
                                schedule.state === 'ACTIVE'
                                  ? 'reports.schedules.pause'
                                  : 'reports.schedules.resume',
                              )}
                            </Button>
                            <EditDeleteButtons
                              editLabel={t('reports.schedules.editNamed', { name: schedule.templateName })}
                              deleteLabel={t('reports.schedules.deleteNamed', {
                                name: schedule.templateName,
                              })}
                              deleteText={t('reports.delete')}
                              onEdit={() => setEditing(schedule)}
                              onDelete={() => setDeleting(schedule)}
                            />
                          </Group>
                        )}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </Table.ScrollContainer>
            <ListPager
              total={data.total}
              pageSize={DEFAULT_PAGE_SIZE}
              page={pageNumber}
              onChange={setPageNumber}
            />
          </>
        )}
      </ListStates>
      {editing && (
        <ScheduleDialog
          orgId={orgId}
          schedule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      <ConfirmDialog
        opened={deleting !== null}
        title={t('reports.schedules.deleteTitle')}
        message={t('reports.schedules.deleteMessage', { name: deleting?.templateName ?? '' })}
        confirmLabel={t('reports.delete')}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

function ScheduleDialog({
  orgId,
  schedule,
  onClose,
}: {
  orgId: string;
  schedule: ReportSchedule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { options } = useTemplateOptions(orgId);
  const [templateId, setTemplateId] = useState<string | null>(schedule?.templateId ?? null);
  const [range, setRange] = useState<ReportRange>(schedule?.range ?? '7D');
  const [frequency, setFrequency] = useState<ReportFrequency>(schedule?.frequency ?? 'WEEKLY');
  const [recipients, setRecipients] = useState<string[]>(schedule?.recipients ?? []);
  const badAddress = recipients.find((address) => !EMAIL.test(address));
  const save = useMutation({
    mutationFn: () =>
      apiFetch(schedule ? schedulePath(orgId, schedule.id) : schedulePath(orgId), {
        method: schedule ? 'PUT' : 'POST',
        body: { templateId, range, frequency, recipients },
        schema: reportScheduleSchema,
      }),
    onSuccess: async () => {
      notifyMessage('reports.schedules.saved');
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'reports.schedules.saveFailed' },
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={schedule ? t('reports.schedules.editTitle') : t('reports.schedules.newTitle')}
    >
      <Stack gap="sm">
        <Select
          label={t('reports.template')}
          data={options}
          value={templateId}
          onChange={setTemplateId}
          searchable
          required
          data-autofocus
        />
        <Group grow>
          <Select
            label={t('reports.schedules.frequency')}
            description={t('reports.schedules.frequencyHint')}
            data={REPORT_FREQUENCIES.map((value) => ({
              value,
              label: t(`reports.schedules.frequencies.${value}`),
            }))}
            value={frequency}
            onChange={(value) => value && setFrequency(value as ReportFrequency)}
            allowDeselect={false}
          />
          <RangePicker value={range} onChange={setRange} />
        </Group>
        <TagsInput
          label={t('reports.schedules.recipients')}
          description={t('reports.schedules.recipientsHint', { max: REPORT_SCHEDULE_MAX_RECIPIENTS })}
          value={recipients}
          onChange={setRecipients}
          maxTags={REPORT_SCHEDULE_MAX_RECIPIENTS}
          splitChars={[',', ' ', ';']}
          error={badAddress ? t('reports.schedules.badAddress', { address: badAddress }) : undefined}
          required
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={save.isPending}
            disabled={!templateId || recipients.length === 0 || badAddress !== undefined}
            onClick={() => save.mutate()}
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
