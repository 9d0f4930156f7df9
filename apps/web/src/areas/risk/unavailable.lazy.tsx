import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Risk assessments and the inventory are not built yet; their pages say so.
export const riskRoute = createLazyRoute('/risk/$')({ component: AreaUnavailable });
