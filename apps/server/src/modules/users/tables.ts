import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { roles } from '../roles/tables';

export const users = pgTable(
  'users',
  {
    id: uuid().primaryKey().defaultRandom(),
    homeOrgId: uuid()
      .notNull()
      .references(() => orgs.id),
    roleId: uuid()
      .notNull()
      .references(() => roles.id),
    firstName: text().notNull(),
    lastName: text().notNull(),
    active: boolean().notNull().default(true),
    /** argon2id hash; null until the user sets a password through the new-user link. */
    passwordHash: text(),
    /** TOTP secret, encrypted at rest. */
    google2faSecret: text(),
    google2faEnabled: boolean().notNull().default(false),
    /** A new secret being set up by a signed-in user; it replaces the old one once a code confirms it. */
    google2faPendingSecret: text(),
    /** Time step of the last accepted code: a code is never accepted twice. */
    google2faLastStep: bigint({ mode: 'number' }),
    /** Read-only mode is stored per user and keeps only the _VIEW permissions. */
    readOnlyMode: boolean().notNull().default(false),
    lastLoginAt: timestamp({ withTimezone: true }),
    /** Shown in the profile; unique when set. */
    username: text(),
    /** Phone numbers typed Main, Office, Mobile or Emergency. */
    contactNumbers: jsonb()
      .$type<{ type: 'Main' | 'Office' | 'Mobile' | 'Emergency'; number: string }[]>()
      .notNull()
      .default([]),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    /** Deleted users keep their row, so the activity log and authorship still name them. */
    deletedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index().on(table.homeOrgId),
    index().on(table.roleId),
    uniqueIndex('users_username_unique').on(sql`lower(${table.username})`),
  ],
);

/** A user may have several e-mail addresses; each belongs to one user, compared lower-cased. */
export const userEmails = pgTable(
  'user_emails',
  {
    id: uuid().primaryKey().defaultRandom(),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    email: text().notNull(),
    primary: boolean().notNull().default(false),
  },
  (table) => [uniqueIndex().on(table.email), index().on(table.userId)],
);

/** Organisations other than the home organisation that a user may act in. */
export const userOrgs = pgTable(
  'user_orgs',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.orgId] }), index().on(table.orgId)],
);

/** Job descriptors: named duties an organisation gives its people (e.g. "Fraud desk lead"). */
export const jobDescriptors = pgTable(
  'job_descriptors',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('job_descriptors_org_name_unique').on(table.orgId, sql`lower(${table.name})`)],
);

export const userJobDescriptors = pgTable(
  'user_job_descriptors',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobDescriptorId: uuid()
      .notNull()
      .references(() => jobDescriptors.id, { onDelete: 'cascade' }),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.jobDescriptorId] }),
    index().on(table.jobDescriptorId),
  ],
);

/** Interface preferences, kept per user and organisation. */
export const userPreferences = pgTable(
  'user_preferences',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    preferences: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.orgId] })],
);
