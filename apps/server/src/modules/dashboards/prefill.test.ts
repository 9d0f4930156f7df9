import { eq, sql } from 'drizzle-orm';
import type { Aggregation, ChartData } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import type { AccessContext } from '../../platform/access';
import { aggregateEvents } from '../events/service';
import { insertRestriction } from '../restrictions/repo';
import { insertSavedQuery } from '../saved-queries/repo';
import { loadOrgAccess } from '../users/access';
import { users } from '../users/tables';
import { runPrefill } from './prefill';
import { runChartSpec } from './service';
import { insertChart, insertDashboard } from './repo';
import type { ChartSpec } from './sources';

/*
 * The roll-up prefill computes ahead exactly the roll-ups a later view of the charts reads (the view
 * then computes nothing and answers what the events answer), for each data-restriction set of the
 * organisation's viewers and for no other organisation, and computes nothing when run again.
 */

const HOUR_MS = 3_600_000;
const VIEW = ['CHART_VIEW', 'DASHBOARD_VIEW', 'EVENT_VIEW', 'SAVED_SEARCH_VIEW'] as const;
const EDIT = [...VIEW, 'CHART_EDIT', 'EVENT_EDIT', 'SAVED_SEARCH_EDIT', 'DASHBOARD_EDIT'] as const;
const HOSTS = ['web-1', 'web-2', 'db-1', 'fw-1'];

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let viewer: SeededUser;
let restricted: SeededUser;
let editor: SeededUser;
/** Mid-hour, so that the ranges begin and end inside an hour. */
const now = new Date(Math.floor(Date.now() / HOUR_MS) * HOUR_MS - 2 * HOUR_MS + 23 * 60_000);
const specs: { id: string; spec: ChartSpec }[] = [];
/** Views that counted from the events for want of roll-ups. */
let deferred = 0;

const rows = async <T>(query: ReturnType<typeof sql>) =>
  ((await ctx.database.db.execute(query)) as unknown as { rows: T[] }).rows;

/** Every roll-up hour row and its row version: a view that computes an hour changes this. */
const rollupHours = () =>
  rows<{ org_id: string; rollup: string; hour: string; x: string }>(
    sql`SELECT org_id, rollup, hour::text, xmin::text AS x FROM event_rollup_hours ORDER BY 1, 2, 3`,
  );

async function accessOf(user: SeededUser, org: string): Promise<AccessContext> {
  const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
  const access = (await loadOrgAccess(ctx.database.db, row!, org))!;
  return {
    user: row!,
    org: access.org,
    permissions: new Set(access.permissions),
    rolePermissions: new Set(access.rolePermissions),
    features: {},
  } as unknown as AccessContext;
}

/** Each chart as the dashboard draws it for a user over its 7 days (from roll-ups, computing missing hours). */
async function draw(user: SeededUser): Promise<ChartData[]> {
  const access = await accessOf(user, orgId);
  const answers: ChartData[] = [];
  for (const { spec } of specs) {
    answers.push(
      await runChartSpec(ctx.database.db, access, spec, { intervalType: '7D' }, now, () => deferred++),
    );
  }
  return answers;
}

/** The figures of each chart (values of each series, or the badge's value), counted from the events. */
async function direct(user: SeededUser): Promise<unknown[]> {
  const actor = { orgId, userId: user.id };
  const week = { intervalType: '7D' as const, filters: [] };
  const ask = (query: string, aggregation: Aggregation) =>
    aggregateEvents(ctx.database.db, actor, { ...week, query, aggregation }, { now });
  const count = async (query: string) => (await ask(query, { type: 'count' })).value;
  const histogram = async (query: string) =>
    (await ask(query, { type: 'date_histogram', interval: '1h' })).buckets!.map((bucket) => bucket.count);
  const hosts = await ask('', { type: 'terms', field: 'host', size: 10 });
  return [
    await count('action:deny'),
    [[await count('action:deny'), await count('data_source:firewall')]],
    [await histogram('action:deny'), await histogram('data_source:firewall')],
    [hosts.buckets!.map((bucket) => bucket.count)],
    [await histogram('action:allow')],
  ];
}

/** The figures of the drawn charts, as `direct` answers them. */
const figures = (charts: ChartData[]) =>
  charts.map((chart) =>
    'value' in chart && chart.value !== undefined
      ? chart.value
      : (chart as { series: { values: number[] }[] }).series.map((series) => series.values),
  );

beforeAll(async () => {
  ctx = await createTestApp(undefined, { startJobs: true });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: [...VIEW] });
  restricted = await seedUser(db, { homeOrgId: orgId, permissions: [...VIEW] });
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  // Users without event access see no saved-query chart: no roll-ups for them.
  const noEvents = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW'] });
  const outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...VIEW] });
  await insertRestriction(db, orgId, {
    name: 'web only',
    includeQuery: 'host:web-*',
    excludeQuery: null,
    userIds: [restricted.id],
    orgIds: [],
  });
  await insertRestriction(db, orgId, {
    name: 'no firewall',
    includeQuery: null,
    excludeQuery: 'data_source:firewall',
    userIds: [noEvents.id],
    orgIds: [],
  });
  await insertRestriction(db, otherOrgId, {
    name: 'db only',
    includeQuery: 'host:db-*',
    excludeQuery: null,
    userIds: [outsider.id],
    orgIds: [],
  });
  // Nine days up to the hour before `now`, an event every 11 minutes, in both organisations.
  for (const org of [orgId, otherOrgId]) {
    const events = [];
    const first = now.getTime() - 9 * 24 * HOUR_MS;
    for (let n = 0; first + n * 11 * 60_000 < now.getTime() - HOUR_MS; n++) {
      events.push({
        timestamp: new Date(first + n * 11 * 60_000),
        host: HOSTS[n % HOSTS.length],
        dataSource: n % 3 === 0 ? 'firewall' : 'proxy',
        message: `event ${n}`,
        fields: { action: n % 5 === 0 ? 'deny' : 'allow' },
      });
    }
    await seedEvents(db, org, events);
  }
  const query = async (name: string, text: string, aggregation: object | null = null) =>
    (
      await insertSavedQuery(db, {
        orgId,
        name,
        description: '',
        query: text,
        aggregation,
        createdBy: editor.id,
      } as Parameters<typeof insertSavedQuery>[1])
    ).id;
  const denied = await query('Denied', 'action:deny');
  const firewall = await query('Firewall', 'data_source:firewall');
  const byHost = await query('By host', '', { type: 'terms', field: 'host' });
  const overTime = await query('Over time', 'action:allow', { type: 'date_histogram', interval: '1h' });
  const chart = async (type: string, savedQueryIds: string[]) => {
    const spec = {
      type,
      family: 'SAVED_QUERIES',
      savedQueryIds,
      domain: 'security',
      rowLimit: null,
      library: false,
    };
    const row = await insertChart(db, {
      orgId,
      name: `${type} chart`,
      description: '',
      ...spec,
      createdBy: editor.id,
    });
    specs.push({ id: row.id, spec: spec as ChartSpec });
    return row.id;
  };
  const ids = [
    await chart('badge', [denied]),
    await chart('pie', [denied, firewall]),
    await chart('line', [denied, firewall]),
    await chart('bar', [byHost]),
    await chart('area', [overTime]),
  ];
  await insertDashboard(db, {
    orgId,
    library: false,
    name: 'Overview',
    description: '',
    chartsPerRow: 3,
    tiles: ids.map((chartId) => ({ chartId, width: 1 })),
    intervalType: '7D',
    refreshSeconds: 0,
    createdBy: editor.id,
  });
}, 120_000);
afterAll(() => ctx.close());

describe('roll-up prefill', () => {
  it('fills what a later view reads, per restriction set, and nothing on a second run', async () => {
    const computed = await runPrefill(ctx.database.db, { orgId }, now);
    // Two restriction sets see the charts: none (viewer, editor) and web only; the user restricted
    // from firewall events has no event access, so no roll-ups of theirs. The counts of the badge and
    // pie share one roll-up per query, the line chart's hourly histograms too.
    expect(computed).toBeGreaterThan(0);
    const filled = await rollupHours();
    expect(new Set(filled.map((row) => row.org_id))).toEqual(new Set([orgId]));
    // Every roll-up covers the whole hours of the 7 days: 167 or 168 hours each.
    const perRollup = new Map<string, number>();
    for (const row of filled) perRollup.set(row.rollup, (perRollup.get(row.rollup) ?? 0) + 1);
    // Queries: denied, firewall (counts, shared by badge, pie and line), host terms, allow: 4 roll-ups a set.
    expect(perRollup.size).toBe(4 * 2);
    for (const hours of perRollup.values()) expect(hours).toBeGreaterThanOrEqual(167);

    for (const user of [viewer, restricted]) {
      const viewed = await draw(user);
      // The view computed nothing and missed nothing: every roll-up hour row is the prefill's.
      expect(await rollupHours()).toEqual(filled);
      expect(deferred).toBe(0);
      expect(figures(viewed)).toEqual(await direct(user));
    }
    // The restricted viewer's roll-ups hold only what they may see.
    const [all, restrictedView] = [await draw(viewer), await draw(restricted)];
    expect((restrictedView[0] as { value: number }).value).toBeLessThan((all[0] as { value: number }).value);
    expect((restrictedView[3] as { categories: string[] }).categories.sort()).toEqual(['web-1', 'web-2']);
    // Another organisation cannot have this one's charts filled: it does not see them.
    expect(
      await runPrefill(ctx.database.db, { orgId: otherOrgId, chartIds: specs.map((chart) => chart.id) }, now),
    ).toBe(0);

    // Idempotent: a second run computes nothing and rewrites no row.
    expect(await runPrefill(ctx.database.db, { orgId }, now)).toBe(0);
    expect(await runPrefill(ctx.database.db, {}, now)).toBe(0);
    expect(await rollupHours()).toEqual(filled);
  });

  it('computes again only the hours late events changed', async () => {
    const before = await rollupHours();
    const late = new Date(now.getTime() - 30 * HOUR_MS + 1000);
    await seedEvents(ctx.database.db, orgId, [
      { timestamp: late, host: 'web-1', message: 'late', fields: { action: 'deny' } },
    ]);
    const computed = await runPrefill(ctx.database.db, { orgId }, now);
    // That one hour, for every roll-up.
    expect(computed).toBe(4 * 2);
    const after = await rollupHours();
    const lateHour = new Date(Math.floor(late.getTime() / HOUR_MS) * HOUR_MS);
    const changed = after.filter((row, index) => row.x !== before[index]!.x);
    expect(changed.length).toBe(8);
    for (const row of changed) expect(new Date(row.hour).getTime()).toBe(lateHour.getTime());
    expect(figures(await draw(viewer))).toEqual(await direct(viewer));
  });

  it('counts a view from the events while the roll-ups are missing, and has the job fill them', async () => {
    const filled = await rollupHours();
    await ctx.database.db.execute(sql`DELETE FROM event_rollup_counts`);
    await ctx.database.db.execute(sql`DELETE FROM event_rollup_hours`);
    deferred = 0;
    // The first view without roll-ups: the same figures, computing nothing itself.
    expect(figures(await draw(restricted))).toEqual(await direct(restricted));
    // One per aggregation: badge 1, pie 2, line 2, bar 1, area 1.
    expect(deferred).toBe(7);
    expect(await rollupHours()).toEqual([]);
    // Over HTTP, such a view queues the prefill of the chart.
    const badge = specs[0]!.id;
    const view = await orgRequest(ctx, orgId, 'POST', `/chart/${badge}/data`, viewer, { intervalType: '7D' });
    expect(view.statusCode).toBe(200);
    await vi.waitFor(async () => expect((await rollupHours()).length).toBeGreaterThan(300), {
      timeout: 30_000,
      interval: 250,
    });
    // That chart's one roll-up (denied counts) for both restriction sets, over the 7 days to the job's time.
    expect(new Set((await rollupHours()).map((row) => row.rollup)).size).toBe(2);
    await runPrefill(ctx.database.db, { orgId }, now);
    expect((await rollupHours()).length).toBeGreaterThanOrEqual(filled.length);
  });

  it('runs as a job when a chart is created or its saved query changes', async () => {
    const count = async () =>
      (await rows<{ n: number }>(sql`SELECT count(DISTINCT rollup)::int AS n FROM event_rollup_hours`))[0]!.n;
    const before = await count();
    const saved = await orgRequest(ctx, orgId, 'POST', '/saved-query', editor, {
      name: 'Proxy',
      description: '',
      query: 'data_source:proxy',
    });
    expect(saved.statusCode).toBe(201);
    const id = saved.json<{ id: string }>().id;
    const created = await orgRequest(ctx, orgId, 'POST', '/chart', editor, {
      name: 'Proxy events',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [id],
    });
    expect(created.statusCode).toBe(201);
    // The chart is on no dashboard: its 7 days (a new dashboard's range), for the two restriction sets.
    await vi.waitFor(async () => expect(await count()).toBe(before + 2), { timeout: 30_000, interval: 250 });
    const changed = await orgRequest(ctx, orgId, 'PUT', `/saved-query/${id}`, editor, {
      name: 'Proxy',
      description: '',
      query: 'data_source:proxy AND action:deny',
    });
    expect(changed.statusCode).toBe(200);
    await vi.waitFor(async () => expect(await count()).toBe(before + 4), { timeout: 30_000, interval: 250 });
  });
});
