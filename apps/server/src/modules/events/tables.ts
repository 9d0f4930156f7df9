import { sql } from 'drizzle-orm';
import type { EventFlag } from '@vigil/contracts';
import {
  bigint,
  customType,
  index,
  inet,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

/**
 * Events (DESIGN section 5). The table is partitioned by day on `ts` (the migration says so; drizzle
 * does not model partitions), with a default partition so that no event is ever refused for its time.
 * `org_id` carries no foreign key: partitions are dropped by retention, and events outlive nothing.
 */
export const events = pgTable(
  'events',
  {
    orgId: uuid().notNull(),
    ts: timestamp({ withTimezone: true }).notNull(),
    id: uuid().notNull().defaultRandom(),
    receivedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    host: text(),
    srcIp: inet(),
    dstIp: inet(),
    userName: text(),
    dataSource: text(),
    message: text().notNull().default(''),
    fields: jsonb().$type<Record<string, unknown>>().notNull().default({}),
    /** What classifiers decided at ingest: EVENT_FLAGS of @vigil/contracts. */
    flags: text()
      .array()
      .$type<EventFlag[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Words of the message and of every string and number in `fields`, for free text. */
    search: tsvector().generatedAlwaysAs(
      sql`to_tsvector('simple'::regconfig, message) || jsonb_to_tsvector('simple'::regconfig, fields, '["string", "numeric"]'::jsonb)`,
    ),
  },
  (table) => [
    primaryKey({ columns: [table.orgId, table.ts, table.id] }),
    index('events_org_ts').on(table.orgId, table.ts.desc()),
    index('events_org_host').on(table.orgId, sql`lower(${table.host})`),
    index('events_org_src_ip').on(table.orgId, table.srcIp),
    index('events_org_dst_ip').on(table.orgId, table.dstIp),
    index('events_fields').using('gin', sql`${table.fields} jsonb_path_ops`),
    index('events_search').using('gin', table.search),
  ],
);

/**
 * The version of each hour of an organisation's events: raised in the transaction that writes events
 * of that hour, so that a roll-up computed from an older version is known to be out of date.
 */
export const eventHourVersions = pgTable(
  'event_hour_versions',
  {
    orgId: uuid().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    version: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.hour] })],
);

/**
 * Hourly roll-ups of chart aggregations (`events/rollups.ts`): which hours of a roll-up (one query,
 * restrictions included, and one shape) are computed, and from which version of the hour.
 */
export const eventRollupHours = pgTable(
  'event_rollup_hours',
  {
    orgId: uuid().notNull(),
    rollup: text().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    version: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.rollup, table.hour] })],
);

/** The counts of a computed roll-up hour: per term of the field, or one row with term '' for counts. */
export const eventRollupCounts = pgTable(
  'event_rollup_counts',
  {
    orgId: uuid().notNull(),
    rollup: text().notNull(),
    hour: timestamp({ withTimezone: true }).notNull(),
    term: text().notNull(),
    count: bigint({ mode: 'number' }).notNull(),
  },
  (table) => [primaryKey({ columns: [table.orgId, table.rollup, table.hour, table.term] })],
);
