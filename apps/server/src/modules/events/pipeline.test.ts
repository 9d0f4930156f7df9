import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database';
import { seedOrg } from '../../../test/fixtures';
import type { Database } from '../../db/client';
import { findAsset } from '../assets/repo';
import { createAsset } from '../assets/service';
import { assets } from '../assets/tables';
import { recordBatchSightings, SIGHTING_RESOLUTION_MS } from './pipeline';
import { eventRow } from './store';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('asset detection at ingest', () => {
  it('records a host again only once its last sighting is a minute old, or when it first sends data', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const { id } = await createAsset(
      db,
      orgId,
      {
        name: 'teller-01',
        importance: 'low',
        tag: null,
        owner: null,
        description: null,
        labels: [],
        hostnames: ['teller-01'],
        ipMacPairs: [{ ip: '10.20.0.11', mac: null }],
      },
      { userId: null },
    );
    const start = Date.UTC(2026, 10, 23, 9, 0, 0);
    const sight = (offsetMs: number, event: { host?: string; srcIp?: string }) => {
      const at = new Date(start + offsetMs);
      return recordBatchSightings(db, orgId, [
        eventRow(orgId, { ...event, timestamp: at.toISOString() }, at),
      ]);
    };
    const asset = async () => (await findAsset(db, orgId, id))!;

    // As a source address only: seen, no data sent.
    await sight(0, { srcIp: '10.20.0.11' });
    expect((await asset()).lastSeen?.getTime()).toBe(start);
    expect((await asset()).dataLastSent).toBeNull();

    // Within the minute: nothing new is written for the address...
    await sight(10_000, { srcIp: '10.20.0.11' });
    expect((await asset()).lastSeen?.getTime()).toBe(start);
    // ...but sending data is news.
    await sight(20_000, { host: '10.20.0.11' });
    expect((await asset()).dataLastSent?.getTime()).toBe(start + 20_000);

    await sight(SIGHTING_RESOLUTION_MS + 30_000, { srcIp: '10.20.0.11' });
    expect((await asset()).lastSeen?.getTime()).toBe(start + SIGHTING_RESOLUTION_MS + 30_000);
  });

  it('discovers hosts and private addresses, but not the internet addresses events name', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const at = new Date(Date.UTC(2026, 10, 23, 10, 0, 0));
    await recordBatchSightings(db, orgId, [
      eventRow(orgId, { host: 'branch-07', srcIp: '10.30.0.7', dstIp: '203.0.113.80' }, at),
    ]);
    const rows = await db.select({ name: assets.name }).from(assets).where(eq(assets.orgId, orgId));
    expect(rows.map((row) => row.name).sort()).toEqual(['10.30.0.7', 'branch-07']);
  });

  it('updates a known asset holding an internet address the event names', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const { id } = await createAsset(
      db,
      orgId,
      {
        name: 'Public web server',
        importance: 'high',
        tag: null,
        owner: null,
        description: null,
        labels: [],
        hostnames: [],
        ipMacPairs: [{ ip: '198.51.100.10', mac: null }],
      },
      { userId: null },
    );
    const at = new Date(Date.UTC(2026, 10, 23, 11, 0, 0));
    await recordBatchSightings(db, orgId, [
      eventRow(orgId, { srcIp: '203.0.113.9', dstIp: '198.51.100.10' }, at),
    ]);
    expect((await findAsset(db, orgId, id))!.lastSeen?.getTime()).toBe(at.getTime());
    const rows = await db.select({ name: assets.name }).from(assets).where(eq(assets.orgId, orgId));
    expect(rows.map((row) => row.name)).toEqual(['Public web server']);
  });
});
