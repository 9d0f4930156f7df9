import { expandPermissions, missingRequiredPermissions, ROLE_MARKER_PERMISSIONS } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import { findOrg } from '../orgs/repo';
import { holdsHiddenRole } from '../users/repo';
import { findRole, type RoleRow } from './repo';

/** What the acting user may see of roles and people. */
export interface Viewer {
  /** A provider role holder whose home is the provider organisation. */
  providerStaff: boolean;
  /** Holders of a hidden role see hidden roles and the people holding them. */
  seesHidden: boolean;
}

export async function viewerOf(db: Db, access: AccessContext): Promise<Viewer> {
  const home =
    access.org.id === access.user.homeOrgId ? access.org : await findOrg(db, access.user.homeOrgId);
  return {
    providerStaff: access.rolePermissions.has('TRAC_USER') && Boolean(home?.isProvider),
    seesHidden: await holdsHiddenRole(db, access.user.roleId),
  };
}

const permissionNotHeld = (permission: string) =>
  new AppError(
    'AccessDeniedException',
    'ROLE_PERMISSION_NOT_HELD',
    `Only holders of ${permission} may grant it`,
    { params: { permission } },
  );

/**
 * Nobody grants more than they hold: every code of `codes` (each _EDIT with its _VIEW) must be among
 * the acting user's effective permissions.
 */
export function assertPermissionsHeld(access: AccessContext, codes: Iterable<string>) {
  for (const code of expandPermissions(codes)) {
    if (!access.permissions.has(code)) throw permissionNotHeld(code);
  }
}

const roleInvalid = (field = 'roleId') =>
  validationFailed('ROLE_INVALID', 'Could not perform action because role was invalid', { field });

/** Whether the organisation's people, as this viewer sees them, may hold the role. */
function visibleIn(role: RoleRow, orgId: string, viewer: Viewer) {
  return (
    !role.deletedAt &&
    (role.orgId === null || role.orgId === orgId) &&
    (!role.provider || viewer.providerStaff) &&
    (!role.hidden || viewer.seesHidden)
  );
}

/**
 * A role the acting user may give to a user of the current organisation: one it sees, live, holding
 * nothing the actor does not hold; provider roles only to the provider's own people.
 */
export async function assignableRole(
  db: Db,
  access: AccessContext,
  viewer: Viewer,
  roleId: string,
  field?: string,
): Promise<RoleRow> {
  const role = await findRole(db, roleId);
  if (!role || !visibleIn(role, access.org.id, viewer)) throw roleInvalid(field);
  if (role.provider && !access.org.isProvider) throw roleInvalid(field);
  assertPermissionsHeld(access, role.permissions);
  return role;
}

/**
 * The acting user manages only people whose role holds nothing beyond their own permissions: taking
 * over a stronger account (its e-mail, its role) would be an escalation.
 */
export async function assertManageable(db: Db, access: AccessContext, target: { roleId: string }) {
  const role = await findRole(db, target.roleId);
  assertPermissionsHeld(access, role?.permissions ?? []);
}

const MARKERS = new Set<string>(ROLE_MARKER_PERMISSIONS);

/**
 * The permissions of a custom role: its codes deduplicated, no provider or compliance markers unless
 * the actor is provider staff, every `requires` dependency met, and nothing the actor does not hold.
 */
export function checkCustomRolePermissions(
  access: AccessContext,
  viewer: Viewer,
  codes: readonly string[],
): string[] {
  const unique = [...new Set(codes)].sort();
  const marker = unique.find((code) => MARKERS.has(code));
  if (marker && !viewer.providerStaff) {
    throw validationFailed('ROLE_MARKER_NOT_ALLOWED', `${marker} cannot be put in a custom role`, {
      field: 'permissions',
      params: { permission: marker },
    });
  }
  const [missing] = missingRequiredPermissions(unique);
  if (missing) {
    throw validationFailed('ROLE_REQUIRES_PERMISSION', `${missing.permission} requires ${missing.needs}`, {
      field: 'permissions',
      params: { permission: missing.permission, needs: missing.needs },
    });
  }
  assertPermissionsHeld(access, unique);
  return unique;
}
