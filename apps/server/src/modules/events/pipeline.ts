import { isIP } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { recordAssetSighting, type AssetSighting } from '../assets/service';
import { applyClassifiers } from '../classifiers/apply';
import { applyCustomParsers } from '../custom-parsers/apply';
import { insertEventRows, type NewEventRow } from './store';

/**
 * Asset detection: one sighting per distinct host and IP of the batch, at its latest time (never
 * after the receive time). The host sent the data. A failure is logged, never undoes the batch.
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
    for (const ip of [row.srcIp, row.dstIp]) if (ip) note(`ip:${ip}`, { ip, seenAt: new Date(seenAt) });
  }
  for (const sighting of sightings.values()) {
    try {
      await recordAssetSighting(db, orgId, sighting);
    } catch (error) {
      log?.warn({ err: error, orgId }, 'asset sighting failed');
    }
  }
}

/**
 * The one way events of any source (the ingest API, the Elasticsearch and syslog listeners, the demo
 * trickle) enter the store: the organisation's custom parsers, then its classifiers (which may drop
 * events or set flags), one committed write, then asset detection for events not flagged to skip it.
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
  const detected = kept.filter((row) => !row.flags?.includes('skipAssetDetection'));
  await recordBatchSightings(db, orgId, detected, log);
  return rows.length;
}
