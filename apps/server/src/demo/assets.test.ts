import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_ASSET_LABELS } from '@vigil/contracts';
import { createTestDatabase } from '../../test/database';
import { seedOrg } from '../../test/fixtures';
import type { Database } from '../db/client';
import { getAssetConfig, listLabelsInUse, listSoftwareNames } from '../modules/assets/repo';
import { listDownAssetsFor, lookupAssetsByHostname } from '../modules/assets/service';
import { assetAddresses, assets } from '../modules/assets/tables';
import { seedAssetsDemo } from './assets';

let database: Database;
const orgIds = { harbor: '', prairie: '', coastal: '' };
beforeAll(async () => {
  database = await createTestDatabase();
  for (const key of Object.keys(orgIds) as (keyof typeof orgIds)[]) {
    orgIds[key] = (await seedOrg(database.db)).id;
  }
  await seedAssetsDemo(database.db, orgIds);
});
afterAll(() => database.close());

describe('demo assets', () => {
  it('gives every demo bank an inventory of a realistic mix', async () => {
    const db = database.db;
    const counts = await db
      .select({
        orgId: assets.orgId,
        total: sql<number>`count(*)::int`,
        untracked: sql<number>`count(*) FILTER (WHERE NOT ${assets.tracked})::int`,
        deleted: sql<number>`count(*) FILTER (WHERE NOT ${assets.active})::int`,
        high: sql<number>`count(*) FILTER (WHERE ${assets.importance} = 'high')::int`,
        none: sql<number>`count(*) FILTER (WHERE ${assets.importance} = 'none')::int`,
      })
      .from(assets)
      .groupBy(assets.orgId);
    expect(counts).toHaveLength(3);
    expect(counts.reduce((sum, row) => sum + row.total, 0)).toBeGreaterThan(250);
    for (const row of counts) {
      expect(row.untracked).toBeGreaterThan(5);
      expect(row.deleted).toBe(2);
      expect(row.high).toBeGreaterThan(5);
      expect(row.none).toBeGreaterThan(0);
    }
    const labels = await listLabelsInUse(db, orgIds.harbor);
    for (const label of SUGGESTED_ASSET_LABELS) expect(labels).toContain(label);
    expect((await listSoftwareNames(db, orgIds.harbor)).length).toBeGreaterThan(10);
    const ipv6 = await db
      .select()
      .from(assetAddresses)
      .where(and(eq(assetAddresses.orgId, orgIds.prairie), sql`${assetAddresses.ip} LIKE 'fd00:%'`));
    expect(ipv6.length).toBeGreaterThan(0);
    expect((await lookupAssetsByHostname(db, orgIds.harbor, ['DC01']))[0]!.assets[0]!.name).toBe(
      'Domain Controller DC01',
    );
    expect(await getAssetConfig(db, orgIds.coastal)).toMatchObject({ discoverUntracked: false });
  });

  it('has high-importance assets without recent data for the assets-down notice', async () => {
    const down = await listDownAssetsFor(database.db, orgIds.harbor, new Date());
    expect(down.total).toBeGreaterThanOrEqual(3);
    expect(down.items.map((item) => item.name)).toContain('Core Banking DB Standby');
  });

  it('is the same data every time', async () => {
    const names = async (orgId: string) =>
      (await database.db.select({ name: assets.name }).from(assets).where(eq(assets.orgId, orgId)))
        .map((row) => row.name)
        .sort();
    const again = { harbor: (await seedOrg(database.db)).id, prairie: '', coastal: '' };
    again.prairie = (await seedOrg(database.db)).id;
    again.coastal = (await seedOrg(database.db)).id;
    await seedAssetsDemo(database.db, again);
    expect(await names(again.harbor)).toEqual(await names(orgIds.harbor));
  });
});
