import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { eventRow } from '../modules/events/store';
import { matchIndicators } from '../modules/threat/match';
import { lookupThreatRatings } from '../modules/threat/ratings';
import { seedThreatDemo } from './threat';

let database: Database;
let harborOrgId: string;
let otherOrgId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  harborOrgId = (await seedOrg(database.db)).id;
  otherOrgId = (await seedOrg(database.db)).id;
  const admin = await seedUser(database.db, { homeOrgId: harborOrgId, permissions: ['RATE_THREAT_EDIT'] });
  await seedThreatDemo(database.db, [harborOrgId, otherOrgId], harborOrgId, admin.id);
});
afterAll(() => database.close());

describe('demo threat match', () => {
  it('subscribes the banks to indicators that demo events meet', async () => {
    const received = new Date();
    const rows = [
      eventRow(
        harborOrgId,
        { host: 'ws-014', dstIp: '203.0.113.77', fields: { url: 'https://free-prizes.example/' } },
        received,
      ),
      eventRow(
        harborOrgId,
        { host: 'ws-014', dstIp: '192.0.2.5', fields: { url: 'https://intranet.example/' } },
        received,
      ),
    ];
    for (const orgId of [harborOrgId, otherOrgId]) {
      const matches = await matchIndicators(database.db, orgId, rows);
      expect(matches.map(({ row, field }) => `${row} ${field}`)).toEqual(['0 dstIp', '0 fields.url']);
    }
  });

  it('rates a few subjects of First Harbor Bank', async () => {
    const ratings = await lookupThreatRatings(database.db, harborOrgId, [
      'crypto-miner.example',
      'da39a3ee5e6b4b0d3255bfef95601890afd80709',
    ]);
    expect(ratings.map(({ rating, ignored, subjectType }) => [subjectType, rating, ignored])).toEqual([
      ['HOST', 'HIGH', false],
      ['SIGNATURE', 'HARMLESS', true],
    ]);
  });
});
