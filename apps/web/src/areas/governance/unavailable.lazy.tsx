import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Governance (tasks, frameworks, policies, CAT) is built with its own issue.
export const governanceRoute = createLazyRoute('/governance/$')({ component: AreaUnavailable });
