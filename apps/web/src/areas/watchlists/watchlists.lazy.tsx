import { createLazyRoute } from '@tanstack/react-router';
import { WatchlistsPage } from './watchlists-page';

export const Route = createLazyRoute('/watchlists')({
  component: () => <WatchlistsPage domain="security" />,
});

export const fraudRoute = createLazyRoute('/fraud/watchlists')({
  component: () => <WatchlistsPage domain="fraud" />,
});
