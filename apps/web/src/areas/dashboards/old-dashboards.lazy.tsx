import { Button, EmptyState, Group, Select, Stack, Title } from '@mantine/core';
import { IconLayoutDashboard } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { createLazyRoute, useNavigate, useSearch } from '@tanstack/react-router';
import { displayName, MAX_PAGE_SIZE } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { usePageTitle } from '../../lib/page-title';
import { useCurrentOrgId, useHasPermission } from '../../lib/session';
import { GatedPage } from '../../shell/gated-page';
import { NotPermitted } from '../../shell/not-permitted';
import { LoadFailed, LoadingLine } from '../../shell/query-status';
import { dashboardQuery, dashboardsQuery, defaultDashboardQuery } from './api';
import { DashboardBoard } from './dashboard-board';
import { LibraryList } from './library-list';

export const oldDashboardsRoute = createLazyRoute('/dashboard')({ component: OldDashboardsPage });
export const dashboardTemplatesRoute = createLazyRoute('/dashboard/template/list')({
  component: DashboardTemplatesPage,
});

/**
 * /dashboard, the old dashboards (spec 1 section 2.7): one dashboard at a time, chosen in a dropdown of
 * the organisation's dashboards; the user's default first. The same dashboards and tiles as the new
 * area, so a user switching between them sees the same data.
 */
function OldDashboardsPage() {
  const { t } = useTranslation();
  usePageTitle(t('dashboards.title'));
  const orgId = useCurrentOrgId() ?? '';
  const canView = useHasPermission('DASHBOARD_VIEW');
  const canEdit = useHasPermission('DASHBOARD_EDIT');
  const navigate = useNavigate();
  const show = (id: string) => void navigate({ to: '/dashboard', search: { dashboardId: id } });
  const { dashboardId } = useSearch({ strict: false }) as { dashboardId?: string };
  const enabled = canView && orgId !== '';
  const list = useQuery({ ...dashboardsQuery(orgId, { pageNumber: 1, pageSize: MAX_PAGE_SIZE }), enabled });
  const fallback = useQuery({ ...defaultDashboardQuery(orgId), enabled: enabled && !dashboardId });
  const chosen = useQuery({ ...dashboardQuery(orgId, dashboardId ?? ''), enabled: enabled && !!dashboardId });
  const current = dashboardId ? chosen : fallback;
  const dashboard = dashboardId ? chosen.data : fallback.data?.dashboard;

  const options = (list.data?.items ?? []).map((item) => ({ value: item.id, label: displayName(item.name) }));
  // A library dashboard opened from the templates is not among the organisation's own.
  if (dashboard && !options.some((option) => option.value === dashboard.id)) {
    options.unshift({ value: dashboard.id, label: displayName(dashboard.name) });
  }
  const picker = (
    <Select
      label={t('dashboards.old.pick')}
      data={options}
      value={dashboard?.id ?? null}
      onChange={(id) => id && show(id)}
      searchable
      allowDeselect={false}
      w={360}
      maw="100%"
    />
  );

  if (canView && dashboard) {
    return <DashboardBoard orgId={orgId} dashboard={dashboard} picker={picker} open={show} />;
  }
  return (
    <Stack gap="lg">
      <Title order={1}>{t('dashboards.title')}</Title>
      {!canView ? (
        <NotPermitted />
      ) : current.isError ? (
        <LoadFailed
          title={t('dashboards.loadFailed')}
          error={current.error}
          onRetry={() => void current.refetch()}
        />
      ) : current.isPending ? (
        <LoadingLine label={t('dashboards.loading')} />
      ) : (
        <EmptyState
          icon={<IconLayoutDashboard size={32} stroke={1.5} />}
          withIndicatorBackground
          title={t('dashboards.emptyTitle')}
          description={t('dashboards.old.emptyMessage')}
        >
          {canEdit && (
            <Group>
              <Button onClick={() => void navigate({ to: '/dashboard/template/list' })}>
                {t('dashboards.old.templates')}
              </Button>
            </Group>
          )}
        </EmptyState>
      )}
    </Stack>
  );
}

/** /dashboard/template/list: the library's dashboards as templates of the old dashboards area. */
function DashboardTemplatesPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <GatedPage title={t('dashboards.old.templates')} allowed={useHasPermission('DASHBOARD_VIEW')} maw={1100}>
      <LibraryList open={(dashboardId) => void navigate({ to: '/dashboard', search: { dashboardId } })} />
    </GatedPage>
  );
}
