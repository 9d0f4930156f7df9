import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Charts (spec 3): one data source (saved or library queries, or an alert family) drawn as a bar,
 * line, area, pie, table, badge or events table. Library charts have no organisation; copies in
 * customer organisations point at them (`copied_from_id`). Deletes are restorable (`state`).
 */
export const charts = pgTable(
  'charts',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    name: text().notNull(),
    description: text().notNull().default(''),
    type: text().notNull(),
    family: text().notNull(),
    savedQueryIds: jsonb().$type<string[]>().notNull().default([]),
    /** Alert families: security or fraud. */
    domain: text().notNull().default('security'),
    /** Events table: events shown; alert list: rows. */
    rowLimit: integer(),
    /** ACTIVE or DELETED. */
    state: text().notNull().default('ACTIVE'),
    deletedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('charts_org_state').on(table.orgId, table.state, sql`lower(${table.name})`),
    index('charts_copied_from').on(table.orgId, table.copiedFromId),
  ],
);

/**
 * Dashboards (spec 3): tiles of charts in reading order with their width and height (rows; tiles
 * saved before heights existed have none and are one row high), charts per row, one time range and
 * an auto-refresh. Library dashboards (type LIBRARY) have no organisation and are copied
 * to customer organisations once (`copied_from_id`).
 */
export const dashboards = pgTable(
  'dashboards',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    name: text().notNull(),
    description: text().notNull().default(''),
    chartsPerRow: integer().notNull().default(3),
    tiles: jsonb().$type<{ chartId: string; width: number; height?: number }[]>().notNull().default([]),
    intervalType: text().notNull().default('7D'),
    refreshSeconds: integer().notNull().default(0),
    state: text().notNull().default('ACTIVE'),
    deletedAt: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('dashboards_org_state').on(table.orgId, table.state, sql`lower(${table.name})`),
    index('dashboards_copied_from').on(table.orgId, table.copiedFromId),
  ],
);

/** Each user's chosen default dashboard per organisation (where they land after signing in). */
export const dashboardDefaults = pgTable(
  'dashboard_defaults',
  {
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    dashboardId: uuid()
      .notNull()
      .references(() => dashboards.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.orgId] })],
);

/**
 * Workspaces (spec 3): dashboards grouped under a name, with an owner and who else sees them.
 * `sharing` is NOBODY, ALL or USERS (then `workspace_shares`); `editable_by_others` lets those it is
 * shared with change it. Library workspaces have no organisation or owner; copies in customer
 * organisations point at them (`copied_from_id`).
 */
export const workspaces = pgTable(
  'workspaces',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid(),
    name: text().notNull(),
    description: text().notNull().default(''),
    dashboardIds: jsonb().$type<string[]>().notNull().default([]),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    sharing: text().notNull().default('NOBODY'),
    editableByOthers: boolean().notNull().default(false),
    premiumOnly: boolean().notNull().default(false),
    copyToCustomers: boolean().notNull().default(false),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('workspaces_org_name').on(table.orgId, sql`lower(${table.name})`),
    index('workspaces_copied_from').on(table.orgId, table.copiedFromId),
  ],
);

export const workspaceShares = pgTable(
  'workspace_shares',
  {
    workspaceId: uuid()
      .notNull()
      .references(() => workspaces.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
  },
  (table) => [primaryKey({ columns: [table.workspaceId, table.userId] }), index().on(table.userId)],
);
