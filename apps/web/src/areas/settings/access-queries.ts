import { queryOptions } from '@tanstack/react-query';
import {
  jobDescriptorListResponseSchema,
  profileSchema,
  roleListResponseSchema,
  userDetailSchema,
  userListResponseSchema,
  userOrgEntrySchema,
  type UserActiveFilter,
  type UserSortField,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';

/** Kept here too for the area's callers. */
export { orgPath };

/** Every query of users, roles and job descriptors of one organisation starts with this key. */
export const accessKey = (orgId: string) => ['settings', orgId, 'access'] as const;

export interface UserSearch {
  q: string;
  active: UserActiveFilter;
  sortBy: UserSortField;
  desc: boolean;
  pageNumber: number;
  pageSize: number;
}

/** The query string of a users search; the CSV export takes the same one without paging. */
export function userSearchParams(search: Omit<UserSearch, 'pageNumber' | 'pageSize'>, page?: UserSearch) {
  const params = new URLSearchParams({
    active: search.active,
    sortBy: search.sortBy,
    desc: String(search.desc),
  });
  if (search.q.trim()) params.set('q', search.q.trim());
  if (page) {
    params.set('pageSize', String(page.pageSize));
    params.set('pageNumber', String(page.pageNumber));
  }
  return params.toString();
}

/** GET /api/org/:orgId/users */
export const usersQuery = (orgId: string, search: UserSearch) =>
  queryOptions({
    queryKey: [...accessKey(orgId), 'users', search] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/users?${userSearchParams(search, search)}`, {
        schema: userListResponseSchema,
        signal,
      }),
  });

/** GET /api/org/:orgId/user/:id, with whether security keys are registered. */
export const userDetailQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: [...accessKey(orgId), 'user', userId] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/user/${encodeURIComponent(userId)}`, { schema: userDetailSchema, signal }),
  });

/** GET /api/org/:orgId/user/:id/orgs */
export const userOrgsOfQuery = (orgId: string, userId: string) =>
  queryOptions({
    queryKey: [...accessKey(orgId), 'user', userId, 'orgs'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/user/${encodeURIComponent(userId)}/orgs`, {
        schema: z.array(userOrgEntrySchema),
        signal,
      }),
  });

/** GET /api/org/:orgId/roles */
export const rolesQuery = (
  orgId: string,
  options: { includeDeleted?: boolean; includeTracRoles?: boolean } = {},
) =>
  queryOptions({
    queryKey: [...accessKey(orgId), 'roles', options] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/roles?includeDeleted=${options.includeDeleted === true}&includeTracRoles=${options.includeTracRoles === true}`,
        { schema: roleListResponseSchema, signal },
      ),
  });

/** GET /api/org/:orgId/job-descriptors */
export const jobDescriptorsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...accessKey(orgId), 'job-descriptors'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/job-descriptors`, { schema: jobDescriptorListResponseSchema, signal }),
  });

/** GET /api/org/:orgId/user: the signed-in user's own profile. */
export const profileQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'profile'] as const,
    queryFn: ({ signal }) => apiFetch(`${orgPath(orgId)}/user`, { schema: profileSchema, signal }),
  });
