import { and, eq, isNull } from 'drizzle-orm';
import { DEFAULT_ORG_SETTINGS, expandPermissions, readOnlyPermissions } from '@vigil/contracts';
import type { OrgAccess, SessionUser } from '../../platform/access';
import type { Db } from '../../db/client';
import { orgs } from '../orgs/tables';
import { roles } from '../roles/tables';
import { userOrgs } from './tables';

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * What a user may do in an organisation: null unless it is their home organisation or one they are
 * authorised for. Permissions come from the user's role; read-only mode keeps the _VIEW codes only.
 */
export async function loadOrgAccess(
  db: Db,
  user: Pick<SessionUser, 'id' | 'homeOrgId' | 'roleId' | 'readOnlyMode'>,
  orgId: string,
): Promise<OrgAccess | null> {
  if (!UUID_PATTERN.test(orgId)) return null;
  const [org] = await db.select().from(orgs).where(eq(orgs.id, orgId)).limit(1);
  if (!org) return null;
  if (org.id !== user.homeOrgId) {
    const [grant] = await db
      .select({ orgId: userOrgs.orgId })
      .from(userOrgs)
      .where(and(eq(userOrgs.userId, user.id), eq(userOrgs.orgId, orgId)))
      .limit(1);
    if (!grant) return null;
  }
  const [role] = await db
    .select({ permissions: roles.permissions })
    .from(roles)
    .where(and(eq(roles.id, user.roleId), isNull(roles.deletedAt)))
    .limit(1);
  const expanded = [...expandPermissions(role?.permissions ?? [])];
  return {
    org: {
      id: org.id,
      name: org.name,
      productSkus: org.productSkus,
      isProvider: org.isProvider,
      managementMode: org.managementMode,
      featureFlags: org.featureFlags,
      settings: { ...DEFAULT_ORG_SETTINGS, ...org.settings },
    },
    permissions: user.readOnlyMode ? readOnlyPermissions(expanded) : expanded,
    rolePermissions: expanded,
  };
}
