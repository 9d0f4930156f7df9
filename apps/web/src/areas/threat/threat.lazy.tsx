import { createLazyRoute } from '@tanstack/react-router';
import { ThreatPage } from './threat-page';

export const Route = createLazyRoute('/threat')({
  component: () => <ThreatPage domain="security" />,
});

export const fraudRoute = createLazyRoute('/fraud/threat')({
  component: () => <ThreatPage domain="fraud" />,
});
