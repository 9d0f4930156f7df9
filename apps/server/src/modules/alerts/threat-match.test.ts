import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAT_MATCH_ALERTS_PER_BATCH } from '@vigil/contracts';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { createInputToken } from '../tokens/service';
import { threatIndicators, threatSources, threatSourceSubscriptions } from '../threat/tables';
import { alerts } from './tables';

let ctx: TestContext;
let orgId: string;
let token: string;
let viewer: SeededUser;
let indicatorId: string;
let sourceId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['ALERT_INBOX_VIEW', 'EVENT_VIEW'] });
  token = (await createInputToken(db, { orgId, userId: viewer.id }, 'API', { description: 'test' })).secret;
  const [source, fraudSource] = await db
    .insert(threatSources)
    .values([
      { orgId: null, domain: 'security', name: 'Harbor Intel Feed', type: 'COMMERCIAL' },
      { orgId, domain: 'fraud', name: 'Mule accounts', type: 'INTERNAL' },
    ])
    .returning();
  sourceId = source!.id;
  await db.insert(threatSourceSubscriptions).values({ orgId, sourceId });
  const [indicator] = await db
    .insert(threatIndicators)
    .values([
      { sourceId, type: 'IP', value: '203.0.113.0/24', rating: 'HIGH', severity: 'CRITICAL' },
      { sourceId: fraudSource!.id, type: 'EMAIL', value: 'mule@payee.example', rating: 'MEDIUM' },
    ])
    .returning();
  indicatorId = indicator!.id;
});
afterAll(() => ctx.close());

const ingest = (events: object[]) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/ingest/events',
    headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${token}` },
    payload: events.map((event) => JSON.stringify(event)).join('\n'),
  });

describe('threat-match alerts at ingest', () => {
  it('raises one alert per indicator and event, in the domain of the source', async () => {
    const response = await ingest([
      { message: 'inbound connection', srcIp: '203.0.113.7', dataSource: 'firewall' },
      { message: 'quiet', srcIp: '192.0.2.1', dataSource: 'firewall' },
      { message: 'internal scan', srcIp: '203.0.113.8', dstIp: '203.0.113.9', dataSource: 'firewall' },
      { message: 'payee added', dataSource: 'online-banking', fields: { email: 'Mule@payee.example' } },
    ]);
    expect(response.statusCode, response.body).toBeLessThan(300);
    const rows = await ctx.database.db.select().from(alerts).where(eq(alerts.orgId, orgId));
    // The scan meets the indicator twice (source and destination) and raises one alert.
    expect(rows).toHaveLength(3);
    const security = rows.find((row) => row.domain === 'security' && row.details.field === 'srcIp')!;
    expect(security).toMatchObject({
      kind: 'THREAT_MATCH',
      state: 'NEW',
      severity: 'CRITICAL',
      title: 'Threat match: 203.0.113.0/24 (Harbor Intel Feed)',
      details: { indicatorId, sourceId, field: 'srcIp', value: '203.0.113.0/24' },
    });
    expect(rows.filter((row) => row.domain === 'security')).toHaveLength(2);
    const fraud = rows.find((row) => row.domain === 'fraud')!;
    expect(fraud).toMatchObject({
      severity: 'MEDIUM',
      title: 'Threat match: mule@payee.example (Mule accounts)',
    });

    // The alert points at the stored event: show events finds it.
    const shown = await ctx.app.inject({
      method: 'GET',
      url: `/api/org/${orgId}/alert/${security.id}/events`,
      headers: browserHeaders(viewer.cookie),
    });
    expect(shown.statusCode).toBe(200);
    expect((shown.json() as { items: { message: string; srcIp: string }[] }).items).toEqual([
      expect.objectContaining({ message: 'inbound connection', srcIp: '203.0.113.7' }),
    ]);
  });

  it('raises at most the cap of alerts for one batch', async () => {
    const db = ctx.database.db;
    await db.delete(alerts).where(eq(alerts.orgId, orgId));
    const events = Array.from({ length: THREAT_MATCH_ALERTS_PER_BATCH + 5 }, (_, index) => ({
      message: `scan ${index}`,
      srcIp: `203.0.113.${index % 250}`,
    }));
    expect((await ingest(events)).statusCode).toBeLessThan(300);
    const rows = await db.select().from(alerts).where(eq(alerts.orgId, orgId));
    expect(rows).toHaveLength(THREAT_MATCH_ALERTS_PER_BATCH);
  });
});
