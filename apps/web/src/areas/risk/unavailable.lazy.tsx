import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Risk management is built with its own issue.
export const riskRoute = createLazyRoute('/risk/$')({ component: AreaUnavailable });
