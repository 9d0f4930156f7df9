import { createLazyRoute } from '@tanstack/react-router';
import { DraftsPage } from './drafts-page';
import { TicketPage } from './ticket-page';
import { TicketTemplatesPage } from './ticket-templates-page';
import { TicketsPage } from './tickets-page';
import { UniversalInboxPage } from './universal-inbox';

export const incidentsRoute = createLazyRoute('/tickets/incident')({
  component: () => <TicketsPage kind="incident" />,
});

export const tasksRoute = createLazyRoute('/tickets/task')({
  component: () => <TicketsPage kind="task" />,
});

export const incidentRoute = createLazyRoute('/tickets/incident/$slug')({
  component: function IncidentPage() {
    const { slug } = incidentRoute.useParams();
    return <TicketPage kind="incident" slug={slug} />;
  },
});

export const taskRoute = createLazyRoute('/tickets/task/$slug')({
  component: function TaskPage() {
    const { slug } = taskRoute.useParams();
    return <TicketPage kind="task" slug={slug} />;
  },
});

export const universalIncidentsRoute = createLazyRoute('/universal-ticket-inbox/incident')({
  component: () => <UniversalInboxPage kind="incident" />,
});

export const universalTasksRoute = createLazyRoute('/universal-ticket-inbox/task')({
  component: () => <UniversalInboxPage kind="task" />,
});

export const universalDraftsRoute = createLazyRoute('/universal-ticket-inbox/draft')({
  component: DraftsPage,
});

export const ticketTemplatesRoute = createLazyRoute('/ticket-templates')({ component: TicketTemplatesPage });
