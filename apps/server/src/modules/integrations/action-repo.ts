import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { actionIntegrations, actions, pendingActions } from './tables';

export type ActionIntegrationRow = typeof actionIntegrations.$inferSelect;
export type ActionRow = typeof actions.$inferSelect;
export type PendingActionRow = typeof pendingActions.$inferSelect;

export const listActionIntegrations = (db: Db, orgId: string) =>
  db
    .select()
    .from(actionIntegrations)
    .where(eq(actionIntegrations.orgId, orgId))
    .orderBy(actionIntegrations.provider);

export async function findActionIntegration(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(actionIntegrations)
    .where(and(eq(actionIntegrations.orgId, orgId), eq(actionIntegrations.id, id)));
  return row;
}

export async function findActionIntegrationOf(db: Db, orgId: string, provider: string) {
  const [row] = await db
    .select()
    .from(actionIntegrations)
    .where(and(eq(actionIntegrations.orgId, orgId), eq(actionIntegrations.provider, provider)));
  return row;
}

export async function insertActionIntegration(
  db: Db,
  orgId: string,
  values: Omit<typeof actionIntegrations.$inferInsert, 'id' | 'orgId'>,
) {
  const [row] = await db
    .insert(actionIntegrations)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updateActionIntegration(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<typeof actionIntegrations.$inferInsert, 'id' | 'orgId'>>,
) {
  const [row] = await db
    .update(actionIntegrations)
    .set(values)
    .where(and(eq(actionIntegrations.orgId, orgId), eq(actionIntegrations.id, id)))
    .returning();
  return row;
}

export async function deleteActionIntegration(db: Db, orgId: string, id: string) {
  const [row] = await db
    .delete(actionIntegrations)
    .where(and(eq(actionIntegrations.orgId, orgId), eq(actionIntegrations.id, id)))
    .returning();
  return row;
}

export const listActions = (db: Db, orgId: string) =>
  db.select().from(actions).where(eq(actions.orgId, orgId)).orderBy(actions.name);

export async function findAction(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(actions)
    .where(and(eq(actions.orgId, orgId), eq(actions.id, id)));
  return row;
}

export async function insertAction(
  db: Db,
  orgId: string,
  values: Omit<typeof actions.$inferInsert, 'id' | 'orgId'>,
) {
  const [row] = await db
    .insert(actions)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updateAction(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<typeof actions.$inferInsert, 'id' | 'orgId'>>,
) {
  const [row] = await db
    .update(actions)
    .set(values)
    .where(and(eq(actions.orgId, orgId), eq(actions.id, id)))
    .returning();
  return row;
}

export async function deleteAction(db: Db, orgId: string, id: string) {
  const [row] = await db
    .delete(actions)
    .where(and(eq(actions.orgId, orgId), eq(actions.id, id)))
    .returning();
  return row;
}

export async function insertPendingAction(
  db: Db,
  orgId: string,
  values: Omit<typeof pendingActions.$inferInsert, 'id' | 'orgId'>,
) {
  const [row] = await db
    .insert(pendingActions)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updatePendingAction(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<typeof pendingActions.$inferInsert, 'id' | 'orgId'>>,
) {
  const [row] = await db
    .update(pendingActions)
    .set(values)
    .where(and(eq(pendingActions.orgId, orgId), eq(pendingActions.id, id)))
    .returning();
  return row;
}

export async function findPendingAction(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select()
    .from(pendingActions)
    .where(and(eq(pendingActions.orgId, orgId), eq(pendingActions.id, id)));
  return row;
}

/** Claims the oldest queued pending action of any organisation (RUNNING), skipping ones being claimed. */
export async function claimQueuedAction(db: Db) {
  const [row] = await db
    .update(pendingActions)
    .set({ state: 'RUNNING' })
    .where(
      eq(
        pendingActions.id,
        sql`(SELECT id FROM ${pendingActions} WHERE ${pendingActions.state} = 'PENDING'
          ORDER BY ${pendingActions.createdOn} LIMIT 1 FOR UPDATE SKIP LOCKED)`,
      ),
    )
    .returning();
  return row;
}

export async function listPendingActions(
  db: Db,
  orgId: string,
  page: { limit: number; offset: number },
  alertId?: string,
) {
  const where = and(
    eq(pendingActions.orgId, orgId),
    alertId ? eq(pendingActions.alertId, alertId) : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(pendingActions)
      .where(where)
      .orderBy(desc(pendingActions.createdOn), asc(pendingActions.value), desc(pendingActions.id))
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(pendingActions).where(where),
  ]);
  return { items, total: total?.total ?? 0 };
}
