import {
  hashKey,
  queryOptions,
  skipToken,
  useQuery,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { useRouter, useSearch, type RegisteredRouter } from '@tanstack/react-router';
import {
  currentUserSchema,
  permissionsResponseSchema,
  SECOND_FACTOR_TIMEOUT_MS,
  userOrgsResponseSchema,
  type CurrentUser,
  type LoginResponse,
} from '@vigil/contracts';
import { useCallback, useMemo } from 'react';
import { ApiRequestError, apiFetch } from './api';
import { chooseCurrentOrg, type UserOrg } from './current-org';
import { notifyMessage } from './notify';
import { DEFAULT_LANDING, safeRedirectPath, searchParamOf, withSearchParam } from './redirect';

/**
 * Session state lives in the query cache under this key: the signed-in user, their organisations and
 * permissions, and a pending second factor. Signing out clears it together with every other query.
 */
export const SESSION_QUERY_KEY = ['session'] as const;

const ORGS_STALE_MS = 5 * 60_000;

/** GET /api/user: the signed-in user, or null when the cookie signs nobody in. */
export const currentUserQuery = queryOptions({
  queryKey: [...SESSION_QUERY_KEY, 'user'] as const,
  queryFn: async ({ signal }): Promise<CurrentUser | null> => {
    try {
      return await apiFetch('/api/user', { schema: currentUserSchema, signal });
    } catch (err) {
      if (err instanceof ApiRequestError && err.status === 401) return null;
      throw err;
    }
  },
});

export const userOrgsQuery = queryOptions({
  queryKey: [...SESSION_QUERY_KEY, 'orgs'] as const,
  queryFn: ({ signal }) => apiFetch('/api/orgs', { schema: userOrgsResponseSchema, signal }),
  staleTime: ORGS_STALE_MS,
});

export const permissionsQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...SESSION_QUERY_KEY, 'permissions', orgId] as const,
    queryFn: async ({ signal }) => {
      const { permissions } = await apiFetch(`/api/org/${encodeURIComponent(orgId)}/user/permissions`, {
        schema: permissionsResponseSchema,
        signal,
      });
      return permissions;
    },
    staleTime: ORGS_STALE_MS,
  });

/** Reloads the signed-in user, for example after a change to their second factors. */
export async function refreshCurrentUser(queryClient: QueryClient): Promise<void> {
  const user = await apiFetch('/api/user', { schema: currentUserSchema });
  queryClient.setQueryData(currentUserQuery.queryKey, user);
}

/** Where to go once signed in: the login page's redirectUrl and orgId. */
export interface LoginRedirect {
  redirectUrl?: string;
  orgId?: string;
}

/** A password login that still waits for its second factor (spec 1 section 4.1 step 2). */
export interface PendingSecondFactor {
  login: LoginResponse;
  /** Epoch milliseconds; the pending state ends SECOND_FACTOR_TIMEOUT_MS later. */
  startedAt: number;
  redirect: LoginRedirect;
}

// Set by the login page, never fetched.
const secondFactorKey = [...SESSION_QUERY_KEY, 'secondFactor'] as const;

function setSecondFactor(queryClient: QueryClient, pending: PendingSecondFactor | null): void {
  queryClient.setQueryData<PendingSecondFactor | null>(secondFactorKey, pending);
}

/** The pending second factor, when there is one and it has not timed out. */
export function pendingSecondFactor(queryClient: QueryClient): PendingSecondFactor | null {
  const pending = queryClient.getQueryData<PendingSecondFactor | null>(secondFactorKey);
  return pending && Date.now() - pending.startedAt < SECOND_FACTOR_TIMEOUT_MS ? pending : null;
}

/** Spec 1 section 4.1 step 2: a security key first, then the authenticator app, then first-time set-up. */
function secondFactorPage(login: LoginResponse) {
  if (login.u2fInitialized) return '/u2f-authentication';
  if (login.google2faInitialized) return '/totp-authentication';
  return '/setup-totp-login';
}

/** Remembers a login that needs its second factor and opens the matching page. */
export async function startSecondFactor(
  queryClient: QueryClient,
  router: RegisteredRouter,
  login: LoginResponse,
  redirect: LoginRedirect,
): Promise<void> {
  setSecondFactor(queryClient, { login, startedAt: Date.now(), redirect });
  await router.navigate({ to: secondFactorPage(login) });
}

/**
 * Finishes signing in (spec 1 section 4.1 steps 3 and 4): keeps the user, loads the organisations,
 * picks the current one and opens the redirect target with its orgId, or /select-org when the user
 * has to choose.
 */
export async function completeSignIn(
  queryClient: QueryClient,
  router: RegisteredRouter,
  user: CurrentUser,
  redirect: LoginRedirect,
): Promise<void> {
  setSecondFactor(queryClient, null);
  queryClient.setQueryData(currentUserQuery.queryKey, user);
  const userOrgs = await queryClient.fetchQuery({ ...userOrgsQuery, staleTime: 0 });
  const target = safeRedirectPath(redirect.redirectUrl) ?? DEFAULT_LANDING;
  const orgId = chooseCurrentOrg(userOrgs, redirect.orgId ?? searchParamOf(target, 'orgId'));
  if (orgId === null) {
    await router.navigate({ to: '/select-org', search: { redirectUrl: target }, replace: true });
  } else {
    await router.navigate({ href: withSearchParam(target, 'orgId', orgId), replace: true });
  }
}

export type SignOutReason = 'user' | 'sessionEnded' | 'idle' | 'secondFactorExpired';

const SIGN_OUT_MESSAGE_KEYS: Record<SignOutReason, string | null> = {
  user: null,
  sessionEnded: 'NOT_AUTHENTICATED',
  idle: 'session.idleLoggedOut',
  secondFactorExpired: 'SECOND_FACTOR_EXPIRED',
};

/**
 * Signs out (spec 1 section 4.1 steps 5 and 6): ends the server session unless it has already ended,
 * forgets every cached answer, says why when the user did not ask for it, and opens /login. After an
 * unexpected end the login page gets the address the user was on, to return there.
 */
export async function endSession(
  queryClient: QueryClient,
  router: RegisteredRouter,
  reason: SignOutReason,
): Promise<void> {
  const returnTo = reason === 'sessionEnded' ? safeRedirectPath(router.latestLocation.href) : undefined;
  // First, so that further 401 answers and timers see a signed-out session and do nothing.
  queryClient.setQueryData(currentUserQuery.queryKey, null);
  setSecondFactor(queryClient, null);
  if (reason !== 'sessionEnded') {
    await apiFetch('/api/user/logout', { method: 'POST' }).catch(() => {
      // The local session ends either way; the server drops its side when the cookie expires.
    });
  }
  await queryClient.cancelQueries();
  // The two entries just set stay: pages still on screen watch them until /login replaces them.
  const kept = new Set([hashKey(currentUserQuery.queryKey), hashKey(secondFactorKey)]);
  queryClient.removeQueries({ predicate: (query) => !kept.has(query.queryHash) });
  queryClient.getMutationCache().clear();
  const messageKey = SIGN_OUT_MESSAGE_KEYS[reason];
  if (messageKey) notifyMessage(messageKey, 'yellow');
  await router.navigate({ to: '/login', search: returnTo ? { redirectUrl: returnTo } : {}, replace: true });
}

/** The signed-in user as the app knows it, without asking the server; null when signed out. */
export function useCurrentUser(): CurrentUser | null {
  return useQuery({ ...currentUserQuery, enabled: false }).data ?? null;
}

/** The pending second factor, if a login waits for one. */
export function useSecondFactor(): PendingSecondFactor | null {
  return useQuery<PendingSecondFactor | null>({ queryKey: secondFactorKey, queryFn: skipToken }).data ?? null;
}

/** The orgId of the address, which names the current organisation. */
export function useCurrentOrgId(): string | undefined {
  return useSearch({ strict: false, select: (search) => search.orgId });
}

/** The user's organisations: the home one and every authorised one, sorted by name. */
export function useUserOrgs(): UserOrg[] {
  const signedIn = useCurrentUser() !== null;
  const { data } = useQuery({ ...userOrgsQuery, enabled: signedIn });
  return data?.orgs ?? [];
}

/** The current organisation, once known. */
export function useCurrentOrg(): UserOrg | undefined {
  const orgId = useCurrentOrgId();
  const orgs = useUserOrgs();
  return orgs.find((org) => org.id === orgId);
}

/** The user's permission codes in the current organisation (empty until loaded). */
export function usePermissions(): ReadonlySet<string> {
  const orgId = useCurrentOrgId();
  const signedIn = useCurrentUser() !== null;
  const query = permissionsQuery(orgId ?? '');
  const { data } = useQuery({ ...query, queryFn: orgId && signedIn ? query.queryFn : skipToken });
  return useMemo(() => new Set(data ?? []), [data]);
}

export function useHasPermission(code: string): boolean {
  return usePermissions().has(code);
}

/** Signs the user out and opens /login. */
export function useLogout(): () => Promise<void> {
  const queryClient = useQueryClient();
  const router = useRouter();
  return useCallback(() => endSession(queryClient, router, 'user'), [queryClient, router]);
}
