import { queryOptions } from '@tanstack/react-query';
import {
  aggregationResultSchema,
  fieldValuesResponseSchema,
  searchFieldsResponseSchema,
  searchResponseSchema,
  type SearchRequest,
} from '@vigil/contracts';
import { andQueries, buildQuery } from '@vigil/query';
import { apiFetch, ApiRequestError } from '../../lib/api';
import { shouldRetryQuery } from '../../lib/query';
import { orgPath } from '../assets/queries';
import type { searchScope } from './search-params';

/** Every query of one organisation's event search starts with this key. */
export const eventsKey = (orgId: string) => ['events', orgId] as const;

export type SearchScope = ReturnType<typeof searchScope>;

/** A timed-out search is offered again to the user (Retry) rather than retried behind their back. */
export function isSearchTimeout(error: unknown): boolean {
  return error instanceof ApiRequestError && error.error.key === 'SEARCH_TIMEOUT';
}

/** Retries of a search query: none for a timeout, which the user is offered to retry. */
export const searchRetry = (failureCount: number, error: Error) =>
  !isSearchTimeout(error) && shouldRetryQuery(failureCount, error);

export type SearchPageRequest = Required<
  Pick<SearchRequest, 'sortField' | 'sortOrder' | 'pageSize' | 'pageNumber'>
>;

/** POST /api/org/:orgId/search */
export const eventSearchQuery = (orgId: string, scope: SearchScope, page: SearchPageRequest) =>
  queryOptions({
    queryKey: [...eventsKey(orgId), 'search', scope, page] as const,
    queryFn: ({ signal }) =>
      apiPost(`${orgPath(orgId)}/search`, { ...scope, ...page }, searchResponseSchema, signal),
    retry: searchRetry,
  });

/** POST /api/org/:orgId/search/aggregate: hits over time. */
export const histogramQuery = (orgId: string, scope: SearchScope) =>
  queryOptions({
    queryKey: [...eventsKey(orgId), 'histogram', scope] as const,
    queryFn: ({ signal }) =>
      apiPost(
        `${orgPath(orgId)}/search/aggregate`,
        { ...scope, aggregation: { type: 'date_histogram' } },
        aggregationResultSchema,
        signal,
      ),
    retry: searchRetry,
  });

/**
 * GET /api/org/:orgId/search/fields: the fields of the latest events of the search, its filters
 * written into the query (the call takes a query only).
 */
export const searchFieldsQuery = (orgId: string, scope: SearchScope) =>
  queryOptions({
    queryKey: [
      ...eventsKey(orgId),
      'fields',
      scope.query,
      scope.filters,
      scope.begin,
      scope.end,
      scope.intervalType,
    ] as const,
    queryFn: ({ signal }) => {
      const params = new URLSearchParams();
      const query = andQueries(scope.query, buildQuery(scope.filters));
      if (query) params.set('query', query);
      if (scope.begin !== undefined) params.set('begin', String(scope.begin));
      if (scope.end !== undefined) params.set('end', String(scope.end));
      if (scope.intervalType) params.set('intervalType', scope.intervalType);
      return apiFetch(`${orgPath(orgId)}/search/fields?${params.toString()}`, {
        schema: searchFieldsResponseSchema,
        signal,
      });
    },
    retry: searchRetry,
  });

/** Values shown when a sidebar field is expanded. */
export const FIELD_VALUES_SIZE = 10;

/** POST /api/org/:orgId/search/field-values: a field's top values. */
export const fieldValuesQuery = (orgId: string, scope: SearchScope, field: string) =>
  queryOptions({
    queryKey: [...eventsKey(orgId), 'field-values', scope, field] as const,
    queryFn: ({ signal }) =>
      apiPost(
        `${orgPath(orgId)}/search/field-values`,
        { ...scope, field, size: FIELD_VALUES_SIZE },
        fieldValuesResponseSchema,
        signal,
      ),
    retry: searchRetry,
  });

function apiPost<T>(path: string, body: unknown, schema: { parse(data: unknown): T }, signal: AbortSignal) {
  return apiFetch(path, { method: 'POST', body, schema, signal });
}
