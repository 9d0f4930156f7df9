import { createLazyRoute } from '@tanstack/react-router';
import { TriggerLibraryPage } from './library-page';
import { LibraryStatsPage } from './library-stats-page';
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

export const libraryRoute = createLazyRoute('/triggers/library')({
  component: () => <TriggerLibraryPage domain="security" />,
});

export const fraudLibraryRoute = createLazyRoute('/fraud/library')({
  component: () => <TriggerLibraryPage domain="fraud" />,
});

export const statsRoute = createLazyRoute('/triggers/$id/stats')({
  component: StatsRoute,
});

function StatsRoute() {
  const { id } = statsRoute.useParams();
  return <LibraryStatsPage compact={id} />;
}
