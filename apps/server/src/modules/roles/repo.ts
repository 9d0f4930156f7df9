import { and, asc, eq, isNull, ne, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { SYSTEM_ROLES, type SystemRoleName } from './system-roles';
import { users } from '../users/tables';
import { roles } from './tables';

/** Creates the shared system roles that are missing and answers their ids by key. */
export async function ensureSystemRoles(db: Db): Promise<Record<SystemRoleName, string>> {
  const ids = {} as Record<SystemRoleName, string>;
  for (const [key, role] of Object.entries(SYSTEM_ROLES) as [
    SystemRoleName,
    (typeof SYSTEM_ROLES)[SystemRoleName],
  ][]) {
    const [existing] = await db
      .select({ id: roles.id })
      .from(roles)
      .where(and(isNull(roles.orgId), eq(roles.shared, true), eq(roles.name, role.name)))
      .limit(1);
    if (existing) {
      ids[key] = existing.id;
      continue;
    }
    const [created] = await db
      .insert(roles)
      .values({ ...role, permissions: [...role.permissions], shared: true, orgId: null })
      .returning({ id: roles.id });
    ids[key] = created!.id;
  }
  return ids;
}

export type RoleRow = typeof roles.$inferSelect;

export async function findRole(db: Db, roleId: string): Promise<RoleRow | null> {
  const [role] = await db.select().from(roles).where(eq(roles.id, roleId)).limit(1);
  return role ?? null;
}

/** Roles an organisation sees: the shared ones and its own custom roles. */
const ofOrg = (orgId: string) => or(isNull(roles.orgId), eq(roles.orgId, orgId));

export interface RoleListOptions {
  includeDeleted: boolean;
  includeProvider: boolean;
  includeHidden: boolean;
}

/** The organisation's roles by name, each with how many of its users (not deleted) hold it. */
export async function listOrgRoles(db: Db, orgId: string, options: RoleListOptions) {
  return db
    .select({
      role: roles,
      userCount: sql<number>`(select count(*)::int from ${users} u where u.role_id = roles.id and u.home_org_id = ${orgId} and u.deleted_at is null)`,
    })
    .from(roles)
    .where(
      and(
        ofOrg(orgId),
        options.includeDeleted ? undefined : isNull(roles.deletedAt),
        options.includeProvider ? undefined : eq(roles.provider, false),
        options.includeHidden ? undefined : eq(roles.hidden, false),
      ),
    )
    .orderBy(sql`${roles.deletedAt} is not null`, sql`lower(${roles.name})`, asc(roles.id));
}

/** A live role the organisation sees with this name (case-insensitive), other than `exceptId`. */
export async function findOrgRoleByName(db: Db, orgId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: roles.id })
    .from(roles)
    .where(
      and(
        ofOrg(orgId),
        isNull(roles.deletedAt),
        sql`lower(${roles.name}) = ${name.toLowerCase()}`,
        exceptId ? ne(roles.id, exceptId) : undefined,
      ),
    )
    .limit(1);
  return row?.id ?? null;
}

export async function insertCustomRole(
  db: Db,
  orgId: string,
  values: { name: string; description: string; permissions: string[] },
) {
  const [role] = await db
    .insert(roles)
    .values({ ...values, orgId, shared: false, provider: false })
    .returning();
  return role!;
}

export async function updateCustomRole(
  db: Db,
  orgId: string,
  roleId: string,
  values: Partial<Pick<RoleRow, 'name' | 'description' | 'permissions' | 'deletedAt'>>,
) {
  const [role] = await db
    .update(roles)
    .set(values)
    .where(and(eq(roles.id, roleId), eq(roles.orgId, orgId), eq(roles.shared, false)))
    .returning();
  return role!;
}
