import { and, asc, eq, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';
import { dataRestrictions, dataRestrictionTargets as targets } from './tables';

// Targets name users and organisations, so listing them reads those tables' names (read only).

export type DataRestrictionRow = typeof dataRestrictions.$inferSelect;

export interface RestrictionValues {
  name: string;
  includeQuery: string | null;
  excludeQuery: string | null;
  userIds: string[];
  orgIds: string[];
}

export interface RestrictionDetail extends DataRestrictionRow {
  users: { id: string; fullName: string }[];
  orgs: { id: string; name: string }[];
}

/** What a search ANDs into its condition for one restriction. */
export interface AppliedRestriction {
  id: string;
  name: string;
  includeQuery: string | null;
  excludeQuery: string | null;
}

/** The columns of a restriction as a search applies it. */
export const appliedColumns = {
  id: dataRestrictions.id,
  name: dataRestrictions.name,
  includeQuery: dataRestrictions.includeQuery,
  excludeQuery: dataRestrictions.excludeQuery,
};

const fullName = sql<string>`${users.firstName} || ' ' || ${users.lastName}`;
const byName = [sql`lower(${users.lastName})`, sql`lower(${users.firstName})`, asc(users.id)];

async function withTargets(db: Db, rows: DataRestrictionRow[]): Promise<RestrictionDetail[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  const [userTargets, orgTargets] = await Promise.all([
    db
      .select({ restrictionId: targets.restrictionId, id: users.id, fullName })
      .from(targets)
      .innerJoin(users, eq(users.id, targets.userId))
      // A deleted user drops out of the form, so that saving it again does not refuse them.
      .where(and(inArray(targets.restrictionId, ids), isNull(users.deletedAt)))
      .orderBy(...byName),
    db
      .select({ restrictionId: targets.restrictionId, id: orgs.id, name: orgs.name })
      .from(targets)
      .innerJoin(orgs, eq(orgs.id, targets.targetOrgId))
      .where(inArray(targets.restrictionId, ids))
      .orderBy(asc(orgs.name), asc(orgs.id)),
  ]);
  return rows.map((row) => ({
    ...row,
    users: userTargets
      .filter((target) => target.restrictionId === row.id)
      .map(({ id, fullName: name }) => ({ id, fullName: name })),
    orgs: orgTargets
      .filter((target) => target.restrictionId === row.id)
      .map(({ id, name }) => ({ id, name })),
  }));
}

/** One page of the organisation's restrictions by name, with the total. */
export async function listRestrictions(
  db: Db,
  orgId: string,
  options: { includeDeleted: boolean; limit: number; offset: number },
): Promise<{ items: RestrictionDetail[]; total: number }> {
  const where = and(
    eq(dataRestrictions.orgId, orgId),
    options.includeDeleted ? undefined : isNull(dataRestrictions.deletedAt),
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(dataRestrictions)
      .where(where)
      .orderBy(sql`lower(${dataRestrictions.name})`, asc(dataRestrictions.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(dataRestrictions)
      .where(where),
  ]);
  return { items: await withTargets(db, rows), total: count?.total ?? 0 };
}

/** A restriction of the organisation, deleted or not. */
export async function findRestriction(db: Db, orgId: string, id: string): Promise<RestrictionDetail | null> {
  const [row] = await db
    .select()
    .from(dataRestrictions)
    .where(and(eq(dataRestrictions.orgId, orgId), eq(dataRestrictions.id, id)))
    .limit(1);
  return row ? ((await withTargets(db, [row]))[0] ?? null) : null;
}

/** The ids of `userIds` that are not live users whose home is the organisation. */
export async function foreignUserIds(db: Db, orgId: string, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const found = await db
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, userIds), eq(users.homeOrgId, orgId), isNull(users.deletedAt)));
  const known = new Set(found.map((row) => row.id));
  return userIds.filter((id) => !known.has(id));
}

async function insertTargets(db: Db, restrictionId: string, values: RestrictionValues) {
  const rows = [
    ...values.userIds.map((userId) => ({ restrictionId, userId })),
    ...values.orgIds.map((targetOrgId) => ({ restrictionId, targetOrgId })),
  ];
  if (rows.length > 0) await db.insert(targets).values(rows);
}

const columnsOf = ({ name, includeQuery, excludeQuery }: RestrictionValues) => ({
  name,
  includeQuery,
  excludeQuery,
});

/** Creates a restriction with its targets; call it inside a transaction. */
export async function insertRestriction(db: Db, orgId: string, values: RestrictionValues): Promise<string> {
  const [row] = await db
    .insert(dataRestrictions)
    .values({ orgId, ...columnsOf(values) })
    .returning({ id: dataRestrictions.id });
  await insertTargets(db, row!.id, values);
  return row!.id;
}

/** Replaces a live restriction's fields and targets; false when there is none. Call it inside a transaction. */
export async function updateRestriction(
  db: Db,
  orgId: string,
  id: string,
  values: RestrictionValues,
): Promise<boolean> {
  const updated = await db
    .update(dataRestrictions)
    .set({ ...columnsOf(values), updatedAt: new Date() })
    .where(
      and(eq(dataRestrictions.orgId, orgId), eq(dataRestrictions.id, id), isNull(dataRestrictions.deletedAt)),
    )
    .returning({ id: dataRestrictions.id });
  if (updated.length === 0) return false;
  await db.delete(targets).where(eq(targets.restrictionId, id));
  await insertTargets(db, id, values);
  return true;
}

/** Deletes (a time) or restores (null) a restriction; its targets stay for a restore. */
export async function setRestrictionDeletedAt(db: Db, orgId: string, id: string, deletedAt: Date | null) {
  await db
    .update(dataRestrictions)
    .set({ deletedAt, updatedAt: new Date() })
    .where(and(eq(dataRestrictions.orgId, orgId), eq(dataRestrictions.id, id)));
}

/** Live users a restriction applies to: those it lists and every user whose home is a listed organisation. */
export async function restrictedUsers(db: Db, restrictionId: string) {
  const listed = db
    .select({ userId: targets.userId })
    .from(targets)
    .where(eq(targets.restrictionId, restrictionId));
  const listedOrgs = db
    .select({ orgId: targets.targetOrgId })
    .from(targets)
    .where(eq(targets.restrictionId, restrictionId));
  return db
    .select({
      id: users.id,
      fullName,
      active: users.active,
      homeOrgId: users.homeOrgId,
      via: sql<'user' | 'org'>`case when ${users.id} in (${listed}) then 'user' else 'org' end`,
    })
    .from(users)
    .where(and(or(inArray(users.id, listed), inArray(users.homeOrgId, listedOrgs)), isNull(users.deletedAt)))
    .orderBy(...byName);
}

/**
 * The live restrictions of `orgId` that apply to a user: those listing the user or the user's home
 * organisation. A search in `orgId` ANDs each include query and the negation of each exclude query.
 */
export async function restrictionsForUser(
  db: Db,
  orgId: string,
  userId: string,
): Promise<AppliedRestriction[]> {
  const homeOrg = db.select({ orgId: users.homeOrgId }).from(users).where(eq(users.id, userId));
  const applying: SQL = or(eq(targets.userId, userId), inArray(targets.targetOrgId, homeOrg))!;
  const restrictionIds = db.select({ id: targets.restrictionId }).from(targets).where(applying);
  return db
    .select(appliedColumns)
    .from(dataRestrictions)
    .where(
      and(
        eq(dataRestrictions.orgId, orgId),
        isNull(dataRestrictions.deletedAt),
        inArray(dataRestrictions.id, restrictionIds),
      ),
    )
    .orderBy(sql`lower(${dataRestrictions.name})`, asc(dataRestrictions.id));
}
