import { sql } from 'drizzle-orm';
import { pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Watchlists (spec 2): an event field and a list of values (at most 30,000) that triggers and
 * matching look for, in the security or the fraud domain.
 */
export const watchlists = pgTable(
  'watchlists',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** security or fraud. */
    domain: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    /** The event field whose values are watched, as the query language names it. */
    field: text().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('watchlists_org_name').on(table.orgId, table.domain, sql`lower(${table.name})`)],
);

export const watchlistItems = pgTable(
  'watchlist_items',
  {
    watchlistId: uuid()
      .notNull()
      .references(() => watchlists.id, { onDelete: 'cascade' }),
    value: text().notNull(),
  },
  (table) => [primaryKey({ columns: [table.watchlistId, table.value] })],
);
