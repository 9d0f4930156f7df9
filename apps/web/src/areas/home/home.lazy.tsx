import { Card, Group, List, RingProgress, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute } from '@tanstack/react-router';
import {
  READINESS_ALERT_SLA_HOURS,
  READINESS_ASSESSMENT_MONTHS,
  READINESS_INCIDENT_DEFAULT_DAYS,
  READINESS_ON_TIME_PERCENT,
  READINESS_TASK_DEFAULT_DAYS,
  READINESS_WINDOW_DAYS,
  type ReadinessCategoryResult,
} from '@vigil/contracts';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useFeature, useOrgContext } from '../../lib/org-context';
import { useCurrentOrgId } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { AnchorLink, ButtonLink } from '../../shell/links';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { checkFigure, readinessQuery } from './api';

export const homeRoute = createLazyRoute('/home')({ component: HomePage });

/** Green from 80, yellow from 50, red below. */
const scoreColor = (score: number) => (score >= 80 ? 'teal' : score >= 50 ? 'yellow' : 'red');

/** /home: the cyber risk readiness dashboard (feature cyberRiskReadinessDashboard). */
function HomePage() {
  const { t } = useTranslation();
  return (
    <GatedPage title={t('home.title')} allowed={useFeature('cyberRiskReadinessDashboard')} maw={1400}>
      <Readiness />
    </GatedPage>
  );
}

function Readiness() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const orgName = useOrgContext()?.org.name ?? '';
  const readiness = useQuery({ ...readinessQuery(orgId), enabled: orgId !== '' });
  if (readiness.isPending) return <LoadingLine label={t('home.loading')} />;
  if (readiness.isError) {
    return (
      <LoadFailed
        title={t('home.loadFailed')}
        error={readiness.error}
        onRetry={() => void readiness.refetch()}
      />
    );
  }
  const { score, categories } = readiness.data;
  return (
    <Stack gap="lg">
      <Group gap="lg" wrap="wrap">
        <ScoreRing label={t('home.overall')} score={score} size={120} />
        <Stack gap={4} maw={640}>
          <Text fw={600}>{t('home.overall')}</Text>
          <Text c="dimmed" size="sm">
            {t('home.intro', { org: orgName, days: READINESS_WINDOW_DAYS })} {t('home.overallHelp')}
          </Text>
        </Stack>
      </Group>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        {categories.map((category) => (
          <CategoryCard key={category.category} category={category} />
        ))}
      </SimpleGrid>
      <Scoring />
    </Stack>
  );
}

function ScoreRing({ label, score, size }: { label: string; score: number; size: number }) {
  const { t } = useTranslation();
  return (
    <RingProgress
      size={size}
      thickness={size / 10}
      roundCaps
      role="img"
      aria-label={t('home.scoreLabel', { category: label, score })}
      sections={[{ value: Math.max(score, 1), color: scoreColor(score) }]}
      label={
        <Text ta="center" fw={700} size="xl">
          {t('home.score', { score })}
        </Text>
      }
    />
  );
}

function CategoryCard({ category }: { category: ReadinessCategoryResult }) {
  const { t } = useTranslation();
  const headingId = useId();
  const name = t(`home.categories.${category.category}`);
  const met = category.checks.filter((check) => check.met).length;
  return (
    <Card withBorder padding="lg" component="section" aria-labelledby={headingId}>
      <Group justify="space-between" wrap="nowrap" align="flex-start" mb="sm">
        <Stack gap={4}>
          <Title order={2} size="h3" id={headingId}>
            {name}
          </Title>
          <Text c="dimmed" size="sm">
            {t('home.checksMet', { met, total: category.checks.length })}
          </Text>
        </Stack>
        <ScoreRing label={name} score={category.score} size={84} />
      </Group>
      <Table>
        <Table.Tbody>
          {category.checks.map((check) => {
            const label = t(`home.checks.${check.id}`, {
              hours: READINESS_ALERT_SLA_HOURS,
              months: READINESS_ASSESSMENT_MONTHS,
            });
            return (
              <Table.Tr key={check.id}>
                <Table.Td w={28}>
                  {check.met ? (
                    <IconCircleCheck
                      size={20}
                      color="var(--mantine-color-teal-6)"
                      aria-label={t('home.met')}
                    />
                  ) : (
                    <IconCircleX size={20} color="var(--mantine-color-red-6)" aria-label={t('home.notMet')} />
                  )}
                </Table.Td>
                <Table.Td>{label}</Table.Td>
                <Table.Td>{checkFigure(t, check)}</Table.Td>
                <Table.Td ta="right">
                  {!check.met && (
                    <AnchorLink
                      to={check.fixPath}
                      size="sm"
                      aria-label={t('home.fixNamed', { check: label })}
                    >
                      {t('home.fix')}
                    </AnchorLink>
                  )}
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end" mt="sm">
        <ButtonLink to={category.path} variant="subtle" size="compact-sm">
          {t('home.open')} {name}
        </ButtonLink>
      </Group>
    </Card>
  );
}

/** How the scores are made, stated on the page (the thresholds are ours; the spec does not give them). */
function Scoring() {
  const { t } = useTranslation();
  return (
    <Card withBorder padding="lg" component="section" aria-label={t('home.scoringTitle')}>
      <Title order={2} size="h4" mb="xs">
        {t('home.scoringTitle')}
      </Title>
      <List size="sm" spacing={4}>
        <List.Item>{t('home.scoring.categories')}</List.Item>
        <List.Item>{t('home.scoring.counts')}</List.Item>
        <List.Item>{t('home.scoring.alerts', { hours: READINESS_ALERT_SLA_HOURS })}</List.Item>
        <List.Item>{t('home.scoring.incidents', { days: READINESS_INCIDENT_DEFAULT_DAYS })}</List.Item>
        <List.Item>{t('home.scoring.tasks', { taskDays: READINESS_TASK_DEFAULT_DAYS })}</List.Item>
        <List.Item>
          {t('home.scoring.share', { percent: READINESS_ON_TIME_PERCENT, window: READINESS_WINDOW_DAYS })}
        </List.Item>
        <List.Item>{t('home.scoring.risk', { months: READINESS_ASSESSMENT_MONTHS })}</List.Item>
      </List>
    </Card>
  );
}
