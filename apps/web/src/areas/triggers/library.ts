import { queryOptions } from '@tanstack/react-query';
import { libraryStatsSchema, triggerLibrarySchema, type TriggerDomain } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';
import { orgPath } from '../assets/queries';

/** Every trigger-library query of an organisation, for invalidation. */
export const libraryKey = (orgId: string) => ['trigger-library', orgId] as const;

export const libraryPath = (orgId: string) => `${orgPath(orgId)}/trigger-library`;

export const libraryTriggerPath = (orgId: string, id?: string) =>
  `${libraryPath(orgId)}/trigger${id ? `/${encodeURIComponent(id)}` : ''}`;

export const libraryGroupPath = (orgId: string, id?: string) =>
  `${libraryPath(orgId)}/group${id ? `/${encodeURIComponent(id)}` : ''}`;

/** GET /api/org/:orgId/trigger-library (TRIGGER_VIEW; fraud also the fraud product). */
export const triggerLibraryQuery = (orgId: string, domain: TriggerDomain) =>
  queryOptions({
    queryKey: [...libraryKey(orgId), 'groups', domain] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${libraryPath(orgId)}?domain=${domain}`, { schema: triggerLibrarySchema, signal }),
  });

/** GET /api/org/:orgId/trigger-library/trigger/:id/stats (provider staff in the provider organisation). */
export const libraryStatsQuery = (orgId: string, id: string) =>
  queryOptions({
    queryKey: [...libraryKey(orgId), 'stats', id] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${libraryTriggerPath(orgId, id)}/stats`, { schema: libraryStatsSchema, signal }),
    retry: false,
  });

/** The address form of a library trigger's id (spec: /triggers/{32-character id}/stats) and back. */
export const compactId = (id: string) => id.replace(/-/g, '');

export function expandId(compact: string): string | null {
  if (!/^[0-9a-f]{32}$/i.test(compact)) return null;
  const hex = compact.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
