import { sql } from 'drizzle-orm';
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { EscalationDayWindow } from '@vigil/contracts';
import { orgs } from '../orgs/tables';
import { tickets } from '../tickets/tables';
import { users } from '../users/tables';

/**
 * An organisation's business hours for escalation. The row also serialises changes of the
 * organisation's contact steps: each change locks it first.
 */
export const escalationSettings = pgTable('escalation_settings', {
  orgId: uuid()
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** WEEKDAYS (Monday to Friday 09:00 to 17:00) or CUSTOM (`days`). */
  mode: text().notNull().default('WEEKDAYS'),
  timezone: text().notNull().default('UTC'),
  days: jsonb().$type<EscalationDayWindow[]>().notNull().default([]),
  /** Null until someone saves the schedule. */
  updatedAt: timestamp({ withTimezone: true }),
});

/** Contact steps in the order they are notified; `position` counts from 1 without gaps. */
export const escalationSteps = pgTable(
  'escalation_steps',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    name: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'cascade' }),
    email: text(),
    /** ALWAYS or BUSINESS_HOURS. */
    hours: text().notNull().default('ALWAYS'),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index().on(table.orgId, table.position),
    check('escalation_steps_one_contact', sql`(${table.userId} IS NULL) <> (${table.email} IS NULL)`),
  ],
);

export const escalationOutOfOffice = pgTable(
  'escalation_out_of_office',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    startsAt: timestamp({ withTimezone: true }).notNull(),
    endsAt: timestamp({ withTimezone: true }).notNull(),
    note: text().notNull().default(''),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index().on(table.orgId, table.startsAt)],
);

/**
 * One row per (incident, step) of an escalation, written when alerts are escalated to the incident:
 * the step as it was then and when it is due. The `escalation.tick` job claims due PENDING rows with
 * FOR UPDATE SKIP LOCKED and, in the same transaction, queues the e-mail (its job id is the row id)
 * and marks the row SENT, so a restart neither skips nor repeats an e-mail.
 */
export const escalationNotifications = pgTable(
  'escalation_notifications',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    ticketId: uuid()
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    position: integer().notNull(),
    stepName: text().notNull(),
    userId: uuid().references(() => users.id, { onDelete: 'set null' }),
    email: text(),
    dueAt: timestamp({ withTimezone: true }).notNull(),
    /** PENDING, SENT, SKIPPED (outside business hours, or no address) or CANCELLED (acknowledged). */
    status: text().notNull().default('PENDING'),
    reason: text(),
    sentTo: text(),
    closedAt: timestamp({ withTimezone: true }),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('escalation_notifications_ticket_position').on(table.ticketId, table.position),
    index('escalation_notifications_due')
      .on(table.dueAt)
      .where(sql`${table.status} = 'PENDING'`),
  ],
);
