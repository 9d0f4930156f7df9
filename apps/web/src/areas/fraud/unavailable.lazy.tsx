import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Fraud monitoring is built with its own issue; /fraud/offering has a route of its own.
export const fraudRoute = createLazyRoute('/fraud/$')({ component: AreaUnavailable });
