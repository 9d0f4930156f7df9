import { createLazyRoute } from '@tanstack/react-router';
import { TriggerSchedulesPage } from './trigger-schedules-page';
import { TriggersPage } from './triggers-page';

export const Route = createLazyRoute('/triggers')({
  component: () => <TriggersPage domain="security" />,
});

export const fraudRoute = createLazyRoute('/fraud/triggers')({
  component: () => <TriggersPage domain="fraud" />,
});

export const schedulesRoute = createLazyRoute('/trigger-schedules')({
  component: TriggerSchedulesPage,
});
