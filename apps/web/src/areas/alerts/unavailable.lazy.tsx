import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Threat surveillance (alerts, triggers, schedules) is built with its own issue.
export const alertsRoute = createLazyRoute('/alerts/$')({ component: AreaUnavailable });
export const triggersRoute = createLazyRoute('/triggers/$')({ component: AreaUnavailable });
export const triggerSchedulesRoute = createLazyRoute('/trigger-schedules/$')({ component: AreaUnavailable });
