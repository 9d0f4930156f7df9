import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  alertDetailSchema,
  alertEventsSchema,
  alertListSchema,
  alertPageSchema,
  ticketRefSchema,
  type AlertSort,
  type AlertState,
  type AlertView,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { notifyMessage } from '../../lib/notify';
import { orgPath } from '../assets/queries';

export type AlertDomain = 'security' | 'fraud';

export const alertPath = (orgId: string, id: string) => `${orgPath(orgId)}/alert/${encodeURIComponent(id)}`;

/** Every alert query of an organisation, inbox and details, for invalidation after a change. */
export const alertsKey = (orgId: string) => ['alerts', orgId] as const;

export interface InboxParams {
  domain: AlertDomain;
  view: AlertView;
  state: AlertState;
  sort: AlertSort;
  filters: string[];
  pageSize: number;
  pageNumber: number;
}

/** GET /api/org/:orgId/alerts (ALERT_INBOX_VIEW; fraud also the fraud product). */
export const inboxQuery = (orgId: string, params: InboxParams) =>
  queryOptions({
    queryKey: [...alertsKey(orgId), 'inbox', params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        domain: params.domain,
        view: params.view,
        state: params.state,
        sort: params.sort,
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      for (const filter of params.filters) search.append('filter', filter);
      return apiFetch(`${orgPath(orgId)}/alerts?${search.toString()}`, { schema: alertListSchema, signal });
    },
    placeholderData: keepPreviousData,
  });

export const alertQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...alertsKey(orgId), 'one', id] as const,
    queryFn: ({ signal }) => apiFetch(alertPath(orgId, id), { schema: alertDetailSchema, signal }),
  });

/** The matched events the user may see (their data restrictions apply on the server). */
export const alertEventsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...alertsKey(orgId), 'events', id] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${alertPath(orgId, id)}/events`, { schema: alertEventsSchema, signal }),
  });

export const similarAlertsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...alertsKey(orgId), 'similar', id] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${alertPath(orgId, id)}/similar?pageSize=10`, { schema: alertPageSchema, signal }),
  });

/** POST /alerts/escalate: the alerts go to a new incident, all or none; `onDone` hears its slug. */
export function useEscalateToNewIncident(orgId: string, onDone: (slug: string) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { ids: string[]; title?: string }) =>
      apiFetch(`${orgPath(orgId)}/alerts/escalate`, { method: 'POST', body: input, schema: ticketRefSchema }),
    onSuccess: async (incident) => {
      notifyMessage('alerts.escalatedTo', 'green', { slug: incident.slug });
      onDone(incident.slug);
      await queryClient.invalidateQueries({ queryKey: alertsKey(orgId) });
    },
    meta: { errorKey: 'alerts.changeFailed' },
  });
}
