import { and, asc, eq, exists, ilike, inArray, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { userOrgs, users } from '../users/tables';
import { dashboards, workspaces, workspaceShares } from './tables';

export type WorkspaceRow = typeof workspaces.$inferSelect;
export type NewWorkspace = Omit<typeof workspaces.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

export interface WorkspaceView {
  row: WorkspaceRow;
  ownerName: string | null;
}

export interface Viewer {
  orgId: string;
  userId: string;
  /** The organisation holds REPORTING_PREMIUM: premium-only workspaces are visible. */
  premium: boolean;
}

const fullName = sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`;

/**
 * What a viewer sees: in their organisation, the workspaces they own, shared with all users or with
 * them (premium-only ones only with REPORTING_PREMIUM); in the library, every library workspace, its
 * premium-only ones labelled so.
 */
function visibleTo(viewer: Viewer, library: boolean): SQL {
  const sharedWithMe = sql`EXISTS (SELECT 1 FROM ${workspaceShares} WHERE ${workspaceShares.workspaceId} = ${workspaces.id} AND ${workspaceShares.userId} = ${viewer.userId})`;
  if (library) return and(isNull(workspaces.orgId), eq(workspaces.library, true))!;
  return and(
    eq(workspaces.orgId, viewer.orgId),
    or(
      eq(workspaces.ownerId, viewer.userId),
      eq(workspaces.sharing, 'ALL'),
      and(eq(workspaces.sharing, 'USERS'), sharedWithMe),
    ),
    viewer.premium ? undefined : eq(workspaces.premiumOnly, false),
  )!;
}

const selectViews = (db: Db) =>
  db
    .select({ row: workspaces, ownerName: fullName })
    .from(workspaces)
    .leftJoin(users, eq(users.id, workspaces.ownerId));

export async function listWorkspaces(
  db: Db,
  viewer: Viewer,
  filter: { library: boolean; search?: string },
  page: { limit: number; offset: number },
): Promise<{ items: WorkspaceView[]; total: number }> {
  const where = and(
    visibleTo(viewer, filter.library),
    filter.search ? ilike(workspaces.name, `%${escapeLike(filter.search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(asc(sql`lower(${workspaces.name})`), asc(workspaces.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(workspaces)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** A workspace the viewer sees (their organisation's or the library's), else undefined. */
export async function findWorkspaceView(
  db: Db,
  viewer: Viewer,
  id: string,
): Promise<WorkspaceView | undefined> {
  const [view] = await selectViews(db).where(
    and(eq(workspaces.id, id), or(visibleTo(viewer, false), visibleTo(viewer, true))),
  );
  return view;
}

export async function insertWorkspace(db: Db, values: NewWorkspace): Promise<WorkspaceRow> {
  const [row] = await db.insert(workspaces).values(values).returning();
  return row!;
}

export async function updateWorkspace(
  db: Db,
  id: string,
  values: Partial<NewWorkspace>,
): Promise<WorkspaceRow> {
  const [row] = await db
    .update(workspaces)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(workspaces.id, id))
    .returning();
  return row!;
}

export async function deleteWorkspaceRow(db: Db, id: string) {
  await db.delete(workspaces).where(eq(workspaces.id, id));
}

/** Who each workspace is shared with, by workspace id. */
export async function sharedUsersOf(db: Db, ids: string[]) {
  const out = new Map<string, { id: string; name: string }[]>();
  if (ids.length === 0) return out;
  const rows = await db
    .select({ workspaceId: workspaceShares.workspaceId, id: users.id, name: sql<string>`${fullName}` })
    .from(workspaceShares)
    .innerJoin(users, eq(users.id, workspaceShares.userId))
    .where(inArray(workspaceShares.workspaceId, ids))
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`);
  for (const row of rows) {
    const list = out.get(row.workspaceId) ?? [];
    list.push({ id: row.id, name: row.name });
    out.set(row.workspaceId, list);
  }
  return out;
}

export async function replaceShares(tx: Db, workspaceId: string, userIds: string[]) {
  await tx.delete(workspaceShares).where(eq(workspaceShares.workspaceId, workspaceId));
  if (userIds.length > 0) {
    await tx.insert(workspaceShares).values(userIds.map((userId) => ({ workspaceId, userId })));
  }
}

/** Names of dashboards by id, of the organisation or the library, live ones only. */
export async function liveDashboardNames(db: Db, orgId: string | null, ids: string[]) {
  if (ids.length === 0) return new Map<string, string>();
  const rows = await db
    .select({ id: dashboards.id, name: dashboards.name })
    .from(dashboards)
    .where(
      and(
        inArray(dashboards.id, ids),
        eq(dashboards.state, 'ACTIVE'),
        orgId ? eq(dashboards.orgId, orgId) : and(isNull(dashboards.orgId), eq(dashboards.library, true)),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.name]));
}

/** The organisation's live copies of library dashboards, by library id. */
export async function dashboardCopiesOf(db: Db, orgId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: dashboards.id, copiedFromId: dashboards.copiedFromId })
    .from(dashboards)
    .where(
      and(
        eq(dashboards.orgId, orgId),
        eq(dashboards.state, 'ACTIVE'),
        sql`${dashboards.copiedFromId} IS NOT NULL`,
      ),
    )
    .orderBy(asc(dashboards.createdOn));
  const out = new Map<string, string>();
  for (const row of rows) if (!out.has(row.copiedFromId!)) out.set(row.copiedFromId!, row.id);
  return out;
}

/** Library workspaces already copied into an organisation. */
export async function copiedWorkspaceIds(db: Db, orgId: string): Promise<Set<string>> {
  const rows = await db
    .select({ copiedFromId: workspaces.copiedFromId })
    .from(workspaces)
    .where(and(eq(workspaces.orgId, orgId), sql`${workspaces.copiedFromId} IS NOT NULL`));
  return new Set(rows.map((row) => row.copiedFromId!));
}

/** Library workspaces copied by default to customer organisations. */
export async function defaultLibraryWorkspaces(db: Db): Promise<WorkspaceRow[]> {
  return db
    .select()
    .from(workspaces)
    .where(and(isNull(workspaces.orgId), eq(workspaces.library, true), eq(workspaces.copyToCustomers, true)))
    .orderBy(asc(workspaces.createdOn));
}

/** Active people of the organisation (home or authorised), to share a workspace with. */
export async function orgPeople(db: Db, orgId: string) {
  return db
    .select({ id: users.id, name: sql<string>`${fullName}` })
    .from(users)
    .where(
      and(
        eq(users.active, true),
        isNull(users.deletedAt),
        or(
          eq(users.homeOrgId, orgId),
          exists(
            db
              .select({ userId: userOrgs.userId })
              .from(userOrgs)
              .where(and(eq(userOrgs.userId, users.id), eq(userOrgs.orgId, orgId))),
          ),
        ),
      ),
    )
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`);
}
