import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Reports, templates and charts are built with their own issue.
export const reportsRoute = createLazyRoute('/reports/$')({ component: AreaUnavailable });
