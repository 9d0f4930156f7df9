import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Data restrictions: only events matching the include query, and none matching the exclude query,
 * are visible to the restricted users or organisations. Enforced in every event search.
 */
export const dataRestrictions = pgTable(
  'data_restrictions',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    includeQuery: text(),
    excludeQuery: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.orgId)],
);

/** Who a restriction applies to: a user, or a whole organisation. */
export const dataRestrictionTargets = pgTable(
  'data_restriction_targets',
  {
    id: uuid().primaryKey().defaultRandom(),
    restrictionId: uuid()
      .notNull()
      .references(() => dataRestrictions.id, { onDelete: 'cascade' }),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    targetOrgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
  },
  (table) => [
    index().on(table.restrictionId),
    index().on(table.userId),
    index().on(table.targetOrgId),
    check(
      'data_restriction_targets_one_target',
      sql`(${table.userId} IS NULL) <> (${table.targetOrgId} IS NULL)`,
    ),
  ],
);
