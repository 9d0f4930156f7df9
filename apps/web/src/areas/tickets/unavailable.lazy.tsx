import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// Tickets, the universal inbox and ticket templates are built with their own issue.
export const ticketsRoute = createLazyRoute('/tickets/$')({ component: AreaUnavailable });
export const universalTicketInboxRoute = createLazyRoute('/universal-ticket-inbox/$')({
  component: AreaUnavailable,
});
export const ticketTemplatesRoute = createLazyRoute('/ticket-templates/$')({ component: AreaUnavailable });
