import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// The trigger library is built with its own issue.
export const triggerLibraryRoute = createLazyRoute('/triggers/library')({ component: AreaUnavailable });
