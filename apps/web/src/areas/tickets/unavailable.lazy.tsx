import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// The universal inbox and ticket templates are built with their own issue; /tickets/incident and
// /tickets/task have pages of their own.
export const ticketsRoute = createLazyRoute('/tickets/$')({ component: AreaUnavailable });
export const universalTicketInboxRoute = createLazyRoute('/universal-ticket-inbox/$')({
  component: AreaUnavailable,
});
export const ticketTemplatesRoute = createLazyRoute('/ticket-templates/$')({ component: AreaUnavailable });
