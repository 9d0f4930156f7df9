import { createLazyRoute } from '@tanstack/react-router';
import { AreaUnavailable } from '../../shell/area-unavailable';

// /tickets/incident, /tickets/task, the universal inbox's /incident, /task and /draft and
// /ticket-templates have pages of their own; other paths below them are not pages.
export const ticketsRoute = createLazyRoute('/tickets/$')({ component: AreaUnavailable });
export const universalTicketInboxRoute = createLazyRoute('/universal-ticket-inbox/$')({
  component: AreaUnavailable,
});
