import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Saved queries, cross-organisation search and classifiers are built with their own issue.
export const savedSearchesRoute = createLazyRoute('/search/saved/$')({ component: AreaUnavailable });
export const crossOrgSearchRoute = createLazyRoute('/search/cross-org-search')({
  component: AreaUnavailable,
});
export const classifiersRoute = createLazyRoute('/classifiers/$')({ component: AreaUnavailable });
