import type { Db } from '../src/db/client';
import { alerts } from '../src/modules/alerts/tables';

let counter = 0;

/** An alert of `orgId` as a trigger run would raise it, numbered in its title; `values` override. */
export async function insertTestAlert(
  db: Db,
  orgId: string,
  values: Partial<typeof alerts.$inferInsert> = {},
) {
  const [row] = await db
    .insert(alerts)
    .values({ orgId, kind: 'TRIGGER', title: `Alert ${++counter}`, severity: 'MEDIUM', ...values })
    .returning();
  return row!;
}
