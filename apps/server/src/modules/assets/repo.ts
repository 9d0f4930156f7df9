import { and, asc, desc, eq, gte, inArray, isNotNull, lte, ne, or, sql, type SQL } from 'drizzle-orm';
import {
  isIpAddress,
  isMacAddress,
  normaliseIp,
  normaliseMac,
  type AssetConfig,
  type AssetImportance,
  type AssetSortField,
  type AssetTrackedFilter,
  type IpMacPair,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { assetAddresses, assetAddressHistory, assetConfig, assets, assetSoftware } from './tables';

/*
 * SQL of the assets area. Every function takes the organisation first and filters by it.
 */

export type AssetRow = typeof assets.$inferSelect;
export type AddressRow = typeof assetAddresses.$inferSelect;

/** The fields of an asset that people edit. */
export interface AssetFields {
  name: string;
  tag: string | null;
  owner: string | null;
  importance: AssetImportance;
  description: string | null;
  labels: string[];
  hostnames: string[];
}

/** The list filters of GET, DELETE and POST /assets/search. */
export interface AssetFilter {
  query?: string;
  label?: string;
  softwareNames?: string[];
  tracked: AssetTrackedFilter;
  /** True: active assets; false: deleted ones. */
  active: boolean;
  importance: AssetImportance | 'all';
  lastSeenBefore?: Date;
  lastSeenAfter?: Date;
}

export interface AssetSort {
  sortBy: AssetSortField;
  desc: boolean;
}

/** Lower-cased text the free-text filter searches: every field a person reads, and the addresses. */
export function searchTextOf(
  fields: Pick<AssetFields, 'name' | 'tag' | 'owner' | 'description' | 'labels' | 'hostnames'>,
  pairs: readonly IpMacPair[],
): string {
  return [
    fields.name,
    fields.tag,
    fields.owner,
    fields.description,
    ...fields.labels,
    ...fields.hostnames,
    ...pairs.flatMap((pair) => [pair.ip, pair.mac]),
  ]
    .filter((value): value is string => Boolean(value))
    .join('\n')
    .toLowerCase();
}

/** A free-text term as stored: addresses in their canonical form, everything lower case. */
function searchTerm(term: string): string {
  if (isIpAddress(term)) return normaliseIp(term);
  if (isMacAddress(term)) return normaliseMac(term);
  return term.toLowerCase();
}

/** The condition of the list filters; every term of `query` must appear in the search text. */
export function assetFilterCondition(orgId: string, filter: AssetFilter): SQL {
  const terms = (filter.query ?? '').split(/\s+/).filter(Boolean).map(searchTerm);
  const seen = sql`coalesce(${assets.lastSeen}, ${assets.createdOn})`;
  return and(
    eq(assets.orgId, orgId),
    eq(assets.active, filter.active),
    ...terms.map((term) => sql`${assets.searchText} LIKE ${`%${escapeLike(term)}%`}`),
    filter.label ? sql`${assets.labels} @> ARRAY[${filter.label}]::text[]` : undefined,
    filter.softwareNames && filter.softwareNames.length > 0
      ? sql`EXISTS (SELECT 1 FROM ${assetSoftware} WHERE ${assetSoftware.orgId} = ${orgId} AND ${
          assetSoftware.assetId
        } = ${assets.id} AND ${inArray(assetSoftware.name, filter.softwareNames)})`
      : undefined,
    filter.tracked === 'both' ? undefined : eq(assets.tracked, filter.tracked === 'tracked'),
    filter.importance === 'all' ? undefined : eq(assets.importance, filter.importance),
    filter.lastSeenBefore ? sql`${seen} <= ${filter.lastSeenBefore.toISOString()}::timestamptz` : undefined,
    filter.lastSeenAfter ? sql`${seen} >= ${filter.lastSeenAfter.toISOString()}::timestamptz` : undefined,
  )!;
}

/** One key of the sort order; `cast` reads the text of a key back for keyset paging. */
interface SortKey {
  expr: SQL;
  cast: 'text' | 'int' | 'timestamptz' | 'uuid';
  desc: boolean;
}

const IMPORTANCE_RANK = sql`(CASE ${assets.importance} WHEN 'high' THEN 3 WHEN 'medium' THEN 2 WHEN 'low' THEN 1 ELSE 0 END)`;

/**
 * The sort keys of a list order, each one never null so that keyset paging can compare them:
 * optional fields sort blanks last in both directions, ties go by name (A to Z), and every order ends
 * with the asset id so that pages are stable.
 */
function sortKeys(sort: AssetSort): SortKey[] {
  const dir = sort.desc;
  const name: SortKey = { expr: sql`lower(${assets.name})`, cast: 'text', desc: false };
  const id: SortKey = { expr: sql`${assets.id}`, cast: 'uuid', desc: dir };
  const nullsLast = (column: SQL): SortKey => ({
    expr: sql`(CASE WHEN ${column} IS NULL THEN 1 ELSE 0 END)`,
    cast: 'int',
    desc: false,
  });
  switch (sort.sortBy) {
    case 'name':
      return [{ ...name, desc: dir }, id];
    case 'tag':
    case 'owner': {
      const column = sql`${sort.sortBy === 'tag' ? assets.tag : assets.owner}`;
      return [
        nullsLast(column),
        { expr: sql`coalesce(lower(${column}), '')`, cast: 'text', desc: dir },
        name,
        id,
      ];
    }
    case 'importance':
      return [{ expr: IMPORTANCE_RANK, cast: 'int', desc: dir }, name, id];
    case 'lastSeen':
    case 'dataLastSent': {
      const column = sql`${sort.sortBy === 'lastSeen' ? assets.lastSeen : assets.dataLastSent}`;
      return [
        nullsLast(column),
        { expr: sql`coalesce(${column}, 'epoch'::timestamptz)`, cast: 'timestamptz', desc: dir },
        name,
        id,
      ];
    }
    case 'createdOn':
      return [{ expr: sql`${assets.createdOn}`, cast: 'timestamptz', desc: dir }, id];
    case 'modifiedOn':
      return [{ expr: sql`${assets.modifiedOn}`, cast: 'timestamptz', desc: dir }, id];
  }
}

const orderOf = (keys: SortKey[]) =>
  keys.map((key) => (key.desc ? sql`${key.expr} DESC` : sql`${key.expr} ASC`));

/** Rows after `values` in the order of `keys`: (k0 > v0) OR (k0 = v0 AND k1 > v1) OR ... */
function afterKeys(keys: SortKey[], values: string[]): SQL {
  const typed = (index: number) => sql`${values[index]}::${sql.raw(keys[index]!.cast)}`;
  return or(
    ...keys.map((key, index) =>
      and(
        ...keys.slice(0, index).map((earlier, at) => sql`${earlier.expr} = ${typed(at)}`),
        key.desc ? sql`${key.expr} < ${typed(index)}` : sql`${key.expr} > ${typed(index)}`,
      ),
    ),
  )!;
}

/** One page of the list, by offset, with the number of all matches. */
export async function searchAssets(
  db: Db,
  orgId: string,
  filter: AssetFilter,
  sort: AssetSort,
  page: { limit: number; offset: number },
): Promise<{ items: AssetRow[]; total: number }> {
  const where = assetFilterCondition(orgId, filter);
  const [items, [count]] = await Promise.all([
    db
      .select()
      .from(assets)
      .where(where)
      .orderBy(...orderOf(sortKeys(sort)))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(assets)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/**
 * Every match of the list, in its order, a batch at a time: each batch continues after the sort keys
 * of the last row of the one before (keyset paging), so rows never repeat or go missing however deep
 * the export runs.
 */
export async function* iterateAssets(
  db: Db,
  orgId: string,
  filter: AssetFilter,
  sort: AssetSort,
  batchSize: number,
): AsyncGenerator<AssetRow[]> {
  const keys = sortKeys(sort);
  const keyFields = Object.fromEntries(
    keys.map((key, index) => [`k${index}`, sql<string>`${key.expr}::text`]),
  );
  const where = assetFilterCondition(orgId, filter);
  let after: string[] | null = null;
  for (;;) {
    const rows: ({ asset: AssetRow } & Record<string, unknown>)[] = await db
      .select({ asset: assets, ...keyFields })
      .from(assets)
      .where(after ? and(where, afterKeys(keys, after)) : where)
      .orderBy(...orderOf(keys))
      .limit(batchSize);
    if (rows.length === 0) return;
    yield rows.map((row) => row.asset);
    if (rows.length < batchSize) return;
    const last = rows.at(-1)!;
    after = keys.map((_, index) => String(last[`k${index}`]));
  }
}

export async function countAssets(db: Db, orgId: string, filter: AssetFilter): Promise<number> {
  const [row] = await db
    .select({ total: sql<number>`count(*)::int` })
    .from(assets)
    .where(assetFilterCondition(orgId, filter));
  return row?.total ?? 0;
}

export async function findAsset(
  db: Db,
  orgId: string,
  id: string,
  options: { forUpdate?: boolean } = {},
): Promise<AssetRow | null> {
  const query = db
    .select()
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.id, id)))
    .limit(1);
  const [row] = options.forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

/** The address rows of assets, in the order of their pairs. */
export async function listAddressRows(
  db: Db,
  orgId: string,
  assetIds: readonly string[],
): Promise<AddressRow[]> {
  if (assetIds.length === 0) return [];
  return db
    .select()
    .from(assetAddresses)
    .where(and(eq(assetAddresses.orgId, orgId), inArray(assetAddresses.assetId, [...assetIds])))
    .orderBy(asc(assetAddresses.assetId), asc(assetAddresses.position), asc(assetAddresses.id));
}

/** The IP/MAC pairs of assets by asset id. */
export async function listPairs(
  db: Db,
  orgId: string,
  assetIds: readonly string[],
): Promise<Map<string, IpMacPair[]>> {
  const pairs = new Map<string, IpMacPair[]>();
  for (const row of await listAddressRows(db, orgId, assetIds)) {
    const list = pairs.get(row.assetId) ?? [];
    list.push({ ip: row.ip, mac: row.mac });
    pairs.set(row.assetId, list);
  }
  return pairs;
}

/** Active address rows holding any of these canonical IPs or MACs, other than those of `exceptAssetId`. */
export async function findAddressHolders(
  db: Db,
  orgId: string,
  addresses: { ips: readonly string[]; macs: readonly string[] },
  exceptAssetId?: string,
): Promise<AddressRow[]> {
  const ips = [...new Set(addresses.ips)];
  const macs = [...new Set(addresses.macs)];
  if (ips.length === 0 && macs.length === 0) return [];
  return db
    .select()
    .from(assetAddresses)
    .where(
      and(
        eq(assetAddresses.orgId, orgId),
        eq(assetAddresses.active, true),
        or(
          ips.length > 0 ? inArray(assetAddresses.ip, ips) : undefined,
          macs.length > 0 ? inArray(assetAddresses.mac, macs) : undefined,
        ),
        exceptAssetId ? ne(assetAddresses.assetId, exceptAssetId) : undefined,
      ),
    );
}

export async function insertAsset(
  db: Db,
  orgId: string,
  values: AssetFields & {
    tracked: boolean;
    searchText: string;
    lastSeen?: Date | null;
    dataLastSent?: Date | null;
  },
): Promise<AssetRow> {
  const [row] = await db
    .insert(assets)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updateAssetRow(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<AssetRow, 'id' | 'orgId' | 'createdOn'>>,
): Promise<AssetRow | null> {
  const [row] = await db
    .update(assets)
    .set({ modifiedOn: new Date(), ...values })
    .where(and(eq(assets.orgId, orgId), eq(assets.id, id)))
    .returning();
  return row ?? null;
}

/**
 * Moves address rows an asset no longer holds into the history (held from first seen until `now`)
 * and removes them, so their addresses are free for other assets.
 */
export async function retireAddresses(
  db: Db,
  orgId: string,
  rows: readonly AddressRow[],
  now: Date,
): Promise<void> {
  if (rows.length === 0) return;
  await db.insert(assetAddressHistory).values(
    rows.map((row) => ({
      orgId,
      assetId: row.assetId,
      ip: row.ip,
      mac: row.mac,
      heldFrom: row.firstSeen,
      heldUntil: now,
    })),
  );
  await db.delete(assetAddresses).where(
    and(
      eq(assetAddresses.orgId, orgId),
      inArray(
        assetAddresses.id,
        rows.map((row) => row.id),
      ),
    ),
  );
}

const samePair = (row: IpMacPair, pair: IpMacPair) => row.ip === pair.ip && row.mac === pair.mac;

/**
 * Sets the pairs of an active asset. Pairs it keeps keep their first-seen time; pairs it drops go to
 * the address history (held from first seen until `now`), and are removed before new ones are added,
 * so an address can move from one pair to another within one save.
 */
export async function replacePairs(
  db: Db,
  orgId: string,
  assetId: string,
  pairs: readonly IpMacPair[],
  now: Date,
): Promise<void> {
  const existing = await listAddressRows(db, orgId, [assetId]);
  const kept = new Map<number, AddressRow>();
  const unused = [...existing];
  pairs.forEach((pair, position) => {
    const at = unused.findIndex((row) => samePair(row, pair));
    if (at >= 0) kept.set(position, unused.splice(at, 1)[0]!);
  });
  await retireAddresses(db, orgId, unused, now);
  for (const [position, row] of kept) {
    if (row.position !== position) {
      await db.update(assetAddresses).set({ position }).where(eq(assetAddresses.id, row.id));
    }
  }
  const added = pairs
    .map((pair, position) => ({ pair, position }))
    .filter(({ position }) => !kept.has(position));
  if (added.length > 0) {
    await db.insert(assetAddresses).values(
      added.map(({ pair, position }) => ({
        orgId,
        assetId,
        ip: pair.ip,
        mac: pair.mac,
        position,
        firstSeen: now,
      })),
    );
  }
}

/**
 * Soft-deletes the active assets matching `condition` (a condition on the assets table): their
 * addresses go to the history, stay on the asset inactive (so the deleted asset still shows them)
 * and are free for other assets. Answers the number of assets deleted.
 */
export async function softDeleteAssets(db: Db, orgId: string, condition: SQL, now: Date): Promise<number> {
  const targets = db
    .select({ id: assets.id })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.active, true), condition));
  await db.execute(sql`
    INSERT INTO ${assetAddressHistory} (org_id, asset_id, ip, mac, held_from, held_until)
    SELECT org_id, asset_id, ip, mac, first_seen, ${now.toISOString()}::timestamptz
    FROM ${assetAddresses}
    WHERE org_id = ${orgId} AND active AND asset_id IN (${targets})`);
  await db
    .update(assetAddresses)
    .set({ active: false })
    .where(
      and(
        eq(assetAddresses.orgId, orgId),
        eq(assetAddresses.active, true),
        inArray(assetAddresses.assetId, targets),
      ),
    );
  const deleted = await db
    .update(assets)
    .set({ active: false, modifiedOn: now })
    .where(and(eq(assets.orgId, orgId), eq(assets.active, true), condition))
    .returning({ id: assets.id });
  return deleted.length;
}

/** Labels on active assets of the organisation, each once. */
export async function listLabelsInUse(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ label: sql<string>`unnest(${assets.labels})` })
    .from(assets)
    .where(and(eq(assets.orgId, orgId), eq(assets.active, true)));
  return rows.map((row) => row.label);
}

/** Names of software seen on active assets of the organisation, each once. */
export async function listSoftwareNames(db: Db, orgId: string): Promise<string[]> {
  const rows = await db
    .selectDistinct({ name: assetSoftware.name })
    .from(assetSoftware)
    .innerJoin(assets, eq(assets.id, assetSoftware.assetId))
    .where(and(eq(assetSoftware.orgId, orgId), eq(assets.orgId, orgId), eq(assets.active, true)));
  return rows.map((row) => row.name);
}

export async function listAssetSoftware(db: Db, orgId: string, assetId: string) {
  return db
    .select({ name: assetSoftware.name, version: assetSoftware.version, lastSeen: assetSoftware.lastSeen })
    .from(assetSoftware)
    .where(and(eq(assetSoftware.orgId, orgId), eq(assetSoftware.assetId, assetId)))
    .orderBy(sql`lower(${assetSoftware.name})`, asc(assetSoftware.name), asc(assetSoftware.version));
}

/** Records software seen on an asset; a name and version seen before keeps its latest sighting. */
export async function upsertSoftware(
  db: Db,
  orgId: string,
  assetId: string,
  software: readonly { name: string; version: string | null; lastSeen: Date | null }[],
): Promise<void> {
  if (software.length === 0) return;
  await db.execute(sql`
    INSERT INTO ${assetSoftware} (org_id, asset_id, name, version, last_seen)
    SELECT ${orgId}::uuid, ${assetId}::uuid, s.name, s.version, s.last_seen
    FROM jsonb_to_recordset(${JSON.stringify(
      software.map((entry) => ({
        name: entry.name,
        version: entry.version,
        last_seen: entry.lastSeen?.toISOString() ?? null,
      })),
    )}::jsonb) AS s(name text, version text, last_seen timestamptz)
    ON CONFLICT (asset_id, name, coalesce(version, ''))
    DO UPDATE SET last_seen = greatest(${assetSoftware}.last_seen, excluded.last_seen)`);
}

/** Moves the software of one asset to another; entries both have keep the latest sighting. */
export async function moveSoftware(
  db: Db,
  orgId: string,
  fromAssetId: string,
  toAssetId: string,
): Promise<void> {
  await db.execute(sql`
    INSERT INTO ${assetSoftware} (org_id, asset_id, name, version, last_seen)
    SELECT org_id, ${toAssetId}::uuid, name, version, last_seen
    FROM ${assetSoftware}
    WHERE org_id = ${orgId} AND asset_id = ${fromAssetId}
    ON CONFLICT (asset_id, name, coalesce(version, ''))
    DO UPDATE SET last_seen = greatest(${assetSoftware}.last_seen, excluded.last_seen)`);
  await db
    .delete(assetSoftware)
    .where(and(eq(assetSoftware.orgId, orgId), eq(assetSoftware.assetId, fromAssetId)));
}

/** Hands the current and past addresses of one asset to another, after the other's own pairs. */
export async function moveAddresses(
  db: Db,
  orgId: string,
  fromAssetId: string,
  toAssetId: string,
): Promise<void> {
  const [top] = await db
    .select({ max: sql<number>`coalesce(max(${assetAddresses.position}), -1)::int` })
    .from(assetAddresses)
    .where(and(eq(assetAddresses.orgId, orgId), eq(assetAddresses.assetId, toAssetId)));
  await db
    .update(assetAddresses)
    .set({ assetId: toAssetId, position: sql`${assetAddresses.position} + ${(top?.max ?? -1) + 1}` })
    .where(and(eq(assetAddresses.orgId, orgId), eq(assetAddresses.assetId, fromAssetId)));
  await db
    .update(assetAddressHistory)
    .set({ assetId: toAssetId })
    .where(and(eq(assetAddressHistory.orgId, orgId), eq(assetAddressHistory.assetId, fromAssetId)));
}

export async function deleteAssetRow(db: Db, orgId: string, id: string): Promise<void> {
  await db.delete(assets).where(and(eq(assets.orgId, orgId), eq(assets.id, id)));
}

/** The active assets carrying a label, in name order, with their active IPs. */
export async function listLabelledAssets(db: Db, orgId: string, label: string, limit: number) {
  const rows = await db
    .select({ id: assets.id, hostnames: assets.hostnames })
    .from(assets)
    .where(
      and(eq(assets.orgId, orgId), eq(assets.active, true), sql`${assets.labels} @> ARRAY[${label}]::text[]`),
    )
    .orderBy(sql`lower(${assets.name})`, asc(assets.id))
    .limit(limit);
  const ips = new Map<string, string[]>();
  for (const row of await listAddressRows(
    db,
    orgId,
    rows.map((row) => row.id),
  )) {
    if (!row.ip) continue;
    ips.set(row.assetId, [...(ips.get(row.assetId) ?? []), row.ip]);
  }
  return rows.map((row) => ({ id: row.id, hostnames: row.hostnames, ips: ips.get(row.id) ?? [] }));
}

/** A short asset for lookups. */
export interface AssetSummaryRow {
  id: string;
  name: string;
  importance: string;
  tracked: boolean;
}
const summaryFields = {
  id: assets.id,
  name: assets.name,
  importance: assets.importance,
  tracked: assets.tracked,
};

/** Active assets holding these canonical IPs (or MACs) now, with the address each holds. */
export async function findCurrentHolders(
  db: Db,
  orgId: string,
  column: 'ip' | 'mac',
  values: readonly string[],
): Promise<(AssetSummaryRow & { value: string })[]> {
  if (values.length === 0) return [];
  const address = column === 'ip' ? assetAddresses.ip : assetAddresses.mac;
  return db
    .select({ ...summaryFields, value: sql<string>`${address}` })
    .from(assetAddresses)
    .innerJoin(assets, eq(assets.id, assetAddresses.assetId))
    .where(
      and(
        eq(assetAddresses.orgId, orgId),
        eq(assetAddresses.active, true),
        inArray(address, [...values]),
        eq(assets.orgId, orgId),
        eq(assets.active, true),
      ),
    )
    .orderBy(asc(assets.name), asc(assets.id));
}

/** One sighting for `touchSightedAssets`: canonical IP and MAC, lower-cased hostname. */
export interface SightingKeys {
  ip: string | null;
  mac: string | null;
  hostname: string | null;
  seenAt: Date;
  sentData: boolean;
}

/**
 * Asset detection for many sightings in one statement. Each sighting's asset is the active asset
 * holding its IP, else its MAC, else its hostname (the first by name when several hold it), as
 * `findCurrentHolders` and `findHostnameHolders` find them one by one. Every asset found has its
 * last-seen time (and data-last-sent, for sightings that sent data) moved forward, never back; its
 * modification time stays. Rows are locked in id order, so concurrent batches cannot deadlock (the
 * update runs to completion though nothing reads it).
 * Answers the asset of each sighting (by position), null where none holds it.
 */
export async function touchSightedAssets(
  db: Db,
  orgId: string,
  sightings: readonly SightingKeys[],
): Promise<(string | null)[]> {
  if (sightings.length === 0) return [];
  const records = sightings.map((sighting, n) => ({
    n,
    ip: sighting.ip,
    mac: sighting.mac,
    host: sighting.hostname,
    seen_at: sighting.seenAt.toISOString(),
    sent: sighting.sentData,
  }));
  const result = await db.execute(sql`
    WITH s AS MATERIALIZED (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb)
        AS s(n int, ip text, mac text, host text, seen_at timestamptz, sent boolean)
    ), by_ip AS (
      SELECT DISTINCT ON (s.n) s.n, x.id AS asset_id
      FROM s JOIN ${assetAddresses} d ON d.org_id = ${orgId} AND d.active AND d.ip = s.ip
        JOIN ${assets} x ON x.id = d.asset_id AND x.org_id = ${orgId} AND x.active
      ORDER BY s.n, x.name, x.id
    ), by_mac AS (
      SELECT DISTINCT ON (s.n) s.n, x.id AS asset_id
      FROM s JOIN ${assetAddresses} d ON d.org_id = ${orgId} AND d.active AND d.mac = s.mac
        JOIN ${assets} x ON x.id = d.asset_id AND x.org_id = ${orgId} AND x.active
      ORDER BY s.n, x.name, x.id
    ), by_host AS (
      SELECT DISTINCT ON (lower(h.hostname)) lower(h.hostname) AS host, x.id AS asset_id
      FROM ${assets} x CROSS JOIN LATERAL unnest(x.hostnames) AS h(hostname)
      WHERE x.org_id = ${orgId} AND x.active
        AND lower(h.hostname) IN (SELECT s.host FROM s WHERE s.host IS NOT NULL)
      ORDER BY lower(h.hostname), x.name, x.id
    ), found AS (
      SELECT s.n, s.seen_at, s.sent, coalesce(i.asset_id, m.asset_id, h.asset_id) AS asset_id
      FROM s LEFT JOIN by_ip i ON i.n = s.n LEFT JOIN by_mac m ON m.n = s.n
        LEFT JOIN by_host h ON h.host = s.host
    ), latest AS (
      SELECT asset_id, max(seen_at) AS seen_at, max(seen_at) FILTER (WHERE sent) AS sent_at
      FROM found WHERE asset_id IS NOT NULL GROUP BY asset_id
    ), locked AS MATERIALIZED (
      SELECT x.id, l.seen_at, l.sent_at FROM ${assets} x JOIN latest l ON l.asset_id = x.id
      WHERE x.org_id = ${orgId}
        AND (x.last_seen IS NULL OR x.last_seen < l.seen_at
          OR (l.sent_at IS NOT NULL AND (x.data_last_sent IS NULL OR x.data_last_sent < l.sent_at)))
      ORDER BY x.id FOR UPDATE OF x
    ), touched AS (
      UPDATE ${assets} x SET last_seen = greatest(x.last_seen, k.seen_at),
        data_last_sent = greatest(x.data_last_sent, k.sent_at)
      FROM locked k WHERE x.id = k.id
    )
    SELECT n, asset_id::text AS asset_id FROM found`);
  const byPosition: (string | null)[] = sightings.map(() => null);
  for (const row of (result as unknown as { rows: { n: number; asset_id: string | null }[] }).rows) {
    byPosition[row.n] = row.asset_id;
  }
  return byPosition;
}

/** Assets that held these canonical IPs at `at`, from the address history. */
export async function findPastHolders(
  db: Db,
  orgId: string,
  values: readonly string[],
  at: Date,
): Promise<(AssetSummaryRow & { value: string })[]> {
  if (values.length === 0) return [];
  return db
    .select({ ...summaryFields, value: sql<string>`${assetAddressHistory.ip}` })
    .from(assetAddressHistory)
    .innerJoin(assets, eq(assets.id, assetAddressHistory.assetId))
    .where(
      and(
        eq(assetAddressHistory.orgId, orgId),
        inArray(assetAddressHistory.ip, [...values]),
        lte(assetAddressHistory.heldFrom, at),
        gte(assetAddressHistory.heldUntil, at),
        eq(assets.orgId, orgId),
      ),
    )
    .orderBy(desc(assetAddressHistory.heldUntil), asc(assets.id));
}

/** Active assets with any of these hostnames, ignoring case, with their hostnames. */
export async function findHostnameHolders(
  db: Db,
  orgId: string,
  lowerHostnames: readonly string[],
): Promise<(AssetSummaryRow & { hostnames: string[] })[]> {
  if (lowerHostnames.length === 0) return [];
  return db
    .select({ ...summaryFields, hostnames: assets.hostnames })
    .from(assets)
    .where(
      and(
        eq(assets.orgId, orgId),
        eq(assets.active, true),
        sql`EXISTS (SELECT 1 FROM unnest(${assets.hostnames}) AS h(hostname) WHERE ${inArray(
          sql`lower(h.hostname)`,
          [...lowerHostnames],
        )})`,
      ),
    )
    .orderBy(asc(assets.name), asc(assets.id));
}

/**
 * High-importance, active, tracked assets that have sent no data since `before`, or were seen but
 * never sent any.
 */
export async function listDownAssets(db: Db, orgId: string, before: Date, limit: number) {
  const where = and(
    eq(assets.orgId, orgId),
    eq(assets.active, true),
    eq(assets.tracked, true),
    eq(assets.importance, 'high'),
    or(
      sql`${assets.dataLastSent} < ${before.toISOString()}::timestamptz`,
      and(sql`${assets.dataLastSent} IS NULL`, isNotNull(assets.lastSeen)),
    ),
  );
  const [items, [count]] = await Promise.all([
    db
      .select({ ...summaryFields, dataLastSent: assets.dataLastSent })
      .from(assets)
      .where(where)
      .orderBy(sql`${assets.dataLastSent} ASC NULLS FIRST`, asc(assets.name), asc(assets.id))
      .limit(limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(assets)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export const DEFAULT_ASSET_CONFIG: AssetConfig = { downNoticeEnabled: true, discoverUntracked: true };

export async function getAssetConfig(db: Db, orgId: string): Promise<AssetConfig> {
  const [row] = await db.select().from(assetConfig).where(eq(assetConfig.orgId, orgId)).limit(1);
  return row
    ? { downNoticeEnabled: row.downNoticeEnabled, discoverUntracked: row.discoverUntracked }
    : { ...DEFAULT_ASSET_CONFIG };
}

export async function saveAssetConfig(db: Db, orgId: string, config: AssetConfig): Promise<void> {
  const values = { ...config, updatedAt: new Date() };
  await db
    .insert(assetConfig)
    .values({ orgId, ...values })
    .onConflictDoUpdate({ target: assetConfig.orgId, set: values });
}

/** Active assets seen since `since` (tracked or discovered), and how many of them have an owner. */
export async function ownedAssetShare(db: Db, orgId: string, since: Date) {
  const [row] = await db
    .select({
      seen: sql<number>`count(*)::int`,
      owned: sql<number>`count(*) FILTER (WHERE coalesce(trim(${assets.owner}), '') <> '')::int`,
    })
    .from(assets)
    .where(
      assetFilterCondition(orgId, { tracked: 'both', active: true, importance: 'all', lastSeenAfter: since }),
    );
  return { seen: row?.seen ?? 0, owned: row?.owned ?? 0 };
}
