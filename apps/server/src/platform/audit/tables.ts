import { bigserial, index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * The activity (audit) log. Rows are never updated. Organisation and actor are plain ids, not
 * foreign keys, so the trail outlives what it describes.
 */
export const activityLog = pgTable(
  'activity_log',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    orgId: uuid(),
    actorUserId: uuid(),
    action: text().notNull(),
    targetType: text(),
    targetId: text(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    ip: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId, table.createdAt), index().on(table.actorUserId)],
);
