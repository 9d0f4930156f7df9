import { bigint, boolean, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from '../users/tables';

/** Server-side sessions. The cookie carries a random token; only its SHA-256 hash is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid().primaryKey().defaultRandom(),
    tokenHash: text().notNull(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** True while a second factor is still owed; such a session opens nothing but the 2FA steps. */
    secondFactorPending: boolean().notNull().default(false),
    /** The WebAuthn challenge this session was last given, until it is answered. */
    webauthnChallenge: text(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    ip: text(),
    userAgent: text(),
  },
  (table) => [uniqueIndex().on(table.tokenHash), index().on(table.userId)],
);

/** Security keys (WebAuthn credentials) of a user. */
export const webauthnCredentials = pgTable(
  'webauthn_credentials',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** base64url credential id as the authenticator gives it. */
    credentialId: text().notNull(),
    /** base64url COSE public key. */
    publicKey: text().notNull(),
    counter: bigint({ mode: 'number' }).notNull().default(0),
    transports: text().array(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp({ withTimezone: true }),
  },
  (table) => [uniqueIndex().on(table.credentialId), index().on(table.userId)],
);

/** Single-use password reset and new-user links; only the hash of the link's secret is stored. */
export const passwordLinks = pgTable(
  'password_links',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text().$type<'reset' | 'new-user'>().notNull(),
    secretHash: text().notNull(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.userId)],
);

/** Failed sign-ins, counted per account and per address for the rate limit. */
export const loginFailures = pgTable(
  'login_failures',
  {
    id: uuid().primaryKey().defaultRandom(),
    email: text().notNull(),
    ip: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.email, table.createdAt), index().on(table.ip, table.createdAt)],
);
