import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  DEFAULT_PREFERENCES,
  newDashboardsEnabled,
  preferencesSchema,
  pushRecent,
  type Preferences,
} from '@vigil/contracts';
import { useCallback } from 'react';
import { apiFetch } from './api';
import { useFeature } from './org-context';
import { SESSION_QUERY_KEY, useCurrentOrgId, useCurrentUser } from './session';

export type PreferencesPatch = Partial<Preferences>;
export type RecentSearch = Preferences['recentSearches'][number];
export type RecentTicket = Preferences['recentTickets'][number];

const preferencesPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}/user/preferences`;

/** GET /api/org/:orgId/user/preferences: the user's preferences in one organisation, defaults filled. */
export const preferencesQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...SESSION_QUERY_KEY, 'preferences', orgId] as const,
    queryFn: ({ signal }) => apiFetch(preferencesPath(orgId), { schema: preferencesSchema, signal }),
  });

/** The preferences query of the current organisation. */
export function usePreferencesQuery() {
  const orgId = useCurrentOrgId();
  const signedIn = useCurrentUser() !== null;
  const query = preferencesQuery(orgId ?? '');
  return useQuery({ ...query, queryFn: orgId && signedIn ? query.queryFn : skipToken });
}

/** The user's preferences in the current organisation; the defaults until they are loaded. */
export function usePreferences(): Preferences {
  return usePreferencesQuery().data ?? DEFAULT_PREFERENCES;
}

/**
 * Changes some preferences (PATCH). The change shows at once; the server's answer then replaces it, and
 * a failure puts the previous values back and says so.
 */
export function useUpdatePreferences(): (patch: PreferencesPatch) => void {
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId();
  const { mutate } = useMutation({
    mutationFn: (patch: PreferencesPatch) =>
      apiFetch(preferencesPath(orgId ?? ''), { method: 'PATCH', body: patch, schema: preferencesSchema }),
    onMutate: async (patch) => {
      if (!orgId) return undefined;
      const key = preferencesQuery(orgId).queryKey;
      await queryClient.cancelQueries({ queryKey: key });
      const previous = queryClient.getQueryData(key);
      queryClient.setQueryData(key, { ...(previous ?? DEFAULT_PREFERENCES), ...patch });
      return { previous };
    },
    onError: (_error, _patch, context) => {
      if (orgId && context?.previous)
        queryClient.setQueryData(preferencesQuery(orgId).queryKey, context.previous);
    },
    onSuccess: (preferences) => {
      if (orgId) queryClient.setQueryData(preferencesQuery(orgId).queryKey, preferences);
    },
  });
  return useCallback(
    (patch: PreferencesPatch) => {
      if (orgId) mutate(patch);
    },
    [mutate, orgId],
  );
}

/** Spec 1 section 4.5: the stored choice, else on when the organisation has defaultRevealDashboards. */
export function useNewDashboardsEnabled(): boolean {
  const preferences = usePreferences();
  return newDashboardsEnabled(preferences, useFeature('defaultRevealDashboards'));
}

const sameSearch = (a: RecentSearch, b: RecentSearch) =>
  a.query === b.query && JSON.stringify(a.filters) === JSON.stringify(b.filters);
const sameTicket = (a: RecentTicket, b: RecentTicket) => a.slugId === b.slugId;

/** The user's five most recent searches, newest first, and a function that records one. */
export function useRecentSearches(): [RecentSearch[], (search: RecentSearch) => void] {
  const { recentSearches } = usePreferences();
  const update = useUpdatePreferences();
  const record = useCallback(
    (search: RecentSearch) => update({ recentSearches: pushRecent(recentSearches, search, sameSearch) }),
    [recentSearches, update],
  );
  return [recentSearches, record];
}

/** The user's five most recently opened tickets, newest first, and a function that records one. */
export function useRecentTickets(): [RecentTicket[], (ticket: RecentTicket) => void] {
  const { recentTickets } = usePreferences();
  const update = useUpdatePreferences();
  const record = useCallback(
    (ticket: RecentTicket) => update({ recentTickets: pushRecent(recentTickets, ticket, sameTicket) }),
    [recentTickets, update],
  );
  return [recentTickets, record];
}
