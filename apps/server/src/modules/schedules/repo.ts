import type { TaskScheduleSortField, TaskScheduleState } from '@vigil/contracts';
import { and, asc, desc, eq, ilike, inArray, isNull, ne, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tickets } from '../tickets/tables';
import { taskScheduleRuns, taskSchedules } from './tables';

export type TaskScheduleRow = typeof taskSchedules.$inferSelect;
export type NewTaskSchedule = Omit<typeof taskSchedules.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

/** An organisation's schedules, or the library's (orgId null). */
const scopeOf = (orgId: string | null): SQL =>
  orgId === null ? isNull(taskSchedules.orgId) : eq(taskSchedules.orgId, orgId);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const SORTS = {
  name: sql`lower(${taskSchedules.name})`,
  nextRunAt: taskSchedules.runAt,
  lastRanAt: taskSchedules.lastRanAt,
  modifiedOn: taskSchedules.modifiedOn,
};

export async function listTaskSchedules(
  db: Db,
  orgId: string | null,
  query: {
    search?: string;
    state?: TaskScheduleState;
    sortBy: TaskScheduleSortField;
    desc: boolean;
    limit: number;
    offset: number;
  },
): Promise<{ items: TaskScheduleRow[]; total: number }> {
  const where = and(
    scopeOf(orgId),
    query.state ? eq(taskSchedules.state, query.state) : ne(taskSchedules.state, 'DELETED'),
    query.search ? ilike(taskSchedules.name, `%${escapeLike(query.search)}%`) : undefined,
  );
  const order = SORTS[query.sortBy];
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(taskSchedules)
      .where(where)
      .orderBy(
        query.desc ? sql`${order} DESC NULLS LAST` : sql`${order} ASC NULLS LAST`,
        asc(taskSchedules.id),
      )
      .limit(query.limit)
      .offset(query.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(taskSchedules)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findTaskSchedule(
  db: Db,
  orgId: string | null,
  id: string,
): Promise<TaskScheduleRow | undefined> {
  const [row] = await db
    .select()
    .from(taskSchedules)
    .where(and(scopeOf(orgId), eq(taskSchedules.id, id)));
  return row;
}

/** Names of schedules of the organisation by id. */
export async function scheduleNames(db: Db, orgId: string, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: taskSchedules.id, name: taskSchedules.name })
    .from(taskSchedules)
    .where(and(eq(taskSchedules.orgId, orgId), inArray(taskSchedules.id, ids)));
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The schedules (not deleted) whose parent is one of `ids`. */
export async function childrenOf(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(taskSchedules)
    .where(
      and(
        eq(taskSchedules.orgId, orgId),
        inArray(taskSchedules.parentId, ids),
        ne(taskSchedules.state, 'DELETED'),
      ),
    )
    .orderBy(asc(sql`lower(${taskSchedules.name})`));
}

/** The chain above a schedule, nearest first (at most `max`, which stops a cycle stored by a race). */
export async function ancestorsOf(db: Db, orgId: string, id: string, max = 100): Promise<TaskScheduleRow[]> {
  const chain: TaskScheduleRow[] = [];
  let current = await findTaskSchedule(db, orgId, id);
  while (current?.parentId && chain.length < max) {
    const parent = await findTaskSchedule(db, orgId, current.parentId);
    if (!parent || parent.state === 'DELETED') break;
    chain.push(parent);
    current = parent;
  }
  return chain;
}

/** Levels below a schedule, itself counting one (at most `max` deep). */
export async function levelsBelow(db: Db, orgId: string, id: string, max = 100): Promise<number> {
  let levels = 1;
  let frontier = [id];
  while (levels < max) {
    const next = (await childrenOf(db, orgId, frontier)).map((row) => row.id);
    if (next.length === 0) break;
    levels++;
    frontier = next;
  }
  return levels;
}

/**
 * Held to the end of the transaction: parent and child changes of one organisation are checked and
 * written in turn, so two requests that are each valid alone cannot together make a cycle or too many
 * levels.
 */
export async function lockOrgFamilies(db: Db, orgId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`task-schedules:${orgId}`}, 0))`);
}

export async function insertTaskSchedule(db: Db, values: NewTaskSchedule): Promise<TaskScheduleRow> {
  const [row] = await db.insert(taskSchedules).values(values).returning();
  return row!;
}

export async function updateTaskSchedule(
  db: Db,
  id: string,
  values: Partial<NewTaskSchedule>,
): Promise<TaskScheduleRow> {
  const [row] = await db
    .update(taskSchedules)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(taskSchedules.id, id))
    .returning();
  return row!;
}

/** Copies of a library schedule held by these organisations (deleted ones too), by organisation. */
export async function copiesInOrgs(db: Db, libraryId: string, orgIds: string[]) {
  if (orgIds.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: taskSchedules.id, orgId: taskSchedules.orgId })
    .from(taskSchedules)
    .where(and(eq(taskSchedules.copiedFromId, libraryId), inArray(taskSchedules.orgId, orgIds)));
  return new Map(rows.map((row) => [row.orgId!, row.id]));
}

/** The task the schedule's latest run created, if any. */
export async function latestTaskOf(db: Db, scheduleId: string): Promise<string | null> {
  const [run] = await db
    .select({ ticketId: taskScheduleRuns.ticketId })
    .from(taskScheduleRuns)
    .where(eq(taskScheduleRuns.scheduleId, scheduleId))
    .orderBy(desc(taskScheduleRuns.scheduledFor))
    .limit(1);
  return run?.ticketId ?? null;
}

/**
 * Per live schedule of the organisation, the tasks its runs created in [from, to) (from each
 * schedule's last run when `from` is null) and their states now. The runs table names each task, so
 * this reads the tasks by that link.
 */
export async function taskCountsOf(db: Db, orgId: string, range: { from: Date | null; to: Date }, now: Date) {
  const start = range.from ? sql`${range.from.toISOString()}::timestamptz` : sql`${taskSchedules.lastRanAt}`;
  const counted = (condition: SQL) => sql<number>`(count(${tickets.id}) FILTER (WHERE ${condition}))::int`;
  return db
    .select({
      scheduleId: taskSchedules.id,
      name: taskSchedules.name,
      lastRanAt: taskSchedules.lastRanAt,
      created: sql<number>`count(${tickets.id})::int`,
      open: counted(sql`${tickets.state} = 'OPEN'`),
      closed: counted(sql`${tickets.state} = 'CLOSED'`),
      overdue: counted(
        sql`${tickets.state} = 'OPEN' AND ${tickets.dueDate} < ${now.toISOString()}::timestamptz`,
      ),
    })
    .from(taskSchedules)
    .leftJoin(
      taskScheduleRuns,
      and(
        eq(taskScheduleRuns.scheduleId, taskSchedules.id),
        sql`${taskScheduleRuns.ranAt} >= ${start}`,
        sql`${taskScheduleRuns.ranAt} < ${range.to.toISOString()}::timestamptz`,
      ),
    )
    .leftJoin(tickets, and(eq(tickets.id, taskScheduleRuns.ticketId), eq(tickets.orgId, orgId)))
    .where(and(eq(taskSchedules.orgId, orgId), ne(taskSchedules.state, 'DELETED')))
    .groupBy(taskSchedules.id)
    .orderBy(sql`lower(${taskSchedules.name})`, asc(taskSchedules.id));
}
