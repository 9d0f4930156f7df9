import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { customParsers } from '../modules/custom-parsers/tables';
import { events } from '../modules/events/tables';
import { seedCustomParsersDemo } from './custom-parsers';

let database: Database;
let orgId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  orgId = (await seedOrg(database.db, { productSkus: ['CUSTOM_PARSERS'] })).id;
  const admin = await seedUser(database.db, { homeOrgId: orgId, permissions: ['CUSTOM_PARSER_EDIT'] });
  await seedCustomParsersDemo(database.db, orgId, admin.id);
});
afterAll(() => database.close());

describe('demo custom parser', () => {
  it('gives the bank a VPN parser whose events arrive parsed', async () => {
    const [parser] = await database.db.select().from(customParsers).where(eq(customParsers.orgId, orgId));
    expect(parser).toMatchObject({ dataSource: 'vpn-gateway' });
    const rows = await database.db
      .select()
      .from(events)
      .where(and(eq(events.orgId, orgId), eq(events.dataSource, 'vpn-gateway')));
    expect(rows.length).toBeGreaterThan(10);
    for (const row of rows) {
      expect(row.srcIp).toMatch(/^198\.51\.100\.\d+$/);
      expect(row).toMatchObject({ dstIp: '10.40.0.1', host: 'vpn-gw-01' });
      expect(row.userName).toBeTruthy();
      expect(typeof row.fields['duration_seconds']).toBe('number');
      expect(row.fields).not.toHaveProperty('client address');
    }
  });
});
