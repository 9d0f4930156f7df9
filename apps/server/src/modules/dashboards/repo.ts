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

// ---------------------------------------------------------------------------------------------------
// Charts

/** An organisation's own charts, or the library's. */
const chartScope = (orgId: string, library: boolean): SQL =>
  library ? and(isNull(charts.orgId), eq(charts.library, true))! : eq(charts.orgId, orgId);

/** The charts an organisation sees: its own and the library's. */
const chartVisibleTo = (orgId: string): SQL =>
  or(eq(charts.orgId, orgId), and(isNull(charts.orgId), eq(charts.library, true)))!;

export async function listCharts(db: Db, orgId: string, filter: ListFilter, page: Page) {
  const where = and(
    chartScope(orgId, filter.library),
    eq(charts.state, filter.state),
    filter.search ? ilike(charts.name, `%${escapeLike(filter.search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    db
      .select({ row: charts, createdByName: creatorName })
      .from(charts)
      .leftJoin(users, eq(users.id, charts.createdBy))
      .where(where)
      .orderBy(asc(sql`lower(${charts.name})`), asc(charts.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(charts)
      .where(where),
  ]);
  return { items: items as ChartView[], total: count?.total ?? 0 };
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

/**
 * Marks a chart deleted only when it is still live and unchanged since `seenAt` (when given);
 * answers the row, or undefined when another user changed or deleted it first.
 */
export async function markChartDeleted(db: Db, id: string, seenAt?: Date): Promise<ChartRow | undefined> {
  const [row] = await db
    .update(charts)
    .set({ state: 'DELETED', deletedAt: new Date(), modifiedOn: new Date() })
    .where(
      and(
        eq(charts.id, id),
        eq(charts.state, 'ACTIVE'),
        seenAt
          ? sql`date_trunc('milliseconds', ${charts.modifiedOn}) = ${seenAt.toISOString()}::timestamptz`
          : undefined,
      ),
    )
    .returning();
  return row;
}

// ---------------------------------------------------------------------------------------------------
// Dashboards

const dashboardScope = (orgId: string, library: boolean): SQL =>
  library ? and(isNull(dashboards.orgId), eq(dashboards.library, true))! : eq(dashboards.orgId, orgId);

const dashboardVisibleTo = (orgId: string): SQL =>
  or(eq(dashboards.orgId, orgId), and(isNull(dashboards.orgId), eq(dashboards.library, true)))!;

export async function listDashboards(db: Db, orgId: string, filter: ListFilter, page: Page) {
  const where = and(
    dashboardScope(orgId, filter.library),
    eq(dashboards.state, filter.state),
    filter.search ? ilike(dashboards.name, `%${escapeLike(filter.search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    db
      .select({ row: dashboards, createdByName: creatorName })
      .from(dashboards)
      .leftJoin(users, eq(users.id, dashboards.createdBy))
      .where(where)
      .orderBy(asc(sql`lower(${dashboards.name})`), asc(dashboards.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(dashboards)
      .where(where),
  ]);
  return { items: items as DashboardView[], total: count?.total ?? 0 };
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
export async function firstDashboardId(db: Db, orgId: string): Promise<string | undefined> {
  const [row] = await db
    .select({ id: dashboards.id })
    .from(dashboards)
    .where(and(eq(dashboards.orgId, orgId), eq(dashboards.state, 'ACTIVE')))
    .orderBy(asc(dashboards.createdOn), asc(sql`lower(${dashboards.name})`), asc(dashboards.id))
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

export async function markDashboardDeleted(
  db: Db,
  id: string,
  seenAt?: Date,
): Promise<DashboardRow | undefined> {
  const [row] = await db
    .update(dashboards)
    .set({ state: 'DELETED', deletedAt: new Date(), modifiedOn: new Date() })
    .where(
      and(
        eq(dashboards.id, id),
        eq(dashboards.state, 'ACTIVE'),
        seenAt
          ? sql`date_trunc('milliseconds', ${dashboards.modifiedOn}) = ${seenAt.toISOString()}::timestamptz`
          : undefined,
      ),
    )
    .returning();
  return row;
}

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
