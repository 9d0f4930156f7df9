import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Event search, saved queries and classifiers are built with their own issue.
export const searchRoute = createLazyRoute('/search/$')({ component: AreaUnavailable });
export const classifiersRoute = createLazyRoute('/classifiers/$')({ component: AreaUnavailable });
