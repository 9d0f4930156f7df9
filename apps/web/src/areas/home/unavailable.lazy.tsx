import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// The cyber risk readiness dashboard is built with its own issue.
export const homeRoute = createLazyRoute('/home')({ component: AreaUnavailable });
