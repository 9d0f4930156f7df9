import { Card, Progress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { PolicyKind, PolicySummary } from '@vigil/contracts';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink } from '../../shell/links';
import { QueryStates } from '../../shell/query-status';
import { TaskCounts } from '../schedules/task-counts';
import { frameworksQuery } from './api';
import { policiesQuery, POLICY_KIND } from './policies-api';

/** Reviews falling due within this many days are listed with the overdue ones. */
const REVIEW_HORIZON_DAYS = 30;

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
  const canCustom = useHasPermission('CUSTOM_POLICY_VIEW');
  const canCat = useHasPermission('CAT_POLICY_VIEW');
  const canFrameworks = useHasPermission('POLICY_FRAMEWORK_VIEW');
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
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {(canCustom || canCat) && (
          <PolicyReviews
            orgId={orgId}
            kinds={[...(canCustom ? ['CUSTOM' as const] : []), ...(canCat ? ['CAT' as const] : [])]}
          />
        )}
        {canFrameworks && <Periods orgId={orgId} />}
      </SimpleGrid>
    </GatedPage>
  );
}

function PolicyReviews({ orgId, kinds }: { orgId: string; kinds: PolicyKind[] }) {
  const { t } = useTranslation();
  const custom = useQuery({ ...policiesQuery(orgId, 'CUSTOM'), enabled: kinds.includes('CUSTOM') });
  const cat = useQuery({ ...policiesQuery(orgId, 'CAT'), enabled: kinds.includes('CAT') });
  const [horizon] = useState(() =>
    new Date(Date.now() + REVIEW_HORIZON_DAYS * 86_400_000).toISOString().slice(0, 10),
  );
  const query = kinds.includes('CUSTOM') ? custom : cat;
  return (
    <Card withBorder component="section" aria-label={t('governance.tasks.reviews')}>
      <Title order={3} mb="sm">
        {t('governance.tasks.reviews')}
      </Title>
      <QueryStates
        query={query}
        loadingLabel={t('governance.policies.loading')}
        failedTitle={t('governance.policies.loadFailed')}
      >
        {() => {
          const due: PolicySummary[] = [...(custom.data ?? []), ...(cat.data ?? [])]
            .filter((policy) => policy.nextReviewOn !== null && policy.nextReviewOn <= horizon)
            .sort((a, b) => a.nextReviewOn!.localeCompare(b.nextReviewOn!));
          return due.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('governance.tasks.noReviews', { days: REVIEW_HORIZON_DAYS })}
            </Text>
          ) : (
            <Table>
              <Table.Tbody>
                {due.map((policy) => (
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
                        {t(
                          policy.reviewOverdue ? 'governance.tasks.overdueSince' : 'governance.tasks.dueOn',
                          {
                            date: policy.nextReviewOn,
                          },
                        )}
                      </Text>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          );
        }}
      </QueryStates>
    </Card>
  );
}

function Periods({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const frameworks = useQuery(frameworksQuery(orgId));
  return (
    <Card withBorder component="section" aria-label={t('governance.tasks.periods')}>
      <Title order={3} mb="sm">
        {t('governance.tasks.periods')}
      </Title>
      <QueryStates
        query={frameworks}
        loadingLabel={t('governance.frameworks.loading')}
        failedTitle={t('governance.frameworks.loadFailed')}
      >
        {(list) => {
          const open = list.filter((framework) => framework.currentPeriod !== null);
          return open.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('governance.tasks.noPeriods')}
            </Text>
          ) : (
            <Stack gap="sm">
              {open.map((framework) => (
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
          );
        }}
      </QueryStates>
    </Card>
  );
}
