import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';

export const roles = pgTable(
  'roles',
  {
    id: uuid().primaryKey().defaultRandom(),
    /** Null for shared roles, which every organisation sees and none may edit. */
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    permissions: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Shared roles are not editable. */
    shared: boolean().notNull().default(false),
    /** Provider roles are held by the provider's staff only. */
    provider: boolean().notNull().default(false),
    /** People holding a hidden role are left out of person lists. */
    hidden: boolean().notNull().default(false),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.orgId)],
);
