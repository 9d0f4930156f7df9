import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Settings pages without a route of their own (action integrations and more) are built
// with their own issues.
export const settingsRoute = createLazyRoute('/settings/$')({ component: AreaUnavailable });
