import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Workspaces and the old dashboards area are built with their own issue.
export const oldDashboardsRoute = createLazyRoute('/dashboard/$')({ component: AreaUnavailable });
export const workspacesRoute = createLazyRoute('/dashboards/workspace-tiles')({ component: AreaUnavailable });
export const libraryWorkspacesRoute = createLazyRoute('/dashboards/library/workspace-tiles')({
  component: AreaUnavailable,
});
