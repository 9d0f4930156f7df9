import type { TriggerDomain } from '@vigil/contracts';
import { and, asc, eq, gte, inArray, isNull, notInArray, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { alerts } from '../alerts/tables';
import { orgs } from '../orgs/tables';
import { savedQueries } from '../saved-queries/tables';
import type { TriggerRow } from './repo';
import { triggerLibraryGroups, triggers } from './tables';

export type LibraryGroupRow = typeof triggerLibraryGroups.$inferSelect;
export type NewLibraryGroup = Omit<
  typeof triggerLibraryGroups.$inferInsert,
  'id' | 'createdOn' | 'modifiedOn'
>;

/** Copies that count as held: every state but archived versions. */
const HELD = sql`${triggers.state} <> 'ARCHIVED'`;

export async function listLibraryGroups(db: Db, domain: TriggerDomain): Promise<LibraryGroupRow[]> {
  return db
    .select()
    .from(triggerLibraryGroups)
    .where(eq(triggerLibraryGroups.domain, domain))
    .orderBy(asc(sql`lower(${triggerLibraryGroups.name})`), asc(triggerLibraryGroups.id));
}

export async function findLibraryGroup(db: Db, id: string): Promise<LibraryGroupRow | undefined> {
  const [row] = await db.select().from(triggerLibraryGroups).where(eq(triggerLibraryGroups.id, id));
  return row;
}

export async function libraryGroupNameTaken(db: Db, domain: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: triggerLibraryGroups.id })
    .from(triggerLibraryGroups)
    .where(
      and(
        eq(triggerLibraryGroups.domain, domain),
        eq(sql`lower(${triggerLibraryGroups.name})`, name.toLowerCase()),
        exceptId ? sql`${triggerLibraryGroups.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertLibraryGroup(db: Db, values: NewLibraryGroup): Promise<LibraryGroupRow> {
  const [row] = await db.insert(triggerLibraryGroups).values(values).returning();
  return row!;
}

export async function updateLibraryGroup(db: Db, id: string, values: Partial<NewLibraryGroup>) {
  const [row] = await db
    .update(triggerLibraryGroups)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(triggerLibraryGroups.id, id))
    .returning();
  return row!;
}

export async function deleteLibraryGroup(db: Db, id: string): Promise<void> {
  await db.delete(triggerLibraryGroups).where(eq(triggerLibraryGroups.id, id));
}

/** Library triggers of a group that are not deleted. */
export async function countGroupTriggers(db: Db, groupId: string): Promise<number> {
  return db.$count(
    triggers,
    and(isNull(triggers.orgId), eq(triggers.libraryGroupId, groupId), sql`${triggers.state} <> 'DELETED'`),
  );
}

export interface LibraryTriggerView {
  row: TriggerRow;
  groupName: string;
  savedQueryName: string | null;
  copyCount: number;
  copyHereId: string | null;
}

function selectLibraryViews(db: Db, currentOrgId: string) {
  return db
    .select({
      row: triggers,
      groupName: triggerLibraryGroups.name,
      savedQueryName: savedQueries.name,
      // Spelled out: inside the subqueries a bare "id" would name the copy's.
      copyCount: sql<number>`(select count(*)::int from ${triggers} c where c.copied_from_id = ${triggers}.id and c.state not in ('ARCHIVED', 'DELETED'))`,
      copyHereId: sql<
        string | null
      >`(select c.id::text from ${triggers} c where c.copied_from_id = ${triggers}.id and c.org_id = ${currentOrgId} and c.state <> 'ARCHIVED' limit 1)`,
    })
    .from(triggers)
    .innerJoin(triggerLibraryGroups, eq(triggerLibraryGroups.id, triggers.libraryGroupId))
    .leftJoin(savedQueries, eq(savedQueries.id, triggers.savedQueryId));
}

/** Live library triggers of a domain, by group and name. */
export async function listLibraryTriggers(
  db: Db,
  domain: TriggerDomain,
  currentOrgId: string,
): Promise<LibraryTriggerView[]> {
  return selectLibraryViews(db, currentOrgId)
    .where(and(isNull(triggers.orgId), eq(triggers.domain, domain), sql`${triggers.state} <> 'DELETED'`))
    .orderBy(asc(sql`lower(${triggers.name})`), asc(triggers.id));
}

/** A library trigger (any state); undefined for organisations' triggers. */
export async function findLibraryTrigger(
  db: Db,
  id: string,
  currentOrgId: string,
): Promise<LibraryTriggerView | undefined> {
  const [view] = await selectLibraryViews(db, currentOrgId).where(
    and(eq(triggers.id, id), isNull(triggers.orgId)),
  );
  return view;
}

/** The held copies of a library trigger in the given organisations, keyed by organisation. */
export async function findCopiesInOrgs(
  db: Db,
  libraryId: string,
  orgIds: string[],
): Promise<Map<string, TriggerRow>> {
  if (orgIds.length === 0) return new Map();
  const rows = await db
    .select()
    .from(triggers)
    .where(and(eq(triggers.copiedFromId, libraryId), inArray(triggers.orgId, orgIds), HELD));
  return new Map(rows.map((row) => [row.orgId!, row]));
}

/** Organisations' triggers (not library ones) with these ids in the given organisations. */
export async function findOrgTriggers(db: Db, ids: string[], orgIds: string[]): Promise<TriggerRow[]> {
  if (ids.length === 0 || orgIds.length === 0) return [];
  return db
    .select()
    .from(triggers)
    .where(and(inArray(triggers.id, ids), inArray(triggers.orgId, orgIds)));
}

export interface CopyView {
  row: TriggerRow;
  orgName: string;
  alerts: number;
}

/** The held copies of a library trigger in these organisations, with the alerts raised since `since`. */
export async function listCopies(
  db: Db,
  libraryId: string,
  orgIds: string[],
  since: Date,
): Promise<CopyView[]> {
  if (orgIds.length === 0) return [];
  const where: SQL = and(eq(triggers.copiedFromId, libraryId), inArray(triggers.orgId, orgIds), HELD)!;
  const copies = await db
    .select({ row: triggers, orgName: orgs.name })
    .from(triggers)
    .innerJoin(orgs, eq(orgs.id, triggers.orgId))
    .where(where)
    .orderBy(asc(sql`lower(${orgs.name})`));
  // Alerts of every version of each copy that still followed the library.
  const counts = await db
    .select({ orgId: alerts.orgId, count: sql<number>`count(*)::int` })
    .from(alerts)
    .innerJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(
      and(eq(triggers.copiedFromId, libraryId), inArray(alerts.orgId, orgIds), gte(alerts.firedAt, since)),
    )
    .groupBy(alerts.orgId);
  const byOrg = new Map(counts.map((entry) => [entry.orgId, Number(entry.count)]));
  return copies.map((copy) => ({ ...copy, alerts: byOrg.get(copy.row.orgId!) ?? 0 }));
}

/** Copies of a library trigger that run (ACTIVE), in any organisation. */
export async function countActiveCopies(db: Db, libraryId: string): Promise<number> {
  return db.$count(triggers, and(eq(triggers.copiedFromId, libraryId), eq(triggers.state, 'ACTIVE')));
}

/** The live copies of a library trigger in these organisations (for the resync analysis). */
export async function listLiveCopies(db: Db, libraryId: string, orgIds: string[]): Promise<TriggerRow[]> {
  if (orgIds.length === 0) return [];
  return db
    .select()
    .from(triggers)
    .where(
      and(
        eq(triggers.copiedFromId, libraryId),
        inArray(triggers.orgId, orgIds),
        notInArray(triggers.state, ['ARCHIVED', 'DELETED']),
      ),
    );
}

/** Stores a resync analysis result on a trigger without touching anything else. */
export async function setResyncInfo(db: Db, id: string, info: TriggerRow['resyncInfo']): Promise<void> {
  await db.update(triggers).set({ resyncInfo: info }).where(eq(triggers.id, id));
}
