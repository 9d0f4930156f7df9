import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  linkedAlertSchema,
  similarIncidentSchema,
  ticketDetailSchema,
  ticketListSchema,
  ticketTemplateSchema,
  universalTicketListSchema,
  type TicketFilter,
  type TicketKind,
  type TicketSortField,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

/** Plural list paths of each kind. */
export const TICKET_LIST_PATH: Record<TicketKind, string> = { incident: 'incidents', task: 'tasks' };

export const ticketPath = (orgId: string, kind: TicketKind, ref: string) =>
  `${orgPath(orgId)}/${kind}/${encodeURIComponent(ref)}`;

/** Every ticket query of an organisation, for invalidation after a change. */
export const ticketsKey = (orgId: string) => ['tickets', orgId] as const;

export interface TicketListParams {
  filter: TicketFilter;
  q?: string;
  sortBy: TicketSortField;
  desc: boolean;
  pageSize: number;
  pageNumber: number;
}

/** The list's query string; the CSV download takes the same without paging. */
export function ticketSearchParams(params: Omit<TicketListParams, 'pageSize' | 'pageNumber'>) {
  const search = new URLSearchParams({
    filter: params.filter,
    sortBy: params.sortBy,
    desc: String(params.desc),
  });
  if (params.q) search.set('q', params.q);
  return search;
}

/** GET /api/org/:orgId/incidents or /tasks (INCIDENT_VIEW or TASK_VIEW). */
export const ticketsQuery = (orgId: string, kind: TicketKind, params: TicketListParams) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'list', kind, params] as const,
    queryFn: ({ signal }) => {
      const search = ticketSearchParams(params);
      search.set('pageSize', String(params.pageSize));
      search.set('pageNumber', String(params.pageNumber));
      return apiFetch(`${orgPath(orgId)}/${TICKET_LIST_PATH[kind]}?${search.toString()}`, {
        schema: ticketListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

export const ticketQuery = (orgId: string, kind: TicketKind, ref: string) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'one', kind, ref.toUpperCase()] as const,
    queryFn: ({ signal }) => apiFetch(ticketPath(orgId, kind, ref), { schema: ticketDetailSchema, signal }),
  });

export const linkedAlertsQuery = (orgId: string, ref: string) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'alerts', ref.toUpperCase()] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${ticketPath(orgId, 'incident', ref)}/alerts`, {
        schema: z.array(linkedAlertSchema),
        signal,
      }),
  });

export const similarIncidentsQuery = (orgId: string, ref: string) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'similar', ref.toUpperCase()] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${ticketPath(orgId, 'incident', ref)}/similar`, {
        schema: z.array(similarIncidentSchema),
        signal,
      }),
  });

/** GET /api/org/:orgId/universal-inbox/incidents or /tasks (feature universalTicketInbox). */
export const universalTicketsQuery = (orgId: string, kind: TicketKind, params: TicketListParams) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'universal', kind, params] as const,
    queryFn: ({ signal }) => {
      const search = ticketSearchParams(params);
      search.set('pageSize', String(params.pageSize));
      search.set('pageNumber', String(params.pageNumber));
      return apiFetch(`${orgPath(orgId)}/universal-inbox/${TICKET_LIST_PATH[kind]}?${search.toString()}`, {
        schema: universalTicketListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/ticket-templates (TRAC_USER, INCIDENT_EDIT or TASK_EDIT). */
export const ticketTemplatesQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...ticketsKey(orgId), 'templates'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/ticket-templates`, { schema: z.array(ticketTemplateSchema), signal }),
  });
