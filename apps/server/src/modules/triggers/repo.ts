import type { TriggerDomain, TriggerSortField, TriggerState, TriggerType } from '@vigil/contracts';
import { and, asc, desc, eq, ilike, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { savedQueries } from '../saved-queries/tables';
import { triggerRuns, triggers, triggerSchedules } from './tables';

export type TriggerRow = typeof triggers.$inferSelect;
export type NewTrigger = Omit<typeof triggers.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;
export type TriggerScheduleRow = typeof triggerSchedules.$inferSelect;
export type NewTriggerSchedule = Omit<
  typeof triggerSchedules.$inferInsert,
  'id' | 'createdOn' | 'modifiedOn'
>;

export interface TriggerView {
  row: TriggerRow;
  savedQueryName: string | null;
  lastRunAt: Date | null;
}

/** States of triggers that no longer run nor hold their saved query. */
const RETIRED_STATES: TriggerState[] = ['DELETED', 'ARCHIVED'];

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

function selectViews(db: Db) {
  return db
    .select({
      row: triggers,
      savedQueryName: savedQueries.name,
      lastRunAt:
        sql<Date | null>`(select max(${triggerRuns}.ran_at) from ${triggerRuns} where ${triggerRuns}.trigger_id = ${triggers}.id)`.mapWith(
          (value: string | Date | null) => (value === null ? null : new Date(value)),
        ),
    })
    .from(triggers)
    .leftJoin(savedQueries, eq(savedQueries.id, triggers.savedQueryId));
}

export interface TriggerFilter {
  domain: TriggerDomain;
  search?: string;
  state?: TriggerState;
  type?: TriggerType;
  label?: string;
  sortField: TriggerSortField;
  sortOrder: 'ASC' | 'DESC';
}

const SEVERITY_RANK = sql`array_position(array['LOW','MEDIUM','HIGH','CRITICAL'], ${triggers.severity})`;

const sortColumn = (field: TriggerSortField) =>
  ({
    name: sql`lower(${triggers.name})`,
    type: triggers.type,
    severity: SEVERITY_RANK,
    state: triggers.state,
    modifiedOn: triggers.modifiedOn,
    nextRunAt: triggers.nextRunAt,
  })[field];

/** One page of an organisation's triggers of a domain; deleted and archived ones only when asked by state. */
export async function listTriggers(
  db: Db,
  orgId: string,
  filter: TriggerFilter,
  page: { limit: number; offset: number },
): Promise<{ items: TriggerView[]; total: number }> {
  const where = and(
    eq(triggers.orgId, orgId),
    eq(triggers.domain, filter.domain),
    filter.state ? eq(triggers.state, filter.state) : notInArray(triggers.state, RETIRED_STATES),
    filter.type ? eq(triggers.type, filter.type) : undefined,
    filter.label ? sql`${filter.label} = any(${triggers.labels})` : undefined,
    filter.search ? ilike(triggers.name, `%${escapeLike(filter.search)}%`) : undefined,
  );
  const order = filter.sortOrder === 'DESC' ? desc : asc;
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(order(sortColumn(filter.sortField)), asc(triggers.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(triggers)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** A trigger of the organisation (any state); undefined for others' and library triggers. */
export async function findTriggerView(db: Db, orgId: string, id: string): Promise<TriggerView | undefined> {
  const [view] = await selectViews(db).where(and(eq(triggers.id, id), eq(triggers.orgId, orgId)));
  return view;
}

/** The names of the organisation's triggers by id, for other modules; ids not found are left out. */
/** The name and domain of the organisation's triggers among `ids` (for pages that link to them). */
export async function triggerRefs(
  db: Db,
  orgId: string,
  ids: (string | null)[],
): Promise<Map<string, { name: string; domain: TriggerDomain }>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: triggers.id, name: triggers.name, domain: triggers.domain })
    .from(triggers)
    .where(and(eq(triggers.orgId, orgId), inArray(triggers.id, wanted)));
  return new Map(rows.map((row) => [row.id, { name: row.name, domain: row.domain as TriggerDomain }]));
}

export async function triggerNames(
  db: Db,
  orgId: string,
  ids: (string | null)[],
): Promise<Map<string, string>> {
  const refs = await triggerRefs(db, orgId, ids);
  return new Map([...refs].map(([id, ref]) => [id, ref.name]));
}

export async function insertTrigger(db: Db, values: NewTrigger): Promise<TriggerRow> {
  const [row] = await db.insert(triggers).values(values).returning();
  return row!;
}

export async function updateTrigger(db: Db, id: string, values: Partial<NewTrigger>): Promise<TriggerRow> {
  const [row] = await db
    .update(triggers)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(triggers.id, id))
    .returning();
  return row!;
}

/** Live triggers (of any organisation) that run the saved query, alone or as a sequence step. */
export async function countTriggersUsingQuery(db: Db, savedQueryId: string): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(triggers)
    .where(
      and(
        notInArray(triggers.state, RETIRED_STATES),
        or(
          eq(triggers.savedQueryId, savedQueryId),
          sql`${triggers.sequence} @> ${JSON.stringify([{ savedQueryId }])}::jsonb`,
        ),
      ),
    );
  return row?.total ?? 0;
}

/** A trigger's runs, newest first. */
export async function listTriggerRuns(db: Db, triggerId: string, page: { limit: number; offset: number }) {
  const where = eq(triggerRuns.triggerId, triggerId);
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(triggerRuns)
      .where(where)
      .orderBy(desc(triggerRuns.windowEnd))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(triggerRuns)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export interface TriggerScheduleView {
  row: TriggerScheduleRow;
  triggerCount: number;
}

function selectScheduleViews(db: Db) {
  return db
    .select({
      row: triggerSchedules,
      // The schedule's id is spelled out: inside the subquery a bare "id" would name the trigger's.
      triggerCount: sql<number>`(select count(*)::int from ${triggers} where ${triggers.scheduleId} = ${triggerSchedules}.id and ${notInArray(triggers.state, RETIRED_STATES)})`,
    })
    .from(triggerSchedules);
}

export async function listTriggerSchedules(
  db: Db,
  orgId: string,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: TriggerScheduleView[]; total: number }> {
  const where: SQL | undefined = and(
    eq(triggerSchedules.orgId, orgId),
    search ? ilike(triggerSchedules.name, `%${escapeLike(search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    selectScheduleViews(db)
      .where(where)
      .orderBy(asc(sql`lower(${triggerSchedules.name})`), asc(triggerSchedules.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(triggerSchedules)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findTriggerScheduleView(
  db: Db,
  orgId: string,
  id: string,
): Promise<TriggerScheduleView | undefined> {
  const [view] = await selectScheduleViews(db).where(
    and(eq(triggerSchedules.id, id), eq(triggerSchedules.orgId, orgId)),
  );
  return view;
}

export async function scheduleNameTaken(db: Db, orgId: string, name: string, exceptId?: string) {
  const [row] = await db
    .select({ id: triggerSchedules.id })
    .from(triggerSchedules)
    .where(
      and(
        eq(triggerSchedules.orgId, orgId),
        eq(sql`lower(${triggerSchedules.name})`, name.toLowerCase()),
        exceptId ? sql`${triggerSchedules.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertTriggerSchedule(db: Db, values: NewTriggerSchedule) {
  const [row] = await db.insert(triggerSchedules).values(values).returning();
  return row!;
}

export async function updateTriggerSchedule(db: Db, id: string, values: Partial<NewTriggerSchedule>) {
  const [row] = await db
    .update(triggerSchedules)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(triggerSchedules.id, id))
    .returning();
  return row!;
}

export async function deleteTriggerSchedule(db: Db, id: string): Promise<void> {
  await db.delete(triggerSchedules).where(eq(triggerSchedules.id, id));
}
