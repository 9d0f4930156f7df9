import {
  and,
  asc,
  eq,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  sql,
  type AnyColumn,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { conflict } from '../../platform/errors';
import { tags } from '../metadata/tables';
import { userEmails, users } from '../users/tables';
import type { riskAssessments, riskInventoryItems } from './tables';
import {
  controlEvidence,
  riskControlLinks,
  riskControls,
  riskCounters,
  riskHistory,
  riskLinks,
  riskListItems,
  risks,
} from './tables';

export type RiskRow = typeof risks.$inferSelect;
export type ControlRow = typeof riskControls.$inferSelect;
export type ListItemRow = typeof riskListItems.$inferSelect;

/** Where an item lives: an organisation's register or the provider's library. */
export type Scope = { orgId: string } | { library: true };
export const scopeKey = (scope: Scope) => ('orgId' in scope ? scope.orgId : 'library');

const fullName = sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The next public-id number of a scope and kind, in the caller's transaction. */
export async function nextNumber(
  tx: Db,
  scope: Scope,
  kind: 'risk' | 'control' | 'system' | 'assessment',
): Promise<number> {
  const [counter] = await tx
    .insert(riskCounters)
    .values({ scope: scopeKey(scope), kind, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [riskCounters.scope, riskCounters.kind],
      set: { lastNumber: sql`${riskCounters.lastNumber} + 1` },
    })
    .returning();
  return counter!.lastNumber;
}

export type Registered = typeof risks | typeof riskControls | typeof riskInventoryItems;

export function scopeWhere(table: Registered, scope: Scope): SQL {
  return 'orgId' in scope
    ? and(eq(table.orgId, scope.orgId), eq(table.library, false))!
    : and(isNull(table.orgId), eq(table.library, true))!;
}

export function refWhere(table: Registered | typeof riskAssessments, ref: string): SQL {
  return UUID_TEXT.test(ref) ? eq(table.id, ref) : eq(table.publicId, ref.toUpperCase());
}

// ---------------------------------------------------------------------------------------------------
// Risks

export async function findRisk(db: Db, scope: Scope, ref: string): Promise<RiskRow | undefined> {
  const [row] = await db
    .select()
    .from(risks)
    .where(and(scopeWhere(risks, scope), refWhere(risks, ref)));
  return row;
}

export async function lockRisk(tx: Db, scope: Scope, id: string): Promise<RiskRow | undefined> {
  const [row] = await tx
    .select()
    .from(risks)
    .where(and(scopeWhere(risks, scope), eq(risks.id, id)))
    .for('update');
  return row;
}

export async function insertRisk(tx: Db, values: typeof risks.$inferInsert): Promise<RiskRow> {
  const [row] = await tx.insert(risks).values(values).returning();
  return row!;
}

export async function updateRiskRow(tx: Db, id: string, values: Partial<RiskRow>): Promise<void> {
  await tx
    .update(risks)
    .set({ ...values, version: sql`${risks.version} + 1`, modifiedOn: new Date() })
    .where(eq(risks.id, id));
}

export interface RiskSelection {
  modules: string[];
  q?: string;
  state: string;
  exceptions: string;
  keyRisk?: boolean;
  residualRisk?: string[];
  businessOwnerId?: string;
  tagId?: string;
  /** true: only risks whose scores are to revisit; false: only the others. */
  revisit?: boolean;
}

export function riskSelectionWhere(scope: Scope, selection: RiskSelection): SQL {
  const pattern = selection.q ? `%${escapeLike(selection.q)}%` : undefined;
  return and(
    scopeWhere(risks, scope),
    sql`${risks.modules} && ${sql.param(selection.modules)}::text[]`,
    selection.state === 'ALL' ? undefined : eq(risks.state, selection.state),
    selection.exceptions === 'ONLY_EXCEPTIONS' ? eq(risks.exception, true) : undefined,
    selection.exceptions === 'EXCLUDE_EXCEPTIONS' ? eq(risks.exception, false) : undefined,
    selection.keyRisk === undefined ? undefined : eq(risks.keyRisk, selection.keyRisk),
    selection.residualRisk?.length ? inArray(risks.residualRisk, selection.residualRisk) : undefined,
    selection.businessOwnerId ? eq(risks.businessOwnerId, selection.businessOwnerId) : undefined,
    selection.tagId ? sql`${sql.param(selection.tagId)}::uuid = ANY(${risks.tagIds})` : undefined,
    selection.revisit === undefined
      ? undefined
      : selection.revisit
        ? isNotNull(risks.revisitScores)
        : isNull(risks.revisitScores),
    pattern
      ? or(ilike(risks.publicId, pattern), ilike(risks.name, pattern), ilike(risks.definition, pattern))
      : undefined,
  )!;
}

const LEVEL_ORDER = (column: AnyColumn) =>
  sql`array_position(ARRAY['INSIGNIFICANT','LOW','MODERATE','HIGH','EXTREME'], ${column})`;

const RISK_SORTS: Record<string, SQL> = {
  number: sql`${risks.number}`,
  name: sql`lower(${risks.name})`,
  inherentRisk: LEVEL_ORDER(risks.inherentRisk),
  residualRisk: LEVEL_ORDER(risks.residualRisk),
  dueDate: sql`${risks.dueDate}`,
  modifiedOn: sql`${risks.modifiedOn}`,
};

export async function listRiskRows(
  db: Db,
  where: SQL,
  sort: { sortBy: string; desc: boolean },
  page: { limit: number; offset: number },
): Promise<{ rows: RiskRow[]; total: number }> {
  const direction = sort.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(risks)
      .where(where)
      .orderBy(sql`${RISK_SORTS[sort.sortBy]} ${direction}`, asc(risks.number))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(risks)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Library ids among `libraryIds` that the organisation's register holds a copy of. */
export async function copiedIds(
  db: Db,
  table: Registered,
  orgId: string,
  libraryIds: string[],
): Promise<Set<string>> {
  if (libraryIds.length === 0) return new Set();
  const rows = await db
    .select({ copiedFromId: table.copiedFromId })
    .from(table)
    .where(and(eq(table.orgId, orgId), inArray(table.copiedFromId, libraryIds)));
  return new Set(rows.map((row) => row.copiedFromId!));
}

/** A page of library items, each saying whether the organisation's register holds a copy of it. */
export async function withInRegister<T extends { id: string }>(
  db: Db,
  table: Registered,
  orgId: string,
  page: { items: T[]; total: number },
): Promise<{ items: (T & { inRegister: boolean })[]; total: number }> {
  const copied = await copiedIds(
    db,
    table,
    orgId,
    page.items.map((item) => item.id),
  );
  return { ...page, items: page.items.map((item) => ({ ...item, inRegister: copied.has(item.id) })) };
}

/**
 * Splits library items into those the organisation's register holds a copy of and those to copy;
 * 409 RISK_COPY_ALREADY_IN_REGISTER when every one is there already.
 */
export async function libraryCopyPlan<T extends { id: string; name: string }>(
  db: Db,
  table: Registered,
  orgId: string,
  sources: T[],
): Promise<{ alreadyInRegister: { id: string; name: string }[]; toCopy: T[] }> {
  const present = await copiedIds(
    db,
    table,
    orgId,
    sources.map((source) => source.id),
  );
  const alreadyInRegister = sources
    .filter((source) => present.has(source.id))
    .map((source) => ({ id: source.id, name: source.name }));
  const toCopy = sources.filter((source) => !present.has(source.id));
  if (toCopy.length === 0) {
    throw conflict('RISK_COPY_ALREADY_IN_REGISTER', 'Every item is already in the register', {
      params: { 0: alreadyInRegister.map((item) => item.name).join(', ') },
    });
  }
  return { alreadyInRegister, toCopy };
}

export const riskRefColumns = {
  id: risks.id,
  publicId: risks.publicId,
  name: risks.name,
  state: risks.state,
};

export async function risksByIds(db: Db, scope: Scope, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select(riskRefColumns)
    .from(risks)
    .where(and(scopeWhere(risks, scope), inArray(risks.id, ids)));
}

const linkPair = (a: string, b: string) =>
  a < b ? { firstId: a, secondId: b } : { firstId: b, secondId: a };
const otherOf = (riskId: string) =>
  sql`CASE WHEN ${riskLinks.firstId} = ${riskId} THEN ${riskLinks.secondId} ELSE ${riskLinks.firstId} END`;

export async function listRelated(db: Db, riskId: string) {
  return db
    .select(riskRefColumns)
    .from(riskLinks)
    .innerJoin(risks, eq(risks.id, otherOf(riskId)))
    .where(or(eq(riskLinks.firstId, riskId), eq(riskLinks.secondId, riskId)))
    .orderBy(asc(risks.number));
}

export async function replaceRelated(tx: Db, riskId: string, relatedIds: string[]) {
  await removeAllLinks(tx, riskId);
  if (relatedIds.length > 0) {
    await tx
      .insert(riskLinks)
      .values(relatedIds.map((id) => linkPair(riskId, id)))
      .onConflictDoNothing();
  }
}

export async function removeAllLinks(tx: Db, riskId: string) {
  await tx.delete(riskLinks).where(or(eq(riskLinks.firstId, riskId), eq(riskLinks.secondId, riskId)));
}

// ---------------------------------------------------------------------------------------------------
// Controls

export async function findControl(db: Db, scope: Scope, ref: string): Promise<ControlRow | undefined> {
  const [row] = await db
    .select()
    .from(riskControls)
    .where(and(scopeWhere(riskControls, scope), refWhere(riskControls, ref)));
  return row;
}

export async function lockControl(tx: Db, scope: Scope, id: string): Promise<ControlRow | undefined> {
  const [row] = await tx
    .select()
    .from(riskControls)
    .where(and(scopeWhere(riskControls, scope), eq(riskControls.id, id)))
    .for('update');
  return row;
}

export async function insertControl(tx: Db, values: typeof riskControls.$inferInsert): Promise<ControlRow> {
  const [row] = await tx.insert(riskControls).values(values).returning();
  return row!;
}

export async function updateControlRow(tx: Db, id: string, values: Partial<ControlRow>): Promise<void> {
  await tx
    .update(riskControls)
    .set({ ...values, version: sql`${riskControls.version} + 1`, modifiedOn: new Date() })
    .where(eq(riskControls.id, id));
}

export interface ControlSelection {
  q?: string;
  type?: string;
  category?: string;
}

const riskCount = sql<number>`(SELECT count(*)::int FROM ${riskControlLinks} WHERE ${riskControlLinks.controlId} = ${riskControls.id})`;

const CONTROL_SORTS: Record<string, SQL> = {
  number: sql`${riskControls.number}`,
  name: sql`lower(${riskControls.name})`,
  overallScore: sql`array_position(ARRAY['INEFFECTIVE','WEAK','MODERATE','STRONG','COMPLETE'], ${riskControls.overallScore})`,
  modifiedOn: sql`${riskControls.modifiedOn}`,
};

export async function listControlRows(
  db: Db,
  scope: Scope,
  selection: ControlSelection,
  sort: { sortBy: string; desc: boolean },
  page: { limit: number; offset: number },
) {
  const pattern = selection.q ? `%${escapeLike(selection.q)}%` : undefined;
  const where = and(
    scopeWhere(riskControls, scope),
    selection.type ? eq(riskControls.type, selection.type) : undefined,
    selection.category ? eq(riskControls.category, selection.category) : undefined,
    pattern
      ? or(
          ilike(riskControls.publicId, pattern),
          ilike(riskControls.name, pattern),
          ilike(riskControls.definition, pattern),
        )
      : undefined,
  );
  const direction = sort.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const [rows, [count]] = await Promise.all([
    db
      .select({ row: riskControls, ownerName: fullName, riskCount })
      .from(riskControls)
      .leftJoin(users, eq(users.id, riskControls.ownerId))
      .where(where)
      .orderBy(sql`${CONTROL_SORTS[sort.sortBy]} ${direction}`, asc(riskControls.number))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(riskControls)
      .where(where),
  ]);
  return { rows, total: count?.total ?? 0 };
}

export async function controlView(db: Db, id: string) {
  const [view] = await db
    .select({ row: riskControls, ownerName: fullName, riskCount })
    .from(riskControls)
    .leftJoin(users, eq(users.id, riskControls.ownerId))
    .where(eq(riskControls.id, id));
  return view!;
}

export const controlRefColumns = {
  id: riskControls.id,
  publicId: riskControls.publicId,
  name: riskControls.name,
  overallScore: riskControls.overallScore,
};

export async function controlsByIds(db: Db, scope: Scope, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select(controlRefColumns)
    .from(riskControls)
    .where(and(scopeWhere(riskControls, scope), inArray(riskControls.id, ids)));
}

export async function controlsOfRisk(db: Db, riskId: string) {
  return db
    .select({ ...controlRefColumns, triggerIds: riskControls.triggerIds })
    .from(riskControlLinks)
    .innerJoin(riskControls, eq(riskControls.id, riskControlLinks.controlId))
    .where(eq(riskControlLinks.riskId, riskId))
    .orderBy(asc(riskControls.number));
}

export async function risksOfControl(db: Db, controlId: string) {
  return db
    .select(riskRefColumns)
    .from(riskControlLinks)
    .innerJoin(risks, eq(risks.id, riskControlLinks.riskId))
    .where(eq(riskControlLinks.controlId, controlId))
    .orderBy(asc(risks.number));
}

export async function replaceControlsOfRisk(tx: Db, riskId: string, controlIds: string[]) {
  await tx.delete(riskControlLinks).where(eq(riskControlLinks.riskId, riskId));
  if (controlIds.length > 0) {
    await tx.insert(riskControlLinks).values(controlIds.map((controlId) => ({ riskId, controlId })));
  }
}

export async function replaceRisksOfControl(tx: Db, controlId: string, riskIds: string[]) {
  await tx.delete(riskControlLinks).where(eq(riskControlLinks.controlId, controlId));
  if (riskIds.length > 0) {
    await tx.insert(riskControlLinks).values(riskIds.map((riskId) => ({ riskId, controlId })));
  }
}

/** The ids of the risks whose controls include `controlId`. */
export async function riskIdsOfControl(db: Db, controlId: string): Promise<string[]> {
  const rows = await db
    .select({ riskId: riskControlLinks.riskId })
    .from(riskControlLinks)
    .where(eq(riskControlLinks.controlId, controlId));
  return rows.map((row) => row.riskId);
}

export async function listEvidence(db: Db, controlId: string) {
  return db
    .select({
      id: controlEvidence.id,
      name: controlEvidence.name,
      contentType: controlEvidence.contentType,
      size: controlEvidence.size,
      createdByName: fullName,
      createdOn: controlEvidence.createdOn,
    })
    .from(controlEvidence)
    .leftJoin(users, eq(users.id, controlEvidence.createdBy))
    .where(eq(controlEvidence.controlId, controlId))
    .orderBy(sql`lower(${controlEvidence.name})`, asc(controlEvidence.id));
}

export async function countEvidence(db: Db, controlId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(controlEvidence)
    .where(eq(controlEvidence.controlId, controlId));
  return row?.count ?? 0;
}

export async function insertEvidence(tx: Db, values: typeof controlEvidence.$inferInsert) {
  await tx.insert(controlEvidence).values(values);
}

export async function findEvidence(db: Db, controlId: string, fileId: string) {
  const [row] = await db
    .select()
    .from(controlEvidence)
    .where(and(eq(controlEvidence.controlId, controlId), eq(controlEvidence.id, fileId)));
  return row;
}

export async function deleteEvidence(tx: Db, controlId: string, fileId: string) {
  const [row] = await tx
    .delete(controlEvidence)
    .where(and(eq(controlEvidence.controlId, controlId), eq(controlEvidence.id, fileId)))
    .returning({ name: controlEvidence.name });
  return row;
}

// ---------------------------------------------------------------------------------------------------
// History

export async function insertHistory(tx: Db, values: typeof riskHistory.$inferInsert) {
  await tx.insert(riskHistory).values(values);
}

export async function listHistory(db: Db, target: { riskId: string } | { controlId: string }) {
  return db
    .select({ entry: riskHistory, actorName: fullName })
    .from(riskHistory)
    .leftJoin(users, eq(users.id, riskHistory.actorId))
    .where(
      'riskId' in target
        ? eq(riskHistory.riskId, target.riskId)
        : eq(riskHistory.controlId, target.controlId),
    )
    .orderBy(asc(riskHistory.at), asc(riskHistory.id));
}

// ---------------------------------------------------------------------------------------------------
// Custom lists, tags and people

export async function listItems(db: Db, orgId: string, kind?: string): Promise<ListItemRow[]> {
  return db
    .select()
    .from(riskListItems)
    .where(and(eq(riskListItems.orgId, orgId), kind ? eq(riskListItems.kind, kind) : undefined))
    .orderBy(asc(riskListItems.kind), sql`lower(${riskListItems.name})`);
}

export async function itemsByIds(db: Db, orgId: string, kind: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: riskListItems.id, name: riskListItems.name })
    .from(riskListItems)
    .where(and(eq(riskListItems.orgId, orgId), eq(riskListItems.kind, kind), inArray(riskListItems.id, ids)))
    .orderBy(sql`lower(${riskListItems.name})`);
}

/** Inserts a list item; undefined when the list already holds the name (any case). */
export async function insertItem(db: Db, orgId: string, kind: string, name: string) {
  const [row] = await db
    .insert(riskListItems)
    .values({ orgId, kind, name })
    .onConflictDoNothing()
    .returning();
  return row;
}

/** Deletes a list item and takes it out of every risk of the organisation that names it. */
export async function deleteItem(tx: Db, orgId: string, id: string) {
  const [row] = await tx
    .delete(riskListItems)
    .where(and(eq(riskListItems.orgId, orgId), eq(riskListItems.id, id)))
    .returning();
  if (!row) return undefined;
  await tx
    .update(risks)
    .set({
      businessUnitIds: sql`array_remove(${risks.businessUnitIds}, ${id}::uuid)`,
      auditIds: sql`array_remove(${risks.auditIds}, ${id}::uuid)`,
      policyIds: sql`array_remove(${risks.policyIds}, ${id}::uuid)`,
    })
    .where(eq(risks.orgId, orgId));
  return row;
}

export async function tagsByIds(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: tags.id, name: tags.name })
    .from(tags)
    .where(and(eq(tags.orgId, orgId), inArray(tags.id, ids)))
    .orderBy(sql`lower(${tags.name})`);
}

export async function peopleByIds(db: Db, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: sql<string>`${fullName}` })
    .from(users)
    .where(and(inArray(users.id, ids), isNull(users.deletedAt)))
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`);
}

/**
 * The e-mail of a user whose home is the organisation, active or not (so an inactive colleague can be
 * named in an error); null for anyone else, whose e-mail the organisation must not learn.
 */
export async function homePersonEmail(db: Db, orgId: string, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ email: userEmails.email })
    .from(users)
    .innerJoin(userEmails, and(eq(userEmails.userId, users.id), eq(userEmails.primary, true)))
    .where(and(eq(users.id, userId), eq(users.homeOrgId, orgId), isNull(users.deletedAt)));
  return row?.email ?? null;
}

/** The overall scores of the controls linked to each of `riskIds`. */
export async function controlScoresOfRisks(
  db: Db,
  riskIds: string[],
): Promise<Map<string, (string | null)[]>> {
  const out = new Map<string, (string | null)[]>(riskIds.map((id) => [id, []]));
  if (riskIds.length === 0) return out;
  const rows = await db
    .select({ riskId: riskControlLinks.riskId, score: riskControls.overallScore })
    .from(riskControlLinks)
    .innerJoin(riskControls, eq(riskControls.id, riskControlLinks.controlId))
    .where(inArray(riskControlLinks.riskId, riskIds));
  for (const row of rows) out.get(row.riskId)!.push(row.score);
  return out;
}
