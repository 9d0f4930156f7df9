import { Button, EmptyState, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { ReadinessBanner } from '../home/readiness-banner';
import { defaultDashboardQuery } from './api';
import { DashboardBoard } from './dashboard-board';
import { DashboardEditor } from './dashboard-editor';
import { SystemStatusCard } from './system-status-card';

export const Route = createLazyRoute('/dashboards/default')({
  component: DefaultDashboardPage,
});

/** Where every user lands after signing in: their default dashboard, and the system status. */
function DefaultDashboardPage() {
  const { t } = useTranslation();
  usePageTitle(t('dashboards.title'));
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission('DASHBOARD_VIEW');
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  const navigate = useNavigate();
  const [creating, setCreating] = useState(false);
  const current = useQuery({ ...defaultDashboardQuery(orgId), enabled: canView && orgId !== '' });
  const status = (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
      <SystemStatusCard />
    </SimpleGrid>
  );

  if (canView && current.data?.dashboard) {
    return (
      <Stack gap="md">
        <ReadinessBanner />
        <DashboardBoard orgId={orgId} dashboard={current.data.dashboard}>
          {status}
        </DashboardBoard>
      </Stack>
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1}>{t('dashboards.title')}</Title>
      <ReadinessBanner />
      {canView && current.isPending && <LoadingLine label={t('dashboards.loading')} />}
      {canView && current.isError && (
        <LoadFailed
          title={t('dashboards.loadFailed')}
          error={current.error}
          onRetry={() => void current.refetch()}
        />
      )}
      {canView && current.data && !current.data.dashboard && (
        <EmptyState
          icon={<IconLayoutDashboard size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('dashboards.emptyTitle')}
          description={t('dashboards.emptyMessage')}
        >
          {canEdit && (
            <Group>
              <Button onClick={() => setCreating(true)}>{t('dashboards.new')}</Button>
              <Button variant="default" onClick={() => void navigate({ to: '/dashboards/library' })}>
                {t('dashboards.fromLibrary')}
              </Button>
            </Group>
          )}
        </EmptyState>
      )}
      {status}
      {creating && <DashboardEditor orgId={orgId} dashboard={null} onClose={() => setCreating(false)} />}
    </Stack>
  );
}
