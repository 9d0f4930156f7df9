import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { checkNoData } from './no-data';
import { integrations } from './tables';

const HOUR = 3_600_000;

let ctx: TestContext;
let orgId: string;
let admin: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  admin = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['INTEGRATION_VIEW', 'INTEGRATION_EDIT', 'ALERT_INBOX_VIEW'],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, payload?: object) =>
  orgRequest(ctx, orgId, method, path, admin, payload);

async function addAzure(name: string, settings: object) {
  const response = await call('POST', '/integrations', {
    kind: 'AZURE',
    name,
    settings: {
      subscriptionId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
      resourceGroup: 'security-rg',
      storageAccount: 'banklogs01',
      ...settings,
    },
  });
  expect(response.statusCode, response.body).toBe(201);
  const id = (response.json() as { id: string }).id;
  const [row] = await ctx.database.db.select().from(integrations).where(eq(integrations.id, id));
  return row!;
}

async function noDataAlerts() {
  const response = await call('GET', '/alerts?domain=security&pageSize=100');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: { kind: string; title: string; severity: string }[] }).items.filter(
    (alert) => alert.kind === 'NO_DATA',
  );
}

describe('alert on no data', () => {
  it('raises one alert per silence beyond the threshold, and a new one after data flowed', async () => {
    const watched = await addAzure('Office 365', { alertOnNoData: true, noDataThresholdHours: 12 });
    await addAzure('Quiet tenant', { alertOnNoData: false });
    const created = watched.createdOn.getTime();
    const db = ctx.database.db;

    // Within the threshold: nothing.
    expect(await checkNoData(db, new Date(created + 11 * HOUR))).toBe(0);
    expect(await noDataAlerts()).toEqual([]);

    // Past it: one alert, and only one however often the check runs.
    expect(await checkNoData(db, new Date(created + 13 * HOUR))).toBe(1);
    expect(await checkNoData(db, new Date(created + 30 * HOUR))).toBe(0);
    const alerts = await noDataAlerts();
    expect(alerts).toEqual([
      expect.objectContaining({ title: 'No data from Office 365 for over 12 hours', severity: 'MEDIUM' }),
    ]);

    // Data arrives: the silence is over; the next silence is counted from the last data.
    const dataAt = new Date(created + 31 * HOUR);
    await db.update(integrations).set({ lastDataAt: dataAt }).where(eq(integrations.id, watched.id));
    expect(await checkNoData(db, new Date(dataAt.getTime() + HOUR))).toBe(0);
    const [cleared] = await db.select().from(integrations).where(eq(integrations.id, watched.id));
    expect(cleared!.noDataAlertedAt).toBeNull();
    expect(await checkNoData(db, new Date(dataAt.getTime() + 12 * HOUR - 1))).toBe(0);
    expect(await checkNoData(db, new Date(dataAt.getTime() + 12 * HOUR + 1))).toBe(1);
    expect(await noDataAlerts()).toHaveLength(2);
  });
});
