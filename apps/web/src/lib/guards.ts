import type { QueryClient } from '@tanstack/react-query';
import { redirect, type ParsedLocation } from '@tanstack/react-router';
import { newDashboardsEnabled, type CurrentUser } from '@vigil/contracts';
import { chooseCurrentOrg } from './current-org';
import { orgContextQuery } from './org-context';
import { preferencesQuery } from './preferences';
import { withSearchParam } from './redirect';
import {
  currentUserQuery,
  pendingSecondFactor,
  permissionsQuery,
  userOrgsQuery,
  type PendingSecondFactor,
} from './session';

// Route guards of spec 1 section 2.2, for the routes' beforeLoad.

interface GuardArgs {
  context: { queryClient: QueryClient };
  location: ParsedLocation;
  search: { orgId?: string; feature?: string };
}

/** /login: a user the app already knows as signed in is refused. */
export function refuseSignedIn({ context, location }: GuardArgs): void {
  if (context.queryClient.getQueryData(currentUserQuery.queryKey)) {
    throw redirect({ to: '/unauthorized', search: { url: location.pathname } });
  }
}

/** Pages for signed-in users: everyone else goes to /login, which brings them back here afterwards. */
export async function requireUser({ context, location }: GuardArgs): Promise<{ user: CurrentUser }> {
  const user = await context.queryClient.ensureQueryData(currentUserQuery);
  if (!user) throw redirect({ to: '/login', search: { redirectUrl: location.href } });
  return { user };
}

/**
 * Pages that work inside the current organisation: the orgId of the address must name one of the
 * user's organisations (spec 1 section 4.1 step 3). A missing one is filled in when the choice is
 * obvious; otherwise the user picks one on /select-org. The organisation's permissions are loaded too.
 */
export async function requireOrg(args: GuardArgs): Promise<{ user: CurrentUser; orgId: string }> {
  const { user } = await requireUser(args);
  const { context, location } = args;
  const userOrgs = await context.queryClient.ensureQueryData(userOrgsQuery);
  const requested = args.search.orgId;
  const orgId = chooseCurrentOrg(userOrgs, requested);
  if (orgId === null) throw redirect({ to: '/select-org', search: { redirectUrl: location.href } });
  if (orgId !== requested) {
    throw redirect({ href: withSearchParam(location.href, 'orgId', orgId), replace: true });
  }
  // The shell needs these too, but a page must not wait for them (nor fail with them).
  void context.queryClient.prefetchQuery(orgContextQuery(orgId, args.search.feature));
  void context.queryClient.prefetchQuery(preferencesQuery(orgId));
  await context.queryClient.ensureQueryData(permissionsQuery(orgId));
  return { user, orgId };
}

/**
 * /dashboards/default, where users land: those on the old dashboards go to /dashboard instead (spec 1
 * section 4.5: their stored choice, else the organisation's defaultRevealDashboards flag). When either
 * cannot be loaded the new dashboards open, as the page itself does not need them.
 */
export async function landOnChosenDashboards(args: GuardArgs): Promise<void> {
  const { orgId } = await requireOrg(args);
  const { queryClient } = args.context;
  const [context, preferences] = await Promise.all([
    queryClient.ensureQueryData(orgContextQuery(orgId, args.search.feature)),
    queryClient.ensureQueryData(preferencesQuery(orgId)),
  ]).catch(() => [null, null] as const);
  if (
    context &&
    preferences &&
    !newDashboardsEnabled(preferences, context.features.defaultRevealDashboards === true)
  ) {
    throw redirect({ href: `/dashboard${args.location.searchStr}`, replace: true });
  }
}

/** The two-factor pages: only while a login waits for its second factor. */
export function requireSecondFactor({ context }: GuardArgs): { secondFactor: PendingSecondFactor } {
  const secondFactor = pendingSecondFactor(context.queryClient);
  if (!secondFactor) throw redirect({ to: '/login' });
  return { secondFactor };
}
