import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// The connect module the header links to is built with its own issue.
export const connectRoute = createLazyRoute('/connect')({ component: AreaUnavailable });
