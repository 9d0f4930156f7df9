import { sql } from 'drizzle-orm';
import { boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from '../orgs/tables';

/** Hosts and devices of an organisation (spec 2 section 3). */
export const assets = pgTable(
  'assets',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    tag: text(),
    owner: text(),
    /** high, medium, low or none. */
    importance: text().notNull(),
    description: text(),
    labels: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    hostnames: text()
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    /** Kept by people; untracked assets were discovered from events. */
    tracked: boolean().notNull().default(true),
    /** False once deleted; deleted assets stay listable under the "deleted" status. */
    active: boolean().notNull().default(true),
    lastSeen: timestamp({ withTimezone: true }),
    dataLastSent: timestamp({ withTimezone: true }),
    /**
     * Lower-cased name, tag, owner, description, labels, hostnames and addresses, kept by the
     * repository on every write, for the free-text filter.
     */
    searchText: text().notNull().default(''),
    createdOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
    modifiedOn: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    index('assets_org_name').on(table.orgId, table.active, table.name),
    index('assets_org_last_seen').on(table.orgId, table.active, table.lastSeen),
    index('assets_labels').using('gin', table.labels),
    // Substring search of the free-text filter (LIKE '%term%'), through pg_trgm.
    index('assets_search_text_trgm').using('gin', sql`${table.searchText} gin_trgm_ops`),
  ],
);

/**
 * The IP/MAC pairs of an asset. An address belongs to one active asset at a time: the unique
 * indexes cover active rows only, and `active` follows the asset's.
 */
export const assetAddresses = pgTable(
  'asset_addresses',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    assetId: uuid()
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    /** Canonical text (normaliseIp, normaliseMac); at least one of the two is set. */
    ip: text(),
    mac: text(),
    /** Position of the pair in the asset's list. */
    position: integer().notNull().default(0),
    active: boolean().notNull().default(true),
    firstSeen: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (table) => [
    uniqueIndex('asset_addresses_org_ip')
      .on(table.orgId, table.ip)
      .where(sql`${table.ip} IS NOT NULL AND ${table.active}`),
    uniqueIndex('asset_addresses_org_mac')
      .on(table.orgId, table.mac)
      .where(sql`${table.mac} IS NOT NULL AND ${table.active}`),
    index('asset_addresses_asset').on(table.assetId),
  ],
);

/**
 * Pairs an asset held in the past, so that a lookup for an event's time finds the asset that held
 * the address then (DHCP moves addresses between hosts).
 */
export const assetAddressHistory = pgTable(
  'asset_address_history',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    assetId: uuid()
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    ip: text(),
    mac: text(),
    heldFrom: timestamp({ withTimezone: true }).notNull(),
    heldUntil: timestamp({ withTimezone: true }).notNull(),
  },
  (table) => [
    index('asset_address_history_ip').on(table.orgId, table.ip),
    index('asset_address_history_mac').on(table.orgId, table.mac),
  ],
);

/** Software seen installed on an asset. */
export const assetSoftware = pgTable(
  'asset_software',
  {
    id: uuid().primaryKey().defaultRandom(),
    orgId: uuid()
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    assetId: uuid()
      .notNull()
      .references(() => assets.id, { onDelete: 'cascade' }),
    name: text().notNull(),
    version: text(),
    lastSeen: timestamp({ withTimezone: true }),
  },
  (table) => [
    uniqueIndex('asset_software_asset_name_version').on(
      table.assetId,
      table.name,
      sql`coalesce(${table.version}, '')`,
    ),
    index('asset_software_org_name').on(table.orgId, table.name),
  ],
);

/** An organisation's asset settings (GET and POST /config). */
export const assetConfig = pgTable('asset_config', {
  orgId: uuid()
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  downNoticeEnabled: boolean().notNull().default(true),
  discoverUntracked: boolean().notNull().default(true),
  updatedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
});
