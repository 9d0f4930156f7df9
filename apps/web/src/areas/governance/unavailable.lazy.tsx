import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Governance addresses without a page of their own (frameworks, policies, the CAT page and tasks have theirs).
export const governanceRoute = createLazyRoute('/governance/$')({ component: AreaUnavailable });
