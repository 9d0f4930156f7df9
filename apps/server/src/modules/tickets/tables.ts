import { sql } from 'drizzle-orm';
import {
  bigint,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';
import { bytea } from '../../db/columns';

/**
 * The last slug number handed out per organisation and kind. A new ticket takes the next one by
 * updating this row in its own transaction, so two tickets never share a number.
 */
export const ticketCounters = pgTable(
  'ticket_counters',
  {
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    lastNumber: integer().notNull().default(0),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.kind] })],
);

/**
 * Tickets (spec 3): incidents and tasks. `slug` is the human-readable name (INC-1042, TASK-17), unique
 * in the organisation. `version` grows with every change: an update names the version it read and
 * is refused when the ticket changed meanwhile.
 */
export const tickets = pgTable(
  'tickets',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** incident or task. */
    kind: text().notNull(),
    number: integer().notNull(),
    slug: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    state: text().notNull(),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    resolution: text(),
    summaryNote: text().notNull().default(''),
    dueDate: timestamp({ withTimezone: true }),
    slaDate: timestamp({ withTimezone: true }),
    externalId: text(),
    parentId: uuid().references((): AnyPgColumn => tickets.id, { onDelete: 'set null' }),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('tickets_org_slug').on(table.orgId, table.slug),
    index('tickets_org_kind_state').on(table.orgId, table.kind, table.state, table.number.desc()),
    index('tickets_parent')
      .on(table.parentId)
      .where(sql`${table.parentId} IS NOT NULL`),
  ],
);

export const ticketWatchers = pgTable(
  'ticket_watchers',
  {
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.ticketId, table.userId] }), index().on(table.userId)],
);

/** Links between two tickets, kept once per pair with the smaller id first; never to itself. */
export const ticketLinks = pgTable(
  'ticket_links',
  {
    firstId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    secondId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    primaryKey({ columns: [table.firstId, table.secondId] }),
    index().on(table.secondId),
    check('ticket_links_ordered', sql`${table.firstId} < ${table.secondId}`),
  ],
);

export const ticketComments = pgTable(
  'ticket_comments',
  {
    id: uuid().primaryKey().defaultRandom(),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    authorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    body: text().notNull(),
    /** The clock, not the transaction's start: entries of one transaction keep their order. */
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.ticketId, table.createdOn)],
);

/** Every change of a ticket, with who and when and what changed. */
export const ticketHistory = pgTable(
  'ticket_history',
  {
    id: uuid().primaryKey().defaultRandom(),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    actorId: uuid().references(() => users.id, { onDelete: 'set null' }),
    /** created, updated, state-changed, claimed, commented, linked, unlinked, alerts-escalated. */
    action: text().notNull(),
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    at: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.ticketId, table.at)],
);

/**
 * Files attached to tickets, their bytes in the database (never on a path anyone names). `name` is
 * the name the uploader gave, for display and the download's file name only; `contentType` is the one
 * checked against the bytes at upload.
 */
export const ticketFiles = pgTable(
  'ticket_files',
  {
    id: uuid().primaryKey().defaultRandom(),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    contentType: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    content: bytea().notNull(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.ticketId, table.createdOn)],
);

/**
 * Ticket templates of an organisation: a ticket's title, description and watchers, and tasks that
 * become its subtasks. Names are unique in the organisation, any case.
 */
export const ticketTemplates = pgTable(
  'ticket_templates',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    tasks: jsonb().$type<{ title: string; description: string }[]>().notNull().default([]),
    watcherIds: jsonb().$type<string[]>().notNull().default([]),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('ticket_templates_org_name').on(table.orgId, sql`lower(${table.name})`)],
);

/**
 * Drafts of tickets (the universal inbox's drafts): not yet tickets, so no slug or state. Submitting
 * one creates the ticket by the rules of creation and removes the draft in the same transaction.
 */
export const ticketDrafts = pgTable(
  'ticket_drafts',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    title: text().notNull(),
    description: text().notNull().default(''),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    watcherIds: jsonb().$type<string[]>().notNull().default([]),
    dueDate: timestamp({ withTimezone: true }),
    slaDate: timestamp({ withTimezone: true }),
    externalId: text(),
    version: integer().notNull().default(1),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId, table.modifiedOn)],
);

/**
 * Event searches attached to a ticket: the query and range, and the first matching events copied at
 * attach time, so they stay with the ticket after the events themselves age out.
 */
export const ticketSearches = pgTable(
  'ticket_searches',
  {
    id: uuid().primaryKey().defaultRandom(),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    query: text().notNull(),
    begin: timestamp({ withTimezone: true }).notNull(),
    end: timestamp({ withTimezone: true }).notNull(),
    /** Events matching when attached; `events` keeps the first of them. */
    total: integer().notNull(),
    events: jsonb().$type<Record<string, unknown>[]>().notNull().default([]),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
  },
  (table) => [index().on(table.ticketId, table.createdOn)],
);
