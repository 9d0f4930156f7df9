import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Assets are built with their own issue.
export const assetsRoute = createLazyRoute('/assets/$')({ component: AreaUnavailable });
