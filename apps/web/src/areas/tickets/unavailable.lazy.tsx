import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Drafts in the universal inbox are built with their own issue; /tickets/incident, /tickets/task, the
// universal inbox's /incident and /task and /ticket-templates have pages of their own.
export const ticketsRoute = createLazyRoute('/tickets/$')({ component: AreaUnavailable });
export const universalTicketInboxRoute = createLazyRoute('/universal-ticket-inbox/$')({
  component: AreaUnavailable,
});
