import { Card, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { GOVERNANCE_REVIEW_HORIZON_DAYS, type FrameworkSummary, type PolicySummary } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { TaskCounts } from '../schedules/task-counts';
import { dashboardQuery } from './api';
import { POLICY_KIND } from './policies-api';

/**
 * /governance/tasks, the governance dashboard (GOVERNANCE_DASHBOARD_VIEW): the compliance calendar.
 * Tasks of the task schedules over the spec's timeframes (TASK_VIEW and TASK_SCHEDULE_VIEW), policy
 * reviews overdue or coming due, and the frameworks' periods in progress, each for those who may read it.
 */
export function GovernanceTasksPage() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission('GOVERNANCE_DASHBOARD_VIEW');
  const canTasks = useHasPermission('TASK_VIEW');
  const canSchedules = useHasPermission('TASK_SCHEDULE_VIEW');
  const dashboard = useQuery({ ...dashboardQuery(orgId), enabled: canView });
  return (
    <GatedPage title={t('governance.tasks.title')} allowed={canView} maw={1200}>
      {canTasks && canSchedules && (
        <Card withBorder component="section" aria-label={t('governance.tasks.scheduled')}>
          <Stack gap="xs">
            <TaskCounts orgId={orgId} linked />
            <AnchorLink to="/task-schedules/$" params={{ _splat: '' }} size="sm">
              {t('governance.tasks.openSchedules')}
            </AnchorLink>
          </Stack>
        </Card>
      )}
      <QueryStates
        query={dashboard}
        loadingLabel={t('governance.tasks.loading')}
        failedTitle={t('governance.tasks.loadFailed')}
      >
        {({ reviews, periods }) => (
          <SimpleGrid cols={{ base: 1, md: 2 }}>
            {reviews && <PolicyReviews reviews={reviews} />}
            {periods && <Periods frameworks={periods} />}
          </SimpleGrid>
        )}
      </QueryStates>
    </GatedPage>
  );
}

function PolicyReviews({ reviews }: { reviews: PolicySummary[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder component="section" aria-label={t('governance.tasks.reviews')}>
      <Title order={3} mb="sm">
        {t('governance.tasks.reviews')}
      </Title>
      {reviews.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('governance.tasks.noReviews', { days: GOVERNANCE_REVIEW_HORIZON_DAYS })}
        </Text>
      ) : (
        <Table>
          <Table.Tbody>
            {reviews.map((policy) => (
              <Table.Tr key={policy.id}>
                <Table.Td>
                  <AnchorLink
                    to={`${POLICY_KIND[policy.kind].page}/$policyId`}
                    params={{ policyId: policy.id }}
                  >
                    {policy.name}
                  </AnchorLink>
                </Table.Td>
                <Table.Td>
                  <Text size="sm" c={policy.reviewOverdue ? 'red' : undefined}>
                    {t(policy.reviewOverdue ? 'governance.tasks.overdueSince' : 'governance.tasks.dueOn', {
                      date: policy.nextReviewOn,
                    })}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
    </Card>
  );
}

function Periods({ frameworks }: { frameworks: FrameworkSummary[] }) {
  const { t } = useTranslation();
  return (
    <Card withBorder component="section" aria-label={t('governance.tasks.periods')}>
      <Title order={3} mb="sm">
        {t('governance.tasks.periods')}
      </Title>
      {frameworks.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('governance.tasks.noPeriods')}
        </Text>
      ) : (
        <Stack gap="sm">
          {frameworks.map((framework) => (
            <Stack key={framework.id} gap={2}>
              <AnchorLink
                to="/governance/frameworks/$frameworkId"
                params={{ frameworkId: framework.id }}
                size="sm"
              >
                {framework.name}
              </AnchorLink>
              <Text size="xs" c="dimmed">
                {t('governance.tasks.periodLine', {
                  name: framework.currentPeriod!.name,
                  answered: framework.currentPeriod!.answered,
                  total: framework.controlCount,
                  endsOn: framework.currentPeriod!.endsOn,
                })}
              </Text>
              <Progress
                value={(100 * framework.currentPeriod!.answered) / Math.max(framework.controlCount, 1)}
                aria-label={t('governance.frameworks.progress', { name: framework.name })}
              />
            </Stack>
          ))}
        </Stack>
      )}
    </Card>
  );
}
