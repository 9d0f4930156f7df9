import { queryOptions, skipToken, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useSearch } from '@tanstack/react-router';
import {
  hasSkuGate,
  orgContextSchema,
  readOnlyPermissions,
  resolveFeatureFlags,
  type FeatureFlag,
  type NavContext,
  type OrgContext,
  type SkuGate,
} from '@vigil/contracts';
import { useMemo } from 'react';
import { apiFetch } from './api';
import {
  permissionsQuery,
  SESSION_QUERY_KEY,
  useCurrentOrg,
  useCurrentOrgId,
  useCurrentUser,
  usePermissions,
} from './session';

const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

/**
 * GET /api/org/:orgId/context: the organisation, its effective feature flags and SKUs, the user's
 * effective permissions and read-only state. The `feature` query parameter of the address is passed on,
 * so the server switches on the flags it names.
 */
export const orgContextQuery = (orgId: string, feature: string | undefined) =>
  queryOptions({
    queryKey: [...SESSION_QUERY_KEY, 'context', orgId, feature ?? null] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/context${feature ? `?feature=${encodeURIComponent(feature)}` : ''}`, {
        schema: orgContextSchema,
        signal,
      }),
  });

/** Every cached context of one organisation, whatever its `feature` parameter. */
export const orgContextKey = (orgId: string) => [...SESSION_QUERY_KEY, 'context', orgId] as const;

/** The `feature` query parameter of the address. */
export function useFeatureParam(): string | undefined {
  return useSearch({ strict: false, select: (search) => search.feature });
}

/** The query of the current organisation's context; pending while there is no current organisation. */
export function useOrgContextQuery() {
  const orgId = useCurrentOrgId();
  const feature = useFeatureParam();
  const signedIn = useCurrentUser() !== null;
  const query = orgContextQuery(orgId ?? '', feature);
  return useQuery({ ...query, queryFn: orgId && signedIn ? query.queryFn : skipToken });
}

/** The current organisation's context, once loaded. */
export function useOrgContext(): OrgContext | undefined {
  return useOrgContextQuery().data;
}

/**
 * The effective feature flags. Until the context is known (or when it cannot be loaded) these are the
 * defaults with the address's `feature` parameter applied, as the server would compute them.
 */
export function useFeatures(): Readonly<Partial<Record<string, boolean>>> {
  const context = useOrgContext();
  const feature = useFeatureParam();
  return useMemo(() => context?.features ?? resolveFeatureFlags({}, feature), [context, feature]);
}

export function useFeature(flag: FeatureFlag): boolean {
  return useFeatures()[flag] === true;
}

/** The current organisation's product SKUs. */
export function useProductSkus(): readonly string[] {
  const context = useOrgContext();
  const org = useCurrentOrg();
  return context?.org.productSkus ?? org?.productSkus ?? [];
}

/** Whether the current organisation holds a SKU of the product family `gate`. */
export function useHasSku(gate: SkuGate): boolean {
  return hasSkuGate(useProductSkus(), gate);
}

/** What the navigation rules of `@vigil/contracts` need, from the current session. */
export function useNavContext(): NavContext {
  const permissions = usePermissions();
  const features = useFeatures();
  const productSkus = useProductSkus();
  const isProvider = useOrgContext()?.org.isProvider ?? false;
  return useMemo(
    () => ({ permissions, features, productSkus, isProvider }),
    [permissions, features, productSkus, isProvider],
  );
}

/** Whether the user may switch read-only mode here (feature readonlyToggle and the role's right). */
export function useCanToggleReadOnly(): boolean {
  const context = useOrgContext();
  return Boolean(context?.features.readonlyToggle && context.canToggleReadOnly);
}

/**
 * Switches read-only mode (PUT /api/org/:orgId/user/read-only). Switching it on narrows the permissions
 * at once, before the server's answer; both the context and the permissions are then reloaded.
 */
export function useSetReadOnlyMode() {
  const queryClient = useQueryClient();
  const orgId = useCurrentOrgId();
  return useMutation({
    mutationFn: async (enabled: boolean) => {
      if (!orgId) return;
      await apiFetch(`${orgPath(orgId)}/user/read-only`, { method: 'PUT', body: { enabled } });
    },
    onMutate: (enabled) => {
      if (!orgId || !enabled) return;
      queryClient.setQueryData<string[]>(permissionsQuery(orgId).queryKey, (codes) =>
        codes ? readOnlyPermissions(codes) : codes,
      );
    },
    onSettled: async () => {
      if (!orgId) return;
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: permissionsQuery(orgId).queryKey }),
        queryClient.invalidateQueries({ queryKey: orgContextKey(orgId) }),
      ]);
    },
  });
}
