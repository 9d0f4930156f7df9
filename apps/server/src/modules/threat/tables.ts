import { sql } from 'drizzle-orm';
import { boolean, index, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';
import { users } from '../users/tables';

/**
 * Threat ratings (spec 1 and 2): an organisation's rating of a host or a file signature. HARMLESS
 * items may be ignored (excluded from alerting) until `ignore_until`, or forever when it is null.
 */
export const threatRatings = pgTable(
  'threat_ratings',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** HOST or SIGNATURE. */
    subjectType: text().notNull(),
    /** The host as given, or the signature's hex in lower case. */
    subject: text().notNull(),
    /** Signatures: the hash type (MD5, SHA1, SHA256 …). */
    signatureType: text(),
    /** HIGH, MEDIUM, LOW or HARMLESS. */
    rating: text().notNull(),
    ratedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    ratedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    ignored: boolean().notNull().default(false),
    ignoreUntil: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('threat_ratings_subject').on(table.orgId, table.subjectType, sql`lower(${table.subject})`),
  ],
);

/**
 * Threat sources (spec 2): feeds of indicators for the security or fraud domain. Provider sources
 * (`org_id` null) are offered to every organisation, which subscribes or not; an organisation's own
 * sources are its alone.
 */
export const threatSources = pgTable(
  'threat_sources',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid().references(() => orgs.id, { onDelete: 'cascade' }),
    /** security or fraud. */
    domain: text().notNull(),
    name: text().notNull(),
    description: text().notNull().default(''),
    url: text(),
    type: text().notNull(),
    enabled: boolean().notNull().default(true),
    createdBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('threat_sources_org_name')
      .on(table.orgId, table.domain, sql`lower(${table.name})`)
      .where(sql`${table.orgId} IS NOT NULL`),
    uniqueIndex('threat_sources_provider_name')
      .on(table.domain, sql`lower(${table.name})`)
      .where(sql`${table.orgId} IS NULL`),
  ],
);

/** Whether an organisation takes a provider source (absent: not subscribed). */
export const threatSourceSubscriptions = pgTable(
  'threat_source_subscriptions',
  {
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    sourceId: uuid()
      .notNull()
      .references(() => threatSources.id, { onDelete: 'cascade' }),
    subscribedBy: uuid().references(() => users.id, { onDelete: 'set null' }),
    subscribedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.sourceId] })],
);

/**
 * Indicators of a threat source: IPs and ranges (`value` an inet or cidr text), domains, URLs, hashes
 * and e-mail addresses, each valid from a time and until it expires, with a rating and a reason.
 */
export const threatIndicators = pgTable(
  'threat_indicators',
  {
    id: uuid().primaryKey().defaultRandom(),
    sourceId: uuid()
      .notNull()
      .references(() => threatSources.id, { onDelete: 'cascade' }),
    /** IP, DOMAIN, URL, HASH or EMAIL. */
    type: text().notNull(),
    /** Normalised: addresses canonical, domains, hashes and e-mails lower case. */
    value: text().notNull(),
    rating: text().notNull(),
    severity: text(),
    reason: text().notNull().default(''),
    validFrom: timestamp({ withTimezone: true }),
    expiresAt: timestamp({ withTimezone: true }),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('threat_indicators_value').on(table.sourceId, table.type, table.value),
    index('threat_indicators_lookup').on(table.type, table.value),
    // Matching at ingest: which IP indicators (addresses and ranges) hold an event's address.
    index('threat_indicators_ip')
      .using('gist', sql`(${table.value}::inet) inet_ops`)
      .where(sql`${table.type} = 'IP'`),
  ],
);
