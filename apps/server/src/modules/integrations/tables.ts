import { sql } from 'drizzle-orm';
import {
  bigint,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  boolean,
} from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';

/**
 * Integrations (spec 2 section 3): one row per AWS account, Azure/Office 365 account, customer-
 * relationship platform, Apiture, Finxact or Entra ID connection. `settings` holds the kind's plain
 * fields; `secretsEncrypted` the kind's secrets as one JSON object sealed with the SecretBox.
 */
export const integrations = pgTable(
  'integrations',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text().notNull(),
    name: text().notNull(),
    settings: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    secretsEncrypted: text(),
    /** Last time data arrived through it (AWS: the latest of its log sources). */
    lastDataAt: timestamp({ withTimezone: true }),
    lastError: text(),
    lastValidatedAt: timestamp({ withTimezone: true }),
    /** Azure/Office 365 with alert on no data: when the current silence was alerted; cleared when data flows. */
    noDataAlertedAt: timestamp({ withTimezone: true }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // Names are unique per kind (the service also refuses names differing only in case).
    uniqueIndex('integrations_org_kind_name').on(table.orgId, table.kind, table.name),
    index('integrations_org_kind').on(table.orgId, table.kind),
  ],
);

/** An S3 bucket (and optional key prefix) an AWS account's logs are collected from. */
export const s3LogSources = pgTable(
  's3_log_sources',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    integrationId: uuid()
      .notNull()
      .references(() => integrations.id, { onDelete: 'cascade' }),
    bucket: text().notNull(),
    roleArn: text(),
    prefix: text().notNull().default(''),
    logsType: text().notNull(),
    enabled: boolean().notNull().default(true),
    objectsRead: integer().notNull().default(0),
    eventsIngested: bigint({ mode: 'number' }).notNull().default(0),
    failedObjects: integer().notNull().default(0),
    lastPolledAt: timestamp({ withTimezone: true }),
    lastDataAt: timestamp({ withTimezone: true }),
    lastError: text(),
    /** The catalogue key of the last error, when it has one (the role could not be assumed). */
    lastErrorKey: text(),
    /** A poll holds the source until then, so that two polls never read the same objects. */
    pollingUntil: timestamp({ withTimezone: true }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    // A bucket is used by one log source of an organisation.
    uniqueIndex('s3_log_sources_org_bucket').on(table.orgId, table.bucket),
    index('s3_log_sources_integration').on(table.integrationId),
  ],
);

/** Each object a log source read (by key and ETag), so that it is read once. */
export const s3LogObjects = pgTable(
  's3_log_objects',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    sourceId: uuid()
      .notNull()
      .references(() => s3LogSources.id, { onDelete: 'cascade' }),
    key: text().notNull(),
    etag: text().notNull(),
    size: bigint({ mode: 'number' }).notNull(),
    events: integer().notNull().default(0),
    rejected: integer().notNull().default(0),
    error: text(),
    readAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('s3_log_objects_source_key_etag').on(table.sourceId, table.key, table.etag),
    index('s3_log_objects_source_read').on(table.sourceId, table.readAt),
  ],
);

/** A banking platform actions are sent to (Q2, Apiture, Symxchange): one per provider and organisation. */
export const actionIntegrations = pgTable(
  'action_integrations',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    provider: text().notNull(),
    apiBaseUrl: text().notNull(),
    authBaseUrl: text().notNull(),
    clientId: text().notNull(),
    clientSecretEncrypted: text().notNull(),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('action_integrations_org_provider').on(table.orgId, table.provider)],
);

/** A typed action: which provider call it makes and which event fields hold the values it acts on. */
export const actions = pgTable(
  'actions',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    type: text().notNull(),
    provider: text().notNull(),
    fields: jsonb().$type<string[]>().notNull(),
    multipleValues: text().notNull(),
    warningCode: integer(),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex('actions_org_name').on(table.orgId, table.name)],
);

/** One run of an action on one value, with the request and response recorded, undone by reverting. */
export const pendingActions = pgTable(
  'pending_actions',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    actionId: uuid().references(() => actions.id, { onDelete: 'set null' }),
    actionName: text().notNull(),
    provider: text().notNull(),
    type: text().notNull(),
    warningCode: integer(),
    value: text().notNull(),
    /** PENDING (queued), RUNNING (claimed by an executor), EXECUTED, FAILED or REVERTED. */
    state: text().notNull(),
    /** Queued for an alert: the trigger that raised it and the alert (none when notify-only). */
    triggerId: uuid(),
    alertId: uuid(),
    request: jsonb().$type<Record<string, unknown>>(),
    response: jsonb().$type<Record<string, unknown>>(),
    error: text(),
    createdBy: uuid(),
    executedAt: timestamp({ withTimezone: true }),
    revertedAt: timestamp({ withTimezone: true }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('pending_actions_org_created').on(table.orgId, table.createdOn),
    index('pending_actions_alert').on(table.orgId, table.alertId),
    index('pending_actions_queued')
      .on(table.createdOn)
      .where(sql`${table.state} = 'PENDING'`),
  ],
);
