import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  triggerListSchema,
  triggerScheduleListSchema,
  type TriggerDomain,
  type TriggerSortField,
  type TriggerState,
  type TriggerType,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const triggerPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/trigger${id ? `/${encodeURIComponent(id)}` : ''}`;

export const schedulePath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/trigger-schedule${id ? `/${encodeURIComponent(id)}` : ''}`;

/** Every trigger and schedule query of an organisation, for invalidation. */
export const triggersKey = (orgId: string) => ['triggers', orgId] as const;

export interface TriggerListParams {
  search?: string;
  state?: TriggerState;
  type?: TriggerType;
  label?: string;
  sortField: TriggerSortField;
  sortOrder: 'ASC' | 'DESC';
  pageSize: number;
  pageNumber: number;
}

/** GET /api/org/:orgId/triggers (TRIGGER_VIEW; fraud also the fraud product). */
export const triggersQuery = (orgId: string, domain: TriggerDomain, params: TriggerListParams) =>
  queryOptions({
    queryKey: [...triggersKey(orgId), 'list', domain, params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        domain,
        sortField: params.sortField,
        sortOrder: params.sortOrder,
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      if (params.search) search.set('search', params.search);
      if (params.state) search.set('state', params.state);
      if (params.type) search.set('type', params.type);
      if (params.label) search.set('label', params.label);
      return apiFetch(`${orgPath(orgId)}/triggers?${search.toString()}`, {
        schema: triggerListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/trigger-schedules (TRIGGER_VIEW). */
export const schedulesQuery = (orgId: string, params: { pageSize: number; pageNumber: number }) =>
  queryOptions({
    queryKey: [...triggersKey(orgId), 'schedules', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/trigger-schedules?pageSize=${params.pageSize}&pageNumber=${params.pageNumber}`,
        { schema: triggerScheduleListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

/** Minutes of the day as HH:MM, and back; null for text that is not a time. */
export const minutesToTime = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

export function timeToMinutes(text: string): number | null {
  const match = /^(\d{1,2}):(\d{2})$/.exec(text.trim());
  if (!match) return null;
  const minutes = Number(match[1]) * 60 + Number(match[2]);
  return Number(match[2]) < 60 && minutes <= 1440 ? minutes : null;
}
