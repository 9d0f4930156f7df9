import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { Banner } from '@vigil/contracts';
import { users } from '../users/tables';

/** Announcements the provider shows above every page, to every user, until they end. */
export const banners = pgTable(
  'banners',
  {
    id: uuid().primaryKey().defaultRandom(),
    type: text().$type<Banner['type']>().notNull(),
    title: text().notNull(),
    message: text().notNull(),
    hyperlink: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    endsAt: timestamp({ withTimezone: true }),
  },
  (table) => [index().on(table.endsAt)],
);

export const bannerDismissals = pgTable(
  'banner_dismissals',
  {
    bannerId: uuid()
      .notNull()
      .references(() => banners.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    dismissedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.bannerId, table.userId] })],
);
