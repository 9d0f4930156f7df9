import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Input tokens (spec 2 section 3): credentials that data collectors present. The secret is shown
 * once at creation; only its SHA-256 hash is kept. `key` is the public part that names the token in
 * lists and in the `<key>.<secret>` form collectors send.
 */
export const inputTokens = pgTable(
  'input_tokens',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** INSTALLER (Windows agent installer), API or EXTERNAL (external data vendor). */
    kind: text().notNull(),
    key: text().notNull(),
    secretHash: text().notNull(),
    description: text().notNull().default(''),
    /** External data-vendor tokens: the vendor's queue and cloud access key; the key secret is encrypted. */
    queueName: text(),
    cloudAccessKeyId: text(),
    cloudSecretEncrypted: text(),
    expiresAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
    revokedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    lastUsedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('input_tokens_key').on(table.key),
    index('input_tokens_org').on(table.orgId, table.kind),
  ],
);
