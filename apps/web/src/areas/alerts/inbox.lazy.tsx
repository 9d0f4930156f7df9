import { createLazyRoute } from '@tanstack/react-router';
import { InboxPage } from './inbox-page';

export const Route = createLazyRoute('/alerts/inbox')({
  component: () => <InboxPage domain="security" />,
});

export const fraudRoute = createLazyRoute('/fraud/inbox')({
  component: () => <InboxPage domain="fraud" />,
});
