import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  activityLogListSchema,
  dataRestrictionListSchema,
  personSummarySchema,
  restrictedUserListSchema,
  tagListSchema,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';

const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

type SearchParams = Record<string, string | number | boolean | undefined>;

/** `params` as a query string, leaving out empty values. */
function searchOf(params: SearchParams): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `?${text}` : '';
}

export const tagPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/tag${id ? `/${encodeURIComponent(id)}` : ''}`;

interface Page extends SearchParams {
  pageSize: number;
  pageNumber: number;
}

/** GET /api/org/:orgId/tags (TAG_VIEW). */
export const tagsQuery = (orgId: string, params: Page & { search?: string; desc: boolean }) =>
  queryOptions({
    queryKey: ['settings', orgId, 'tags', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/tags${searchOf(params)}`, { schema: tagListSchema, signal }),
    placeholderData: keepPreviousData,
  });

export const tagsKey = (orgId: string) => ['settings', orgId, 'tags'] as const;

export const restrictionPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/data-restriction${id ? `/${encodeURIComponent(id)}` : ''}`;

/** GET /api/org/:orgId/data-restrictions (DATA_RESTRICTION_VIEW). */
export const restrictionsQuery = (orgId: string, params: Page & { includeDeleted: boolean }) =>
  queryOptions({
    queryKey: ['settings', orgId, 'data-restrictions', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/data-restrictions${searchOf(params)}`, {
        schema: dataRestrictionListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const restrictionsKey = (orgId: string) => ['settings', orgId, 'data-restrictions'] as const;

/** GET /api/org/:orgId/data-restriction/:id/users: who a restriction applies to. */
export const restrictedUsersQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'data-restrictions', id, 'users'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${restrictionPath(orgId, id)}/users`, { schema: restrictedUserListSchema, signal }),
  });

// The users area answers a plain array; a paged answer is read the same way.
const personSummariesSchema = z.union([
  z.array(personSummarySchema),
  z.object({ items: z.array(personSummarySchema) }).transform((page) => page.items),
]);

/** GET /api/org/:orgId/user/summary: the people of the organisation, inactive ones too, for pickers. */
export const personSummariesQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'user-summary'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/user/summary?includeInactive=true`, {
        schema: personSummariesSchema,
        signal,
      }),
    staleTime: 60_000,
    retry: false,
  });

/** GET /api/org/:orgId/activity-logs (ACTIVITY_LOG_VIEW), newest first. */
export const activityLogsQuery = (
  orgId: string,
  params: Page & { actorUserId?: string; action?: string; from?: string; to?: string; query?: string },
) =>
  queryOptions({
    queryKey: ['settings', orgId, 'activity-logs', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/activity-logs${searchOf(params)}`, {
        schema: activityLogListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });
