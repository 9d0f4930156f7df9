import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../users/tables';
import { customParsers } from './tables';

export type CustomParserRow = typeof customParsers.$inferSelect;
export type NewCustomParser = Omit<typeof customParsers.$inferInsert, 'id' | 'createdOn' | 'modifiedOn'>;

export interface CustomParserView {
  row: CustomParserRow;
  createdByName: string | null;
}

function selectViews(db: Db) {
  return db
    .select({
      row: customParsers,
      createdByName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(customParsers)
    .leftJoin(users, eq(users.id, customParsers.createdBy));
}

/** One page of the organisation's parsers, by data source. */
export async function listCustomParsers(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
): Promise<{ items: CustomParserView[]; total: number }> {
  const [items, total] = await Promise.all([
    selectViews(db)
      .where(eq(customParsers.orgId, orgId))
      .orderBy(asc(sql`lower(${customParsers.dataSource})`), asc(customParsers.id))
      .limit(page.limit)
      .offset(page.offset),
    countCustomParsers(db, orgId),
  ]);
  return { items, total };
}

export async function countCustomParsers(db: Db, orgId: string): Promise<number> {
  const [count] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(customParsers)
    .where(eq(customParsers.orgId, orgId));
  return count?.total ?? 0;
}

/** Held to the end of the transaction, so concurrent creates of one organisation count in turn. */
export async function lockOrgParsers(db: Db, orgId: string): Promise<void> {
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtextextended(${`custom-parsers:${orgId}`}, 0))`);
}

export async function findCustomParserView(
  db: Db,
  orgId: string,
  id: string,
): Promise<CustomParserView | undefined> {
  const [view] = await selectViews(db).where(and(eq(customParsers.orgId, orgId), eq(customParsers.id, id)));
  return view;
}

/** Whether another parser of the organisation serves the data source, any case. */
export async function dataSourceTaken(
  db: Db,
  orgId: string,
  dataSource: string,
  exceptId?: string,
): Promise<boolean> {
  const [row] = await db
    .select({ id: customParsers.id })
    .from(customParsers)
    .where(
      and(
        eq(customParsers.orgId, orgId),
        eq(sql`lower(${customParsers.dataSource})`, dataSource.toLowerCase()),
        exceptId ? sql`${customParsers.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** The data source and mappings of every parser of the organisation, for ingest. */
export async function customParserMappings(db: Db, orgId: string) {
  return db
    .select({ dataSource: customParsers.dataSource, mappings: customParsers.mappings })
    .from(customParsers)
    .where(eq(customParsers.orgId, orgId));
}

export async function insertCustomParser(db: Db, values: NewCustomParser): Promise<CustomParserRow> {
  const [row] = await db.insert(customParsers).values(values).returning();
  return row!;
}

export async function updateCustomParser(
  db: Db,
  orgId: string,
  id: string,
  values: Pick<NewCustomParser, 'dataSource' | 'mappings'>,
): Promise<CustomParserRow> {
  const [row] = await db
    .update(customParsers)
    .set({ ...values, modifiedOn: new Date() })
    .where(and(eq(customParsers.orgId, orgId), eq(customParsers.id, id)))
    .returning();
  return row!;
}

export async function deleteCustomParser(db: Db, orgId: string, id: string): Promise<void> {
  await db.delete(customParsers).where(and(eq(customParsers.orgId, orgId), eq(customParsers.id, id)));
}
