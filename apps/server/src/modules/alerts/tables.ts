import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { triggers } from '../triggers/tables';
import { users } from '../users/tables';

/**
 * Alerts (spec 3): raised by a trigger run or by threat match at ingest. States NEW, ACKED,
 * ESCALATED, DISMISSED and FRAUD_FLAGGED; an escalated alert keeps its state. `event_ids` keeps the
 * first matched events (show events), `group_key` what similar alerts share.
 */
export const alerts = pgTable(
  'alerts',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** security or fraud. */
    domain: text().notNull().default('security'),
    /** TRIGGER or THREAT_MATCH. */
    kind: text().notNull(),
    triggerId: uuid().references(() => triggers.id, { onDelete: 'set null' }),
    title: text().notNull(),
    state: text().notNull().default('NEW'),
    severity: text().notNull(),
    firedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    windowStart: timestamp({ withTimezone: true }),
    windowEnd: timestamp({ withTimezone: true }),
    matchCount: integer().notNull().default(0),
    /** What similar alerts share (the trigger and, for grouped triggers, the group value). */
    groupKey: text(),
    /** The first matched events, by id and time (events are keyed by org, ts and id). */
    events: jsonb().$type<{ id: string; ts: string }[]>().notNull().default([]),
    /** Threat match: the indicator and what it matched. */
    details: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    fraudType: text(),
    /** FRAUD_FLAGGED: SUSPECTED or CONFIRMED. */
    fraudCertainty: text(),
    dismissalReason: text(),
    dismissalNotes: text(),
    ticketId: uuid(),
    stateChangedAt: timestamp({ withTimezone: true }),
    stateChangedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    escalatedAt: timestamp({ withTimezone: true }),
    dismissedAt: timestamp({ withTimezone: true }),
    flaggedAt: timestamp({ withTimezone: true }),
  },
  (table) => [
    index('alerts_org_state_fired').on(table.orgId, table.domain, table.state, table.firedAt.desc()),
    index('alerts_org_trigger').on(table.orgId, table.triggerId, table.firedAt.desc()),
    index('alerts_ticket')
      .on(table.orgId, table.ticketId)
      .where(sql`${table.ticketId} IS NOT NULL`),
    index('alerts_group')
      .on(table.orgId, table.groupKey)
      .where(sql`${table.groupKey} IS NOT NULL`),
  ],
);

/** Every state change of an alert, with who and when (spec: recorded with who and when). */
export const alertStateChanges = pgTable(
  'alert_state_changes',
  {
    id: uuid().primaryKey().defaultRandom(),
    alertId: uuid()
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    fromState: text().notNull(),
    toState: text().notNull(),
    changedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    changedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    reason: text(),
    notes: text(),
  },
  (table) => [index('alert_state_changes_alert').on(table.alertId, table.changedAt)],
);

/** Which users have viewed an alert (on screen for 10 seconds). */
export const alertViews = pgTable(
  'alert_views',
  {
    alertId: uuid()
      .notNull()
      .references(() => alerts.id, { onDelete: 'cascade' }),
    userId: uuid()
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    viewedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.alertId, table.userId] })],
);
