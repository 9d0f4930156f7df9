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
import { IconCalendarRepeat, IconCopy, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  REPORT_FREQUENCIES,
  REPORT_SCHEDULE_MAX_RECIPIENTS,
  reportLibraryCopyResultSchema,
  reportScheduleSchema,
  type ReportFrequency,
  type ReportRange,
  type ReportSchedule,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { EditDeleteButtons } from '../../shell/row-actions';
import { reportsKey, schedulePath, schedulesQuery } from './api';
import { LibrarySwitch, useProviderAdmin } from './library-view';
import { RangePicker, useTemplateOptions } from './request-dialog';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The schedules tab of /reports: templates built and e-mailed every day, week or month. Library
 * schedules the provider offers show as "Not copied" until someone copies one to the organisation
 * with its own recipients; provider administrators manage the library in its own view.
 */
export function ScheduleList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const reportEditor = useHasPermission('REPORT_EDIT');
  const providerAdmin = useProviderAdmin();
  const queryClient = useQueryClient();
  const [library, setLibrary] = useState(false);
  const canEdit = library ? providerAdmin && reportEditor : reportEditor;
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<ReportSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<ReportSchedule | null>(null);
  const [copying, setCopying] = useState<ReportSchedule | null>(null);
  const [offering, setOffering] = useState(false);
  const list = useQuery(schedulesQuery(orgId, { pageNumber, pageSize: DEFAULT_PAGE_SIZE, library }));
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
  const copyAll = useMutation({
    mutationFn: () =>
      apiFetch(`${orgPath(orgId)}/report-schedules/library/copy-to-customers`, {
        method: 'POST',
        schema: reportLibraryCopyResultSchema,
      }),
    onSuccess: (result) => {
      setOffering(false);
      notifyMessage('reports.schedules.library.copiedAll', 'green', result);
    },
    meta: { errorKey: 'reports.schedules.saveFailed' },
  });
  const format = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="md">
      <Group justify="space-between">
        <LibrarySwitch
          library={library}
          onChange={(next) => {
            setLibrary(next);
            setPageNumber(1);
          }}
        />
        <Group gap="xs">
          {library && providerAdmin && (
            <Button variant="light" onClick={() => setOffering(true)}>
              {t('reports.schedules.library.copyAll')}
            </Button>
          )}
          {canEdit && (
            <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
              {t(library ? 'reports.schedules.library.new' : 'reports.schedules.new')}
            </Button>
          )}
        </Group>
      </Group>
      {library && (
        <Text size="sm" c="dimmed">
          {t('reports.schedules.library.intro')}
        </Text>
      )}
      <ListStates
        query={list}
        loadingLabel={t('reports.schedules.loading')}
        failedTitle={t('reports.schedules.listFailed')}
        empty={
          <EmptyState
            icon={<IconCalendarRepeat size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t(library ? 'reports.schedules.library.emptyTitle' : 'reports.schedules.emptyTitle')}
            description={t(
              library ? 'reports.schedules.library.emptyMessage' : 'reports.schedules.emptyMessage',
            )}
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
                          {schedule.recipients.join(', ') ||
                            (library || schedule.state === 'NOT_COPIED'
                              ? t('reports.schedules.library.noRecipients')
                              : '')}
                        </Text>
                      </Table.Td>
                      <Table.Td>
                        <Badge variant="light" color={STATE_COLOURS[schedule.state]}>
                          {t(
                            library
                              ? 'reports.schedules.library.offered'
                              : `reports.schedules.states.${schedule.state}`,
                          )}
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
                        {canEdit && schedule.state === 'NOT_COPIED' && (
                          <Group gap={4} wrap="nowrap" justify="flex-end">
                            <Button
                              size="compact-sm"
                              variant="light"
                              leftSection={<IconCopy size={14} />}
                              aria-label={t('reports.schedules.library.copyNamed', {
                                name: schedule.templateName,
                              })}
                              onClick={() => setCopying(schedule)}
                            >
                              {t('reports.schedules.library.copy')}
                            </Button>
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              color="red"
                              aria-label={t('reports.schedules.library.dismissNamed', {
                                name: schedule.templateName,
                              })}
                              onClick={() => setDeleting(schedule)}
                            >
                              {t('reports.schedules.library.dismiss')}
                            </Button>
                          </Group>
                        )}
                        {canEdit && library && (
                          <EditDeleteButtons
                            editLabel={t('reports.schedules.editNamed', { name: schedule.templateName })}
                            deleteLabel={t('reports.schedules.deleteNamed', { name: schedule.templateName })}
                            deleteText={t('reports.delete')}
                            onEdit={() => setEditing(schedule)}
                            onDelete={() => setDeleting(schedule)}
                          />
                        )}
                        {canEdit && !library && schedule.state !== 'NOT_COPIED' && (
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
          library={library}
          schedule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {copying && <CopyDialog orgId={orgId} schedule={copying} onClose={() => setCopying(null)} />}
      <ConfirmDialog
        opened={offering}
        title={t('reports.schedules.library.copyAllTitle')}
        message={t('reports.schedules.library.copyAllMessage')}
        confirmLabel={t('reports.schedules.library.copyAll')}
        loading={copyAll.isPending}
        onConfirm={() => copyAll.mutate()}
        onCancel={() => setOffering(false)}
      />
      <ConfirmDialog
        opened={deleting !== null}
        title={t(
          deleting?.state === 'NOT_COPIED'
            ? 'reports.schedules.library.dismissTitle'
            : library
              ? 'reports.schedules.library.deleteTitle'
              : 'reports.schedules.deleteTitle',
        )}
        message={t(
          deleting?.state === 'NOT_COPIED'
            ? 'reports.schedules.library.dismissMessage'
            : library
              ? 'reports.schedules.library.deleteMessage'
              : 'reports.schedules.deleteMessage',
          { name: deleting?.templateName ?? '' },
        )}
        confirmLabel={t(
          deleting?.state === 'NOT_COPIED' ? 'reports.schedules.library.dismiss' : 'reports.delete',
        )}
        loading={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting)}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}

const STATE_COLOURS: Record<ReportSchedule['state'], string> = {
  NOT_COPIED: 'blue',
  ACTIVE: 'green',
  PAUSED: 'gray',
  DELETED: 'gray',
};

/** Recipients typed as tags, with the first malformed address shown as the field's error. */
function RecipientsInput({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const { t } = useTranslation();
  const badAddress = value.find((address) => !EMAIL.test(address));
  return (
    <TagsInput
      label={t('reports.schedules.recipients')}
      description={t('reports.schedules.recipientsHint', { max: REPORT_SCHEDULE_MAX_RECIPIENTS })}
      value={value}
      onChange={onChange}
      maxTags={REPORT_SCHEDULE_MAX_RECIPIENTS}
      splitChars={[',', ' ', ';']}
      error={badAddress ? t('reports.schedules.badAddress', { address: badAddress }) : undefined}
      required
      data-autofocus
    />
  );
}

const recipientsValid = (recipients: string[]) =>
  recipients.length > 0 && recipients.every((address) => EMAIL.test(address));

/** A schedule change made from a dialog: once saved it says so, reads the lists again and closes. */
function useScheduleSave(orgId: string, done: string, onClose: () => void, call: () => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: async () => {
      notifyMessage(done);
      await queryClient.invalidateQueries({ queryKey: reportsKey(orgId) });
      onClose();
    },
    meta: { errorKey: 'reports.schedules.saveFailed' },
  });
}

/** "Copy to my organisation": a NOT_COPIED library schedule becomes ACTIVE with these recipients. */
function CopyDialog({
  orgId,
  schedule,
  onClose,
}: {
  orgId: string;
  schedule: ReportSchedule;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [recipients, setRecipients] = useState<string[]>([]);
  const copy = useScheduleSave(orgId, 'reports.schedules.library.copied', onClose, () =>
    apiFetch(`${schedulePath(orgId, schedule.id)}/activate`, {
      method: 'POST',
      body: { recipients },
      schema: reportScheduleSchema,
    }),
  );
  return (
    <Modal opened onClose={onClose} title={t('reports.schedules.library.copyTitle')}>
      <Stack gap="sm">
        <Text size="sm">
          {t('reports.schedules.library.copyMessage', {
            name: schedule.templateName,
            frequency: t(`reports.schedules.frequencies.${schedule.frequency}`),
            range: t(`dashboards.ranges.${schedule.range}`),
          })}
        </Text>
        <RecipientsInput value={recipients} onChange={setRecipients} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={copy.isPending}
            disabled={!recipientsValid(recipients)}
            onClick={() => copy.mutate()}
          >
            {t('reports.schedules.library.copy')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

function ScheduleDialog({
  orgId,
  library,
  schedule,
  onClose,
}: {
  orgId: string;
  library: boolean;
  schedule: ReportSchedule | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { options } = useTemplateOptions(orgId, library);
  const [templateId, setTemplateId] = useState<string | null>(schedule?.templateId ?? null);
  const [range, setRange] = useState<ReportRange>(schedule?.range ?? '7D');
  const [frequency, setFrequency] = useState<ReportFrequency>(schedule?.frequency ?? 'WEEKLY');
  const [recipients, setRecipients] = useState<string[]>(schedule?.recipients ?? []);
  const save = useScheduleSave(orgId, 'reports.schedules.saved', onClose, () =>
    apiFetch(schedule ? schedulePath(orgId, schedule.id) : schedulePath(orgId), {
      method: schedule ? 'PUT' : 'POST',
      body: { templateId, range, frequency, recipients, library },
      schema: reportScheduleSchema,
    }),
  );
  return (
    <Modal
      opened
      onClose={onClose}
      title={t(
        library
          ? 'reports.schedules.library.dialogTitle'
          : schedule
            ? 'reports.schedules.editTitle'
            : 'reports.schedules.newTitle',
      )}
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
        {library ? (
          <Text size="sm" c="dimmed">
            {t('reports.schedules.library.recipientsNote')}
          </Text>
        ) : (
          <RecipientsInput value={recipients} onChange={setRecipients} />
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button
            loading={save.isPending}
            disabled={!templateId || (!library && !recipientsValid(recipients))}
            onClick={() => save.mutate()}
          >
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
