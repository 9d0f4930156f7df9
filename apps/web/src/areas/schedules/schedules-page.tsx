import {
  Badge,
  Button,
  EmptyState,
  Group,
  Modal,
  MultiSelect,
  Select,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconCalendarRepeat, IconPlus, IconSearch } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PAGE_SIZE,
  TASK_SCHEDULE_SORT_FIELDS,
  taskScheduleCopyResultSchema,
  taskScheduleSchema,
  type TaskSchedule,
  type TaskScheduleCopyResult,
  type TaskScheduleSortField,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { useOrgContext } from '../../lib/org-context';
import { useCurrentOrgId, useHasPermission, useUserOrgs } from '../../lib/session';
import { ConfirmDialog } from '../../shell/confirm-dialog';
import { GatedPage } from '../../shell/gated-page';
import { ListPager } from '../../shell/list-pager';
import { ListStates } from '../../shell/query-status';
import { schedulePath, schedulesKey, taskSchedulesQuery, type ScheduleScope } from './api';
import { TaskScheduleDialog } from './schedule-dialog';
import { TaskCounts } from './task-counts';

/** Task schedules (/task-schedules) and library task schedules (/library-task-schedules). */
export function TaskSchedulesPage({ scope, creating = false }: { scope: ScheduleScope; creating?: boolean }) {
  const { t } = useTranslation();
  const canView = useHasPermission('TASK_SCHEDULE_VIEW');
  const orgId = useCurrentOrgId();
  return (
    <GatedPage
      title={t(scope === 'library' ? 'taskSchedules.libraryTitle' : 'taskSchedules.title')}
      allowed={canView}
      maw={1200}
    >
      <Stack gap="xl">
        <ScheduleList scope={scope} creating={creating} />
        {scope === 'org' && orgId && <TaskCounts orgId={orgId} />}
      </Stack>
    </GatedPage>
  );
}

type Pending = { schedule: TaskSchedule; action: 'delete' | 'pause' };

function ScheduleList({ scope, creating }: { scope: ScheduleScope; creating: boolean }) {
  const { t, i18n } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const queryClient = useQueryClient();
  const canEditArea = useHasPermission('TASK_SCHEDULE_EDIT');
  const isAdmin = useHasPermission('TRAC_ADMIN');
  const isProvider = useOrgContext()?.org.isProvider ?? false;
  const canEdit = scope === 'org' ? canEditArea : canEditArea && isAdmin && isProvider;
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [deleted, setDeleted] = useState(false);
  const [sortBy, setSortBy] = useState<TaskScheduleSortField>('name');
  const [desc, setDesc] = useState(false);
  const [pageNumber, setPageNumber] = useState(1);
  const [editing, setEditing] = useState<TaskSchedule | 'new' | null>(creating && canEdit ? 'new' : null);
  const [pending, setPending] = useState<Pending | null>(null);
  const [copying, setCopying] = useState<TaskSchedule | null>(null);
  const list = useQuery(
    taskSchedulesQuery(orgId, scope, {
      search: debounced,
      deleted,
      sortBy,
      desc,
      pageSize: DEFAULT_PAGE_SIZE,
      pageNumber,
    }),
  );
  const refresh = () => queryClient.invalidateQueries({ queryKey: schedulesKey(orgId) });
  const change = useMutation({
    mutationFn: ({
      schedule,
      action,
    }: {
      schedule: TaskSchedule;
      action: 'delete' | 'pause' | 'resume' | 'restore';
    }) =>
      apiFetch(
        `${schedulePath(orgId, scope, schedule.id)}${
          action === 'restore' ? '/restore' : action === 'delete' ? '' : '/state'
        }`,
        {
          method: action === 'delete' ? 'DELETE' : action === 'restore' ? 'POST' : 'PUT',
          ...((action === 'pause' || action === 'resume') && {
            body: { state: action === 'pause' ? 'PAUSED' : 'ACTIVE' },
          }),
          schema: taskScheduleSchema,
        },
      ),
    onSuccess: async (_, { action }) => {
      setPending(null);
      notifyMessage(`taskSchedules.done.${action}`);
      await refresh();
    },
    meta: { errorKey: 'taskSchedules.changeFailed' },
  });
  const when = (iso: string | null) =>
    iso
      ? new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
          new Date(iso),
        )
      : t('taskSchedules.never');
  const every = (schedule: TaskSchedule) =>
    t(`taskSchedules.everyUnit.${schedule.interval.unit}`, { count: schedule.interval.count });

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-end">
        <Group align="flex-end">
          <TextInput
            label={t('taskSchedules.search')}
            leftSection={<IconSearch size={16} />}
            value={search}
            onChange={(event) => {
              setSearch(event.currentTarget.value);
              setPageNumber(1);
            }}
          />
          <Select
            label={t('taskSchedules.sortBy')}
            allowDeselect={false}
            data={TASK_SCHEDULE_SORT_FIELDS.map((field) => ({
              value: field,
              label: t(`taskSchedules.sort.${field}`),
            }))}
            value={sortBy}
            onChange={(field) => setSortBy((field as TaskScheduleSortField | null) ?? 'name')}
          />
          <Switch
            label={t('taskSchedules.descending')}
            checked={desc}
            onChange={(event) => setDesc(event.currentTarget.checked)}
          />
          <Switch
            label={t('taskSchedules.showDeleted')}
            checked={deleted}
            onChange={(event) => {
              setDeleted(event.currentTarget.checked);
              setPageNumber(1);
            }}
          />
        </Group>
        {canEdit && (
          <Button leftSection={<IconPlus size={16} />} onClick={() => setEditing('new')}>
            {t('taskSchedules.new')}
          </Button>
        )}
      </Group>
      <ListStates
        query={list}
        loadingLabel={t('taskSchedules.loading')}
        failedTitle={t('taskSchedules.loadFailed')}
        empty={
          <EmptyState
            icon={<IconCalendarRepeat size={32} stroke={1.5} />}
            withIndicatorBackground
            title={t('taskSchedules.emptyTitle')}
            description={t(search ? 'taskSchedules.emptySearch' : 'taskSchedules.emptyMessage')}
          />
        }
      >
        {(data) => (
          <>
            <Table striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('taskSchedules.name')}</Table.Th>
                  <Table.Th>{t('taskSchedules.interval')}</Table.Th>
                  <Table.Th>{t('taskSchedules.nextRun')}</Table.Th>
                  <Table.Th>{t('taskSchedules.lastRan')}</Table.Th>
                  <Table.Th>{t('taskSchedules.state')}</Table.Th>
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
                      <Text size="xs" c="dimmed" lineClamp={1}>
                        {[
                          schedule.parent && t('taskSchedules.under', { name: schedule.parent.name }),
                          schedule.queries.length > 0 &&
                            t('taskSchedules.queryCount', { count: schedule.queries.length }),
                          schedule.skipWeekends && t('taskSchedules.skipWeekends'),
                        ]
                          .filter(Boolean)
                          .join(' · ')}
                      </Text>
                    </Table.Td>
                    <Table.Td>{every(schedule)}</Table.Td>
                    <Table.Td>{schedule.state === 'ACTIVE' ? when(schedule.runAt) : '—'}</Table.Td>
                    <Table.Td>{when(schedule.lastRanAt)}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" color={schedule.state === 'ACTIVE' ? 'green' : 'gray'}>
                        {t(`taskSchedules.states.${schedule.state}`)}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      {canEdit && (
                        <Group gap="xs" justify="flex-end" wrap="nowrap">
                          {schedule.state === 'DELETED' ? (
                            <Button
                              size="compact-sm"
                              variant="subtle"
                              aria-label={t('taskSchedules.restoreNamed', { name: schedule.name })}
                              onClick={() => change.mutate({ schedule, action: 'restore' })}
                            >
                              {t('taskSchedules.restore')}
                            </Button>
                          ) : (
                            <>
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                aria-label={t('taskSchedules.editNamed', { name: schedule.name })}
                                onClick={() => setEditing(schedule)}
                              >
                                {t('common.edit')}
                              </Button>
                              {scope === 'library' ? (
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('taskSchedules.copyNamed', { name: schedule.name })}
                                  onClick={() => setCopying(schedule)}
                                >
                                  {t('taskSchedules.copy')}
                                </Button>
                              ) : schedule.state === 'ACTIVE' ? (
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('taskSchedules.pauseNamed', { name: schedule.name })}
                                  onClick={() => setPending({ schedule, action: 'pause' })}
                                >
                                  {t('taskSchedules.pause')}
                                </Button>
                              ) : (
                                <Button
                                  size="compact-sm"
                                  variant="subtle"
                                  aria-label={t('taskSchedules.resumeNamed', { name: schedule.name })}
                                  onClick={() => change.mutate({ schedule, action: 'resume' })}
                                >
                                  {t('taskSchedules.resume')}
                                </Button>
                              )}
                              <Button
                                size="compact-sm"
                                variant="subtle"
                                color="red"
                                aria-label={t('taskSchedules.deleteNamed', { name: schedule.name })}
                                onClick={() => setPending({ schedule, action: 'delete' })}
                              >
                                {t('taskSchedules.delete')}
                              </Button>
                            </>
                          )}
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
        <TaskScheduleDialog
          orgId={orgId}
          scope={scope}
          schedule={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
      {copying && <CopyDialog orgId={orgId} schedule={copying} onClose={() => setCopying(null)} />}
      <ConfirmDialog
        opened={pending !== null}
        title={t(pending?.action === 'pause' ? 'taskSchedules.pauseTitle' : 'taskSchedules.deleteTitle')}
        message={t(
          pending?.action === 'pause' ? 'taskSchedules.pauseMessage' : 'taskSchedules.deleteMessage',
          {
            name: pending?.schedule.name ?? '',
          },
        )}
        confirmLabel={t(pending?.action === 'pause' ? 'taskSchedules.pause' : 'taskSchedules.delete')}
        loading={change.isPending}
        onConfirm={() => {
          if (pending) change.mutate(pending);
        }}
        onCancel={() => setPending(null)}
      />
    </Stack>
  );
}

/** Copies a library schedule to customer organisations; those holding a copy already are reported. */
function CopyDialog({
  orgId,
  schedule,
  onClose,
}: {
  orgId: string;
  schedule: TaskSchedule;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const orgs = useUserOrgs().filter((org) => org.id !== orgId);
  const [orgIds, setOrgIds] = useState<string[]>([]);
  const [result, setResult] = useState<TaskScheduleCopyResult | null>(null);
  const copy = useMutation({
    mutationFn: () =>
      apiFetch(`${schedulePath(orgId, 'library', schedule.id)}/copy`, {
        method: 'POST',
        body: { orgIds },
        schema: taskScheduleCopyResultSchema,
      }),
    onSuccess: async (answer) => {
      setResult(answer);
      await queryClient.invalidateQueries({ queryKey: schedulesKey(orgId) });
    },
    meta: { errorKey: 'taskSchedules.copyFailed' },
  });
  return (
    <Modal opened onClose={onClose} title={t('taskSchedules.copyTitle', { name: schedule.name })}>
      {result ? (
        <Stack gap="sm">
          <Text size="sm">{t('taskSchedules.copied', { count: result.copied.length })}</Text>
          {result.skipped.length > 0 && (
            <Text size="sm" role="status">
              {t('taskSchedules.skipped', { names: result.skipped.map((entry) => entry.orgName).join(', ') })}
            </Text>
          )}
          <Group justify="flex-end">
            <Button onClick={onClose}>{t('common.close')}</Button>
          </Group>
        </Stack>
      ) : (
        <Stack gap="sm">
          <MultiSelect
            label={t('taskSchedules.copyTo')}
            searchable
            data={orgs.map((org) => ({ value: org.id, label: org.name }))}
            value={orgIds}
            onChange={setOrgIds}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button disabled={orgIds.length === 0} loading={copy.isPending} onClick={() => copy.mutate()}>
              {t('taskSchedules.copy')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}
