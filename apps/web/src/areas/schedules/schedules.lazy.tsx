import { createLazyRoute } from '@tanstack/react-router';
import { TaskSchedulesPage } from './schedules-page';

export const taskSchedulesRoute = createLazyRoute('/task-schedules/$')({
  component: () => <TaskSchedulesPage scope="org" />,
});

/** /task-schedule opens the list with a new schedule's form. */
export const taskScheduleRoute = createLazyRoute('/task-schedule/$')({
  component: () => <TaskSchedulesPage scope="org" creating />,
});

export const libraryTaskSchedulesRoute = createLazyRoute('/library-task-schedules/$')({
  component: () => <TaskSchedulesPage scope="library" />,
});
