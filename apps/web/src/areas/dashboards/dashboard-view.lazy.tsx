import { Stack, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate, useParams } from '@tanstack/react-router';
import { displayName } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { NotPermitted } from '../../shell/not-permitted';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { dashboardQuery } from './api';
import { DashboardBoard } from './dashboard-board';

export const Route = createLazyRoute('/dashboards/$dashboardId/view')({
  component: DashboardViewPage,
});

/** /dashboards/{id}/view: one dashboard of the organisation or the library. */
function DashboardViewPage() {
  const { t } = useTranslation();
  const orgId = useCurrentOrgId() ?? '';
  const { dashboardId } = useParams({ strict: false }) as { dashboardId: string };
  const navigate = useNavigate();
  const canView = useHasPermission('DASHBOARD_VIEW');
  const dashboard = useQuery({ ...dashboardQuery(orgId, dashboardId), enabled: canView && orgId !== '' });
  usePageTitle(dashboard.data ? displayName(dashboard.data.name) : t('dashboards.title'));
  if (canView && dashboard.data) {
    return (
      <DashboardBoard
        orgId={orgId}
        dashboard={dashboard.data}
        open={(id) => void navigate({ to: '/dashboards/$dashboardId/view', params: { dashboardId: id } })}
      />
    );
  }
  return (
    <Stack gap="lg">
      <Title order={1}>{t('dashboards.title')}</Title>
      {!canView ? (
        <NotPermitted />
      ) : dashboard.isError ? (
        <LoadFailed
          title={t('dashboards.loadFailed')}
          error={dashboard.error}
          onRetry={() => void dashboard.refetch()}
        />
      ) : (
        <LoadingLine label={t('dashboards.loading')} />
      )}
    </Stack>
  );
}
