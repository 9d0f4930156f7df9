import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Drafts in the universal inbox and ticket templates are built with their own issue; /tickets/incident,
// /tickets/task and the universal inbox's /incident and /task have pages of their own.
export const ticketsRoute = createLazyRoute('/tickets/$')({ component: AreaUnavailable });
export const universalTicketInboxRoute = createLazyRoute('/universal-ticket-inbox/$')({
  component: AreaUnavailable,
});
export const ticketTemplatesRoute = createLazyRoute('/ticket-templates/$')({ component: AreaUnavailable });
