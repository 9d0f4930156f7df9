import { bigserial, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/** Failed calls the web app reported, for support to follow up (spec 1 section 7). */
export const clientErrors = pgTable(
  'client_errors',
  {
    id: bigserial({ mode: 'number' }).primaryKey(),
    userId: uuid(),
    method: text().notNull(),
    url: text().notNull(),
    status: integer().notNull(),
    key: text(),
    errorId: text(),
    userAgent: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.createdAt)],
);
