import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Governance (tasks, task schedules, frameworks, policies, CAT) is built with its own issue.
export const governanceRoute = createLazyRoute('/governance/$')({ component: AreaUnavailable });
export const taskSchedulesRoute = createLazyRoute('/task-schedules/$')({ component: AreaUnavailable });
export const taskScheduleRoute = createLazyRoute('/task-schedule/$')({ component: AreaUnavailable });
export const libraryTaskSchedulesRoute = createLazyRoute('/library-task-schedules/$')({
  component: AreaUnavailable,
});
