import { Button, EmptyState, Group, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { IconCalendarTime, IconPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { DEFAULT_PAGE_SIZE, type TriggerSchedule } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { ScheduleDialog } from './schedule-dialog';
import { minutesToTime, schedulePath, schedulesQuery, triggersKey } from './triggers';
import { EditDeleteButtons } from '../../shell/row-actions';

/** Trigger schedules (/trigger-schedules): TRIGGER_VIEW to see them, TRIGGER_EDIT to change them. */
export function TriggerSchedulesPage() {
  const { t } = useTranslation();
  const canView = useHasPermission('TRIGGER_VIEW');
  return (
    <GatedPage title={t('triggerSchedules.title')} allowed={canView} maw={1100}>
      <ScheduleList />
    </GatedPage>
  );
}

function ScheduleList() {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canEdit = useHasPermission('TRIGGER_EDIT');
  const queryClient = useQueryClient();
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<TriggerSchedule | 'new' | null>(null);
  const [deleting, setDeleting] = useState<TriggerSchedule | null>(null);
  const list = useQuery(schedulesQuery(orgId, { pageNumber, pageSize: DEFAULT_PAGE_SIZE }));
  const remove = useMutation({
    mutationFn: (id: string) => apiFetch(schedulePath(orgId, id), { method: 'DELETE' }),
    onSuccess: async () => {
      setDeleting(null);
      notifyMessage('triggerSchedules.deleted');
      await queryClient.invalidateQueries({ queryKey: triggersKey(orgId) });
    },
    meta: { errorKey: 'triggerSchedules.deleteFailed' },
  });
  const weekday = new Intl.DateTimeFormat(i18n.language, { weekday: 'short', timeZone: 'UTC' });
  // 2024-01-01 was a Monday: ISO day 1.
  const dayName = (day: number) => weekday.format(new Date(Date.UTC(2024, 0, day)));

  return (
    <Stack gap="md">
      {canEdit && (
        <Group justify="flex-end">
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('triggerSchedules.new')}
          </Button>
        </Group>
      )}
      <ListStates
        query={list}
        loadingLabel={t('triggerSchedules.loading')}
        failedTitle={t('triggerSchedules.loadFailed')}
        empty={
          <EmptyState
            icon={<IconCalendarTime size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('triggerSchedules.emptyTitle')}
            description={t('triggerSchedules.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('triggerSchedules.name')}</Table.Th>
                  <Table.Th>{t('triggerSchedules.windows')}</Table.Th>
                  <Table.Th>{t('triggerSchedules.timezone')}</Table.Th>
                  <Table.Th>{t('triggerSchedules.triggerCount')}</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>{t('common.actions')}</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {data.items.map((schedule) => (
                  <Table.Tr key={schedule.id}>
                    <Table.Td>
                      <Text size="sm" fw={500}>
                        {schedule.name}
                      </Text>
                      {schedule.description && (
                        <Text size="xs" c="dimmed" lineClamp={1}>
                          {schedule.description}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {schedule.windows.map((window, index) => (
                        <Text size="sm" key={index}>
                          {window.days.map(dayName).join(', ')} {minutesToTime(window.startMinute)}–
                          {minutesToTime(window.endMinute)}
                        </Text>
                      ))}
                    </Table.Td>
                    <Table.Td>{schedule.timezone}</Table.Td>
                    <Table.Td>{schedule.triggerCount}</Table.Td>
                    <Table.Td>
                      {canEdit && (
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          <EditDeleteButtons
                            editLabel={t('triggerSchedules.editNamed', { name: schedule.name })}
                            deleteLabel={t('triggerSchedules.deleteNamed', { name: schedule.name })}
                            deleteText={t('triggerSchedules.delete')}
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
            <ListPager
              page={pageNumber}
              pageSize={DEFAULT_PAGE_SIZE}
              total={data.total}
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
        title={t('triggerSchedules.deleteTitle')}
        message={t('triggerSchedules.deleteMessage', {
          name: deleting?.name ?? '',
          count: deleting?.triggerCount ?? 0,
        })}
        confirmLabel={t('triggerSchedules.delete')}
        loading={remove.isPending}
        onConfirm={() => {
          if (deleting) remove.mutate(deleting.id);
        }}
        onCancel={() => setDeleting(null)}
      />
    </Stack>
  );
}
