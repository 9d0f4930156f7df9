import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { events } from '../modules/events/tables';
import { ingestEventRows } from '../modules/events/pipeline';
import { eventRow } from '../modules/events/store';
import { seedClassifiersDemo } from './classifiers';

let database: Database;
let harborOrgId: string;
let otherOrgId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  harborOrgId = (await seedOrg(database.db)).id;
  otherOrgId = (await seedOrg(database.db)).id;
  const admin = await seedUser(database.db, { homeOrgId: harborOrgId, permissions: ['CLASSIFIER_EDIT'] });
  await seedClassifiersDemo(database.db, harborOrgId, admin.id);
});
afterAll(() => database.close());

const now = new Date();
const send = (orgId: string, inputs: Parameters<typeof eventRow>[1][]) =>
  ingestEventRows(
    database.db,
    orgId,
    inputs.map((input, n) => eventRow(orgId, input, now, n)),
  );
const stored = (orgId: string) =>
  database.db.select().from(events).where(eq(events.orgId, orgId)).orderBy(events.message);

describe('demo classifiers', () => {
  it('tag core banking everywhere, mark the backup account and drop health checks at First Harbor', async () => {
    const batch = [
      { message: 'wire of 10.00 USD via online', dataSource: 'core-banking' },
      { message: 'logon', userName: 'svc_backup' },
      { message: 'GET /health', dataSource: 'web-proxy' },
    ];
    await send(harborOrgId, batch);
    await send(otherOrgId, batch);
    const harbor = await stored(harborOrgId);
    expect(harbor.map((row) => row.message)).toEqual(['logon', 'wire of 10.00 USD via online']);
    expect(harbor[0]).toMatchObject({
      fields: { account_type: 'service', owner_team: 'infrastructure' },
      flags: ['skipAnomalyDetection'],
    });
    expect(harbor[1]!.fields).toEqual({ business_unit: 'retail' });
    const other = await stored(otherOrgId);
    expect(other.map((row) => [row.message, row.fields])).toEqual([
      ['GET /health', {}],
      ['logon', {}],
      ['wire of 10.00 USD via online', { business_unit: 'retail' }],
    ]);
  });
});
