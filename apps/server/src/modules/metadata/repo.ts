import { and, asc, desc, eq, gte, ilike, like, lte, or, sql, type SQL } from 'drizzle-orm';
import type { TagColor } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { activityLog } from '../../platform/audit/tables';
import { users } from '../users/tables';
import { tags } from './tables';

export type TagRow = typeof tags.$inferSelect;

export interface TagValues {
  name: string;
  color: TagColor;
  description: string;
}

/** One page of the organisation's tags by name, `search` matching name or description. */
export async function listTags(
  db: Db,
  orgId: string,
  options: { search?: string; desc: boolean; limit: number; offset: number },
): Promise<{ items: TagRow[]; total: number }> {
  const pattern = options.search ? `%${escapeLike(options.search)}%` : undefined;
  const where = and(
    eq(tags.orgId, orgId),
    pattern ? or(ilike(tags.name, pattern), ilike(tags.description, pattern)) : undefined,
  );
  const name = sql`lower(${tags.name})`;
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(tags)
      .where(where)
      .orderBy(options.desc ? sql`${name} desc` : name, asc(tags.id))
      .limit(options.limit)
      .offset(options.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(tags)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findTag(db: Db, orgId: string, id: string): Promise<TagRow | null> {
  const [tag] = await db
    .select()
    .from(tags)
    .where(and(eq(tags.orgId, orgId), eq(tags.id, id)))
    .limit(1);
  return tag ?? null;
}

/** Throws the database's unique violation when the name is taken, ignoring case. */
export async function insertTag(db: Db, orgId: string, values: TagValues): Promise<TagRow> {
  const [tag] = await db
    .insert(tags)
    .values({ orgId, ...values })
    .returning();
  return tag!;
}

export async function updateTag(
  db: Db,
  orgId: string,
  id: string,
  values: TagValues,
): Promise<TagRow | null> {
  const [tag] = await db
    .update(tags)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tags.orgId, orgId), eq(tags.id, id)))
    .returning();
  return tag ?? null;
}

export async function deleteTag(db: Db, orgId: string, id: string): Promise<TagRow | null> {
  const [tag] = await db
    .delete(tags)
    .where(and(eq(tags.orgId, orgId), eq(tags.id, id)))
    .returning();
  return tag ?? null;
}

export interface ActivityFilter {
  actorUserId?: string;
  /** Actions starting with this text. */
  action?: string;
  from?: Date;
  to?: Date;
  /** Text in the action, target type or target id. */
  query?: string;
}

/**
 * One page of an organisation's activity log, newest first, with the actor's name. The log keeps plain
 * ids, so a removed actor leaves the name empty.
 */
export async function listActivity(
  db: Db,
  orgId: string,
  filter: ActivityFilter,
  page: { limit: number; offset: number },
) {
  const conditions: (SQL | undefined)[] = [
    eq(activityLog.orgId, orgId),
    filter.actorUserId ? eq(activityLog.actorUserId, filter.actorUserId) : undefined,
    filter.action ? like(activityLog.action, `${escapeLike(filter.action)}%`) : undefined,
    filter.from ? gte(activityLog.createdAt, filter.from) : undefined,
    filter.to ? lte(activityLog.createdAt, filter.to) : undefined,
  ];
  if (filter.query) {
    const pattern = `%${escapeLike(filter.query)}%`;
    conditions.push(
      or(
        ilike(activityLog.action, pattern),
        ilike(activityLog.targetType, pattern),
        ilike(activityLog.targetId, pattern),
      ),
    );
  }
  const where = and(...conditions);
  const [items, [count]] = await Promise.all([
    db
      .select({
        entry: activityLog,
        actorName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
      })
      .from(activityLog)
      .leftJoin(users, eq(users.id, activityLog.actorUserId))
      .where(where)
      .orderBy(desc(activityLog.createdAt), desc(activityLog.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(activityLog)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}
