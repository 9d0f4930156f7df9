import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { TicketRef, TicketState } from '@vigil/contracts';
import { useTranslation } from 'react-i18next';
import { AnchorLink } from '../../shell/links';
import { personSummariesQuery } from '../settings/metadata-queries';

const STATE_COLOURS: Record<TicketState, string> = {
  TRIAGE: 'blue',
  ANALYSIS: 'orange',
  REMEDIATION: 'grape',
  RESOLVED: 'teal',
  CLOSED: 'gray',
  INVALID: 'dark',
  OPEN: 'blue',
};

export function TicketStateBadge({ state }: { state: TicketState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOURS[state]} variant="light">
      {t(`tickets.states.${state}`)}
    </Badge>
  );
}

/** The slug of a ticket as a link to its page, in `orgId` when given (else the current organisation). */
export function TicketLink({ ticket, orgId }: { ticket: Pick<TicketRef, 'kind' | 'slug'>; orgId?: string }) {
  const search = orgId ? (previous: Record<string, unknown>) => ({ ...previous, orgId }) : undefined;
  return ticket.kind === 'incident' ? (
    <AnchorLink
      to="/tickets/incident/$slug"
      params={{ slug: ticket.slug }}
      search={search}
      size="sm"
      fw={500}
    >
      {ticket.slug}
    </AnchorLink>
  ) : (
    <AnchorLink to="/tickets/task/$slug" params={{ slug: ticket.slug }} search={search} size="sm" fw={500}>
      {ticket.slug}
    </AnchorLink>
  );
}

/** Active people of the organisation and those authorised for it: who may own or watch a ticket. */
export function useTicketPeople(orgId: string) {
  const people = useQuery(personSummariesQuery(orgId));
  return (people.data ?? [])
    .filter((person) => person.active)
    .map((person) => ({ value: person.id, label: person.fullName }));
}
