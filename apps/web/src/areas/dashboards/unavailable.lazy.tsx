import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Dashboards other than the default one are built with their own issue.
export const oldDashboardsRoute = createLazyRoute('/dashboard/$')({ component: AreaUnavailable });
export const dashboardsRoute = createLazyRoute('/dashboards/$')({ component: AreaUnavailable });
