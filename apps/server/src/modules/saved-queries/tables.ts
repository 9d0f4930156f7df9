import { sql } from 'drizzle-orm';
import { boolean, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Saved queries (spec 3): a named query with an optional aggregation and primary field. Library
 * queries (`library`, `org_id` null) are promoted by provider administrators and visible to every
 * organisation. Names are unique case-insensitively within an organisation and among library queries.
 */
export const savedQueries = pgTable(
  'saved_queries',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    query: text().notNull(),
    aggregation: jsonb().$type<{ type: string; field?: string; size?: number; interval?: string }>(),
    primaryField: text(),
    library: boolean().notNull().default(false),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('saved_queries_org_name')
      .on(table.orgId, sql`lower(${table.name})`)
      .where(sql`${table.orgId} IS NOT NULL`),
    uniqueIndex('saved_queries_library_name')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.library}`),
  ],
);
