import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { savedQueryListSchema } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const savedQueryPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/saved-query${id ? `/${encodeURIComponent(id)}` : ''}`;

export const savedQueriesKey = (orgId: string) => ['events', orgId, 'saved-queries'] as const;

/** GET /api/org/:orgId/saved-queries (SAVED_SEARCH_VIEW): the organisation's and the library's. */
export const savedQueriesQuery = (
  orgId: string,
  params: { search?: string; pageSize: number; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...savedQueriesKey(orgId), params] as const,
    queryFn: ({ signal }) => {
      const search = new URLSearchParams({
        pageSize: String(params.pageSize),
        pageNumber: String(params.pageNumber),
      });
      if (params.search) search.set('search', params.search);
      return apiFetch(`${orgPath(orgId)}/saved-queries?${search.toString()}`, {
        schema: savedQueryListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });
