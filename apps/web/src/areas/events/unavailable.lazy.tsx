import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Cross-organisation search and classifiers are built with their own issue.
export const crossOrgSearchRoute = createLazyRoute('/search/cross-org-search')({
  component: AreaUnavailable,
});
export const classifiersRoute = createLazyRoute('/classifiers/$')({ component: AreaUnavailable });
