import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { workspaceListSchema, workspacePeopleSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const workspacePath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/workspace${id ? `/${encodeURIComponent(id)}` : ''}`;

/** Every workspace query of an organisation, for invalidation. */
export const workspacesKey = (orgId: string) => ['workspaces', orgId] as const;

/** GET /api/org/:orgId/workspaces (DASHBOARD_VIEW): the caller's, or the library's. */
export const workspacesQuery = (
  orgId: string,
  params: { library: boolean; pageNumber: number; pageSize: number },
) =>
  queryOptions({
    queryKey: [...workspacesKey(orgId), 'list', params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      if (params.library) search.set('library', 'true');
      return apiFetch(`${orgPath(orgId)}/workspaces?${search.toString()}`, {
        schema: workspaceListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/workspaces/people (DASHBOARD_EDIT): who a workspace can be shared with. */
export const sharePeopleQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...workspacesKey(orgId), 'people'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/workspaces/people`, { schema: workspacePeopleSchema, signal }),
  });
