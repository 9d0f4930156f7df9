import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// The old dashboards area is built with its own issue.
export const oldDashboardsRoute = createLazyRoute('/dashboard/$')({ component: AreaUnavailable });
