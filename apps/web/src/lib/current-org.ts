import type { UserOrgsResponse } from '@vigil/contracts';

export type UserOrgs = UserOrgsResponse;
export type UserOrg = UserOrgs['orgs'][number];

/**
 * Spec 1 section 4.1 step 3: with no authorised organisation the home one is current; an orgId that
 * names the home or an authorised organisation is current; otherwise the user has to choose (null).
 */
export function chooseCurrentOrg(userOrgs: UserOrgs, requestedOrgId: string | undefined): string | null {
  const authorised = userOrgs.orgs.filter((org) => org.id !== userOrgs.homeOrgId);
  if (authorised.length === 0) return userOrgs.homeOrgId;
  if (requestedOrgId === undefined) return null;
  if (requestedOrgId === userOrgs.homeOrgId) return requestedOrgId;
  return authorised.some((org) => org.id === requestedOrgId) ? requestedOrgId : null;
}
