import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  controlDetailSchema,
  controlListSchema,
  libraryControlListSchema,
  libraryRiskListSchema,
  riskDetailSchema,
  riskListItemSchema,
  riskListSchema,
  type RiskExceptionFilter,
  type RiskModule,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch, orgPath } from '../../lib/api';

/** Every risk-area query of an organisation, for invalidation after a change. */
export const riskKey = (orgId: string) => ['risk', orgId] as const;

/** The register's or the library's path of risks or controls. */
export const riskListPath = (orgId: string, kind: 'risks' | 'controls', library: boolean) =>
  `${orgPath(orgId)}/${kind}${library ? '/library' : ''}`;

export const riskPath = (orgId: string, ref: string, library = false) =>
  library
    ? `${orgPath(orgId)}/risks/library/${encodeURIComponent(ref)}`
    : `${orgPath(orgId)}/risk/${encodeURIComponent(ref)}`;

export const controlPath = (orgId: string, ref: string, library = false) =>
  library
    ? `${orgPath(orgId)}/controls/library/${encodeURIComponent(ref)}`
    : `${orgPath(orgId)}/control/${encodeURIComponent(ref)}`;

export interface RiskListParams {
  modules: RiskModule[];
  q: string;
  state: 'ACTIVE' | 'INACTIVE' | 'ALL';
  exceptions: RiskExceptionFilter;
  /** Only risks whose scores are to revisit. */
  revisit?: boolean;
  sortBy: string;
  desc: boolean;
  pageSize: number;
  pageNumber: number;
}

function searchOf(params: Record<string, string | number | boolean | string[] | undefined>) {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === '') continue;
    search.set(key, Array.isArray(value) ? value.join(',') : String(value));
  }
  return search.toString();
}

/** GET /risks or /risks/library (whose items say whether the register holds a copy). */
export const risksQuery = (orgId: string, library: boolean, params: RiskListParams) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'risks', library, params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${riskListPath(orgId, 'risks', library)}?${searchOf({ ...params })}`, {
        schema: library ? libraryRiskListSchema : riskListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const riskQuery = (orgId: string, ref: string, library = false) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'risk', library, ref.toUpperCase()] as const,
    queryFn: ({ signal }) => apiFetch(riskPath(orgId, ref, library), { schema: riskDetailSchema, signal }),
  });

export interface ControlListParams {
  q: string;
  sortBy: string;
  desc: boolean;
  pageSize: number;
  pageNumber: number;
}

/** GET /controls or /controls/library (whose items say whether the register holds a copy). */
export const controlsQuery = (orgId: string, library: boolean, params: ControlListParams) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'controls', library, params] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${riskListPath(orgId, 'controls', library)}?${searchOf({ ...params })}`, {
        schema: library ? libraryControlListSchema : controlListSchema,
        signal,
      }),
    placeholderData: keepPreviousData,
  });

export const controlQuery = (orgId: string, ref: string, library = false) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'control', library, ref.toUpperCase()] as const,
    queryFn: ({ signal }) =>
      apiFetch(controlPath(orgId, ref, library), { schema: controlDetailSchema, signal }),
  });

/** GET /risk-lists: every custom list of the organisation. */
export const riskListsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...riskKey(orgId), 'lists'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/risk-lists`, { schema: z.array(riskListItemSchema), signal }),
  });
