import { isIP } from 'node:net';
import { isPrivateAddress } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { raiseThreatMatchAlerts } from '../alerts/threat-match';
import { recordAssetSightings, type AssetSighting } from '../assets/service';
import { applyClassifiers } from '../classifiers/apply';
import { applyCustomParsers } from '../custom-parsers/apply';
import { insertEventRows, type NewEventRow } from './store';

/**
 * Last seen is kept to the minute: a sighting no later than this after the one this process last
 * recorded for the same asset key (and adding no "sent data") is not written again. Busy hosts appear
 * in every batch; recording each of them every time cost most of the ingest time.
 */
export const SIGHTING_RESOLUTION_MS = 60_000;
const RECENT_SIGHTINGS_MAX = 100_000;
const recentSightings = new WeakMap<Db, Map<string, { seenAt: number; sentData: boolean }>>();

/** Whether the sighting adds nothing to one recorded less than SIGHTING_RESOLUTION_MS before it. */
function alreadyRecorded(db: Db, key: string, sighting: AssetSighting): boolean {
  let recent = recentSightings.get(db);
  if (!recent) recentSightings.set(db, (recent = new Map()));
  const known = recent.get(key);
  const seenAt = sighting.seenAt.getTime();
  if (known && seenAt - known.seenAt < SIGHTING_RESOLUTION_MS && (known.sentData || !sighting.sentData)) {
    return true;
  }
  if (recent.size >= RECENT_SIGHTINGS_MAX) recent.clear();
  recent.set(key, { seenAt: Math.max(seenAt, known?.seenAt ?? 0), sentData: Boolean(sighting.sentData) });
  return false;
}

/**
 * Asset detection: one sighting per distinct host and IP of the batch, at its latest time (never
 * after the receive time), unless recorded within the last minute. The host sent the data. A
 * failure is logged, never undoes the batch.
 */
export async function recordBatchSightings(
  db: Db,
  orgId: string,
  rows: readonly NewEventRow[],
  log?: FastifyBaseLogger,
) {
  const sightings = new Map<string, AssetSighting>();
  const note = (key: string, sighting: AssetSighting) => {
    const known = sightings.get(key);
    if (!known) return sightings.set(key, sighting);
    if (sighting.seenAt > known.seenAt) known.seenAt = sighting.seenAt;
    if (sighting.sentData) known.sentData = true;
  };
  for (const row of rows) {
    const receivedAt = row.receivedAt ?? new Date();
    const seenAt = row.ts > receivedAt ? receivedAt : row.ts;
    if (row.host) {
      if (isIP(row.host) !== 0) note(`ip:${row.host}`, { ip: row.host, seenAt, sentData: true });
      else note(`host:${row.host.toLowerCase()}`, { hostname: row.host, seenAt, sentData: true });
    }
    // An address an event merely names is discovered only inside the organisation's own (private)
    // ranges: the internet's addresses are not the bank's assets, though a known asset's is updated.
    for (const ip of [row.srcIp, row.dstIp]) {
      if (ip) note(`ip:${ip}`, { ip, seenAt: new Date(seenAt), discover: isPrivateAddress(ip) });
    }
  }
  const due = [...sightings]
    .filter(([key, sighting]) => !alreadyRecorded(db, `${orgId}|${key}`, sighting))
    .map(([, sighting]) => sighting);
  if (due.length === 0) return;
  const failed = (error: unknown) => log?.warn({ err: error, orgId }, 'asset sighting failed');
  try {
    // Known assets in one statement; an address that may not be discovered only updates its holder.
    await recordAssetSightings(db, orgId, due, failed);
  } catch (error) {
    failed(error);
  }
}

/**
 * The one way events of any source (the ingest API, the Elasticsearch and syslog listeners, the demo
 * trickle) enter the store: the organisation's custom parsers, then its classifiers (which may drop
 * events or set flags), one committed write, then threat-match alerts and asset detection for events
 * not flagged to skip them (a failure of either is logged, never undoes the batch).
 * Rows must come from `eventRow`. Answers the number of events accepted, dropped ones included: a
 * classifier dropping an event is the organisation's choice, not a refusal.
 */
export async function ingestEventRows(
  db: Db,
  orgId: string,
  rows: NewEventRow[],
  log?: FastifyBaseLogger,
): Promise<number> {
  if (rows.length === 0) return 0;
  const parsed = await applyCustomParsers(db, orgId, rows);
  const kept = await applyClassifiers(db, orgId, parsed, log);
  await insertEventRows(db, kept);
  try {
    await raiseThreatMatchAlerts(db, orgId, kept);
  } catch (error) {
    log?.warn({ err: error, orgId }, 'threat match failed');
  }
  const detected = kept.filter((row) => !row.flags?.includes('skipAssetDetection'));
  await recordBatchSightings(db, orgId, detected, log);
  return rows.length;
}
