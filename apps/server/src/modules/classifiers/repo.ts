import { and, asc, eq, ilike, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { orgs } from '../orgs/tables';
import { classifiers } from './tables';

export type ClassifierRow = typeof classifiers.$inferSelect;
export type NewClassifier = Omit<
  typeof classifiers.$inferInsert,
  'id' | 'orgId' | 'position' | 'createdOn' | 'modifiedOn'
>;

/** Whose classifiers: an organisation's (its id) or the library's (null). */
export type Owner = string | null;

const ownedBy = (owner: Owner): SQL =>
  owner === null ? isNull(classifiers.orgId) : eq(classifiers.orgId, owner);

const escapeLike = (text: string) => text.replace(/[\\%_]/g, (char) => `\\${char}`);

const inOrder = [asc(classifiers.position), asc(classifiers.createdOn), asc(classifiers.id)];

/** One page of the owner's classifiers in the order they apply. */
export async function listClassifiers(
  db: Db,
  owner: Owner,
  search: string | undefined,
  page: { limit: number; offset: number },
): Promise<{ items: ClassifierRow[]; total: number }> {
  const where = and(ownedBy(owner), search ? ilike(classifiers.name, `%${escapeLike(search)}%`) : undefined);
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(classifiers)
      .where(where)
      .orderBy(...inOrder)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(classifiers)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findClassifier(db: Db, owner: Owner, id: string): Promise<ClassifierRow | undefined> {
  const [row] = await db
    .select()
    .from(classifiers)
    .where(and(ownedBy(owner), eq(classifiers.id, id)));
  return row;
}

/** The ids of the owner's classifiers in the order they apply. */
export async function classifierIds(db: Db, owner: Owner): Promise<string[]> {
  const rows = await db
    .select({ id: classifiers.id })
    .from(classifiers)
    .where(ownedBy(owner))
    .orderBy(...inOrder);
  return rows.map((row) => row.id);
}

/** Whether another classifier of the owner holds the name, any case. */
export async function nameTaken(db: Db, owner: Owner, name: string, exceptId?: string): Promise<boolean> {
  const [row] = await db
    .select({ id: classifiers.id })
    .from(classifiers)
    .where(
      and(
        ownedBy(owner),
        eq(sql`lower(${classifiers.name})`, name.toLowerCase()),
        exceptId ? sql`${classifiers.id} <> ${exceptId}` : undefined,
      ),
    )
    .limit(1);
  return Boolean(row);
}

/** Added last in the order. */
export async function insertClassifier(db: Db, owner: Owner, values: NewClassifier): Promise<ClassifierRow> {
  const [row] = await db
    .insert(classifiers)
    .values({
      ...values,
      orgId: owner,
      position: sql`(SELECT coalesce(max(${classifiers.position}), 0) + 1 FROM ${classifiers} WHERE ${ownedBy(owner)})`,
    })
    .returning();
  return row!;
}

export async function updateClassifier(
  db: Db,
  owner: Owner,
  id: string,
  values: Partial<NewClassifier>,
): Promise<ClassifierRow> {
  const [row] = await db
    .update(classifiers)
    .set({ ...values, modifiedOn: new Date() })
    .where(and(ownedBy(owner), eq(classifiers.id, id)))
    .returning();
  return row!;
}

export async function deleteClassifier(db: Db, owner: Owner, id: string): Promise<void> {
  await db.delete(classifiers).where(and(ownedBy(owner), eq(classifiers.id, id)));
}

/** Positions 1… in the order of `ids`, which must be every classifier of the owner. */
export async function reorderClassifiers(db: Db, owner: Owner, ids: readonly string[]): Promise<void> {
  if (ids.length === 0) return;
  const order = sql.join(
    ids.map((id, index) => sql`(${id}::uuid, ${index + 1}::int)`),
    sql.raw(', '),
  );
  await db.execute(sql`
    UPDATE ${classifiers} SET position = o.position
    FROM (VALUES ${order}) AS o(id, position)
    WHERE ${classifiers.id} = o.id AND ${ownedBy(owner)}`);
}

/**
 * What applies to an organisation's events, in order: live library classifiers, then its own, each
 * by position; with the organisation's SKUs (accelerated archive needs its data tier).
 */
export async function activeClassifiersFor(
  db: Db,
  orgId: string,
): Promise<{ classifiers: ClassifierRow[]; productSkus: string[] }> {
  const [rows, [org]] = await Promise.all([
    db
      .select()
      .from(classifiers)
      .where(and(or(isNull(classifiers.orgId), eq(classifiers.orgId, orgId)), eq(classifiers.paused, false)))
      .orderBy(sql`${classifiers.orgId} IS NOT NULL`, ...inOrder),
    db.select({ productSkus: orgs.productSkus }).from(orgs).where(eq(orgs.id, orgId)),
  ]);
  return { classifiers: rows, productSkus: org?.productSkus ?? [] };
}
