import { eq } from 'drizzle-orm';
import {
  ASSET_DOWN_AFTER_MS,
  ASSET_LIST_MAX_ITEMS,
  isIpAddress,
  isMacAddress,
  normaliseIp,
  normaliseMac,
  type Asset,
  type AssetConfig,
  type AssetImportance,
  type AssetSummary,
  type assetInputSchema,
  type IpMacPair,
} from '@vigil/contracts';
import { QUERY_MAX_LENGTH, quoteQueryValue } from '@vigil/query';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { AppError, conflict, invalidField } from '../../platform/errors';
import {
  assetFilterCondition,
  deleteAssetRow,
  findAddressHolders,
  findAsset,
  findCurrentHolders,
  findHostnameHolders,
  findPastHolders,
  getAssetConfig,
  insertAsset,
  listDownAssets,
  listLabelledAssets,
  listPairs,
  moveAddresses,
  moveSoftware,
  replacePairs,
  saveAssetConfig,
  searchTextOf,
  softDeleteAssets,
  touchSightedAssets,
  updateAssetRow,
  upsertSoftware,
  type AssetFilter,
  type AssetRow,
  type AssetSummaryRow,
} from './repo';
import { assets } from './tables';

/*
 * The rules of the assets area (spec 2 sections 3 to 9). Other areas use the exported functions, never
 * the tables: recordAssetSighting when events name a host, and the lookups for pivots.
 */

export type AssetInputParsed = z.output<typeof assetInputSchema>;

/** Who acts, for the activity log. */
export interface Actor {
  userId: string | null;
  ip?: string;
}

/** The most assets the event query of a label covers. */
export const ASSET_TAG_QUERY_MAX_ASSETS = 500;

export const assetNotFound = (id: string) =>
  new AppError('NotFoundException', 'ASSET_NOT_FOUND', `No asset currently exists with an ID: ${id}`, {
    params: { 0: id },
  });

export const assetDeleted = (id: string) =>
  conflict('ASSET_DELETED', `Asset ${id} is deleted and cannot be changed`, { params: { 0: id } });

const addressInUse = (field: string | undefined, value: string | null) =>
  conflict('ASSET_IP_OR_MAC_IN_USE', `${value ?? 'An address'} belongs to another asset`, {
    ...(field && { field }),
    params: { value },
  });

const iso = (date: Date | null) => date?.toISOString() ?? null;

export function toAsset(row: AssetRow, pairs: IpMacPair[]): Asset {
  return {
    id: row.id,
    name: row.name,
    tag: row.tag,
    owner: row.owner,
    // Written only through the contract's enum.
    importance: row.importance as AssetImportance,
    description: row.description,
    labels: row.labels,
    hostnames: row.hostnames,
    ipMacPairs: pairs,
    tracked: row.tracked,
    active: row.active,
    lastSeen: iso(row.lastSeen),
    dataLastSent: iso(row.dataLastSent),
    modifiedOn: row.modifiedOn.toISOString(),
    createdOn: row.createdOn.toISOString(),
  };
}

export const toSummary = (row: AssetSummaryRow): AssetSummary => ({
  id: row.id,
  name: row.name,
  importance: row.importance as AssetImportance,
  tracked: row.tracked,
});

/** Assets as answered, with their pairs loaded in one query. */
export async function withPairs(db: Db, orgId: string, rows: AssetRow[]): Promise<Asset[]> {
  const pairs = await listPairs(
    db,
    orgId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toAsset(row, pairs.get(row.id) ?? []));
}

/** One asset of the organisation, deleted ones included; 404 ASSET_NOT_FOUND otherwise. */
export async function loadAsset(db: Db, orgId: string, id: string): Promise<Asset> {
  const row = await findAsset(db, orgId, id);
  if (!row) throw assetNotFound(id);
  return (await withPairs(db, orgId, [row]))[0]!;
}

const snapshot = (asset: Asset) => ({
  name: asset.name,
  tag: asset.tag,
  owner: asset.owner,
  importance: asset.importance,
  description: asset.description,
  labels: asset.labels,
  hostnames: asset.hostnames,
  ipMacPairs: asset.ipMacPairs,
  tracked: asset.tracked,
  active: asset.active,
});

/** Hostnames once each, ignoring case; the first spelling stays. */
export function distinctHostnames(hostnames: readonly string[]): string[] {
  const seen = new Set<string>();
  return hostnames.filter((hostname) => {
    const key = hostname.toLowerCase();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** An address may appear in one pair only: 400 GENERIC_INVALID_FIELD_VALUE naming the repeat. */
export function assertDistinctPairs(pairs: readonly IpMacPair[]): void {
  const ips = new Set<string>();
  const macs = new Set<string>();
  pairs.forEach((pair, index) => {
    if (pair.ip !== null) {
      if (ips.has(pair.ip)) {
        throw invalidField(`ipMacPairs.${index}.ip`, pair.ip, undefined, `${pair.ip} appears twice`);
      }
      ips.add(pair.ip);
    }
    if (pair.mac !== null) {
      if (macs.has(pair.mac)) {
        throw invalidField(`ipMacPairs.${index}.mac`, pair.mac, undefined, `${pair.mac} appears twice`);
      }
      macs.add(pair.mac);
    }
  });
}

/** 409 ASSET_IP_OR_MAC_IN_USE for the first pair whose IP or MAC another active asset holds. */
export async function assertAddressesFree(
  db: Db,
  orgId: string,
  pairs: readonly IpMacPair[],
  exceptAssetId?: string,
): Promise<void> {
  const held = await findAddressHolders(
    db,
    orgId,
    {
      ips: pairs.flatMap((pair) => (pair.ip ? [pair.ip] : [])),
      macs: pairs.flatMap((pair) => (pair.mac ? [pair.mac] : [])),
    },
    exceptAssetId,
  );
  const heldIps = new Set(held.map((row) => row.ip));
  const heldMacs = new Set(held.map((row) => row.mac));
  pairs.forEach((pair, index) => {
    if (pair.ip !== null && heldIps.has(pair.ip)) throw addressInUse(`ipMacPairs.${index}.ip`, pair.ip);
    if (pair.mac !== null && heldMacs.has(pair.mac)) throw addressInUse(`ipMacPairs.${index}.mac`, pair.mac);
  });
}

/**
 * Runs a write that adds addresses. Two saves racing for one address both pass the check, and the
 * unique index stops the second: it answers the same 409 as the check would have.
 */
async function guardAddresses<T>(
  db: Db,
  orgId: string,
  pairs: readonly IpMacPair[],
  exceptAssetId: string | undefined,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) !== '23505') throw error;
    await assertAddressesFree(db, orgId, pairs, exceptAssetId);
    throw addressInUse(undefined, null);
  }
}

function assetFieldsOf(input: AssetInputParsed) {
  return {
    name: input.name,
    tag: input.tag,
    owner: input.owner,
    importance: input.importance,
    description: input.description,
    labels: input.labels,
    hostnames: distinctHostnames(input.hostnames),
  };
}

/** POST /asset: a tracked asset. */
export async function createAsset(
  db: Db,
  orgId: string,
  input: AssetInputParsed,
  actor: Actor,
): Promise<Asset> {
  const pairs = input.ipMacPairs;
  assertDistinctPairs(pairs);
  await assertAddressesFree(db, orgId, pairs);
  const fields = assetFieldsOf(input);
  const id = await guardAddresses(db, orgId, pairs, undefined, () =>
    db.transaction(async (tx) => {
      const now = new Date();
      const row = await insertAsset(tx, orgId, {
        ...fields,
        tracked: true,
        searchText: searchTextOf(fields, pairs),
      });
      await replacePairs(tx, orgId, row.id, pairs, now);
      await recordActivity(tx, {
        orgId,
        actorUserId: actor.userId,
        ip: actor.ip,
        action: 'asset.created',
        targetType: 'asset',
        targetId: row.id,
        details: { after: snapshot(toAsset(row, pairs)) },
      });
      return row.id;
    }),
  );
  return loadAsset(db, orgId, id);
}

/** PUT /asset/:id: replaces the fields and pairs; saving an untracked asset makes it tracked. */
export async function updateAsset(
  db: Db,
  orgId: string,
  id: string,
  input: AssetInputParsed,
  actor: Actor,
): Promise<Asset> {
  const pairs = input.ipMacPairs;
  const current = await findAsset(db, orgId, id);
  if (!current) throw assetNotFound(id);
  if (!current.active) throw assetDeleted(id);
  assertDistinctPairs(pairs);
  await assertAddressesFree(db, orgId, pairs, id);
  const fields = assetFieldsOf(input);
  await guardAddresses(db, orgId, pairs, id, () =>
    db.transaction(async (tx) => {
      const locked = await findAsset(tx, orgId, id, { forUpdate: true });
      if (!locked) throw assetNotFound(id);
      if (!locked.active) throw assetDeleted(id);
      const before = (await withPairs(tx, orgId, [locked]))[0]!;
      const now = new Date();
      const row = (await updateAssetRow(tx, orgId, id, {
        ...fields,
        tracked: true,
        searchText: searchTextOf(fields, pairs),
        modifiedOn: now,
      }))!;
      await replacePairs(tx, orgId, id, pairs, now);
      await recordActivity(tx, {
        orgId,
        actorUserId: actor.userId,
        ip: actor.ip,
        action: 'asset.updated',
        targetType: 'asset',
        targetId: id,
        details: { before: snapshot(before), after: snapshot(toAsset(row, pairs)) },
      });
    }),
  );
  return loadAsset(db, orgId, id);
}

/** DELETE /assets?assetId=: soft delete; the addresses go to the history and are free again. */
export async function deleteAsset(db: Db, orgId: string, id: string, actor: Actor): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await findAsset(tx, orgId, id, { forUpdate: true });
    if (!row) throw assetNotFound(id);
    if (!row.active) throw assetDeleted(id);
    const before = (await withPairs(tx, orgId, [row]))[0]!;
    await softDeleteAssets(tx, orgId, eq(assets.id, id), new Date());
    await recordActivity(tx, {
      orgId,
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'asset.deleted',
      targetType: 'asset',
      targetId: id,
      details: { before: snapshot(before) },
    });
  });
}

/** DELETE /assets/search: soft-deletes every active match of the filters in one transaction. */
export async function deleteAssetSearch(
  db: Db,
  orgId: string,
  filter: AssetFilter,
  actor: Actor,
): Promise<number> {
  return db.transaction(async (tx) => {
    const deleted = await softDeleteAssets(tx, orgId, assetFilterCondition(orgId, filter), new Date());
    if (deleted > 0) {
      await recordActivity(tx, {
        orgId,
        actorUserId: actor.userId,
        ip: actor.ip,
        action: 'asset.bulk_deleted',
        targetType: 'asset',
        details: {
          deleted,
          filter: {
            ...filter,
            lastSeenBefore: filter.lastSeenBefore?.toISOString(),
            lastSeenAfter: filter.lastSeenAfter?.toISOString(),
          },
        },
      });
    }
    return deleted;
  });
}

const latest = (a: Date | null, b: Date | null) => (a && b ? (a > b ? a : b) : (a ?? b));

/**
 * POST /assets/merge: folds an untracked asset into a tracked one in one transaction. The tracked
 * asset gains the other's hostnames, labels, addresses (current and past), software and the later
 * of the two last-seen and data-last-sent times; the untracked asset is then removed for good.
 */
export async function mergeAssets(
  db: Db,
  orgId: string,
  ids: { trackedAsset: string; untrackedAsset: string },
  actor: Actor,
): Promise<Asset> {
  if (ids.trackedAsset === ids.untrackedAsset) {
    throw new AppError(
      'ValidatorException',
      'ASSET_MERGE_SAME_ASSET',
      'An asset cannot be merged into itself',
      {
        field: 'untrackedAsset',
      },
    );
  }
  await db.transaction(async (tx) => {
    // Lock both rows in one order, so that two merges of the same pair cannot deadlock.
    const locked = new Map<string, AssetRow | null>();
    for (const id of [ids.trackedAsset, ids.untrackedAsset].sort()) {
      locked.set(id, await findAsset(tx, orgId, id, { forUpdate: true }));
    }
    const tracked = locked.get(ids.trackedAsset);
    const untracked = locked.get(ids.untrackedAsset);
    if (!tracked) throw assetNotFound(ids.trackedAsset);
    if (!untracked) throw assetNotFound(ids.untrackedAsset);
    if (!tracked.active) throw assetDeleted(tracked.id);
    if (!untracked.active) throw assetDeleted(untracked.id);
    if (!tracked.tracked) {
      throw new AppError('ValidatorException', 'ASSET_MERGE_NOT_TRACKED', 'The target asset is not tracked', {
        field: 'trackedAsset',
        params: { 0: tracked.id },
      });
    }
    if (untracked.tracked) {
      throw new AppError(
        'ValidatorException',
        'ASSET_MERGE_NOT_UNTRACKED',
        'Only an untracked asset can be merged into another',
        { field: 'untrackedAsset', params: { 0: untracked.id } },
      );
    }
    const [trackedBefore, untrackedBefore] = await withPairs(tx, orgId, [tracked, untracked]);
    await moveAddresses(tx, orgId, untracked.id, tracked.id);
    await moveSoftware(tx, orgId, untracked.id, tracked.id);
    const fields = {
      name: tracked.name,
      tag: tracked.tag,
      owner: tracked.owner,
      description: tracked.description,
      labels: [...new Set([...tracked.labels, ...untracked.labels])],
      hostnames: distinctHostnames([...tracked.hostnames, ...untracked.hostnames]),
    };
    const pairs = (await listPairs(tx, orgId, [tracked.id])).get(tracked.id) ?? [];
    const row = (await updateAssetRow(tx, orgId, tracked.id, {
      labels: fields.labels,
      hostnames: fields.hostnames,
      lastSeen: latest(tracked.lastSeen, untracked.lastSeen),
      dataLastSent: latest(tracked.dataLastSent, untracked.dataLastSent),
      searchText: searchTextOf(fields, pairs),
    }))!;
    await deleteAssetRow(tx, orgId, untracked.id);
    await recordActivity(tx, {
      orgId,
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'asset.merged',
      targetType: 'asset',
      targetId: tracked.id,
      details: {
        before: snapshot(trackedBefore!),
        merged: { id: untracked.id, ...snapshot(untrackedBefore!) },
        after: snapshot(toAsset(row, pairs)),
      },
    });
  });
  return loadAsset(db, orgId, ids.trackedAsset);
}

// ---------------------------------------------------------------------------------------------
// Lookups (pivots in event views)
// ---------------------------------------------------------------------------------------------

export interface AssetLookup {
  value: string;
  assets: AssetSummary[];
}

/** Values once each, in the order asked. */
const distinctValues = (values: readonly string[]) => [...new Set(values)];

function answerLookups(
  values: readonly string[],
  keyOf: (value: string) => string | null,
  found: Map<string, AssetSummaryRow[]>,
): AssetLookup[] {
  return distinctValues(values).map((value) => {
    const key = keyOf(value);
    const seen = new Set<string>();
    const assetsFound = (key === null ? [] : (found.get(key) ?? [])).filter((row) => {
      if (seen.has(row.id)) return false;
      seen.add(row.id);
      return true;
    });
    return { value, assets: assetsFound.map(toSummary) };
  });
}

function groupBy<T extends { value: string }>(rows: T[]): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) groups.set(row.value, [...(groups.get(row.value) ?? []), row]);
  return groups;
}

const canonicalIp = (value: string) => (isIpAddress(value) ? normaliseIp(value) : null);
const canonicalMac = (value: string) => (isMacAddress(value) ? normaliseMac(value) : null);

/**
 * The assets holding IP addresses. With `at`, assets whose address history covers that time win;
 * addresses without such history answer their current holder. Values that are no IP match nothing.
 */
export async function lookupAssetsByIp(
  db: Db,
  orgId: string,
  values: readonly string[],
  at?: Date,
): Promise<AssetLookup[]> {
  const wanted = distinctValues(values.map(canonicalIp).filter((ip): ip is string => ip !== null));
  const found = at ? groupBy(await findPastHolders(db, orgId, wanted, at)) : new Map();
  const current = await findCurrentHolders(
    db,
    orgId,
    'ip',
    wanted.filter((ip) => !found.has(ip)),
  );
  for (const [ip, rows] of groupBy(current)) found.set(ip, rows);
  return answerLookups(values, canonicalIp, found);
}

/** The active assets holding MAC addresses, written in any of the three notations. */
export async function lookupAssetsByMac(
  db: Db,
  orgId: string,
  values: readonly string[],
): Promise<AssetLookup[]> {
  const wanted = distinctValues(values.map(canonicalMac).filter((mac): mac is string => mac !== null));
  return answerLookups(values, canonicalMac, groupBy(await findCurrentHolders(db, orgId, 'mac', wanted)));
}

/** The active assets carrying hostnames, ignoring case. */
export async function lookupAssetsByHostname(
  db: Db,
  orgId: string,
  values: readonly string[],
): Promise<AssetLookup[]> {
  const wanted = distinctValues(values.map((value) => value.toLowerCase()));
  const found = new Map<string, AssetSummaryRow[]>();
  for (const row of await findHostnameHolders(db, orgId, wanted)) {
    for (const hostname of new Set(row.hostnames.map((name) => name.toLowerCase()))) {
      found.set(hostname, [...(found.get(hostname) ?? []), row]);
    }
  }
  return answerLookups(values, (value) => value.toLowerCase(), found);
}

// ---------------------------------------------------------------------------------------------
// Sightings (used by the event pipeline)
// ---------------------------------------------------------------------------------------------

export interface AssetSighting {
  ip?: string | null;
  mac?: string | null;
  hostname?: string | null;
  seenAt: Date;
  /** The asset itself sent the data (the host of an event), so data-last-sent moves too. */
  sentData?: boolean;
  /** Software seen installed on the asset. */
  software?: { name: string; version?: string | null }[];
  /** False: only an existing asset is updated; none is discovered (true by default). */
  discover?: boolean;
}

export interface SightingResult {
  assetId: string;
  created: boolean;
}

/** The active asset an event names: by IP first, then MAC, then hostname. */
async function findSightedAsset(
  db: Db,
  orgId: string,
  keys: { ip: string | null; mac: string | null; hostname: string | null },
): Promise<string | null> {
  if (keys.ip) {
    const [holder] = await findCurrentHolders(db, orgId, 'ip', [keys.ip]);
    if (holder) return holder.id;
  }
  if (keys.mac) {
    const [holder] = await findCurrentHolders(db, orgId, 'mac', [keys.mac]);
    if (holder) return holder.id;
  }
  if (keys.hostname) {
    const [holder] = await findHostnameHolders(db, orgId, [keys.hostname.toLowerCase()]);
    if (holder) return holder.id;
  }
  return null;
}

/**
 * Records that an event named a host. The active asset holding the IP, MAC or hostname gets its
 * last-seen time (and data-last-sent when it sent the data) moved forward, never back, and its
 * software recorded. When no asset holds any of them and the organisation discovers untracked
 * assets (config discoverUntracked), an untracked asset is created, named after the hostname or the
 * address, with importance none. Invalid addresses are ignored. Answers the asset, or null when
 * there was none and none was created.
 */
export async function recordAssetSighting(
  db: Db,
  orgId: string,
  sighting: AssetSighting,
  retried = false,
): Promise<SightingResult | null> {
  const ip = sighting.ip?.trim() && isIpAddress(sighting.ip.trim()) ? normaliseIp(sighting.ip.trim()) : null;
  const mac =
    sighting.mac?.trim() && isMacAddress(sighting.mac.trim()) ? normaliseMac(sighting.mac.trim()) : null;
  const hostname = sighting.hostname?.trim() || null;
  const seenAt = sighting.seenAt;
  const software = (sighting.software ?? [])
    .filter((entry) => entry.name.trim() !== '')
    .map((entry) => ({ name: entry.name.trim(), version: entry.version?.trim() || null, lastSeen: seenAt }));

  const existing = await findSightedAsset(db, orgId, { ip, mac, hostname });
  if (existing) {
    const row = (await findAsset(db, orgId, existing))!;
    const lastSeen = latest(row.lastSeen, seenAt);
    const dataLastSent = sighting.sentData ? latest(row.dataLastSent, seenAt) : row.dataLastSent;
    if (lastSeen !== row.lastSeen || dataLastSent !== row.dataLastSent) {
      // The sighting is not an edit: modifiedOn stays.
      await updateAssetRow(db, orgId, existing, { lastSeen, dataLastSent, modifiedOn: row.modifiedOn });
    }
    await upsertSoftware(db, orgId, existing, software);
    return { assetId: existing, created: false };
  }

  if (!ip && !mac && !hostname) return null;
  if (sighting.discover === false || !(await getAssetConfig(db, orgId)).discoverUntracked) return null;
  const fields = {
    name: hostname ?? ip ?? mac!,
    tag: null,
    owner: null,
    importance: 'none' as const,
    description: null,
    labels: [],
    hostnames: hostname ? [hostname] : [],
  };
  const pairs: IpMacPair[] = ip || mac ? [{ ip, mac }] : [];
  try {
    const id = await db.transaction(async (tx) => {
      const row = await insertAsset(tx, orgId, {
        ...fields,
        tracked: false,
        searchText: searchTextOf(fields, pairs),
        lastSeen: seenAt,
        dataLastSent: sighting.sentData ? seenAt : null,
      });
      await replacePairs(tx, orgId, row.id, pairs, seenAt);
      await upsertSoftware(tx, orgId, row.id, software);
      return row.id;
    });
    return { assetId: id, created: true };
  } catch (error) {
    // Another sighting created the asset at the same moment: record this one on it.
    if (findSqlState(error) === '23505' && !retried) return recordAssetSighting(db, orgId, sighting, true);
    throw error;
  }
}

/**
 * Records many sightings as `recordAssetSighting` would one by one, with one statement for the
 * sightings of existing assets (the usual case once an organisation's hosts are known); only
 * sightings no asset holds, that may be discovered, go through `recordAssetSighting` to create their
 * untracked asset. Answers the result of each sighting, by position. With `onFailure`, a creation
 * that fails is handed to it (and answers null) instead of stopping the sightings after it.
 */
export async function recordAssetSightings(
  db: Db,
  orgId: string,
  sightings: readonly AssetSighting[],
  onFailure?: (error: unknown) => void,
): Promise<(SightingResult | null)[]> {
  const keys = sightings.map((sighting) => {
    const ip = sighting.ip?.trim() ?? '';
    const mac = sighting.mac?.trim() ?? '';
    return {
      ip: ip && isIpAddress(ip) ? normaliseIp(ip) : null,
      mac: mac && isMacAddress(mac) ? normaliseMac(mac) : null,
      hostname: sighting.hostname?.trim().toLowerCase() || null,
      seenAt: sighting.seenAt,
      sentData: Boolean(sighting.sentData),
    };
  });
  const held = await touchSightedAssets(db, orgId, keys);
  const results: (SightingResult | null)[] = [];
  let discovers: boolean | undefined;
  for (const [n, sighting] of sightings.entries()) {
    const assetId = held[n];
    const key = keys[n]!;
    if (assetId) {
      const software = (sighting.software ?? [])
        .filter((entry) => entry.name.trim() !== '')
        .map((entry) => ({
          name: entry.name.trim(),
          version: entry.version?.trim() || null,
          lastSeen: sighting.seenAt,
        }));
      await upsertSoftware(db, orgId, assetId, software);
      results.push({ assetId, created: false });
      continue;
    }
    if ((!key.ip && !key.mac && !key.hostname) || sighting.discover === false) {
      results.push(null);
      continue;
    }
    discovers ??= (await getAssetConfig(db, orgId)).discoverUntracked;
    if (!discovers) {
      results.push(null);
      continue;
    }
    try {
      results.push(await recordAssetSighting(db, orgId, sighting));
    } catch (error) {
      if (!onFailure) throw error;
      onFailure(error);
      results.push(null);
    }
  }
  return results;
}

// ---------------------------------------------------------------------------------------------
// Settings, the label query and the assets-down notice
// ---------------------------------------------------------------------------------------------

export async function setAssetConfig(db: Db, orgId: string, config: AssetConfig, actor: Actor) {
  return db.transaction(async (tx) => {
    const before = await getAssetConfig(tx, orgId);
    await saveAssetConfig(tx, orgId, config);
    await recordActivity(tx, {
      orgId,
      actorUserId: actor.userId,
      ip: actor.ip,
      action: 'asset.config_changed',
      targetType: 'asset_config',
      targetId: orgId,
      details: { before, after: config },
    });
    return config;
  });
}

function tagQueryText(hostnames: string[], ips: string[]): string {
  const group = (field: string, values: string[]) =>
    values.length === 0 ? [] : [`${field}:(${values.map(quoteQueryValue).join(' OR ')})`];
  return [...group('host', hostnames), ...group('ip', ips)].join(' OR ');
}

/**
 * GET /asset-tag-query: an event query matching the hostnames and IPs of a label's active assets.
 * It covers at most ASSET_TAG_QUERY_MAX_ASSETS assets in name order, and stops before an asset whose
 * values would take it past the query language's QUERY_MAX_LENGTH; `assetCount` is the number of
 * assets it covers (those with at least one hostname or IP). Empty when none has any.
 */
export async function assetTagQuery(db: Db, orgId: string, label: string) {
  const rows = await listLabelledAssets(db, orgId, label, ASSET_TAG_QUERY_MAX_ASSETS);
  const hostnames: string[] = [];
  const ips: string[] = [];
  const seenHosts = new Set<string>();
  const seenIps = new Set<string>();
  let assetCount = 0;
  for (const row of rows) {
    const newHosts = distinctHostnames(row.hostnames).filter((name) => !seenHosts.has(name.toLowerCase()));
    const newIps = [...new Set(row.ips)].filter((ip) => !seenIps.has(ip));
    if (row.hostnames.length === 0 && row.ips.length === 0) continue;
    if (tagQueryText([...hostnames, ...newHosts], [...ips, ...newIps]).length > QUERY_MAX_LENGTH) break;
    hostnames.push(...newHosts);
    ips.push(...newIps);
    newHosts.forEach((name) => seenHosts.add(name.toLowerCase()));
    newIps.forEach((ip) => seenIps.add(ip));
    assetCount++;
  }
  return { query: tagQueryText(hostnames, ips), assetCount };
}

/** GET /assets/down: nothing when the organisation has switched the notice off. */
export async function listDownAssetsFor(db: Db, orgId: string, now: Date) {
  if (!(await getAssetConfig(db, orgId)).downNoticeEnabled) return { items: [], total: 0 };
  const { items, total } = await listDownAssets(
    db,
    orgId,
    new Date(now.getTime() - ASSET_DOWN_AFTER_MS),
    ASSET_LIST_MAX_ITEMS,
  );
  return { items: items.map((row) => ({ ...toSummary(row), dataLastSent: iso(row.dataLastSent) })), total };
}
