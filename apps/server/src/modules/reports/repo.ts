import { and, asc, desc, eq, ilike, inArray, isNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../users/tables';
import { reportSchedules, reports, reportTemplates } from './tables';

export type TemplateRow = typeof reportTemplates.$inferSelect;
export type ReportRow = Omit<typeof reports.$inferSelect, 'content'>;
export type ScheduleRow = typeof reportSchedules.$inferSelect;
type NewReport = Omit<typeof reports.$inferInsert, 'id' | 'requestedOn'>;
type NewSchedule = Omit<typeof reportSchedules.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

interface Page {
  limit: number;
  offset: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
const nameOf = sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`;

async function paged<Row>(
  items: Promise<Row[]>,
  count: Promise<{ total: number }[]>,
): Promise<{ items: Row[]; total: number }> {
  const [rows, [counted]] = await Promise.all([items, count]);
  return { items: rows, total: counted?.total ?? 0 };
}

/**
 * Rows of an organisation, or of the provider's library when `orgId` is null: every function below
 * that takes `orgId` reads and writes only the one or the other.
 */
const ownedBy = (table: typeof reportTemplates | typeof reportSchedules, orgId: string | null): SQL =>
  orgId === null ? and(isNull(table.orgId), eq(table.library, true))! : eq(table.orgId, orgId);

// ---------------------------------------------------------------------------------------------------
// Templates

export interface TemplateView {
  row: TemplateRow;
  createdByName: string | null;
}

export function listTemplates(db: Db, orgId: string | null, search: string | undefined, page: Page) {
  const where = and(
    ownedBy(reportTemplates, orgId),
    search ? ilike(reportTemplates.name, `%${escapeLike(search)}%`) : undefined,
  );
  return paged<TemplateView>(
    db
      .select({ row: reportTemplates, createdByName: nameOf })
      .from(reportTemplates)
      .leftJoin(users, eq(users.id, reportTemplates.createdBy))
      .where(where)
      .orderBy(asc(sql`lower(${reportTemplates.name})`), asc(reportTemplates.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(reportTemplates)
      .where(where),
  );
}

/** The organisation's template (the library's when `orgId` is null). */
export async function findTemplate(
  db: Db,
  orgId: string | null,
  id: string,
): Promise<TemplateView | undefined> {
  const [view] = await db
    .select({ row: reportTemplates, createdByName: nameOf })
    .from(reportTemplates)
    .leftJoin(users, eq(users.id, reportTemplates.createdBy))
    .where(and(ownedBy(reportTemplates, orgId), eq(reportTemplates.id, id)));
  return view;
}

/** A template the organisation sees: its own or the library's. */
export async function findVisibleTemplate(db: Db, orgId: string, id: string) {
  const [view] = await db
    .select({ row: reportTemplates, createdByName: nameOf })
    .from(reportTemplates)
    .leftJoin(users, eq(users.id, reportTemplates.createdBy))
    .where(
      and(or(ownedBy(reportTemplates, orgId), ownedBy(reportTemplates, null)), eq(reportTemplates.id, id)),
    );
  return view;
}

/** The organisation's copy of a library template, if it holds one. */
export async function findTemplateCopy(db: Db, orgId: string, libraryId: string) {
  const [row] = await db
    .select()
    .from(reportTemplates)
    .where(and(eq(reportTemplates.orgId, orgId), eq(reportTemplates.copiedFromId, libraryId)))
    .orderBy(asc(reportTemplates.createdOn))
    .limit(1);
  return row;
}

export async function insertTemplate(
  db: Db,
  orgId: string | null,
  values: {
    name: string;
    description: string;
    chartIds: string[];
    createdBy: string | null;
    copiedFromId?: string | null;
  },
) {
  const [row] = await db
    .insert(reportTemplates)
    .values({ orgId, library: orgId === null, ...values })
    .returning();
  return row!;
}

export async function updateTemplate(
  db: Db,
  orgId: string | null,
  id: string,
  values: { name: string; description: string; chartIds: string[] },
) {
  const [row] = await db
    .update(reportTemplates)
    .set({ ...values, modifiedOn: new Date() })
    .where(and(ownedBy(reportTemplates, orgId), eq(reportTemplates.id, id)))
    .returning();
  return row;
}

export async function deleteTemplateRow(db: Db, orgId: string | null, id: string) {
  const [row] = await db
    .delete(reportTemplates)
    .where(and(ownedBy(reportTemplates, orgId), eq(reportTemplates.id, id)))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Reports

const reportColumns = {
  id: reports.id,
  orgId: reports.orgId,
  templateId: reports.templateId,
  scheduleId: reports.scheduleId,
  name: reports.name,
  range: reports.range,
  begin: reports.begin,
  end: reports.end,
  state: reports.state,
  errorKey: reports.errorKey,
  size: reports.size,
  requestedBy: reports.requestedBy,
  requestedOn: reports.requestedOn,
  completedOn: reports.completedOn,
};

export interface ReportView {
  row: ReportRow;
  requestedByName: string | null;
}

export function listReports(db: Db, orgId: string, search: string | undefined, page: Page) {
  const where = and(
    eq(reports.orgId, orgId),
    search ? ilike(reports.name, `%${escapeLike(search)}%`) : undefined,
  );
  return paged<ReportView>(
    db
      .select({ row: reportColumns, requestedByName: nameOf })
      .from(reports)
      .leftJoin(users, eq(users.id, reports.requestedBy))
      .where(where)
      .orderBy(desc(reports.requestedOn), desc(reports.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(reports)
      .where(where),
  );
}

export async function findReport(db: Db, orgId: string, id: string): Promise<ReportView | undefined> {
  const [view] = await db
    .select({ row: reportColumns, requestedByName: nameOf })
    .from(reports)
    .leftJoin(users, eq(users.id, reports.requestedBy))
    .where(and(eq(reports.orgId, orgId), eq(reports.id, id)));
  return view;
}

export async function findReportContent(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select({ name: reports.name, state: reports.state, content: reports.content })
    .from(reports)
    .where(and(eq(reports.orgId, orgId), eq(reports.id, id)));
  return row;
}

export async function insertReport(db: Db, values: NewReport): Promise<ReportRow> {
  const [row] = await db.insert(reports).values(values).returning(reportColumns);
  return row!;
}

/** Moves a report on from one of `from`; undefined when it is no longer in one (taken or deleted). */
export async function moveReport(
  db: Db,
  id: string,
  from: readonly string[],
  values: Partial<
    Pick<typeof reports.$inferInsert, 'state' | 'errorKey' | 'content' | 'size' | 'completedOn'>
  >,
): Promise<ReportRow | undefined> {
  const [row] = await db
    .update(reports)
    .set(values)
    .where(and(eq(reports.id, id), inArray(reports.state, [...from])))
    .returning(reportColumns);
  return row;
}

export async function findReportById(db: Db, id: string): Promise<ReportRow | undefined> {
  const [row] = await db.select(reportColumns).from(reports).where(eq(reports.id, id));
  return row;
}

/** Reports still in `states` requested before `before` (their build job may have been lost). */
export async function staleReports(db: Db, states: readonly string[], before: Date) {
  return db
    .select({ id: reports.id })
    .from(reports)
    .where(and(inArray(reports.state, [...states]), lte(reports.requestedOn, before)))
    .limit(100);
}

export async function deleteReportRow(db: Db, orgId: string, id: string) {
  const [row] = await db
    .delete(reports)
    .where(and(eq(reports.orgId, orgId), eq(reports.id, id)))
    .returning(reportColumns);
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Schedules

export interface ScheduleView {
  row: ScheduleRow;
  templateName: string;
  createdByName: string | null;
}

const scheduleView = {
  row: reportSchedules,
  templateName: reportTemplates.name,
  createdByName: nameOf,
};

const liveSchedule = ne(reportSchedules.state, 'DELETED');
/** For `updateSchedule`: only while the schedule is still NOT_COPIED. */
export const stillNotCopied = eq(reportSchedules.state, 'NOT_COPIED');

export function listSchedules(db: Db, orgId: string | null, page: Page) {
  const where = and(ownedBy(reportSchedules, orgId), liveSchedule);
  return paged<ScheduleView>(
    db
      .select(scheduleView)
      .from(reportSchedules)
      .innerJoin(reportTemplates, eq(reportTemplates.id, reportSchedules.templateId))
      .leftJoin(users, eq(users.id, reportSchedules.createdBy))
      .where(where)
      .orderBy(asc(sql`lower(${reportTemplates.name})`), asc(reportSchedules.createdOn))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(reportSchedules)
      .where(where),
  );
}

export async function findSchedule(
  db: Db,
  orgId: string | null,
  id: string,
): Promise<ScheduleView | undefined> {
  const [view] = await db
    .select(scheduleView)
    .from(reportSchedules)
    .innerJoin(reportTemplates, eq(reportTemplates.id, reportSchedules.templateId))
    .leftJoin(users, eq(users.id, reportSchedules.createdBy))
    .where(and(ownedBy(reportSchedules, orgId), eq(reportSchedules.id, id), liveSchedule));
  return view;
}

export async function insertSchedule(db: Db, values: NewSchedule) {
  const [row] = await db.insert(reportSchedules).values(values).returning();
  return row!;
}

export async function updateSchedule(
  db: Db,
  orgId: string | null,
  id: string,
  values: Partial<NewSchedule>,
  where?: SQL,
) {
  const [row] = await db
    .update(reportSchedules)
    .set({ ...values, modifiedOn: new Date() })
    .where(and(ownedBy(reportSchedules, orgId), eq(reportSchedules.id, id), where))
    .returning();
  return row;
}

/**
 * Live schedules of a template: the organisation's, or for a library template (`orgId` null) the
 * library's and the NOT_COPIED copies in customer organisations that still build on it.
 */
export async function countLiveSchedulesOf(db: Db, orgId: string | null, templateId: string) {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(reportSchedules)
    .where(
      and(
        orgId === null ? undefined : eq(reportSchedules.orgId, orgId),
        eq(reportSchedules.templateId, templateId),
        liveSchedule,
      ),
    );
  return row?.n ?? 0;
}

/** Live library schedules, oldest first. */
export async function liveLibrarySchedules(db: Db): Promise<ScheduleRow[]> {
  return db
    .select()
    .from(reportSchedules)
    .where(and(ownedBy(reportSchedules, null), liveSchedule))
    .orderBy(asc(reportSchedules.createdOn));
}

/** Library schedules an organisation holds a copy of, in any state (a deleted copy stays skipped). */
export async function copiedScheduleIds(db: Db, orgId: string): Promise<Set<string>> {
  const rows = await db
    .select({ copiedFromId: reportSchedules.copiedFromId })
    .from(reportSchedules)
    .where(and(eq(reportSchedules.orgId, orgId), sql`${reportSchedules.copiedFromId} IS NOT NULL`));
  return new Set(rows.map((row) => row.copiedFromId!));
}

/** Changes the copies of a library schedule that no organisation has activated yet. */
export async function updateNotCopiedCopies(db: Db, libraryId: string, values: Partial<NewSchedule>) {
  await db
    .update(reportSchedules)
    .set({ ...values, modifiedOn: new Date() })
    .where(and(eq(reportSchedules.copiedFromId, libraryId), eq(reportSchedules.state, 'NOT_COPIED')));
}

/** Claims the next due active schedule (locked until the transaction ends), or undefined. */
export async function claimDueSchedule(db: Db, now: Date) {
  const [row] = await db
    .select()
    .from(reportSchedules)
    .where(
      and(
        eq(reportSchedules.state, 'ACTIVE'),
        eq(reportSchedules.library, false),
        lte(reportSchedules.nextRunAt, now),
      ),
    )
    .orderBy(asc(reportSchedules.nextRunAt))
    .limit(1)
    .for('update', { skipLocked: true });
  return row;
}

export async function setScheduleRun(db: Db, id: string, values: Partial<NewSchedule>) {
  await db.update(reportSchedules).set(values).where(eq(reportSchedules.id, id));
}

export async function findScheduleById(db: Db, id: string) {
  const [row] = await db.select().from(reportSchedules).where(eq(reportSchedules.id, id));
  return row;
}
