import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  integrationListSchema,
  s3LogObjectListSchema,
  s3LogSourceListSchema,
  type IntegrationKind,
} from '@vigil/contracts';
import { apiFetch, orgPath } from '../../lib/api';

export const integrationsKey = (orgId: string) => ['settings', orgId, 'integrations'] as const;

export const integrationsPath = (orgId: string) => `${orgPath(orgId)}/integrations`;
export const integrationPath = (orgId: string, id: string) =>
  `${orgPath(orgId)}/integration/${encodeURIComponent(id)}`;
export const logSourcesPath = (orgId: string, integrationId: string) =>
  `${integrationPath(orgId, integrationId)}/log-sources`;
export const logSourcePath = (orgId: string, id: string) =>
  `${orgPath(orgId)}/log-source/${encodeURIComponent(id)}`;

/** Status and progress change while collection runs: lists refresh on their own this often. */
const REFRESH_MS = 15_000;
/** An open log-source list follows a poll closely. */
const SOURCES_REFRESH_MS = 5_000;

/** GET /integrations?kind= (INTEGRATION_VIEW). */
export const integrationsQuery = (orgId: string, kind: IntegrationKind) =>
  queryOptions({
    queryKey: [...integrationsKey(orgId), 'list', kind] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${integrationsPath(orgId)}?kind=${kind}`, { schema: integrationListSchema, signal }),
    refetchInterval: REFRESH_MS,
  });

/** GET /integration/:id/log-sources (INTEGRATION_VIEW). */
export const logSourcesQuery = (orgId: string, integrationId: string) =>
  queryOptions({
    queryKey: [...integrationsKey(orgId), 'log-sources', integrationId] as const,
    queryFn: ({ signal }) =>
      apiFetch(logSourcesPath(orgId, integrationId), { schema: s3LogSourceListSchema, signal }),
    refetchInterval: SOURCES_REFRESH_MS,
  });

/** GET /log-source/:id/objects (INTEGRATION_VIEW). */
export const logObjectsQuery = (
  orgId: string,
  sourceId: string,
  params: { pageNumber: number; pageSize: number; failedOnly: boolean },
) =>
  queryOptions({
    queryKey: [...integrationsKey(orgId), 'log-objects', sourceId, params] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${logSourcePath(orgId, sourceId)}/objects?${new URLSearchParams({
          pageNumber: String(params.pageNumber),
          pageSize: String(params.pageSize),
          failedOnly: String(params.failedOnly),
        }).toString()}`,
        { schema: s3LogObjectListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });
