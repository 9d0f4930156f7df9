import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import {
  THREAT_RATING_LOOKUP_DELAY_MS,
  THREAT_RATING_LOOKUP_MAX,
  threatIndicatorListSchema,
  threatRatingLookupResultSchema,
  threatSourceListSchema,
  type ThreatDomain,
  type ThreatIndicatorType,
  type ThreatRating,
} from '@vigil/contracts';
import { apiFetch } from '../../lib/api';

const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

export const threatSourcePath = (orgId: string, id?: string) =>
  id ? `${orgPath(orgId)}/threat-source/${encodeURIComponent(id)}` : `${orgPath(orgId)}/threat-source`;

export const threatIndicatorPath = (orgId: string, sourceId: string, id?: string) =>
  `${threatSourcePath(orgId, sourceId)}/indicator${id ? `/${encodeURIComponent(id)}` : ''}`;

export const threatRatingPath = (orgId: string) => `${orgPath(orgId)}/threat-rating`;

export const threatKey = (orgId: string) => ['threat', orgId] as const;
export const threatSourcesKey = (orgId: string) => [...threatKey(orgId), 'sources'] as const;

/** GET /threat-sources (THREATMATCH_VIEW): subscribed first, then enabled, then by name. */
export const threatSourcesQuery = (
  orgId: string,
  domain: ThreatDomain,
  params: { search: string; pageSize: number; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...threatSourcesKey(orgId), 'list', domain, params] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/threat-sources?${new URLSearchParams({
          domain,
          ...(params.search && { search: params.search }),
          pageSize: String(params.pageSize),
          pageNumber: String(params.pageNumber),
        }).toString()}`,
        { schema: threatSourceListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

/** GET /threat-source/:id/indicators (THREATMATCH_VIEW). */
export const threatIndicatorsQuery = (
  orgId: string,
  sourceId: string,
  params: { type: ThreatIndicatorType | null; search: string; pageSize: number; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...threatSourcesKey(orgId), sourceId, 'indicators', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${threatSourcePath(orgId, sourceId)}/indicators?${new URLSearchParams({
          ...(params.type && { type: params.type }),
          ...(params.search && { search: params.search }),
          pageSize: String(params.pageSize),
          pageNumber: String(params.pageNumber),
        }).toString()}`,
        { schema: threatIndicatorListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

/** The cache key of one subject's rating; subjects differing only in case share it. */
export const threatRatingKey = (orgId: string, subject: string) =>
  [...threatKey(orgId), 'rating', subject.trim().toLowerCase()] as const;

interface Waiting {
  subject: string;
  resolve: (rating: ThreatRating) => void;
  reject: (error: unknown) => void;
}

const waitingByOrg = new Map<string, Waiting[]>();

/** Asks for the collected subjects of an organisation, THREAT_RATING_LOOKUP_MAX at a time. */
async function flush(orgId: string) {
  const waiting = waitingByOrg.get(orgId) ?? [];
  waitingByOrg.delete(orgId);
  const subjects = [...new Set(waiting.map((entry) => entry.subject))];
  for (let start = 0; start < subjects.length; start += THREAT_RATING_LOOKUP_MAX) {
    const chunk = subjects.slice(start, start + THREAT_RATING_LOOKUP_MAX);
    const callers = waiting.filter((entry) => chunk.includes(entry.subject));
    try {
      const { items } = await apiFetch(`${orgPath(orgId)}/threat-ratings/lookup`, {
        method: 'POST',
        body: { subjects: chunk },
        schema: threatRatingLookupResultSchema,
      });
      for (const entry of callers) entry.resolve(items[chunk.indexOf(entry.subject)]!);
    } catch (error) {
      for (const entry of callers) entry.reject(error);
    }
  }
}

/**
 * The rating of a subject. Lookups asked for within THREAT_RATING_LOOKUP_DELAY_MS of the first are
 * sent together (spec 2 section 7), so that a page of events costs one call.
 */
export function lookupThreatRating(orgId: string, subject: string): Promise<ThreatRating> {
  return new Promise((resolve, reject) => {
    const waiting = waitingByOrg.get(orgId);
    if (waiting) {
      waiting.push({ subject, resolve, reject });
      return;
    }
    waitingByOrg.set(orgId, [{ subject, resolve, reject }]);
    setTimeout(() => void flush(orgId), THREAT_RATING_LOOKUP_DELAY_MS);
  });
}

export const threatRatingQuery = (orgId: string, subject: string) =>
  queryOptions({
    queryKey: threatRatingKey(orgId, subject),
    queryFn: () => lookupThreatRating(orgId, subject.trim()),
    staleTime: 60_000,
  });
