import { Alert, Text } from '@mantine/core';
import { IconTargetArrow } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFeature } from '../../lib/org-context';
import { useCurrentOrgId } from '../../lib/session';
import { AnchorLink } from '../../shell/links';
import { readinessQuery } from './api';

/**
 * The cyber risk readiness banner on the dashboards (feature cyberRiskReadinessBanner): the overall
 * score and checks met, linking to /home when the organisation also has the readiness dashboard.
 * Nothing shows while loading or when the score cannot be had: the dashboard matters more.
 */
export function ReadinessBanner() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const banner = useFeature('cyberRiskReadinessBanner');
  const dashboard = useFeature('cyberRiskReadinessDashboard');
  const readiness = useQuery({ ...readinessQuery(orgId), enabled: banner && orgId !== '' });
  if (!banner || !readiness.data) return null;
  const checks = readiness.data.categories.flatMap((category) => category.checks);
  const { score } = readiness.data;
  return (
    <Alert
      color="blue"
      icon={<IconTargetArrow size={20} />}
      title={t('home.banner.title', { score: t('home.score', { score }) })}
    >
      <Text size="sm">
        {t('home.banner.summary', { met: checks.filter((check) => check.met).length, total: checks.length })}{' '}
        {dashboard && <AnchorLink to="/home">{t('home.banner.details')}</AnchorLink>}
      </Text>
    </Alert>
  );
}
