import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg } from '../../test/fixtures';
import type { Database } from '../db/client';
import { events } from '../modules/events/tables';
import { seedAssetsDemo } from './assets';
import { and, eq, sql } from 'drizzle-orm';
import { assets } from '../modules/assets/tables';
import { inputTokens } from '../modules/tokens/tables';
import {
  DEMO_EVENTS_PER_ORG,
  DEMO_TRICKLE_TOKEN,
  PROVIDER_HOSTS,
  seedEventsDemo,
  seedProviderEventsDemo,
  seedTrickleTokens,
  trickleDemoEvents,
} from './events';

let database: Database;
const orgIds = { harbor: '', prairie: '', coastal: '' };
const now = new Date();
beforeAll(async () => {
  database = await createTestDatabase();
  for (const key of Object.keys(orgIds) as (keyof typeof orgIds)[]) {
    orgIds[key] = (await seedOrg(database.db)).id;
  }
  await seedAssetsDemo(database.db, orgIds);
  await seedEventsDemo(database.db, Object.values(orgIds), now);
});
afterAll(() => database.close());

describe('demo events', () => {
  it('gives every bank a month of events from its own assets, of each data source', async () => {
    const rows = await database.db
      .select({
        orgId: events.orgId,
        total: sql<number>`count(*)::int`,
        sources: sql<string[]>`array_agg(DISTINCT ${events.dataSource} ORDER BY ${events.dataSource})`,
        oldest: sql<string>`min(${events.ts})::text`,
        newest: sql<string>`max(${events.ts})::text`,
        strangers: sql<number>`count(*) FILTER (WHERE NOT EXISTS (
          SELECT 1 FROM assets a WHERE a.org_id = ${events.orgId} AND ${events.host} = ANY (a.hostnames)))::int`,
      })
      .from(events)
      .groupBy(events.orgId);
    expect(rows.map((row) => row.orgId).sort()).toEqual(Object.values(orgIds).sort());
    for (const row of rows) {
      expect(row.total).toBe(DEMO_EVENTS_PER_ORG);
      expect(row.sources).toEqual(['core-banking', 'firewall', 'web-proxy', 'windows-security']);
      expect(row.strangers).toBe(0);
      expect(now.getTime() - new Date(row.oldest).getTime()).toBeGreaterThan(20 * 86_400_000);
      expect(new Date(row.newest).getTime()).toBeLessThanOrEqual(now.getTime());
    }
  });

  it('trickles a minute of events for banks holding an active trickle token, keeping key assets up', async () => {
    const db = database.db;
    await seedTrickleTokens(db, Object.values(orgIds));
    await db
      .update(inputTokens)
      .set({ revokedAt: new Date() })
      .where(and(eq(inputTokens.orgId, orgIds.coastal), eq(inputTokens.description, DEMO_TRICKLE_TOKEN)));
    const later = new Date(now.getTime() + 3_600_000);

    const written = await trickleDemoEvents(db, later);

    const fresh = await db
      .select({ orgId: events.orgId, total: sql<number>`count(*)::int` })
      .from(events)
      .where(sql`${events.ts} > ${now.toISOString()}::timestamptz`)
      .groupBy(events.orgId);
    expect(fresh.map((row) => row.orgId).sort()).toEqual([orgIds.harbor, orgIds.prairie].sort());
    expect(fresh.reduce((sum, row) => sum + row.total, 0)).toBe(written);
    // Every high-importance asset of a trickling bank has sent data within the minute.
    const key = await db
      .select({ orgId: assets.orgId, dataLastSent: assets.dataLastSent })
      .from(assets)
      .where(and(eq(assets.orgId, orgIds.harbor), eq(assets.importance, 'high')));
    expect(key.length).toBeGreaterThan(0);
    for (const asset of key) {
      expect(asset.dataLastSent!.getTime()).toBeGreaterThan(later.getTime() - 61_000);
    }
  });

  it("gives the provider a month of its own platform's events, without banking", async () => {
    const providerId = (await seedOrg(database.db, { isProvider: true })).id;
    expect(await seedProviderEventsDemo(database.db, providerId, now)).toBe(DEMO_EVENTS_PER_ORG);
    const [row] = await database.db
      .select({
        sources: sql<string[]>`array_agg(DISTINCT ${events.dataSource} ORDER BY ${events.dataSource})`,
        hosts: sql<string[]>`array_agg(DISTINCT ${events.host} ORDER BY ${events.host})`,
        oldest: sql<string>`min(${events.ts})::text`,
      })
      .from(events)
      .where(eq(events.orgId, providerId));
    expect(row!.sources).toEqual(['firewall', 'web-proxy', 'windows-security']);
    expect(row!.hosts).toEqual(PROVIDER_HOSTS.map((host) => host.hostname).sort());
    expect(now.getTime() - new Date(row!.oldest).getTime()).toBeGreaterThan(20 * 86_400_000);
  });
});
