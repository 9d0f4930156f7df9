import { boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ThreatLevel } from '@vigil/contracts';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/** The info panel's title and threat level of an organisation; absent until first edited. */
export const orgInfo = pgTable('org_info', {
  orgId: uuid()
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  title: text().notNull(),
  threatLevel: text().$type<ThreatLevel>().notNull(),
  updatedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});

/** Notes the provider's staff keep about an organisation in its info panel. */
export const infoNotes = pgTable(
  'info_notes',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    noteText: text().notNull(),
    pinned: boolean().notNull().default(false),
    createdBy: uuid()
      .notNull()
      .references(() => users.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId)],
);
