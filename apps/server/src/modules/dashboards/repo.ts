import { and, asc, eq, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../users/tables';
import { charts, dashboardDefaults, dashboards } from './tables';

export type ChartRow = typeof charts.$inferSelect;
export type NewChart = Omit<typeof charts.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;
export type DashboardRow = typeof dashboards.$inferSelect;
export type NewDashboard = Omit<typeof dashboards.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

export interface ChartView {
  row: ChartRow;
  createdByName: string | null;
}
export interface DashboardView {
  row: DashboardRow;
  createdByName: string | null;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);
const creatorName = sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`;

export interface ListFilter {
  search?: string;
  state: string;
  library: boolean;
}
type Page = { limit: number; offset: number };

type Listed = typeof charts | typeof dashboards;

/** An organisation's own rows, or the library's. */
const scopeOf = (table: Listed, orgId: string, library: boolean): SQL =>
  library ? and(isNull(table.orgId), eq(table.library, true))! : eq(table.orgId, orgId);

/** One page of charts or dashboards of a state, by name. */
async function listOf<Row>(db: Db, table: Listed, orgId: string, filter: ListFilter, page: Page) {
  const where = and(
    scopeOf(table, orgId, filter.library),
    eq(table.state, filter.state),
    filter.search ? ilike(table.name, `%${escapeLike(filter.search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    db
      .select({ row: table, createdByName: creatorName })
      .from(table)
      .leftJoin(users, eq(users.id, table.createdBy))
      .where(where)
      .orderBy(asc(sql`lower(${table.name})`), asc(table.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(table)
      .where(where),
  ]);
  return { items: items as { row: Row; createdByName: string | null }[], total: count?.total ?? 0 };
}

/**
 * Marks a chart or dashboard deleted only when it is still live and unchanged since `seenAt` (when
 * given); answers the row, or undefined when another user changed or deleted it first.
 */
async function markDeleted<Row>(db: Db, table: Listed, id: string, seenAt?: Date): Promise<Row | undefined> {
  const [row] = await db
    .update(table)
    .set({ state: 'DELETED', deletedAt: new Date(), modifiedOn: new Date() })
    .where(
      and(
        eq(table.id, id),
        eq(table.state, 'ACTIVE'),
        seenAt
          ? sql`date_trunc('milliseconds', ${table.modifiedOn}) = ${seenAt.toISOString()}::timestamptz`
          : undefined,
      ),
    )
    .returning();
  return row as Row | undefined;
}

// ---------------------------------------------------------------------------------------------------
// Charts

/** The charts an organisation sees: its own and the library's. */
const chartVisibleTo = (orgId: string): SQL =>
  or(eq(charts.orgId, orgId), and(isNull(charts.orgId), eq(charts.library, true)))!;

export async function listCharts(db: Db, orgId: string, filter: ListFilter, page: Page) {
  return listOf<ChartRow>(db, charts, orgId, filter, page);
}

export async function findChartViews(db: Db, orgId: string, ids: string[]): Promise<ChartView[]> {
  if (ids.length === 0) return [];
  return db
    .select({ row: charts, createdByName: creatorName })
    .from(charts)
    .leftJoin(users, eq(users.id, charts.createdBy))
    .where(and(inArray(charts.id, ids), chartVisibleTo(orgId)));
}

export async function findChartView(db: Db, orgId: string, id: string): Promise<ChartView | undefined> {
  return (await findChartViews(db, orgId, [id]))[0];
}

/** Live charts drawing a saved query. */
export async function countChartsUsingQuery(db: Db, savedQueryId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(charts)
    .where(
      and(
        eq(charts.state, 'ACTIVE'),
        sql`${charts.savedQueryIds} @> ${JSON.stringify([savedQueryId])}::jsonb`,
      ),
    );
  return row?.n ?? 0;
}

/** The live charts drawing a saved or library query. */
export async function chartIdsUsingQuery(db: Db, savedQueryId: string): Promise<string[]> {
  const rows = await db
    .select({ id: charts.id })
    .from(charts)
    .where(
      and(
        eq(charts.state, 'ACTIVE'),
        sql`${charts.savedQueryIds} @> ${JSON.stringify([savedQueryId])}::jsonb`,
      ),
    );
  return rows.map((row) => row.id);
}

export async function insertChart(db: Db, values: NewChart): Promise<ChartRow> {
  const [row] = await db.insert(charts).values(values).returning();
  return row!;
}

export async function updateChart(db: Db, id: string, values: Partial<NewChart>): Promise<ChartRow> {
  const [row] = await db
    .update(charts)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(charts.id, id))
    .returning();
  return row!;
}

export const markChartDeleted = (db: Db, id: string, seenAt?: Date) =>
  markDeleted<ChartRow>(db, charts, id, seenAt);

// ---------------------------------------------------------------------------------------------------
// Dashboards

const dashboardVisibleTo = (orgId: string): SQL =>
  or(eq(dashboards.orgId, orgId), and(isNull(dashboards.orgId), eq(dashboards.library, true)))!;

export async function listDashboards(db: Db, orgId: string, filter: ListFilter, page: Page) {
  return listOf<DashboardRow>(db, dashboards, orgId, filter, page);
}

export async function findDashboardView(
  db: Db,
  orgId: string,
  id: string,
): Promise<DashboardView | undefined> {
  const [view] = await db
    .select({ row: dashboards, createdByName: creatorName })
    .from(dashboards)
    .leftJoin(users, eq(users.id, dashboards.createdBy))
    .where(and(eq(dashboards.id, id), dashboardVisibleTo(orgId)));
  return view;
}

/** The organisation's first live dashboard: oldest first, then by name. */
/**
 * Where a user without a chosen default lands: the organisation's own dashboards before copies from the
 * provider's library (which a new organisation receives first), then the oldest.
 */
export async function firstDashboardId(db: Db, orgId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(and(eq(dashboards.orgId, orgId), eq(dashboards.state, 'ACTIVE')))
    .orderBy(
      sql`${dashboards.copiedFromId} is not null`,
      asc(dashboards.createdOn),
      asc(sql`lower(${dashboards.name})`),
      asc(dashboards.id),
    )
    .limit(1);
  return row?.id;
}

export async function insertDashboard(db: Db, values: NewDashboard): Promise<DashboardRow> {
  const [row] = await db.insert(dashboards).values(values).returning();
  return row!;
}

export async function updateDashboard(
  db: Db,
  id: string,
  values: Partial<NewDashboard>,
): Promise<DashboardRow> {
  const [row] = await db
    .update(dashboards)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(dashboards.id, id))
    .returning();
  return row!;
}

export const markDashboardDeleted = (db: Db, id: string, seenAt?: Date) =>
  markDeleted<DashboardRow>(db, dashboards, id, seenAt);

/** Library dashboards already copied into an organisation (live or deleted: a deleted copy stays skipped). */
export async function copiedLibraryIds(db: Db, orgId: string): Promise<Set<string>> {
  const rows = await db
    .select({ copiedFromId: dashboards.copiedFromId })
    .from(dashboards)
    .where(and(eq(dashboards.orgId, orgId), sql`${dashboards.copiedFromId} IS NOT NULL`));
  return new Set(rows.map((row) => row.copiedFromId!));
}

export async function liveLibraryDashboards(db: Db): Promise<DashboardRow[]> {
  return db
    .select()
    .from(dashboards)
    .where(and(isNull(dashboards.orgId), eq(dashboards.library, true), eq(dashboards.state, 'ACTIVE')))
    .orderBy(asc(dashboards.createdOn));
}

export async function findDefaultDashboardId(
  db: Db,
  orgId: string,
  userId: string,
): Promise<string | undefined> {
  const [row] = await db
    .select({ id: dashboardDefaults.dashboardId })
    .from(dashboardDefaults)
    .innerJoin(dashboards, eq(dashboards.id, dashboardDefaults.dashboardId))
    .where(
      and(
        eq(dashboardDefaults.orgId, orgId),
        eq(dashboardDefaults.userId, userId),
        eq(dashboards.state, 'ACTIVE'),
      ),
    );
  return row?.id;
}

export async function setDefaultDashboard(db: Db, orgId: string, userId: string, dashboardId: string) {
  await db
    .insert(dashboardDefaults)
    .values({ orgId, userId, dashboardId })
    .onConflictDoUpdate({
      target: [dashboardDefaults.userId, dashboardDefaults.orgId],
      set: { dashboardId },
    });
}
