import { and, asc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { savedQueries } from './tables';
import { users } from '../users/tables';

export type SavedQueryRow = typeof savedQueries.$inferSelect;
export type NewSavedQuery = Omit<typeof savedQueries.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

export interface SavedQueryView {
  row: SavedQueryRow;
  createdByName: string | null;
}

/** The queries an organisation sees: its own and the library's. */
const visibleTo = (orgId: string): SQL =>
  or(eq(savedQueries.orgId, orgId), and(isNull(savedQueries.orgId), eq(savedQueries.library, true)))!;

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

function selectViews(db: Db) {
  return db
    .select({
      row: savedQueries,
      createdByName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(savedQueries)
    .leftJoin(users, eq(users.id, savedQueries.createdBy));
}

/** One page of the queries an organisation sees, by name. */
export async function listSavedQueries(
  db: Db,
  orgId: string,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: SavedQueryView[]; total: number }> {
  const where = and(
    visibleTo(orgId),
    search ? ilike(savedQueries.name, `%${escapeLike(search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(asc(sql`lower(${savedQueries.name})`), asc(savedQueries.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(savedQueries)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** A query the organisation sees (its own or a library one); undefined otherwise. */
export async function findSavedQueryView(
  db: Db,
  orgId: string,
  id: string,
): Promise<SavedQueryView | undefined> {
  const [view] = await selectViews(db).where(and(eq(savedQueries.id, id), visibleTo(orgId)));
  return view;
}

/** Whether another query of the same scope (the organisation, or the library) holds the name. */
export async function nameTaken(
  db: Db,
  scope: { orgId: string } | { library: true },
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: savedQueries.id })
    .from(savedQueries)
    .where(
      and(
        'orgId' in scope ? eq(savedQueries.orgId, scope.orgId) : eq(savedQueries.library, true),
        eq(sql`lower(${savedQueries.name})`, name.toLowerCase()),
        exceptId ? sql`${savedQueries.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertSavedQuery(db: Db, values: NewSavedQuery): Promise<SavedQueryRow> {
  const [row] = await db.insert(savedQueries).values(values).returning();
  return row!;
}

export async function updateSavedQuery(
  db: Db,
  id: string,
  values: Partial<NewSavedQuery>,
): Promise<SavedQueryRow> {
  const [row] = await db
    .update(savedQueries)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(savedQueries.id, id))
    .returning();
  return row!;
}

export async function deleteSavedQuery(db: Db, id: string): Promise<void> {
  await db.delete(savedQueries).where(eq(savedQueries.id, id));
}
