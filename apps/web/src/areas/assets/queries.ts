import { queryOptions } from '@tanstack/react-query';
import {
  assetLabelsResponseSchema,
  assetListResponseSchema,
  assetSchema,
  assetSoftwareSchema,
  assetsDownResponseSchema,
  assetUploadCheckResponseSchema,
  softwareNamesResponseSchema,
  type AssetSortField,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';
import { assetSearchParams, type AssetFilters } from './search';

/** Kept here too for the area's callers. */
export { orgPath };
export const assetPath = (orgId: string, assetId: string) =>
  `${orgPath(orgId)}/asset/${encodeURIComponent(assetId)}`;

/** Every query of one organisation's assets starts with this key; a change invalidates them all. */
export const assetsKey = (orgId: string) => ['assets', orgId] as const;

export interface AssetListRequest {
  filters: AssetFilters;
  sortBy: AssetSortField;
  desc: boolean;
  pageSize: number;
  /** Zero-based. */
  pageId: number;
}

/** GET /api/org/:orgId/assets/search */
export const assetListQuery = (orgId: string, request: AssetListRequest) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'search', request] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/assets/search?${assetSearchParams(request.filters, request, request)}`, {
        schema: assetListResponseSchema,
        signal,
      }),
  });

/** GET /api/org/:orgId/asset/:id */
export const assetQuery = (orgId: string, assetId: string) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'asset', assetId] as const,
    queryFn: ({ signal }) => apiFetch(assetPath(orgId, assetId), { schema: assetSchema, signal }),
  });

/** GET /api/org/:orgId/asset/:id/software; a failure says ERROR_LOADING_SOFTWARE. */
export const assetSoftwareQuery = (orgId: string, assetId: string) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'asset', assetId, 'software'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${assetPath(orgId, assetId)}/software`, {
        schema: z.object({ items: z.array(assetSoftwareSchema) }),
        signal,
      }),
    meta: { errorKey: 'ERROR_LOADING_SOFTWARE' },
  });

/** GET /api/org/:orgId/labels: labels in use and the suggested ones; a failure says ERROR_LOADING_ASSET_LABELS. */
export const assetLabelsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'labels'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/labels`, { schema: assetLabelsResponseSchema, signal }),
    staleTime: 60_000,
    meta: { errorKey: 'ERROR_LOADING_ASSET_LABELS' },
  });

/** GET /api/org/:orgId/software: the software names of the organisation's assets. */
export const softwareNamesQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'software-names'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/software`, { schema: softwareNamesResponseSchema, signal }),
    staleTime: 60_000,
    meta: { errorKey: 'ERROR_LOADING_SOFTWARE' },
  });

/** The assets-down notice is checked this often while the list is open. */
const ASSETS_DOWN_REFRESH_MS = 60_000;

/** GET /api/org/:orgId/assets/down: high-importance assets that sent no data for five minutes. */
export const assetsDownQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...assetsKey(orgId), 'down'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/assets/down`, { schema: assetsDownResponseSchema, signal }),
    refetchInterval: ASSETS_DOWN_REFRESH_MS,
  });

/** GET /api/org/:orgId/asset-upload?size=: whether a file of `size` bytes may be uploaded. */
export const uploadCheck = (orgId: string, size: number) =>
  apiFetch(`${orgPath(orgId)}/asset-upload?size=${size}`, { schema: assetUploadCheckResponseSchema });
