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
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { tickets } from '../tickets/tables';
import { users } from '../users/tables';

/**
 * Task schedules (spec 3): each creates a task every interval. Library schedules have no organisation
 * (the engine never claims them); a copy in an organisation points at its original through
 * `copied_from_id`, and a partial unique index keeps one copy per organisation. `next_run_at` is the
 * schedule's own next time; `run_at` is when the task is created (the same, or the Monday after when it
 * falls on a weekend and weekends are skipped), and is what the engine claims by.
 */
export const taskSchedules = pgTable(
  'task_schedules',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    intervalCount: integer().notNull(),
    /** minute, hour, day, week, month_begin, month_15. */
    intervalUnit: text().notNull(),
    nextRunAt: timestamp({ withTimezone: true }).notNull(),
    runAt: timestamp({ withTimezone: true }).notNull(),
    lastRanAt: timestamp({ withTimezone: true }),
    skipWeekends: boolean().notNull().default(false),
    dueCount: integer(),
    /** minute, hour, day, week, month, year. */
    dueUnit: text(),
    /** The saved queries listed on each task, with their names when chosen. */
    queries: jsonb().$type<{ id: string; name: string }[]>().notNull().default([]),
    parentId: uuid().references((): AnyPgColumn => taskSchedules.id, { onDelete: 'set null' }),
    taskTitle: text().notNull(),
    taskDescription: text().notNull().default(''),
    ownerId: uuid().references(() => users.id, { onDelete: 'set null' }),
    watcherIds: jsonb().$type<string[]>().notNull().default([]),
    /** ACTIVE, PAUSED or DELETED (restorable). */
    state: text().notNull().default('ACTIVE'),
    copiedFromId: uuid().references((): AnyPgColumn => taskSchedules.id, { onDelete: 'set null' }),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('task_schedules_due')
      .on(table.runAt)
      .where(sql`${table.state} = 'ACTIVE' AND ${table.orgId} IS NOT NULL`),
    index('task_schedules_org_name').on(table.orgId, sql`lower(${table.name})`),
    index('task_schedules_parent')
      .on(table.parentId)
      .where(sql`${table.parentId} IS NOT NULL`),
    uniqueIndex('task_schedules_one_copy')
      .on(table.orgId, table.copiedFromId)
      .where(sql`${table.copiedFromId} IS NOT NULL`),
  ],
);

/**
 * One row per run of a schedule, unique per scheduled time: written in the same transaction as the
 * task it created and the moved `next_run_at`, so a run is never stored (or its task created) twice.
 */
export const taskScheduleRuns = pgTable(
  'task_schedule_runs',
  {
    id: uuid().primaryKey().defaultRandom(),
    scheduleId: uuid()
      .notNull()
      .references(() => taskSchedules.id, { onDelete: 'cascade' }),
    scheduledFor: timestamp({ withTimezone: true }).notNull(),
    ranAt: timestamp({ withTimezone: true }).notNull(),
    /** Runs missed while the server was down, made up by this one. */
    missed: integer().notNull().default(0),
    ticketId: uuid().references(() => tickets.id, { onDelete: 'set null' }),
  },
  (table) => [uniqueIndex('task_schedule_runs_once').on(table.scheduleId, table.scheduledFor)],
);
