import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Governance tasks, policies and the CAT page are built with their own issue; frameworks have their routes.
export const governanceRoute = createLazyRoute('/governance/$')({ component: AreaUnavailable });
