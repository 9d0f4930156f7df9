import { and, asc, eq, ilike, inArray, sql } from 'drizzle-orm';
import type { WatchlistDomain } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { watchlistItems, watchlists } from './tables';

export type WatchlistRow = typeof watchlists.$inferSelect;
export type NewWatchlist = Omit<typeof watchlists.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

export interface WatchlistView {
  row: WatchlistRow;
  itemCount: number;
}

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

/** Rows written per statement, well under PostgreSQL's limit of bind parameters. */
const INSERT_BATCH = 1000;

const itemCount = sql<number>`(select count(*)::int from ${watchlistItems} where ${watchlistItems.watchlistId} = ${watchlists.id})`;

const selectViews = (db: Db) => db.select({ row: watchlists, itemCount }).from(watchlists);

/** One page of an organisation's watchlists of a domain, by name. */
export async function listWatchlists(
  db: Db,
  orgId: string,
  domain: WatchlistDomain,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: WatchlistView[]; total: number }> {
  const where = and(
    eq(watchlists.orgId, orgId),
    eq(watchlists.domain, domain),
    search ? ilike(watchlists.name, `%${escapeLike(search)}%`) : undefined,
  );
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(asc(sql`lower(${watchlists.name})`), asc(watchlists.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(watchlists)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** A watchlist of the organisation; undefined otherwise. */
export async function findWatchlistView(
  db: Db,
  orgId: string,
  id: string,
): Promise<WatchlistView | undefined> {
  const [view] = await selectViews(db).where(and(eq(watchlists.id, id), eq(watchlists.orgId, orgId)));
  return view;
}

/** Whether another watchlist of the organisation and domain holds the name, any case. */
export async function nameTaken(
  db: Db,
  orgId: string,
  domain: WatchlistDomain,
  name: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: watchlists.id })
    .from(watchlists)
    .where(
      and(
        eq(watchlists.orgId, orgId),
        eq(watchlists.domain, domain),
        eq(sql`lower(${watchlists.name})`, name.toLowerCase()),
        exceptId ? sql`${watchlists.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

export async function insertWatchlist(db: Db, values: NewWatchlist): Promise<WatchlistRow> {
  const [row] = await db.insert(watchlists).values(values).returning();
  return row!;
}

export async function updateWatchlist(
  db: Db,
  id: string,
  values: Partial<NewWatchlist>,
): Promise<WatchlistRow> {
  const [row] = await db
    .update(watchlists)
    .set({ ...values, modifiedOn: new Date() })
    .where(eq(watchlists.id, id))
    .returning();
  return row!;
}

export async function deleteWatchlist(db: Db, id: string): Promise<void> {
  await db.delete(watchlists).where(eq(watchlists.id, id));
}

/** One page of a watchlist's values, in order. */
export async function listItems(
  db: Db,
  watchlistId: string,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: string[]; total: number }> {
  const where = and(
    eq(watchlistItems.watchlistId, watchlistId),
    search ? ilike(watchlistItems.value, `%${escapeLike(search)}%`) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({ value: watchlistItems.value })
      .from(watchlistItems)
      .where(where)
      .orderBy(asc(watchlistItems.value))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(watchlistItems)
      .where(where),
  ]);
  return { items: rows.map((row) => row.value), total: count?.total ?? 0 };
}

/** Every value of a watchlist, in order. */
export async function allItems(db: Db, watchlistId: string): Promise<string[]> {
  const rows = await db
    .select({ value: watchlistItems.value })
    .from(watchlistItems)
    .where(eq(watchlistItems.watchlistId, watchlistId))
    .orderBy(asc(watchlistItems.value));
  return rows.map((row) => row.value);
}

/** Adds values the watchlist does not hold yet; the number added. */
export async function insertItems(db: Db, watchlistId: string, values: Iterable<string>): Promise<number> {
  const all = [...values];
  let added = 0;
  for (let start = 0; start < all.length; start += INSERT_BATCH) {
    const rows = await db
      .insert(watchlistItems)
      .values(all.slice(start, start + INSERT_BATCH).map((value) => ({ watchlistId, value })))
      .onConflictDoNothing()
      .returning({ value: watchlistItems.value });
    added += rows.length;
  }
  return added;
}

/** Removes these values; the number removed. */
export async function deleteItems(db: Db, watchlistId: string, values: string[]): Promise<number> {
  let removed = 0;
  for (let start = 0; start < values.length; start += INSERT_BATCH) {
    const rows = await db
      .delete(watchlistItems)
      .where(
        and(
          eq(watchlistItems.watchlistId, watchlistId),
          inArray(watchlistItems.value, values.slice(start, start + INSERT_BATCH)),
        ),
      )
      .returning({ value: watchlistItems.value });
    removed += rows.length;
  }
  return removed;
}

export async function deleteAllItems(db: Db, watchlistId: string): Promise<void> {
  await db.delete(watchlistItems).where(eq(watchlistItems.watchlistId, watchlistId));
}

/** Marks the watchlist changed. */
export async function touchWatchlist(db: Db, id: string): Promise<void> {
  await db.update(watchlists).set({ modifiedOn: new Date() }).where(eq(watchlists.id, id));
}
