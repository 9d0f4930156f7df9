import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Risk pages that do not exist say so.
export const riskRoute = createLazyRoute('/risk/$')({ component: AreaUnavailable });
