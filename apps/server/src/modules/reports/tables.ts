import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uuid,
  type AnyPgColumn,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { bytea } from '../../db/columns';
import { users } from '../users/tables';

/**
 * Report templates (spec 3): a name and the charts a report shows, in order (at least one). Library
 * templates (`library`, no organisation) are the provider's, of library charts; an organisation's
 * copy of one names it in `copiedFromId`.
 */
export const reportTemplates = pgTable(
  'report_templates',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid().references((): AnyPgColumn => reportTemplates.id, { onDelete: 'set null' }),
    name: text().notNull(),
    description: text().notNull().default(''),
    chartIds: jsonb().$type<string[]>().notNull().default([]),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [index('report_templates_org_name').on(table.orgId, sql`lower(${table.name})`)],
);

/**
 * Report schedules (spec 3): a template built every day, week or month over a range and e-mailed to
 * its recipients. `state` NOT_COPIED, ACTIVE, PAUSED or DELETED; `lastRunState` PENDING, COMPLETED
 * or FAILED. Library schedules (`library`, no organisation, no recipients) never run: copied to the
 * customers they are NOT_COPIED rows (`copiedFromId`, the library template) until the organisation
 * activates them with its own recipients and its own copy of the template.
 */
export const reportSchedules = pgTable(
  'report_schedules',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    library: boolean().notNull().default(false),
    copiedFromId: uuid().references((): AnyPgColumn => reportSchedules.id, { onDelete: 'set null' }),
    templateId: uuid()
      .notNull()
      .references(() => reportTemplates.id, { onDelete: 'cascade' }),
    range: text().notNull(),
    frequency: text().notNull(),
    recipients: jsonb().$type<string[]>().notNull().default([]),
    state: text().notNull().default('ACTIVE'),
    nextRunAt: timestamp({ withTimezone: true }),
    lastRunAt: timestamp({ withTimezone: true }),
    lastRunState: text(),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('report_schedules_org').on(table.orgId, table.createdOn),
    index('report_schedules_due').on(table.state, table.nextRunAt),
    index('report_schedules_copied_from').on(table.copiedFromId),
  ],
);

/**
 * Reports built from a template over a range, on request or by a schedule: the build job moves them
 * through REQUESTED, WAITING_FOR_DATA, BUILDING to COMPLETED (the PDF's bytes in `content`) or FAILED.
 */
export const reports = pgTable(
  'reports',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    templateId: uuid().references(() => reportTemplates.id, { onDelete: 'set null' }),
    scheduleId: uuid().references(() => reportSchedules.id, { onDelete: 'set null' }),
    name: text().notNull(),
    range: text().notNull(),
    begin: timestamp({ withTimezone: true }).notNull(),
    end: timestamp({ withTimezone: true }).notNull(),
    state: text().notNull().default('REQUESTED'),
    errorKey: text(),
    content: bytea(),
    size: integer(),
    requestedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    requestedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    completedOn: timestamp({ withTimezone: true }),
  },
  (table) => [index('reports_org_requested').on(table.orgId, table.requestedOn)],
);
