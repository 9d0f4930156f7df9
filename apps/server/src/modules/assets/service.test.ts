import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database';
import { seedOrg } from '../../../test/fixtures';
import type { Database } from '../../db/client';
import { findAsset, listAssetSoftware, saveAssetConfig } from './repo';
import {
  createAsset,
  lookupAssetsByHostname,
  lookupAssetsByIp,
  lookupAssetsByMac,
  recordAssetSighting,
  recordAssetSightings,
} from './service';
import { assets } from './tables';

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

const actor = { userId: null };
const input = (overrides: object) => ({
  name: 'Asset',
  importance: 'low' as const,
  tag: null,
  owner: null,
  description: null,
  labels: [],
  hostnames: [],
  ipMacPairs: [],
  ...overrides,
});

describe('recordAssetSighting', () => {
  it('moves last-seen (and data-last-sent when the asset sent data) forward, never back', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const asset = await createAsset(
      db,
      orgId,
      input({
        name: 'Teller 4',
        hostnames: ['Teller-04'],
        ipMacPairs: [{ ip: '2001:db8::4', mac: '02:00:00:00:00:04' }],
      }),
      actor,
    );
    const before = (await findAsset(db, orgId, asset.id))!;
    const t1 = new Date('2025-05-01T10:00:00Z');
    const t2 = new Date('2025-05-01T11:00:00Z');
    expect(await recordAssetSighting(db, orgId, { ip: '2001:DB8:0::4', seenAt: t2 })).toEqual({
      assetId: asset.id,
      created: false,
    });
    let row = (await findAsset(db, orgId, asset.id))!;
    expect(row.lastSeen).toEqual(t2);
    expect(row.dataLastSent).toBeNull();
    // Seen by MAC, earlier, having sent data: last-seen stays, data-last-sent is set.
    await recordAssetSighting(db, orgId, { mac: '0200.0000.0004', seenAt: t1, sentData: true });
    row = (await findAsset(db, orgId, asset.id))!;
    expect(row.lastSeen).toEqual(t2);
    expect(row.dataLastSent).toEqual(t1);
    // By hostname, ignoring case, with software.
    const t3 = new Date('2025-05-02T09:00:00Z');
    await recordAssetSighting(db, orgId, {
      hostname: 'teller-04',
      seenAt: t3,
      sentData: true,
      software: [
        { name: 'Teller App', version: '5.2' },
        { name: ' ', version: '1' },
      ],
    });
    row = (await findAsset(db, orgId, asset.id))!;
    expect(row).toMatchObject({ lastSeen: t3, dataLastSent: t3, modifiedOn: before.modifiedOn });
    await recordAssetSighting(db, orgId, {
      hostname: 'TELLER-04',
      seenAt: t1,
      software: [{ name: 'Teller App', version: '5.2' }],
    });
    expect(await listAssetSoftware(db, orgId, asset.id)).toEqual([
      { name: 'Teller App', version: '5.2', lastSeen: t3 },
    ]);
  });

  it('creates an untracked asset for an unknown host when discovery is on, and only then', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const seenAt = new Date('2025-06-01T00:00:00Z');
    const found = await recordAssetSighting(db, orgId, {
      hostname: 'new-host.branch',
      ip: '10.4.4.4',
      mac: 'AA-BB-CC-00-04-04',
      seenAt,
      sentData: true,
      software: [{ name: 'Agent', version: null }],
    });
    expect(found).toMatchObject({ created: true });
    const row = (await findAsset(db, orgId, found!.assetId))!;
    expect(row).toMatchObject({
      name: 'new-host.branch',
      tracked: false,
      importance: 'none',
      hostnames: ['new-host.branch'],
      lastSeen: seenAt,
      dataLastSent: seenAt,
    });
    expect(row.searchText).toContain('10.4.4.4');
    expect((await lookupAssetsByMac(db, orgId, ['aa:bb:cc:00:04:04']))[0]!.assets[0]!.id).toBe(row.id);
    // The next sighting finds it.
    expect(await recordAssetSighting(db, orgId, { ip: '10.4.4.4', seenAt })).toEqual({
      assetId: row.id,
      created: false,
    });
    // Named after the address when there is no hostname; invalid addresses are ignored.
    const byIp = await recordAssetSighting(db, orgId, { ip: 'FD00::0:9', mac: 'not-a-mac', seenAt });
    expect((await findAsset(db, orgId, byIp!.assetId))!.name).toBe('fd00::9');
    expect(await recordAssetSighting(db, orgId, { ip: 'nonsense', seenAt })).toBeNull();

    await saveAssetConfig(db, orgId, { downNoticeEnabled: true, discoverUntracked: false });
    expect(await recordAssetSighting(db, orgId, { hostname: 'ghost', seenAt })).toBeNull();
    expect(await db.select().from(assets).where(eq(assets.orgId, orgId))).toHaveLength(2);
  });

  it('creates one asset when two sightings of a new address race', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const seenAt = new Date();
    const results = await Promise.all(
      Array.from({ length: 4 }, () => recordAssetSighting(db, orgId, { ip: '10.5.5.5', seenAt })),
    );
    expect(new Set(results.map((result) => result!.assetId)).size).toBe(1);
    expect(await db.select().from(assets).where(eq(assets.orgId, orgId))).toHaveLength(1);
  });
});

describe('recordAssetSightings', () => {
  it('finds assets by IP, MAC or hostname in one statement, moves them forward, discovers the rest', async () => {
    const db = database.db;
    const orgId = (await seedOrg(db)).id;
    const teller = await createAsset(
      db,
      orgId,
      input({ name: 'Teller 7', hostnames: ['Teller-07'], ipMacPairs: [{ ip: '10.7.0.7', mac: null }] }),
      actor,
    );
    const printer = await createAsset(
      db,
      orgId,
      input({ name: 'Printer', ipMacPairs: [{ ip: null, mac: '02:00:00:00:00:07' }] }),
      actor,
    );
    const before = (await findAsset(db, orgId, teller.id))!;
    const t1 = new Date('2025-07-01T10:00:00Z');
    const t2 = new Date('2025-07-01T11:00:00Z');
    const results = await recordAssetSightings(db, orgId, [
      { ip: '10.7.0.7', seenAt: t1 },
      { hostname: 'TELLER-07', seenAt: t2, sentData: true },
      { mac: '0200.0000.0007', seenAt: t1, software: [{ name: 'Firmware', version: '2' }] },
      // An internet address no asset holds is not discovered; a private one is.
      { ip: '203.0.113.9', seenAt: t1, discover: false },
      { ip: '10.7.0.8', seenAt: t2 },
      { hostname: ' ', seenAt: t1 },
    ]);
    expect(results.slice(0, 4)).toEqual([
      { assetId: teller.id, created: false },
      { assetId: teller.id, created: false },
      { assetId: printer.id, created: false },
      null,
    ]);
    expect(results[4]).toMatchObject({ created: true });
    expect(results[5]).toBeNull();
    expect(await findAsset(db, orgId, teller.id)).toMatchObject({
      lastSeen: t2,
      dataLastSent: t2,
      modifiedOn: before.modifiedOn,
    });
    expect(await listAssetSoftware(db, orgId, printer.id)).toEqual([
      { name: 'Firmware', version: '2', lastSeen: t1 },
    ]);
    // Never back: an older sighting leaves the times as they are.
    await recordAssetSightings(db, orgId, [{ hostname: 'teller-07', seenAt: t1, sentData: true }]);
    expect(await findAsset(db, orgId, teller.id)).toMatchObject({ lastSeen: t2, dataLastSent: t2 });
    expect(await db.select().from(assets).where(eq(assets.orgId, orgId))).toHaveLength(3);
  });
});

describe('lookups', () => {
  it('never answer assets of another organisation', async () => {
    const db = database.db;
    const mine = (await seedOrg(db)).id;
    const theirs = (await seedOrg(db)).id;
    await createAsset(
      db,
      theirs,
      input({ hostnames: ['shared'], ipMacPairs: [{ ip: '10.0.0.1', mac: '02:00:00:00:00:01' }] }),
      actor,
    );
    expect(await lookupAssetsByIp(db, mine, ['10.0.0.1'], new Date())).toEqual([
      { value: '10.0.0.1', assets: [] },
    ]);
    expect(await lookupAssetsByMac(db, mine, ['02:00:00:00:00:01'])).toEqual([
      { value: '02:00:00:00:00:01', assets: [] },
    ]);
    expect(await lookupAssetsByHostname(db, mine, ['SHARED'])).toEqual([{ value: 'SHARED', assets: [] }]);
    expect((await lookupAssetsByHostname(db, theirs, ['SHARED']))[0]!.assets).toHaveLength(1);
  });
});
