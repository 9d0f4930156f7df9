import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { listTriggers } from '../modules/triggers/repo';
import { seedTriggersDemo } from './triggers';

let database: Database;
let harborOrgId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  harborOrgId = (await seedOrg(database.db, { productSkus: ['CYBERFRAUD_PREMIUM'] })).id;
  const admin = await seedUser(database.db, { homeOrgId: harborOrgId, permissions: ['TRIGGER_EDIT'] });
  await seedTriggersDemo(database.db, harborOrgId, admin.id);
});
afterAll(() => database.close());

const list = (domain: 'security' | 'fraud') =>
  listTriggers(
    database.db,
    harborOrgId,
    { domain, sortField: 'name', sortOrder: 'ASC' },
    { limit: 10, offset: 0 },
  );

describe('demo triggers', () => {
  it('give First Harbor a brute-force threshold trigger and a fraud wire trigger, both due to run', async () => {
    const security = await list('security');
    expect(
      security.items.map(({ row, savedQueryName }) => [row.name, row.type, row.minMatch, savedQueryName]),
    ).toEqual([['Brute-force logins', 'THRESHOLD', 5, 'Failed Windows logins']]);
    const fraud = await list('fraud');
    expect(fraud.items.map(({ row, savedQueryName }) => [row.name, row.type, savedQueryName])).toEqual([
      ['Large wire transfer', 'EVERY_EVENT', 'Large wire transfers'],
    ]);
    for (const { row } of [...security.items, ...fraud.items]) {
      expect(row.state).toBe('ACTIVE');
      expect(row.nextRunAt!.getTime()).toBeGreaterThan(row.lastWindowEnd!.getTime());
    }
  });
});
