import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { savedQueries } from '../saved-queries/tables';
import { users } from '../users/tables';

/** Active windows for triggers (spec 3): weekdays and hours in a time zone, e.g. business hours. */
export const triggerSchedules = pgTable(
  'trigger_schedules',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    timezone: text().notNull().default('UTC'),
    /** Windows when triggers using the schedule run: ISO weekdays (1 = Monday) and minutes of the day. */
    windows: jsonb()
      .$type<{ days: number[]; startMinute: number; endMinute: number }[]>()
      .notNull()
      .default([]),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('trigger_schedules_org_name').on(table.orgId, sql`lower(${table.name})`)],
);

/**
 * Library trigger groups (spec 3): provider-kept sets of triggers sharing a base query, which is
 * ANDed with the query of each of their triggers. Names are unique per domain, any case.
 */
export const triggerLibraryGroups = pgTable(
  'trigger_library_groups',
  {
    id: uuid().primaryKey().defaultRandom(),
    domain: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    baseQuery: text().notNull().default(''),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('trigger_library_groups_name').on(table.domain, sql`lower(${table.name})`)],
);

/**
 * Triggers (spec 3): a saved query run on an interval that raises alerts. Library triggers have no
 * organisation and belong to a group; copies in customer organisations point at them
 * (`copied_from_id`). A change to the alert conditions archives the row and continues in a new
 * version (`previous_version_id`). `next_run_at` and `last_window_end` make runs durable: a run
 * evaluates (last_window_end, window end] and moves both in the transaction that stores its alerts.
 */
export const triggers = pgTable(
  'triggers',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    /** security or fraud. */
    domain: text().notNull().default('security'),
    name: text().notNull(),
    description: text().notNull().default(''),
    /** EVERY_EVENT, THRESHOLD, AGGREGATION, SEQUENCE, DYNAMIC_THRESHOLD or TEMPORAL_ANOMALY. */
    type: text().notNull(),
    savedQueryId: uuid().references(() => savedQueries.id, { onDelete: 'restrict' }),
    intervalSeconds: integer().notNull(),
    /** AGGREGATION: the aggregation type and field; THRESHOLD may group by a field. */
    aggregation: jsonb().$type<{ type: string; field?: string }>(),
    minMatch: integer(),
    maxMatch: integer(),
    /** SEQUENCE: ordered steps, each a saved query, all within `intervalSeconds`. */
    sequence: jsonb().$type<{ savedQueryId: string }[]>(),
    /** LOW, MEDIUM, HIGH or CRITICAL. */
    severity: text().notNull().default('MEDIUM'),
    notifyOnly: boolean().notNull().default(false),
    ticketOwnerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    watcherIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    importantFields: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    customHeaders: jsonb().$type<Record<string, string>>().notNull().default({}),
    emailRecipients: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    emailDigest: boolean().notNull().default(false),
    labels: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    scheduleId: uuid().references(() => triggerSchedules.id, { onDelete: 'set null' }),
    /** Actions of the organisation's action integrations, queued for each alert a run raises. */
    actionIds: uuid()
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    /** ACTIVE, PAUSED, DISABLED, DELETED or ARCHIVED. */
    state: text().notNull().default('ACTIVE'),
    /** DISABLED: TEMPORARY (until `disabled_until`), INDEFINITE or CARDINALITY (automatic). */
    disabledReason: text(),
    disabledUntil: timestamp({ withTimezone: true }),
    libraryGroupId: uuid().references(() => triggerLibraryGroups.id, { onDelete: 'set null' }),
    copiedFromId: uuid(),
    /** A copy: the library trigger's version it was copied or last resynced at. */
    libraryVersion: integer(),
    /** A copy: its group's base query when copied or resynced, ANDed with the saved query. */
    baseQuery: text(),
    /**
     * Resync analysis. On a library trigger: when it ran and for which version; on a copy: the
     * fields that then differed from the library trigger.
     */
    resyncInfo: jsonb().$type<{ analysedAt: string; libraryVersion: number; differences?: string[] }>(),
    /** CLIENT or OPS: an ops-managed trigger cannot be edited by the client. */
    managedBy: text().notNull().default('CLIENT'),
    inTest: boolean().notNull().default(false),
    version: integer().notNull().default(1),
    previousVersionId: uuid(),
    nextRunAt: timestamp({ withTimezone: true }),
    lastWindowEnd: timestamp({ withTimezone: true }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    deletedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('triggers_org_state').on(table.orgId, table.state),
    index('triggers_due')
      .on(table.nextRunAt)
      .where(sql`${table.state} = 'ACTIVE'`),
    // One live copy of a library trigger per organisation (archived versions are history).
    uniqueIndex('triggers_one_copy_per_org')
      .on(table.orgId, table.copiedFromId)
      .where(sql`${table.copiedFromId} IS NOT NULL AND ${table.state} <> 'ARCHIVED'`),
  ],
);

/** One evaluation of a trigger's window; unique per window so that no window is run twice. */
export const triggerRuns = pgTable(
  'trigger_runs',
  {
    id: uuid().primaryKey().defaultRandom(),
    triggerId: uuid()
      .notNull()
      .references(() => triggers.id, { onDelete: 'cascade' }),
    windowStart: timestamp({ withTimezone: true }).notNull(),
    windowEnd: timestamp({ withTimezone: true }).notNull(),
    ranAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    durationMs: integer().notNull().default(0),
    matched: integer().notNull().default(0),
    alertsRaised: integer().notNull().default(0),
    error: text(),
  },
  (table) => [uniqueIndex('trigger_runs_window').on(table.triggerId, table.windowEnd)],
);
