import { sql } from 'drizzle-orm';
import type { Aggregation } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser } from '../../../test/fixtures';
import type { Database } from '../../db/client';
import { insertRestriction } from '../restrictions/repo';
import { dropExpiredPartitions } from './partitions';
import { aggregateEvents, type SearchActor } from './service';

/*
 * Chart aggregations from hourly roll-ups answer exactly what the same aggregation over the events
 * answers: partial hours at both ends, late events, retention deletes and data restrictions.
 */

let database: Database;
let actor: SearchActor;
let restricted: SearchActor;
const HOUR_MS = 3_600_000;
const start = Date.UTC(2025, 5, 1, 0, 0, 0);
const now = new Date(start + 3 * 24 * HOUR_MS);
/** Not on hour boundaries, so that the first and last hours are partial. */
const range = {
  begin: new Date(start + 5 * HOUR_MS + 17 * 60_000).toISOString(),
  end: new Date(start + 60 * HOUR_MS + 42 * 60_000).toISOString(),
};
const HOSTS = ['web-1', 'web-2', 'db-1', 'fw-1'];

const AGGREGATIONS: { query: string; aggregation: Aggregation }[] = [
  { query: '', aggregation: { type: 'count' } },
  { query: 'action:deny', aggregation: { type: 'count' } },
  { query: '', aggregation: { type: 'terms', field: 'host', size: 3 } },
  { query: 'data_source:firewall', aggregation: { type: 'terms', field: 'action' } },
  { query: '', aggregation: { type: 'date_histogram', interval: '1h' } },
  { query: 'action:deny', aggregation: { type: 'date_histogram', interval: '1d' } },
  { query: '', aggregation: { type: 'date_histogram', interval: '5m' } },
];

const answer = (who: SearchActor, entry: (typeof AGGREGATIONS)[number], rollups: boolean) =>
  aggregateEvents(database.db, who, { ...range, filters: [], ...entry }, { now, rollups });

/** Every aggregation, from roll-ups and from the events: they must be equal. */
async function bothWays(who: SearchActor) {
  const answers = [];
  for (const entry of AGGREGATIONS) {
    const rolled = await answer(who, entry, true);
    expect(rolled, JSON.stringify(entry)).toEqual(await answer(who, entry, false));
    answers.push(rolled);
  }
  return answers;
}

const rows = async <T>(text: string) =>
  (database.db.execute(sql.raw(text)) as Promise<unknown>).then((result) => (result as { rows: T[] }).rows);

beforeAll(async () => {
  database = await createTestDatabase();
  const org = await seedOrg(database.db);
  const viewer = await seedUser(database.db, { homeOrgId: org.id, permissions: ['EVENT_VIEW'] });
  const limited = await seedUser(database.db, { homeOrgId: org.id, permissions: ['EVENT_VIEW'] });
  actor = { orgId: org.id, userId: viewer.id };
  restricted = { orgId: org.id, userId: limited.id };
  await insertRestriction(database.db, org.id, {
    name: 'web only',
    includeQuery: 'host:web-*',
    excludeQuery: null,
    userIds: [limited.id],
    orgIds: [],
  });
  // Three days, an event every 7 minutes, hosts, sources and actions rotating.
  const events = [];
  for (let minute = 0; minute < 3 * 24 * 60; minute += 7) {
    const n = minute / 7;
    events.push({
      timestamp: new Date(start + minute * 60_000),
      host: HOSTS[n % HOSTS.length],
      dataSource: n % 3 === 0 ? 'firewall' : 'proxy',
      message: `event ${n}`,
      fields: { action: n % 5 === 0 ? 'deny' : 'allow' },
    });
  }
  await seedEvents(database.db, org.id, events);
});
afterAll(() => database.close());

describe('hourly roll-ups of chart aggregations', () => {
  it('answer what the events answer, with partial hours at both ends', async () => {
    const [count, denied, hosts] = await bothWays(actor);
    expect(count!.value).toBeGreaterThan(400);
    expect(denied!.value).toBeGreaterThan(80);
    expect(hosts!.buckets).toHaveLength(3);
    // The whole hours between are rolled up: 5:17 to 12:42 two days later holds 54 whole hours.
    const [{ n }] = (await rows<{ n: number }>(
      `SELECT count(DISTINCT hour)::int AS n FROM event_rollup_hours`,
    )) as [{ n: number }];
    expect(n).toBe(54);
  });

  it('are read: a changed roll-up shows, and events written to its hour make it count no more', async () => {
    const entry = AGGREGATIONS[0]!;
    const before = (await answer(actor, entry, false)).value!;
    // Tampering with the stored counts shows in the answer from roll-ups: they are what it reads.
    await database.db.execute(sql`UPDATE event_rollup_counts SET count = count + 1000 WHERE term = ''
      AND hour = ${new Date(start + 20 * HOUR_MS).toISOString()}::timestamptz`);
    expect((await answer(actor, entry, true)).value).toBeGreaterThan(before + 999);
    // A late event in that hour raises its version: the hour is counted again, from the events.
    await seedEvents(database.db, actor.orgId, [
      {
        timestamp: new Date(start + 20 * HOUR_MS + 1),
        host: 'web-1',
        message: 'late',
        fields: { action: 'deny' },
      },
    ]);
    expect((await answer(actor, entry, true)).value).toBe(before + 1);
    await bothWays(actor);
  });

  it('leave all time to the events', async () => {
    const before = await rows<{ n: number }>(`SELECT count(*)::int AS n FROM event_rollup_hours`);
    const allTime = {
      query: '',
      filters: [],
      intervalType: 'ALL_TIME' as const,
      aggregation: { type: 'count' as const },
    };
    const rolled = await aggregateEvents(database.db, actor, allTime, { now, rollups: true });
    expect(rolled).toEqual(await aggregateEvents(database.db, actor, allTime, { now }));
    expect(await rows<{ n: number }>(`SELECT count(*)::int AS n FROM event_rollup_hours`)).toEqual(before);
  });

  it('keep each viewer inside their data restrictions', async () => {
    const [count, , hosts] = await bothWays(restricted);
    const [all] = await bothWays(actor);
    expect(count!.value).toBeLessThan(all!.value!);
    expect(hosts!.buckets!.map((bucket) => bucket.key).sort()).toEqual(['web-1', 'web-2']);
  });

  it('forget the hours retention deletes from', async () => {
    await bothWays(actor);
    // A cut-off inside the range, in the middle of an hour: that hour loses events.
    const cutoffAt = new Date(start + 30 * HOUR_MS + 30 * 60_000);
    const days = (now.getTime() - cutoffAt.getTime()) / (24 * HOUR_MS);
    await dropExpiredPartitions(database.db, days, now);
    const [count] = await bothWays(actor);
    const [{ n }] = (await rows<{ n: number }>(
      `SELECT count(*)::int AS n FROM events WHERE ts >= '${range.begin}' AND ts <= '${range.end}'`,
    )) as [{ n: number }];
    expect(count!.value).toBe(n);
    await bothWays(restricted);
  });
});
