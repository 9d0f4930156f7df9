import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { listWatchlists } from '../modules/watchlists/repo';
import { watchlistValues } from '../modules/watchlists/service';
import { seedWatchlistsDemo } from './watchlists';

let database: Database;
let harborOrgId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  harborOrgId = (await seedOrg(database.db, { productSkus: ['CYBERFRAUD_PREMIUM'] })).id;
  const admin = await seedUser(database.db, { homeOrgId: harborOrgId, permissions: ['THREATMATCH_EDIT'] });
  await seedWatchlistsDemo(database.db, harborOrgId, admin.id);
});
afterAll(() => database.close());

describe('demo watchlists', () => {
  it('give First Harbor a security watchlist of demo accounts and a fraud watchlist', async () => {
    const page = { limit: 10, offset: 0 };
    const security = await listWatchlists(database.db, harborOrgId, 'security', undefined, page);
    expect(security.items.map(({ row, itemCount }) => [row.name, row.field, itemCount])).toEqual([
      ['Privileged accounts', 'user_name', 3],
    ]);
    const values = await watchlistValues(database.db, harborOrgId, security.items[0]!.row.id);
    expect(values?.values).toContain('svc_backup');
    const fraud = await listWatchlists(database.db, harborOrgId, 'fraud', undefined, page);
    expect(fraud.items.map(({ row }) => row.name)).toEqual(['Mule accounts']);
  });
});
