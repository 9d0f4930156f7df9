import { sql } from 'drizzle-orm';
import { jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Custom parsers (spec 3): per data source (the "app name"), field remappings applied to an
 * organisation's events at ingest, before classifiers. One parser per data source, any case.
 */
export const customParsers = pgTable(
  'custom_parsers',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    dataSource: text().notNull(),
    /** In order: the value at `from` (a dotted path) moves to the top-level field `to`. */
    mappings: jsonb().$type<{ from: string; to: string }[]>().notNull().default([]),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('custom_parsers_org_source').on(table.orgId, sql`lower(${table.dataSource})`)],
);
