import { Select, Stack, Table, Text, Title } from '@mantine/core';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  TASK_SCHEDULE_TIMEFRAMES,
  taskScheduleTaskCountsSchema,
  type TaskScheduleTimeframe,
} from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { apiFetch, orgPath } from '../../lib/api';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { schedulesKey } from './api';

/**
 * The task-schedule dashboard: per schedule, the tasks created in a timeframe and what became of them.
 * `linked` makes each schedule's name a link to the task schedules page (when shown elsewhere).
 */
export function TaskCounts({ orgId, linked = false }: { orgId: string; linked?: boolean }) {
  const { t, i18n } = useTranslation();
  const [timeframe, setTimeframe] = useState<TaskScheduleTimeframe>('LAST_7_DAYS');
  const counts = useQuery({
    queryKey: [...schedulesKey(orgId), 'task-counts', timeframe],
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/task-schedules/task-counts?timeframe=${timeframe}`, {
        schema: taskScheduleTaskCountsSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
  const dateFormat = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Stack gap="xs">
      <Title order={2} size="h4">
        {t('taskSchedules.counts.title')}
      </Title>
      <Select
        label={t('taskSchedules.counts.timeframe')}
        data={TASK_SCHEDULE_TIMEFRAMES.map((value) => ({
          value,
          label: t(`taskSchedules.counts.timeframes.${value}`),
        }))}
        value={timeframe}
        onChange={(value) => value && setTimeframe(value as TaskScheduleTimeframe)}
        allowDeselect={false}
        w={240}
      />
      <QueryStates
        query={counts}
        loadingLabel={t('taskSchedules.counts.loading')}
        failedTitle={t('taskSchedules.counts.loadFailed')}
      >
        {(data) =>
          data.items.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('taskSchedules.counts.empty')}
            </Text>
          ) : (
            <>
              <Text size="xs" c="dimmed">
                {data.from
                  ? t('taskSchedules.counts.span', {
                      from: dateFormat.format(new Date(data.from)),
                      to: dateFormat.format(new Date(data.to)),
                    })
                  : t('taskSchedules.counts.sinceLastRun')}
              </Text>
              <Table striped aria-label={t('taskSchedules.counts.title')}>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th>{t('taskSchedules.counts.schedule')}</Table.Th>
                    <Table.Th>{t('taskSchedules.counts.created')}</Table.Th>
                    <Table.Th>{t('taskSchedules.counts.open')}</Table.Th>
                    <Table.Th>{t('taskSchedules.counts.closed')}</Table.Th>
                    <Table.Th>{t('taskSchedules.counts.overdue')}</Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {data.items.map((item) => (
                    <Table.Tr key={item.scheduleId}>
                      <Table.Td>
                        {linked ? (
                          <AnchorLink to="/task-schedules/$" params={{ _splat: '' }} size="sm">
                            {item.name}
                          </AnchorLink>
                        ) : (
                          item.name
                        )}
                      </Table.Td>
                      <Table.Td>{item.created}</Table.Td>
                      <Table.Td>{item.open}</Table.Td>
                      <Table.Td>{item.closed}</Table.Td>
                      <Table.Td c={item.overdue > 0 ? 'red' : undefined}>{item.overdue}</Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </>
          )
        }
      </QueryStates>
    </Stack>
  );
}
