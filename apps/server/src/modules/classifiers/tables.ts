import { sql } from 'drizzle-orm';
import { boolean, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Classifiers (spec 3): a query whose matching events get metadata attributes and flags at ingest.
 * Library classifiers (`org_id` null) are kept by provider engineers and applied to every
 * organisation's events before the organisation's own; only the provider may pause them. Within each
 * group they apply in `position` order.
 */
export const classifiers = pgTable(
  'classifiers',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    query: text().notNull(),
    /** Attributes added to a matching event's fields; keys of letters, digits and underscores. */
    metadata: jsonb().$type<Record<string, string>>().notNull().default({}),
    dropEvent: boolean().notNull().default(false),
    skipThreatMatch: boolean().notNull().default(false),
    skipAnomalyDetection: boolean().notNull().default(false),
    skipAssetDetection: boolean().notNull().default(false),
    acceleratedArchive: boolean().notNull().default(false),
    paused: boolean().notNull().default(false),
    position: integer().notNull().default(0),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('classifiers_org_name')
      .on(table.orgId, sql`lower(${table.name})`)
      .where(sql`${table.orgId} IS NOT NULL`),
    uniqueIndex('classifiers_library_name')
      .on(sql`lower(${table.name})`)
      .where(sql`${table.orgId} IS NULL`),
  ],
);
