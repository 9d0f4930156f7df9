import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Settings pages without a route of their own (those not built yet) are built
// with their own issues.
export const settingsRoute = createLazyRoute('/settings/$')({ component: AreaUnavailable });
