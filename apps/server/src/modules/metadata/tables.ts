import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/** Labels an organisation puts on its alerts, tickets, assets and more. */
export const tags = pgTable(
  'tags',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    /** A Mantine colour name. */
    color: text().notNull().default('gray'),
    description: text().notNull().default(''),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('tags_org_name_unique').on(table.orgId, sql`lower(${table.name})`)],
);

/**
 * Notes of the activity log (spec 3: a top-level note or a reply, with a log type) kept on objects of
 * the organisation, such as incidents and tasks. A reply names its top-level note; replies to replies
 * are refused, so a timeline is two levels deep.
 */
export const activityNotes = pgTable(
  'activity_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** incident, task, ... */
    objectType: text().notNull(),
    objectId: uuid().notNull(),
    parentId: uuid().references((): AnyPgColumn => activityNotes.id, { onDelete: 'cascade' }),
    logType: text().notNull(),
    body: text().notNull(),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** The clock, not the transaction's start: notes of one transaction keep their order. */
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [
    index().on(table.orgId, table.objectType, table.objectId, table.createdOn),
    index().on(table.parentId),
  ],
);
