import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { alerts } from '../alerts/tables';
import { insertRestriction } from '../restrictions/repo';
import { insertSavedQuery } from '../saved-queries/repo';
import { charts, dashboards } from './tables';

let ctx: TestContext;
let providerOrgId: string;
let orgId: string;
let otherOrgId: string;
let fraudOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let restricted: SeededUser;
let searchReader: SeededUser;
let outsider: SeededUser;
let providerAdmin: SeededUser;
const queries = {} as Record<
  'logins' | 'failures' | 'byHost' | 'overTime' | 'distinct' | 'library' | 'other',
  string
>;

const EDIT = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'DASHBOARD_VIEW',
  'DASHBOARD_EDIT',
  'ALERT_INBOX_VIEW',
] as const;
const VIEW = ['CHART_VIEW', 'DASHBOARD_VIEW', 'EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'ALERT_INBOX_VIEW'] as const;
const DAY = { begin: '2024-05-01T00:00:00.000Z', end: '2024-05-01T23:59:59.999Z' };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  fraudOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: [...VIEW] });
  restricted = await seedUser(db, { homeOrgId: orgId, permissions: [...VIEW] });
  searchReader = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['CHART_VIEW', 'CHART_EDIT', 'EVENT_VIEW', 'SAVED_SEARCH_VIEW'],
  });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId, otherOrgId, fraudOrgId],
  });
  await insertRestriction(db, orgId, {
    name: 'Only web-01',
    includeQuery: 'host:web-01',
    excludeQuery: null,
    userIds: [restricted.id],
    orgIds: [],
  });
  const saved = async (name: string, query: string, aggregation: object | null = null, library = false) =>
    (
      await insertSavedQuery(db, {
        orgId: library ? null : orgId,
        library,
        name,
        query,
        aggregation: aggregation as never,
        primaryField: null,
        createdBy: null,
      })
    ).id;
  queries.logins = await saved('Logins', 'action:login');
  queries.failures = await saved('Failures', 'outcome:failure');
  queries.byHost = await saved('By host', 'action:login', { type: 'terms', field: 'host' });
  queries.overTime = await saved('Over time', '', { type: 'date_histogram', interval: '1h' });
  queries.distinct = await saved('Distinct users', '', { type: 'count_distinct', field: 'user_name' });
  queries.library = await saved('Library logins', 'action:login', null, true);
  queries.other = (
    await insertSavedQuery(db, {
      orgId: otherOrgId,
      name: 'Theirs',
      query: 'action:login',
      aggregation: null,
      primaryField: null,
      library: false,
      createdBy: null,
    })
  ).id;
  const at = (hour: number, minute = 0) =>
    `2024-05-01T${String(hour).padStart(2, '0')}:${String(minute).padStart(2, '0')}:00.000Z`;
  await seedEvents(db, orgId, [
    {
      timestamp: at(9),
      host: 'web-01',
      userName: 'alice',
      message: 'login ok',
      fields: { action: 'login', outcome: 'success' },
    },
    {
      timestamp: at(9, 5),
      host: 'web-01',
      userName: 'bob',
      message: 'login failed',
      fields: { action: 'login', outcome: 'failure' },
    },
    {
      timestamp: at(10),
      host: 'web-02',
      userName: 'carol',
      message: 'login failed',
      fields: { action: 'login', outcome: 'failure' },
    },
    {
      timestamp: at(11),
      host: 'db-01',
      userName: 'dave',
      message: 'login ok',
      fields: { action: 'login', outcome: 'success' },
    },
    { timestamp: at(12), host: 'db-01', userName: 'erin', message: 'query', fields: { action: 'query' } },
  ]);
  await seedEvents(db, otherOrgId, [
    { timestamp: at(9), host: 'web-01', message: 'theirs', fields: { action: 'login' } },
  ]);
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface ChartJson {
  id: string;
  modifiedOn: string;
  state: string;
  [key: string]: unknown;
}

async function createChart(payload: object, user = editor, org = orgId): Promise<ChartJson> {
  const response = await call('POST', '/chart', user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ChartJson;
}

const refused = async (payload: object, user = editor) => {
  const response = await call('POST', '/chart', user, { name: 'Refused', ...payload });
  return [response.statusCode, response.json().key];
};

const data = async (chartId: string, user: SeededUser, range: object = DAY) => {
  const response = await call('POST', `/chart/${chartId}/data`, user, range);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
};

describe('chart rules', () => {
  it('creates charts on saved, aggregate and library queries and on alert families, auditing each', async () => {
    const bar = await createChart({
      name: 'Logins and failures',
      type: 'line',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins, queries.failures],
    });
    expect(bar).toMatchObject({
      type: 'line',
      family: 'SAVED_QUERIES',
      state: 'ACTIVE',
      editable: true,
      orgId,
    });
    await createChart({
      name: 'Top hosts',
      type: 'pie',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.byHost],
    });
    await createChart({
      name: 'Library',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.library],
    });
    const table = await createChart({
      name: 'Latest',
      type: 'events_table',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
    });
    expect(table.rowLimit).toBe(10);
    const list = await createChart({ name: 'Alerts', type: 'table', family: 'ALERT_LIST' });
    expect(list).toMatchObject({ rowLimit: 10, domain: 'security', savedQueryIds: [] });
    const [row] = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.targetId, bar.id));
    expect(row?.action).toBe('chart.created');
  });

  it('refuses each broken rule with its key and stores nothing', async () => {
    const before = (await ctx.database.db.select().from(charts)).length;
    expect(await refused({ type: 'line', family: 'ALERT_LIST' })).toEqual([400, 'CHART_TYPE_NOT_SUPPORTED']);
    expect(await refused({ type: 'bar', family: 'SAVED_QUERIES' })).toEqual([400, 'CHART_QUERIES_REQUIRED']);
    expect(await refused({ type: 'bar', family: 'SAVED_QUERIES', savedQueryIds: [queries.other] })).toEqual([
      400,
      'CHART_QUERY_MISSING',
    ]);
    expect(
      await refused({
        type: 'bar',
        family: 'SAVED_QUERIES',
        savedQueryIds: [queries.byHost, queries.logins],
      }),
    ).toEqual([400, 'CHART_ONE_AGGREGATE_QUERY']);
    expect(
      await refused({
        type: 'badge',
        family: 'SAVED_QUERIES',
        savedQueryIds: [queries.logins, queries.failures],
      }),
    ).toEqual([400, 'CHART_NEEDS_ONE_NON_AGGREGATE_QUERY']);
    expect(
      await refused({ type: 'events_table', family: 'SAVED_QUERIES', savedQueryIds: [queries.byHost] }),
    ).toEqual([400, 'CHART_NEEDS_ONE_NON_AGGREGATE_QUERY']);
    const six = await Promise.all(
      [1, 2, 3, 4].map((n) =>
        insertSavedQuery(ctx.database.db, {
          orgId,
          name: `Extra ${n}`,
          query: `n:${n}`,
          aggregation: null,
          primaryField: null,
          library: false,
          createdBy: null,
        }),
      ),
    );
    expect(
      await refused({
        type: 'bar',
        family: 'SAVED_QUERIES',
        savedQueryIds: [queries.logins, queries.failures, ...six.map((query) => query.id)],
      }),
    ).toEqual([400, 'CHART_TOO_MANY_QUERIES']);
    expect(await refused({ type: 'line', family: 'SAVED_QUERIES', savedQueryIds: [queries.byHost] })).toEqual(
      [400, 'CHART_AGGREGATION_NOT_SUPPORTED'],
    );
    expect(
      await refused({ type: 'bar', family: 'SAVED_QUERIES', savedQueryIds: [queries.distinct] }),
    ).toEqual([400, 'CHART_AGGREGATION_NOT_SUPPORTED']);
    for (const rowLimit of [0, 101]) {
      expect(
        await refused({
          type: 'events_table',
          family: 'SAVED_QUERIES',
          savedQueryIds: [queries.logins],
          rowLimit,
        }),
      ).toEqual([400, 'CHART_EVENTS_COUNT_INVALID']);
    }
    expect(await refused({ type: 'table', family: 'ALERT_LIST', rowLimit: 10_001 })).toEqual([
      400,
      'CHART_ROW_LIMIT_INVALID',
    ]);
    expect(await refused({ type: 'bar', family: 'ALERT_COUNTS', domain: 'fraud' })).toEqual([
      403,
      'PRODUCT_NOT_ENTITLED',
    ]);
    expect(await refused({ type: 'pie', family: 'NO_SUCH' })).toEqual([400, 'GENERIC_INVALID_FIELD_VALUE']);
    expect(await refused({ type: 'pie', family: 'ALERT_COUNTS', library: true })).toEqual([
      403,
      'LIBRARY_COPY_DENIED',
    ]);
    expect(await refused({ type: 'pie', family: 'ALERT_COUNTS' }, searchReader)).toEqual([
      403,
      'CHART_EDIT_NEEDS_SEARCH',
    ]);
    expect(await refused({ type: 'pie', family: 'ALERT_COUNTS' }, viewer)).toEqual([
      403,
      'PERMISSION_DENIED',
    ]);
    expect((await ctx.database.db.select().from(charts)).length).toBe(before);
  });

  it('keeps library charts on library queries and read-only for the organisation', async () => {
    const libraryCall = (ids: string[]) =>
      call('POST', '/chart', providerAdmin, {
        name: 'Library chart',
        type: 'badge',
        family: 'SAVED_QUERIES',
        savedQueryIds: ids,
        library: true,
      });
    const own = await libraryCall([queries.logins]);
    expect([own.statusCode, own.json().key]).toEqual([400, 'CHART_LIBRARY_NEEDS_LIBRARY_QUERY']);
    const made = await libraryCall([queries.library]);
    expect(made.statusCode).toBe(201);
    expect(made.json()).toMatchObject({ library: true, orgId: null });
    const read = await call('GET', `/chart/${made.json().id}`, editor);
    expect(read.json()).toMatchObject({ library: true, editable: false });
    const change = await call('PUT', `/chart/${made.json().id}`, editor, {
      name: 'Mine now',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.library],
    });
    expect([change.statusCode, change.json().key]).toEqual([403, 'CHART_LIBRARY_READ_ONLY']);
  });
});

describe('chart data', () => {
  it('draws saved queries over the range: series over time, top terms, counts, badge and events', async () => {
    const line = await createChart({
      name: 'Over time',
      type: 'bar',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins, queries.failures],
    });
    const drawn = await data(line.id, editor);
    expect(drawn.timeAxis).toBe(true);
    expect(drawn.series.map((series: { name: string }) => series.name)).toEqual(['Logins', 'Failures']);
    const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
    expect(drawn.series.map((series: { values: number[] }) => sum(series.values))).toEqual([4, 2]);

    const top = await createChart({
      name: 'Hosts',
      type: 'bar',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.byHost],
    });
    const terms = await data(top.id, editor);
    expect(terms.categories).toEqual(['web-01', 'db-01', 'web-02']);
    expect(terms.series[0].values).toEqual([2, 1, 1]);

    const pie = await createChart({
      name: 'Pie',
      type: 'pie',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins, queries.failures],
    });
    expect(await data(pie.id, editor)).toMatchObject({
      categories: ['Logins', 'Failures'],
      series: [{ values: [4, 2] }],
    });

    const badge = await createChart({
      name: 'Failed',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.failures],
    });
    expect((await data(badge.id, editor)).value).toBe(2);

    const distinct = await createChart({
      name: 'Users',
      type: 'table',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.distinct],
    });
    expect((await data(distinct.id, editor)).value).toBe(5);

    const events = await createChart({
      name: 'Latest',
      type: 'events_table',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
      rowLimit: 2,
    });
    const latest = await data(events.id, editor);
    expect(latest.events.map((event: { userName: string }) => event.userName)).toEqual(['dave', 'carol']);
    expect(latest.total).toBe(4);
  });

  it('shows the top 10 values of a terms aggregation of more values, by count', async () => {
    const db = ctx.database.db;
    const termsOrgId = (await seedOrg(db)).id;
    const termsEditor = await seedUser(db, { homeOrgId: termsOrgId, permissions: [...EDIT] });
    // Twelve regions, r1 seen 12 times down to r12 once, spread over four hours of the day.
    const regions = Array.from({ length: 12 }, (_, index) => `r${index + 1}`);
    await seedEvents(
      db,
      termsOrgId,
      regions.flatMap((region, index) =>
        Array.from({ length: 12 - index }, (_, n) => ({
          timestamp: `2024-05-01T${String(8 + (n % 4)).padStart(2, '0')}:${String(index).padStart(2, '0')}:00.000Z`,
          message: 'sign-in',
          fields: { region },
        })),
      ),
    );
    const byRegion = await insertSavedQuery(db, {
      orgId: termsOrgId,
      library: false,
      name: 'By region',
      query: 'message:sign-in',
      aggregation: { type: 'terms', field: 'region' } as never,
      primaryField: null,
      createdBy: null,
    });
    const chart = await createChart(
      { name: 'Regions', type: 'bar', family: 'SAVED_QUERIES', savedQueryIds: [byRegion.id] },
      termsEditor,
      termsOrgId,
    );
    const response = await call('POST', `/chart/${chart.id}/data`, termsEditor, DAY, termsOrgId);
    expect(response.statusCode, response.body).toBe(200);
    const drawn = response.json();
    expect(drawn.categories).toEqual(regions.slice(0, 10));
    expect(drawn.series[0].values).toEqual([12, 11, 10, 9, 8, 7, 6, 5, 4, 3]);
  });

  it("never counts events outside the viewer's data restrictions", async () => {
    const top = await createChart({
      name: 'Hosts (restricted)',
      type: 'table',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.byHost],
    });
    const seen = await data(top.id, restricted);
    expect(seen.categories).toEqual(['web-01']);
    expect(seen.series[0].values).toEqual([2]);
    const badge = await createChart({
      name: 'Logins badge',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
    });
    expect((await data(badge.id, restricted)).value).toBe(2);
    expect((await data(badge.id, viewer)).value).toBe(4);
    const events = await createChart({
      name: 'Restricted events',
      type: 'events_table',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
    });
    const rows = await data(events.id, restricted);
    expect(new Set(rows.events.map((event: { host: string }) => event.host))).toEqual(new Set(['web-01']));
    const line = await createChart({
      name: 'Restricted line',
      type: 'area',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.overTime],
    });
    const total = (await data(line.id, restricted)).series[0].values.reduce(
      (a: number, b: number) => a + b,
      0,
    );
    expect(total).toBe(2);
  });

  it('draws alert families and needs the alert inbox to show them', async () => {
    const db = ctx.database.db;
    const now = Date.now();
    await db.insert(alerts).values([
      { orgId, kind: 'TRIGGER', title: 'A', severity: 'HIGH', firedAt: new Date(now - 3 * 3600_000) },
      { orgId, kind: 'TRIGGER', title: 'B', severity: 'HIGH', firedAt: new Date(now - 2 * 3600_000) },
      {
        orgId,
        kind: 'THREAT_MATCH',
        title: 'C',
        severity: 'LOW',
        state: 'DISMISSED',
        dismissedAt: new Date(now - 3600_000),
        firedAt: new Date(now - 4 * 3600_000),
      },
      { orgId, kind: 'TRIGGER', title: 'Recent', severity: 'LOW', firedAt: new Date(now - 60_000) },
      {
        orgId: otherOrgId,
        kind: 'TRIGGER',
        title: 'Theirs',
        severity: 'HIGH',
        firedAt: new Date(now - 3600_000),
      },
    ]);
    const range = { intervalType: '24H' };
    const counts = await createChart({ name: 'By severity', type: 'bar', family: 'ALERT_COUNTS' });
    const bySeverity = await data(counts.id, viewer, range);
    const high = bySeverity.categories.indexOf('HIGH');
    expect(bySeverity.series[0].values[high]).toBe(2);
    const badge = await createChart({ name: 'Alert count', type: 'badge', family: 'ALERT_COUNTS' });
    expect((await data(badge.id, viewer, range)).value).toBe(4);
    const list = await createChart({
      name: 'Latest alerts',
      type: 'table',
      family: 'ALERT_LIST',
      rowLimit: 2,
    });
    const listed = await data(list.id, viewer, range);
    expect(listed.rows.map((row: unknown[]) => row[1])).toEqual(['Recent', 'B']);
    expect(listed.total).toBe(4);
    const dismissed = await createChart({
      name: 'Dismissed',
      type: 'pie',
      family: 'DISMISSED_TRIGGER_ACTIVITY',
    });
    expect(await data(dismissed.id, viewer, range)).toMatchObject({
      categories: ['Threat match'],
      series: [{ values: [1] }],
    });
    const trend = await createChart({ name: 'Trend', type: 'line', family: 'ALERT_TRENDS' });
    const trendData = await data(trend.id, viewer, range);
    expect(trendData.categories.length).toBeGreaterThanOrEqual(365);
    // The last hour is left out: the alert of a minute ago is not counted.
    expect(trendData.series[0].values.reduce((a: number, b: number) => a + b, 0)).toBe(3);

    const noInbox = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW', 'EVENT_VIEW'] });
    const denied = await call('POST', `/chart/${counts.id}/data`, noInbox, range);
    expect([denied.statusCode, denied.json().key]).toEqual([403, 'PERMISSION_DENIED']);
  });

  it('keeps the aggregation of a saved query a live chart draws', async () => {
    const query = (
      await insertSavedQuery(ctx.database.db, {
        orgId,
        name: 'Hosts for a chart',
        query: '_exists_:host',
        aggregation: { type: 'terms', field: 'host' },
        primaryField: null,
        library: false,
        createdBy: null,
      })
    ).id;
    const chart = await createChart({
      name: 'Locked hosts',
      type: 'pie',
      family: 'SAVED_QUERIES',
      savedQueryIds: [query],
    });
    const change = (aggregation: object | null) =>
      call('PUT', `/saved-query/${query}`, editor, {
        name: 'Hosts for a chart',
        query: '_exists_:host',
        aggregation,
      });
    const locked = await change({ type: 'count' });
    expect([locked.statusCode, locked.json().key]).toEqual([409, 'SAVED_QUERY_AGGREGATION_IN_USE']);
    expect((await call('POST', `/chart/${chart.id}/delete`, editor)).statusCode).toBe(200);
    expect((await change({ type: 'count' })).statusCode).toBe(200);
  });

  it('answers 404 for charts of another organisation and refuses bad ranges', async () => {
    const chart = await createChart({
      name: 'Private',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
    });
    for (const [method, path] of [
      ['GET', `/chart/${chart.id}`],
      ['POST', `/chart/${chart.id}/data`],
      ['POST', `/chart/${chart.id}/delete`],
    ] as const) {
      const response = await call(method, path, outsider, method === 'GET' ? undefined : {}, otherOrgId);
      expect([response.statusCode, response.json().key]).toEqual([404, 'CHART_NOT_FOUND']);
    }
    const backwards = await call('POST', `/chart/${chart.id}/data`, viewer, {
      begin: DAY.end,
      end: DAY.begin,
    });
    expect([backwards.statusCode, backwards.json().key]).toEqual([400, 'SEARCH_INVALID_RANGE']);
    const preview = await call('POST', '/chart/preview', editor, {
      chart: { name: 'Preview', type: 'badge', family: 'SAVED_QUERIES', savedQueryIds: [queries.failures] },
      range: DAY,
    });
    expect(preview.json().value).toBe(2);
  });
});

describe('chart delete and restore', () => {
  it('deletes restorably, lists deleted charts apart and restores them', async () => {
    const chart = await createChart({ name: 'Gone soon', type: 'pie', family: 'ALERT_COUNTS' });
    const deleted = await call('POST', `/chart/${chart.id}/delete`, editor);
    expect(deleted.json().state).toBe('DELETED');
    const again = await call('POST', `/chart/${chart.id}/delete`, editor);
    expect([again.statusCode, again.json().key]).toEqual([409, 'ALREADY_DELETED']);
    const live = await call('GET', '/charts?search=Gone%20soon', editor);
    expect(live.json().total).toBe(0);
    const bin = await call('GET', '/charts?state=DELETED&search=Gone%20soon', editor);
    expect(bin.json().items.map((item: ChartJson) => item.id)).toEqual([chart.id]);
    const dataOfDeleted = await call('POST', `/chart/${chart.id}/data`, editor, {});
    expect(dataOfDeleted.statusCode).toBe(404);
    const restored = await call('POST', `/chart/${chart.id}/restore`, editor);
    expect(restored.json().state).toBe('ACTIVE');
    const twice = await call('POST', `/chart/${chart.id}/restore`, editor);
    expect([twice.statusCode, twice.json().key]).toEqual([409, 'NOT_DELETED']);
    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, chart.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual(['chart.created', 'chart.deleted', 'chart.restored']);
  });

  it('bulk-deletes the charts unchanged since seen and counts the others as failed', async () => {
    const first = await createChart({ name: 'Bulk 1', type: 'pie', family: 'ALERT_COUNTS' });
    const second = await createChart({ name: 'Bulk 2', type: 'pie', family: 'ALERT_COUNTS' });
    const third = await createChart({ name: 'Bulk 3', type: 'pie', family: 'ALERT_COUNTS' });
    const changed = await call('PUT', `/chart/${second.id}`, editor, {
      name: 'Bulk 2 changed',
      type: 'bar',
      family: 'ALERT_COUNTS',
    });
    expect(changed.statusCode).toBe(200);
    const theirs = await createChart(
      { name: 'Theirs', type: 'pie', family: 'ALERT_COUNTS' },
      outsider,
      otherOrgId,
    );
    const response = await call('POST', '/charts/bulk-delete', editor, {
      items: [first, second, third, theirs].map((chart) => ({ id: chart.id, modifiedOn: chart.modifiedOn })),
    });
    expect(response.json()).toEqual({ deleted: 2, failed: 2, failedIds: [second.id, theirs.id] });
    const states = await ctx.database.db.select({ id: charts.id, state: charts.state }).from(charts);
    const stateOf = (id: string) => states.find((row) => row.id === id)?.state;
    expect([stateOf(first.id), stateOf(second.id), stateOf(third.id), stateOf(theirs.id)]).toEqual([
      'DELETED',
      'ACTIVE',
      'DELETED',
      'ACTIVE',
    ]);
  });
});

describe('dashboards', () => {
  const dashboardCall = (payload: object, user = editor, org = orgId) =>
    call('POST', '/dashboard', user, payload, org);

  it('creates a dashboard of tiles, lands the user on it and keeps their chosen default', async () => {
    const empty = await seedOrg(ctx.database.db);
    const loner = await seedUser(ctx.database.db, { homeOrgId: empty.id, permissions: [...EDIT] });
    const none = await call('GET', '/dashboards/default', loner, undefined, empty.id);
    expect(none.json()).toEqual({ dashboard: null });

    const chart = await createChart({ name: 'Tile chart', type: 'badge', family: 'ALERT_COUNTS' });
    const created = await dashboardCall({
      name: 'Operations overview with a name longer than fifty characters in all',
      chartsPerRow: 2,
      tiles: [{ chartId: chart.id, width: 2 }],
      intervalType: '24H',
      refreshSeconds: 300,
    });
    expect(created.statusCode, created.body).toBe(201);
    const dashboard = created.json();
    expect(dashboard).toMatchObject({
      type: 'NORMAL',
      chartsPerRow: 2,
      intervalType: '24H',
      refreshSeconds: 300,
      tiles: [{ chartId: chart.id, width: 2, chart: { name: 'Tile chart' } }],
    });
    const second = (await dashboardCall({ name: 'Second', tiles: [] })).json();
    const landing = await call('GET', '/dashboards/default', viewer);
    expect(landing.json().dashboard.id).not.toBe(second.id);

    const chosen = await call('POST', `/dashboard/${second.id}/default`, viewer);
    expect(chosen.json().isDefault).toBe(true);
    expect((await call('GET', '/dashboards/default', viewer)).json().dashboard.id).toBe(second.id);
    // Others keep landing on the organisation's first.
    expect((await call('GET', '/dashboards/default', editor)).json().dashboard.id).not.toBe(second.id);

    // Deleting the chosen one falls back to the first; restoring brings it back.
    expect((await call('POST', `/dashboard/${second.id}/delete`, editor)).statusCode).toBe(204);
    expect((await call('GET', '/dashboards/default', viewer)).json().dashboard.id).not.toBe(second.id);
    const restored = await call('POST', `/dashboard/${second.id}/restore`, editor);
    expect(restored.json().state).toBe('ACTIVE');
    expect((await call('GET', '/dashboards/default', viewer)).json().dashboard.id).toBe(second.id);

    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, second.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual(['dashboard.created', 'dashboard.deleted', 'dashboard.restored']);
  });

  it('keeps tall tiles, refuses taller ones and reads tiles saved without a height as one row', async () => {
    const tall = await createChart({ name: 'Tall chart', type: 'bar', family: 'ALERT_COUNTS' });
    const short = await createChart({ name: 'Short chart', type: 'badge', family: 'ALERT_COUNTS' });
    const created = await dashboardCall({
      name: 'Tall tiles',
      chartsPerRow: 2,
      tiles: [
        { chartId: tall.id, width: 1, height: 2 },
        { chartId: short.id, width: 1 },
      ],
    });
    expect(created.statusCode, created.body).toBe(201);
    const tiles = [
      { chartId: tall.id, width: 1, height: 2 },
      { chartId: short.id, width: 1, height: 1 },
    ];
    expect(created.json().tiles).toMatchObject(tiles);
    const read = await call('GET', `/dashboard/${created.json().id}`, viewer);
    expect(read.json().tiles).toMatchObject(tiles);
    const changed = await call('PUT', `/dashboard/${created.json().id}`, editor, {
      name: 'Tall tiles',
      chartsPerRow: 2,
      tiles: [
        { chartId: short.id, width: 2, height: 2 },
        { chartId: tall.id, width: 1, height: 1 },
      ],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().tiles).toMatchObject([
      { chartId: short.id, width: 2, height: 2 },
      { chartId: tall.id, width: 1, height: 1 },
    ]);

    const before = (await ctx.database.db.select().from(dashboards)).length;
    const taller = await dashboardCall({ name: 'Taller', tiles: [{ chartId: tall.id, height: 3 }] });
    expect([taller.statusCode, taller.json().key]).toEqual([400, 'GENERIC_INVALID_FIELD_VALUE']);
    expect((await ctx.database.db.select().from(dashboards)).length).toBe(before);

    const [old] = await ctx.database.db
      .insert(dashboards)
      .values({ orgId, name: 'Before heights', tiles: [{ chartId: tall.id, width: 1 }] })
      .returning();
    const oldRead = await call('GET', `/dashboard/${old!.id}`, viewer);
    expect(oldRead.json().tiles).toMatchObject([{ chartId: tall.id, width: 1, height: 1 }]);
  });

  it('refuses too many charts, too wide tiles and charts it cannot show, writing nothing', async () => {
    const chart = await createChart({ name: 'Many', type: 'badge', family: 'ALERT_COUNTS' });
    const before = (await ctx.database.db.select().from(dashboards)).length;
    const tooMany = await dashboardCall({
      name: 'Too many',
      tiles: Array.from({ length: 25 }, () => ({ chartId: chart.id })),
    });
    expect([tooMany.statusCode, tooMany.json().key]).toEqual([400, 'DASHBOARD_TOO_MANY_CHARTS']);
    const wide = await dashboardCall({
      name: 'Wide',
      chartsPerRow: 2,
      tiles: [{ chartId: chart.id, width: 3 }],
    });
    expect([wide.statusCode, wide.json().key]).toEqual([400, 'DASHBOARD_TILE_TOO_WIDE']);
    const theirs = await createChart(
      { name: 'Theirs', type: 'pie', family: 'ALERT_COUNTS' },
      outsider,
      otherOrgId,
    );
    const foreign = await dashboardCall({ name: 'Foreign', tiles: [{ chartId: theirs.id }] });
    expect([foreign.statusCode, foreign.json().key]).toEqual([400, 'DASHBOARD_CHART_MISSING']);
    const refresh = await dashboardCall({ name: 'Refresh', refreshSeconds: 7 });
    expect([refresh.statusCode, refresh.json().key]).toEqual([400, 'GENERIC_INVALID_FIELD_VALUE']);
    const asViewer = await dashboardCall({ name: 'Viewer' }, viewer);
    expect([asViewer.statusCode, asViewer.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await ctx.database.db.select().from(dashboards)).length).toBe(before);

    const mine = (await dashboardCall({ name: 'Mine', tiles: [{ chartId: chart.id }] })).json();
    const peek = await call('GET', `/dashboard/${mine.id}`, outsider, undefined, otherOrgId);
    expect([peek.statusCode, peek.json().key]).toEqual([404, 'DASHBOARD_NOT_FOUND']);
    const bulk = await call('POST', '/dashboards/bulk-delete', editor, {
      items: [{ id: mine.id, modifiedOn: '2020-01-01T00:00:00.000Z' }],
    });
    expect(bulk.json()).toEqual({ deleted: 0, failed: 1, failedIds: [mine.id] });
    const bulkOk = await call('POST', '/dashboards/bulk-delete', editor, {
      items: [{ id: mine.id, modifiedOn: mine.lastModifiedOn }],
    });
    expect(bulkOk.json()).toMatchObject({ deleted: 1, failed: 0 });
  });

  it('copies library dashboards to every customer once, and into one organisation on request', async () => {
    const db = ctx.database.db;
    const libraryChart = (
      await call(
        'POST',
        '/chart',
        providerAdmin,
        {
          name: 'Library alerts',
          type: 'bar',
          family: 'ALERT_COUNTS',
          library: true,
        },
        providerOrgId,
      )
    ).json();
    const own = await createChart({ name: 'Org only', type: 'pie', family: 'ALERT_COUNTS' });
    const mixed = await call('POST', '/dashboard', providerAdmin, {
      name: 'Library mixed',
      library: true,
      tiles: [{ chartId: own.id }],
    });
    expect([mixed.statusCode, mixed.json().key]).toEqual([400, 'DASHBOARD_CHART_MISSING']);
    const denied = await dashboardCall({ name: 'Not mine to add', library: true, tiles: [] });
    expect([denied.statusCode, denied.json().key]).toEqual([403, 'LIBRARY_COPY_DENIED']);
    const library = await call(
      'POST',
      '/dashboard',
      providerAdmin,
      {
        name: 'SOC starter',
        library: true,
        tiles: [{ chartId: libraryChart.id, height: 2 }],
      },
      providerOrgId,
    );
    expect(library.statusCode, library.body).toBe(201);
    expect(library.json()).toMatchObject({ type: 'LIBRARY', orgId: null });

    const listed = await call('GET', '/dashboards?library=true', viewer);
    expect(listed.json().items.map((item: { name: string }) => item.name)).toContain('SOC starter');
    const change = await call('PUT', `/dashboard/${library.json().id}`, editor, { name: 'Hijack' });
    expect([change.statusCode, change.json().key]).toEqual([403, 'DASHBOARD_LIBRARY_READ_ONLY']);

    const byClient = await call('POST', '/dashboards/library/copy-to-customers', editor);
    expect(byClient.statusCode).toBe(403);
    const first = await call(
      'POST',
      '/dashboards/library/copy-to-customers',
      providerAdmin,
      {},
      providerOrgId,
    );
    expect(first.statusCode, first.body).toBe(200);
    const customers = first.json().orgs;
    expect(first.json()).toMatchObject({ copied: customers, skipped: 0 });
    const second = await call(
      'POST',
      '/dashboards/library/copy-to-customers',
      providerAdmin,
      {},
      providerOrgId,
    );
    expect(second.json()).toMatchObject({ copied: 0, skipped: customers });

    const copies = await db
      .select()
      .from(dashboards)
      .where(and(eq(dashboards.orgId, orgId), eq(dashboards.copiedFromId, library.json().id)));
    expect(copies).toHaveLength(1);
    const copy = (await call('GET', `/dashboard/${copies[0]!.id}`, viewer)).json();
    expect(copy.tiles[0].height).toBe(2);
    expect(copy.tiles[0].chart).toMatchObject({
      name: 'Library alerts',
      library: false,
      copiedFromId: libraryChart.id,
      orgId,
    });
    expect(
      await db
        .select()
        .from(dashboards)
        .where(and(eq(dashboards.orgId, providerOrgId), eq(dashboards.copiedFromId, library.json().id))),
    ).toHaveLength(0);

    const added = await call('POST', `/dashboard/${library.json().id}/copy`, editor);
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({
      name: 'SOC starter',
      type: 'NORMAL',
      orgId,
      tiles: [{ width: 1, height: 2 }],
    });
    const notLibrary = await call('POST', `/dashboard/${added.json().id}/copy`, editor);
    expect([notLibrary.statusCode, notLibrary.json().key]).toEqual([400, 'DASHBOARD_NOT_LIBRARY']);
  });

  it("lands a user without a chosen default on the organisation's own dashboard before library copies", async () => {
    const fresh = await seedOrg(ctx.database.db);
    const member = await seedUser(ctx.database.db, { homeOrgId: fresh.id, permissions: [...EDIT] });
    const libraryChart = (
      await call(
        'POST',
        '/chart',
        providerAdmin,
        { name: 'Library landing chart', type: 'badge', family: 'ALERT_COUNTS', library: true },
        providerOrgId,
      )
    ).json();
    const library = await call(
      'POST',
      '/dashboard',
      providerAdmin,
      { name: 'AAA library landing', library: true, tiles: [{ chartId: libraryChart.id }] },
      providerOrgId,
    );
    expect(library.statusCode, library.body).toBe(201);
    const copied = await call(
      'POST',
      '/dashboards/library/copy-to-customers',
      providerAdmin,
      {},
      providerOrgId,
    );
    expect(copied.statusCode, copied.body).toBe(200);
    const copyLanding = (await call('GET', '/dashboards/default', member, undefined, fresh.id)).json();
    expect(copyLanding.dashboard).toMatchObject({ name: 'AAA library landing' });

    const own = await call('POST', '/dashboard', member, { name: 'Zed operations', tiles: [] }, fresh.id);
    expect(own.statusCode, own.body).toBe(201);
    const landing = (await call('GET', '/dashboards/default', member, undefined, fresh.id)).json();
    expect(landing.dashboard).toMatchObject({ id: own.json().id, name: 'Zed operations' });
  });
});
