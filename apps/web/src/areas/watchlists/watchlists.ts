import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  watchlistItemsSchema,
  watchlistListSchema,
  watchlistSchema,
  type WatchlistDomain,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

export const watchlistPath = (orgId: string, id?: string) =>
  `${orgPath(orgId)}/watchlist${id ? `/${encodeURIComponent(id)}` : ''}`;

/** Every watchlist query of an organisation, lists and items, for invalidation. */
export const watchlistsKey = (orgId: string) => ['watchlists', orgId] as const;

interface Paging {
  search?: string;
  pageSize: number;
  pageNumber: number;
}

const pagingParams = (params: Paging) => {
  const search = new URLSearchParams({
    pageSize: String(params.pageSize),
    pageNumber: String(params.pageNumber),
  });
  if (params.search) search.set('search', params.search);
  return search;
};

/** GET /api/org/:orgId/watchlists (THREATMATCH_VIEW; fraud also the fraud product). */
export const watchlistsQuery = (orgId: string, domain: WatchlistDomain, params: Paging) =>
  queryOptions({
    queryKey: [...watchlistsKey(orgId), 'list', domain, params] as const,
    queryFn: ({ signal }) => {
      const search = pagingParams(params);
      search.set('domain', domain);
      return apiFetch(`${orgPath(orgId)}/watchlists?${search.toString()}`, {
        schema: watchlistListSchema,
        signal,
      });
    },
    placeholderData: keepPreviousData,
  });

export const watchlistQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...watchlistsKey(orgId), 'one', id] as const,
    queryFn: ({ signal }) => apiFetch(watchlistPath(orgId, id), { schema: watchlistSchema, signal }),
  });

/** GET /api/org/:orgId/watchlist/:id/items */
export const watchlistItemsQuery = (orgId: string, id: string, params: Paging) =>
  queryOptions({
    queryKey: [...watchlistsKey(orgId), 'items', id, params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${watchlistPath(orgId, id)}/items?${pagingParams(params).toString()}`, {
        schema: watchlistItemsSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

/** The lines of a text box as values: trimmed, without blanks. */
export const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
