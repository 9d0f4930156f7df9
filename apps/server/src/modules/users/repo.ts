import { and, asc, desc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { UserActiveFilter, UserSortField } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { orgs } from '../orgs/tables';
import { roles } from '../roles/tables';
import { userEmails, userJobDescriptors, userOrgs, users } from './tables';

export interface NewUser {
  email: string;
  firstName: string;
  lastName: string;
  username?: string | null;
  homeOrgId: string;
  roleId: string;
  passwordHash: string | null;
  /** Organisations besides the home one the user may act in. */
  authorisedOrgIds?: string[];
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Creates a user with its primary e-mail and organisation grants in one transaction. */
export async function insertUser(db: Db, input: NewUser) {
  return db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({
        homeOrgId: input.homeOrgId,
        roleId: input.roleId,
        firstName: input.firstName,
        lastName: input.lastName,
        username: input.username ?? null,
        passwordHash: input.passwordHash,
      })
      .returning();
    await tx
      .insert(userEmails)
      .values({ userId: user!.id, email: normaliseEmail(input.email), primary: true });
    const grants = (input.authorisedOrgIds ?? []).filter((orgId) => orgId !== input.homeOrgId);
    if (grants.length > 0) {
      await tx.insert(userOrgs).values(grants.map((orgId) => ({ userId: user!.id, orgId })));
    }
    return user!;
  });
}

export async function findUserIdByEmail(db: Db, email: string): Promise<string | null> {
  const [row] = await db
    .select({ userId: userEmails.userId })
    .from(userEmails)
    .where(eq(userEmails.email, normaliseEmail(email)))
    .limit(1);
  return row?.userId ?? null;
}

/** Authorises a user for an organisation besides the home one (idempotent). */
export async function grantOrgAccess(db: Db, userId: string, orgId: string) {
  await db.insert(userOrgs).values({ userId, orgId }).onConflictDoNothing();
}

export type UserRow = typeof users.$inferSelect;

/** A user of `orgId` (their home organisation), not deleted; null for anyone else. */
export async function findOrgUser(db: Db, orgId: string, userId: string): Promise<UserRow | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, userId), eq(users.homeOrgId, orgId), isNull(users.deletedAt)))
    .limit(1);
  return user ?? null;
}

export async function findUserByUsername(db: Db, username: string) {
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.username}) = ${username.toLowerCase()}`)
    .limit(1);
  return row?.id ?? null;
}

export async function listUserEmails(db: Db, userId: string): Promise<string[]> {
  const rows = await db
    .select({ email: userEmails.email })
    .from(userEmails)
    .where(eq(userEmails.userId, userId))
    .orderBy(desc(userEmails.primary), asc(userEmails.email));
  return rows.map((row) => row.email);
}

/** Replaces the primary e-mail address; the user's other addresses stay. */
export async function setPrimaryEmail(db: Db, userId: string, email: string) {
  await db
    .update(userEmails)
    .set({ email: normaliseEmail(email) })
    .where(and(eq(userEmails.userId, userId), eq(userEmails.primary, true)));
}

export async function updateUser(
  db: Db,
  userId: string,
  values: Partial<
    Pick<
      UserRow,
      'firstName' | 'lastName' | 'username' | 'contactNumbers' | 'active' | 'roleId' | 'deletedAt'
    >
  >,
) {
  const [user] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, userId))
    .returning();
  return user!;
}

/**
 * The provider's e-mail domain: that of its first user, the administrator created at bootstrap.
 * Internal users (those of the provider organisation) must have an address of this domain.
 */
export async function providerEmailDomain(db: Db): Promise<string | null> {
  const [row] = await db
    .select({ email: userEmails.email })
    .from(users)
    .innerJoin(orgs, and(eq(orgs.id, users.homeOrgId), eq(orgs.isProvider, true)))
    .innerJoin(userEmails, and(eq(userEmails.userId, users.id), eq(userEmails.primary, true)))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  return row?.email.split('@')[1] ?? null;
}

/** Whether the user's role is hidden; people of hidden roles see each other. */
export async function holdsHiddenRole(db: Db, roleId: string): Promise<boolean> {
  const [role] = await db.select({ hidden: roles.hidden }).from(roles).where(eq(roles.id, roleId)).limit(1);
  return role?.hidden ?? false;
}

const primaryEmailSql = sql<string>`coalesce((select ue.email from ${userEmails} ue where ue.user_id = users.id and ue."primary" limit 1), '')`;

const userListColumns = {
  user: users,
  roleName: roles.name,
  email: primaryEmailSql,
  emails: sql<
    string[]
  >`array(select ue.email from ${userEmails} ue where ue.user_id = users.id order by ue."primary" desc, ue.email)`,
  jobDescriptorIds: sql<
    string[]
  >`array(select ujd.job_descriptor_id::text from ${userJobDescriptors} ujd where ujd.user_id = users.id order by 1)`,
};

export type UserListRow = {
  user: UserRow;
  roleName: string;
  email: string;
  emails: string[];
  jobDescriptorIds: string[];
};

export interface UserFilter {
  q?: string;
  active: UserActiveFilter;
  /** Leave out people holding a hidden role. */
  withoutHidden: boolean;
}

function userConditions(orgId: string, filter: UserFilter): SQL[] {
  const conditions: SQL[] = [eq(users.homeOrgId, orgId), isNull(users.deletedAt)];
  if (filter.active !== 'ALL') conditions.push(eq(users.active, filter.active === 'ACTIVE'));
  if (filter.withoutHidden) conditions.push(eq(roles.hidden, false));
  if (filter.q) {
    const pattern = `%${escapeLike(filter.q)}%`;
    conditions.push(
      or(
        ilike(users.firstName, pattern),
        ilike(users.lastName, pattern),
        ilike(sql`${users.firstName} || ' ' || ${users.lastName}`, pattern),
        ilike(users.username, pattern),
        sql`exists (select 1 from ${userEmails} ue where ue.user_id = users.id and ue.email ilike ${pattern})`,
      )!,
    );
  }
  return conditions;
}

const SORT_COLUMNS: Record<UserSortField, SQL[]> = {
  name: [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`],
  email: [primaryEmailSql],
  role: [sql`lower(${roles.name})`],
  active: [sql`${users.active}`],
  lastLoginAt: [sql`${users.lastLoginAt}`],
  createdAt: [sql`${users.createdAt}`],
};

/** One page of the organisation's users, searched, filtered and sorted, with the total. */
export async function listOrgUsers(
  db: Db,
  orgId: string,
  filter: UserFilter,
  page: { sortBy: UserSortField; desc: boolean; limit: number; offset: number },
): Promise<{ items: UserListRow[]; total: number }> {
  const where = and(...userConditions(orgId, filter));
  const direction = page.desc ? sql`desc nulls last` : sql`asc nulls last`;
  const [items, [count]] = await Promise.all([
    db
      .select(userListColumns)
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(where)
      .orderBy(...SORT_COLUMNS[page.sortBy].map((column) => sql`${column} ${direction}`), asc(users.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(users)
      .innerJoin(roles, eq(roles.id, users.roleId))
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findOrgUserListRow(db: Db, orgId: string, userId: string, withoutHidden: boolean) {
  const [row] = await db
    .select(userListColumns)
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(and(eq(users.id, userId), ...userConditions(orgId, { active: 'ALL', withoutHidden })))
    .limit(1);
  return row ?? null;
}

/**
 * People for pickers: users of the organisation and those authorised for it (provider staff working
 * it), not deleted, by name.
 */
export async function listPersonSummaries(
  db: Db,
  orgId: string,
  options: { includeInactive: boolean; withoutHidden: boolean },
) {
  const authorised = db.select({ userId: userOrgs.userId }).from(userOrgs).where(eq(userOrgs.orgId, orgId));
  return db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      active: users.active,
      roleId: users.roleId,
      homeOrgId: users.homeOrgId,
    })
    .from(users)
    .innerJoin(roles, eq(roles.id, users.roleId))
    .where(
      and(
        or(eq(users.homeOrgId, orgId), inArray(users.id, authorised)),
        isNull(users.deletedAt),
        options.includeInactive ? undefined : eq(users.active, true),
        options.withoutHidden ? eq(roles.hidden, false) : undefined,
      ),
    )
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id));
}

/** The organisations a user may act in besides the home one. */
export async function listGrantedOrgIds(db: Db, userId: string): Promise<string[]> {
  const rows = await db.select({ orgId: userOrgs.orgId }).from(userOrgs).where(eq(userOrgs.userId, userId));
  return rows.map((row) => row.orgId);
}

/** Sets the grants of `userId` within `scope`: grants outside it are left as they are. */
export async function replaceGrantedOrgs(db: Db, userId: string, scope: string[], orgIds: string[]) {
  if (scope.length > 0) {
    await db.delete(userOrgs).where(and(eq(userOrgs.userId, userId), inArray(userOrgs.orgId, scope)));
  }
  if (orgIds.length > 0) {
    await db
      .insert(userOrgs)
      .values(orgIds.map((orgId) => ({ userId, orgId })))
      .onConflictDoNothing();
  }
}

/** Moves every user (not deleted) holding `fromRoleId` to `toRoleId`; answers their ids. */
export async function reassignRole(db: Db, fromRoleId: string, toRoleId: string): Promise<string[]> {
  const moved = await db
    .update(users)
    .set({ roleId: toRoleId, updatedAt: new Date() })
    .where(and(eq(users.roleId, fromRoleId), isNull(users.deletedAt)))
    .returning({ id: users.id });
  return moved.map((row) => row.id);
}

export async function countRoleHolders(db: Db, roleId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.roleId, roleId), isNull(users.deletedAt)));
  return row?.count ?? 0;
}

export async function findUser(db: Db, userId: string): Promise<UserRow | null> {
  const [user] = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return user ?? null;
}
