import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Workspaces and the old dashboards area are built with their own issue.
export const oldDashboardsRoute = createLazyRoute('/dashboard/$')({ component: AreaUnavailable });
export const dashboardsRoute = createLazyRoute('/dashboards/$')({ component: AreaUnavailable });
