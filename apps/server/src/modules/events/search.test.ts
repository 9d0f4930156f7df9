import { sql } from 'drizzle-orm';
import { SEARCH_CSV_MAX_ROWS, SEARCH_TOTAL_CAP } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedEvents, seedManyEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { AppError } from '../../platform/errors';
import { insertRestriction } from '../restrictions/repo';
import { dataRestrictions } from '../restrictions/tables';
import { exportEventsCsv } from './export';
import { searchErrorOf, withSearchTimeout } from './service';
import { insertEvents } from './store';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let bigOrgId: string;
let analyst: SeededUser;
let otherAnalyst: SeededUser;
let bigAnalyst: SeededUser;
let includeUser: SeededUser;
let excludeUser: SeededUser;
let bothUser: SeededUser;
let brokenUser: SeededUser;

const DAY = { begin: '2024-05-01', end: '2024-05-01' };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  bigOrgId = (await seedOrg(db)).id;
  const viewer = (homeOrgId: string) => seedUser(db, { homeOrgId, permissions: ['EVENT_VIEW'] });
  analyst = await viewer(orgId);
  otherAnalyst = await viewer(otherOrgId);
  bigAnalyst = await viewer(bigOrgId);
  includeUser = await viewer(orgId);
  excludeUser = await viewer(orgId);
  bothUser = await viewer(orgId);
  brokenUser = await viewer(orgId);

  await seedEvents(db, orgId, [
    {
      timestamp: '2024-05-01T00:00:00.000Z',
      host: 'web-01',
      srcIp: '10.0.0.1',
      dstIp: '10.0.0.9',
      userName: 'alice',
      dataSource: 'firewall',
      message: 'login failed for alice',
      fields: { action: 'deny', bytes: 100, country: 'FR' },
    },
    {
      timestamp: '2024-05-01T12:00:00.000Z',
      host: 'web-02',
      srcIp: '10.0.0.2',
      userName: 'bob',
      dataSource: 'firewall',
      message: 'login ok',
      fields: { action: 'allow', bytes: 250, country: 'GB' },
    },
    {
      timestamp: '2024-05-01T23:59:59.999Z',
      host: 'db-01',
      srcIp: 'not-an-ip',
      userName: 'carol',
      dataSource: 'proxy',
      message: '=HYPERLINK("http://x")',
      fields: { action: 'allow', bytes: '50', secret: 'yes' },
    },
    {
      timestamp: '2024-05-02T00:00:00.000Z',
      host: 'web-01',
      userName: 'alice',
      dataSource: 'proxy',
      message: 'next day',
      fields: { action: 'deny', bytes: 'lots' },
    },
    {
      timestamp: '2024-04-30T23:59:59.999Z',
      host: 'web-03',
      message: 'previous day',
      fields: { action: 'allow' },
    },
  ]);
  await seedEvents(db, otherOrgId, [
    {
      timestamp: '2024-05-01T10:00:00.000Z',
      host: 'web-01',
      dataSource: 'firewall',
      message: 'login failed in the other org',
      fields: { action: 'deny', org_id: orgId },
    },
  ]);

  const restrict = (userId: string, includeQuery: string | null, excludeQuery: string | null) =>
    insertRestriction(db, orgId, {
      name: `r-${userId}`,
      includeQuery,
      excludeQuery,
      userIds: [userId],
      orgIds: [],
    });
  await restrict(includeUser.id, 'data_source:firewall', null);
  await restrict(excludeUser.id, null, 'action:deny');
  await restrict(bothUser.id, 'data_source:firewall', 'action:deny');
  // Stored before a language change made it invalid: it must hide everything.
  await db
    .insert(dataRestrictions)
    .values({ orgId, name: 'broken', includeQuery: 'host:(', excludeQuery: null });
  const [broken] = await db
    .execute(sql`SELECT id FROM data_restrictions WHERE name = 'broken'`)
    .then((result) => (result as unknown as { rows: { id: string }[] }).rows);
  await db.execute(
    sql`INSERT INTO data_restriction_targets (restriction_id, user_id) VALUES (${broken!.id}, ${brokenUser.id})`,
  );

  // 10,001 distinct values of fields.n on one day, for the term limit and the CSV cap.
  await seedManyEvents(db, bigOrgId, 10_001, new Date('2024-06-01T00:00:00.000Z'), { host: 'bulk' });
}, 120_000);
afterAll(() => ctx.close());

const post = (user: SeededUser, path: string, payload: object, org = orgId) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/org/${org}${path}`,
    headers: browserHeaders(user.cookie),
    payload,
  });

async function search(user: SeededUser, payload: object, org = orgId) {
  const response = await post(user, '/search', { ...DAY, ...payload }, org);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    items: { message: string; host: string; fields: Record<string, unknown> }[];
    total: number;
  };
}
const messages = async (user: SeededUser, payload: object = {}, org = orgId) =>
  (await search(user, payload, org)).items.map((item) => item.message);

describe('store', () => {
  it('moves IPs that are not addresses into fields and keeps valid ones', async () => {
    const result = await search(analyst, { query: 'host:db-01' });
    expect(result.items).toMatchObject([{ srcIp: null, fields: { srcIp: 'not-an-ip', action: 'allow' } }]);
    const web = await search(analyst, { query: 'host:web-01' });
    expect(web.items).toMatchObject([{ srcIp: '10.0.0.1', dstIp: '10.0.0.9', userName: 'alice' }]);
  });

  it('refuses a batch with an invalid event and stores nothing of it', async () => {
    await expect(
      insertEvents(ctx.database.db, orgId, [
        { message: 'kept?' },
        { timestamp: 'yesterday-ish', message: 'bad' },
      ]),
    ).rejects.toMatchObject({ key: 'EVENT_INVALID', params: { index: 1 } });
    expect(await messages(analyst, { query: '"kept?"', begin: '2024-01-01', end: '2024-12-31' })).toEqual([]);
  });

  it('takes the receive time when an event has none', async () => {
    const db = ctx.database.db;
    const org = (await seedOrg(db)).id;
    const user = await seedUser(db, { homeOrgId: org, permissions: ['EVENT_VIEW'] });
    expect(await insertEvents(db, org, [{ message: 'now\u0000here' }])).toBe(1);
    const found = await search(user, { begin: undefined, end: undefined, intervalType: '1H' }, org);
    expect(found.items.map((item) => item.message)).toEqual(['nowhere']);
  });
});

describe('search', () => {
  it('includes the whole end day and nothing outside the range', async () => {
    expect(await messages(analyst)).toEqual(['=HYPERLINK("http://x")', 'login ok', 'login failed for alice']);
    expect((await search(analyst, { begin: '2024-05-01T23:59:59.999Z', end: '2024-05-02' })).total).toBe(2);
  });

  it('matches fields, columns and free text', async () => {
    expect(await messages(analyst, { query: 'failed' })).toEqual(['login failed for alice']);
    expect(await messages(analyst, { query: 'host:web-02' })).toEqual(['login ok']);
    expect(await messages(analyst, { query: 'action:deny' })).toEqual(['login failed for alice']);
    expect(await messages(analyst, { query: 'ip:10.0.0.9' })).toEqual(['login failed for alice']);
    expect(await messages(analyst, { query: 'country:FR OR country:GB', sortOrder: 'ASC' })).toEqual([
      'login failed for alice',
      'login ok',
    ]);
  });

  it('sorts by a column or a field and pages from 1', async () => {
    const byHost = await search(analyst, { sortField: 'host', sortOrder: 'asc' });
    expect(byHost.items.map((item) => item.host)).toEqual(['db-01', 'web-01', 'web-02']);
    const byCountry = await search(analyst, { sortField: 'country', sortOrder: 'DESC' });
    expect(byCountry.items.map((item) => item.fields.country ?? null)).toEqual(['GB', 'FR', null]);
    const page = await search(analyst, { pageSize: 2, pageNumber: 2 });
    expect(page).toMatchObject({ total: 3, totalIsLowerBound: false });
    expect(page.items.map((item) => item.message)).toEqual(['login failed for alice']);
    expect(SEARCH_TOTAL_CAP).toBe(100_000);
  });

  it('applies include and exclude filters', async () => {
    expect(await messages(analyst, { filters: [{ field: 'action', values: ['allow'] }] })).toEqual([
      '=HYPERLINK("http://x")',
      'login ok',
    ]);
    expect(
      await messages(analyst, { filters: [{ field: 'action', values: ['allow'], exclude: true }] }),
    ).toEqual(['login failed for alice']);
    expect(
      await messages(analyst, {
        filters: [
          { field: 'host', values: ['web-01', 'web-02'] },
          { field: 'data_source', values: ['firewall'] },
          { field: 'userName', values: ['bob'], exclude: true },
        ],
      }),
    ).toEqual(['login failed for alice']);
  });

  it("never answers another organisation's events, even when the query names org_id", async () => {
    expect(await messages(analyst, { query: `org_id:${otherOrgId}` })).toEqual([]);
    expect(await messages(analyst, { query: 'other' })).toEqual([]);
    // The other org's event carries a field named org_id holding this org's id: it is only a field.
    expect(await messages(otherAnalyst, { query: `org_id:"${orgId}"` }, otherOrgId)).toEqual([
      'login failed in the other org',
    ]);
    const stranger = await post(otherAnalyst, '/search', DAY, orgId);
    expect(stranger.statusCode).toBe(403);
  });

  it('refuses invalid queries with the position of the fault', async () => {
    const response = await post(analyst, '/search', { ...DAY, query: 'host:(web' });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'SEARCH_INVALID_QUERY',
      params: { position: expect.any(Number) },
    });
    const wildcards = await post(analyst, '/search', { ...DAY, query: '*' });
    expect(wildcards.json()).toMatchObject({ key: 'SEARCH_INVALID_QUERY' });
  });

  it('refuses bad sorts, ranges and deep pages', async () => {
    const expectKey = async (payload: object, key: string) => {
      const response = await post(analyst, '/search', { ...DAY, ...payload });
      expect(response.statusCode, JSON.stringify(payload)).toBe(400);
      expect(response.json().key).toBe(key);
    };
    await expectKey({ sortField: 'ip' }, 'SEARCH_INVALID_SORT_FIELD');
    await expectKey({ sortField: 'a b' }, 'SEARCH_INVALID_SORT_FIELD');
    await expectKey({ sortOrder: 'up' }, 'SEARCH_INVALID_SORT_ORDER');
    await expectKey({ begin: '2024-05-02', end: '2024-05-01' }, 'SEARCH_INVALID_RANGE');
    await expectKey({ begin: '2023-01-01', end: '2024-05-01' }, 'SEARCH_RANGE_TOO_LONG');
    await expectKey({ begin: 'soon' }, 'GENERIC_INVALID_FIELD_VALUE');
    await expectKey({ pageSize: 1000, pageNumber: 101 }, 'SEARCH_RESPONSE_TOO_LARGE');
    await expectKey({ pageSize: 1001 }, 'GENERIC_INVALID_FIELD_VALUE');
  });
});

describe('data restrictions', () => {
  const aggregateCount = async (user: SeededUser) =>
    (await post(user, '/search/aggregate', { ...DAY, aggregation: { type: 'count' } })).json().value;
  const csvRows = async (user: SeededUser) =>
    (await post(user, '/search/csv', DAY)).body.trim().split('\r\n').length - 1;

  it('keeps an include-only user inside the include query', async () => {
    expect(await messages(includeUser)).toEqual(['login ok', 'login failed for alice']);
    expect(await messages(includeUser, { query: 'host:db-01' })).toEqual([]);
    expect(await aggregateCount(includeUser)).toBe(2);
    expect(await csvRows(includeUser)).toBe(2);
  });

  it('hides what an exclude query names', async () => {
    expect(await messages(excludeUser)).toEqual(['=HYPERLINK("http://x")', 'login ok']);
    expect(await messages(excludeUser, { query: 'NOT action:allow' })).toEqual([]);
    expect(await aggregateCount(excludeUser)).toBe(2);
    expect(await csvRows(excludeUser)).toBe(2);
  });

  it('applies both', async () => {
    expect(await messages(bothUser)).toEqual(['login ok']);
    expect(await aggregateCount(bothUser)).toBe(1);
    expect(await csvRows(bothUser)).toBe(1);
    const terms = await post(bothUser, '/search/aggregate', {
      ...DAY,
      aggregation: { type: 'terms', field: 'host' },
    });
    expect(terms.json().buckets).toEqual([{ key: 'web-02', count: 1 }]);
    const values = await post(bothUser, '/search/field-values', { ...DAY, field: 'action' });
    expect(values.json().values).toEqual([{ value: 'allow', count: 1 }]);
  });

  it('shows nothing when a stored restriction no longer compiles', async () => {
    expect(await messages(brokenUser)).toEqual([]);
    expect(await aggregateCount(brokenUser)).toBe(0);
    expect(await csvRows(brokenUser)).toBe(0);
    const fields = await ctx.app.inject({
      url: `/api/org/${orgId}/search/fields?begin=2024-05-01&end=2024-05-01`,
      headers: { cookie: brokenUser.cookie },
    });
    expect(fields.json()).toEqual({ fields: [], sampleSize: 0 });
  });

  it('keeps field names of hidden events out of the sidebar', async () => {
    const fields = await ctx.app.inject({
      url: `/api/org/${orgId}/search/fields?begin=2024-05-01&end=2024-05-01`,
      headers: { cookie: includeUser.cookie },
    });
    const names = fields.json().fields.map((field: { name: string }) => field.name);
    expect(names).toContain('action');
    expect(names).not.toContain('secret');
  });
});

describe('aggregations', () => {
  const aggregate = async (aggregation: object, range: object = DAY, user = analyst, org = orgId) =>
    post(user, '/search/aggregate', { ...range, aggregation }, org);
  const ok = async (aggregation: object, range?: object) => {
    const response = await aggregate(aggregation, range);
    expect(response.statusCode, response.body).toBe(200);
    return response.json();
  };
  const refused = async (aggregation: object, key: string, range?: object) => {
    const response = await aggregate(aggregation, range);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().key).toBe(key);
  };

  it('counts, lists terms and counts distinct values', async () => {
    expect((await ok({ type: 'count' })).value).toBe(3);
    expect(await ok({ type: 'terms', field: 'action' })).toMatchObject({
      buckets: [
        { key: 'allow', count: 2 },
        { key: 'deny', count: 1 },
      ],
      uniqueTerms: 2,
      otherCount: 0,
    });
    expect(await ok({ type: 'terms', field: 'host', size: 2 })).toMatchObject({
      buckets: [
        { key: 'db-01', count: 1 },
        { key: 'web-01', count: 1 },
      ],
      uniqueTerms: 3,
      otherCount: 1,
    });
    expect((await ok({ type: 'terms', field: 'src_ip' })).buckets).toEqual([
      { key: '10.0.0.1', count: 1 },
      { key: '10.0.0.2', count: 1 },
    ]);
    expect((await ok({ type: 'count_distinct', field: 'dataSource' })).value).toBe(2);
    expect((await ok({ type: 'count_distinct', field: 'country' })).value).toBe(2);
  });

  it('sums, averages and finds extremes of numeric fields', async () => {
    expect((await ok({ type: 'sum', field: 'bytes' })).value).toBe(400);
    expect((await ok({ type: 'avg', field: 'bytes' })).value).toBeCloseTo(133.333, 2);
    expect((await ok({ type: 'min', field: 'bytes' })).value).toBe(50);
    expect((await ok({ type: 'max', field: 'bytes' })).value).toBe(250);
    expect((await ok({ type: 'max', field: 'missing' })).value).toBeNull();
  });

  it('refuses text and non-numeric fields', async () => {
    await refused({ type: 'sum', field: 'host' }, 'SEARCH_AGGREGATION_NOT_NUMERIC');
    await refused({ type: 'avg', field: 'timestamp' }, 'SEARCH_AGGREGATION_NOT_NUMERIC');
    await refused({ type: 'sum', field: 'action' }, 'SEARCH_AGGREGATION_NOT_NUMERIC');
    await refused({ type: 'sum', field: 'bytes' }, 'SEARCH_AGGREGATION_NOT_NUMERIC', {
      begin: '2024-05-01',
      end: '2024-05-02',
    });
    await refused({ type: 'max', field: 'message' }, 'SEARCH_AGGREGATION_TEXT_FIELD');
    await refused({ type: 'terms', field: 'message' }, 'SEARCH_AGGREGATION_TEXT_FIELD');
    await refused({ type: 'terms' }, 'SEARCH_AGGREGATION_FIELD_REQUIRED');
    await refused({ type: 'terms', field: 'ip' }, 'SEARCH_INVALID_FIELD');
  });

  it('builds date histograms with empty buckets', async () => {
    const hourly = await ok({ type: 'date_histogram', interval: '1h' });
    expect(hourly.buckets).toHaveLength(24);
    expect(hourly.buckets[0]).toEqual({ key: '2024-05-01T00:00:00.000Z', count: 1 });
    expect(hourly.buckets[12]).toEqual({ key: '2024-05-01T12:00:00.000Z', count: 1 });
    expect(hourly.buckets[23]).toEqual({ key: '2024-05-01T23:00:00.000Z', count: 1 });
    expect(hourly.buckets.reduce((sum: number, bucket: { count: number }) => sum + bucket.count, 0)).toBe(3);
    const auto = await ok({ type: 'date_histogram' });
    expect(auto).toMatchObject({ interval: '15m' });
    expect(auto.buckets).toHaveLength(96);
    await refused({ type: 'date_histogram', interval: '1m' }, 'SEARCH_RESPONSE_TOO_LARGE', {
      begin: '2024-01-01',
      end: '2024-05-01',
    });
  });

  it('refuses terms beyond 10,000 unique values but counts them exactly', async () => {
    const range = { begin: '2024-06-01', end: '2024-06-01' };
    const tooMany = await aggregate({ type: 'terms', field: 'n' }, range, bigAnalyst, bigOrgId);
    expect(tooMany.statusCode).toBe(400);
    expect(tooMany.json()).toMatchObject({ key: 'SEARCH_TOO_MANY_TERMS', params: { max: 10_000 } });
    const distinct = await aggregate({ type: 'count_distinct', field: 'n' }, range, bigAnalyst, bigOrgId);
    expect(distinct.json().value).toBe(10_001);
  });
});

describe('csv', () => {
  it('streams the fixed columns, requested fields and formula-safe cells', async () => {
    const response = await post(analyst, '/search/csv', { ...DAY, columns: ['action', 'srcIp', 'bytes'] });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toContain('events.csv');
    expect(response.body.split('\r\n')).toEqual([
      'timestamp,host,srcIp,dstIp,userName,dataSource,message,action,srcIp,bytes',
      `2024-05-01T23:59:59.999Z,db-01,,,carol,proxy,"'=HYPERLINK(""http://x"")",allow,,50`,
      '2024-05-01T12:00:00.000Z,web-02,10.0.0.2,,bob,firewall,login ok,allow,10.0.0.2,250',
      '2024-05-01T00:00:00.000Z,web-01,10.0.0.1,10.0.0.9,alice,firewall,login failed for alice,deny,10.0.0.1,100',
      '',
    ]);
  });

  it('exports the first results only, in order, without repeats', async () => {
    expect(SEARCH_CSV_MAX_ROWS).toBe(50_000);
    const request = {
      query: '',
      begin: '2024-06-01',
      end: '2024-06-01',
      filters: [],
      sortField: 'timestamp',
      sortOrder: 'asc',
      columns: ['n'],
    };
    const read = async (stream: NodeJS.ReadableStream) => {
      let text = '';
      for await (const chunk of stream) text += String(chunk);
      return text.trim().split('\r\n').slice(1);
    };
    const actor = { orgId: bigOrgId, userId: bigAnalyst.id };
    const byTime = await read(
      await exportEventsCsv(ctx.database.db, actor, request, { maxRows: 2500, batchSize: 1000 }),
    );
    expect(byTime).toHaveLength(2500);
    expect(byTime.map((line) => Number(line.split(',').at(-1)))).toEqual(
      Array.from({ length: 2500 }, (_, i) => i),
    );
    const byField = await read(
      await exportEventsCsv(
        ctx.database.db,
        actor,
        { ...request, sortField: 'n', sortOrder: 'desc' },
        { maxRows: 1500, batchSize: 400 },
      ),
    );
    expect(byField.map((line) => Number(line.split(',').at(-1)))).toEqual(
      Array.from({ length: 1500 }, (_, i) => 10_000 - i),
    );
  });
});

describe('field sidebar', () => {
  it('lists the fields of the range with counts, most common first', async () => {
    const response = await ctx.app.inject({
      url: `/api/org/${orgId}/search/fields?begin=2024-05-01&end=2024-05-01`,
      headers: { cookie: analyst.cookie },
    });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.sampleSize).toBe(3);
    expect(body.fields).toEqual(
      expect.arrayContaining([
        { name: 'host', kind: 'column', count: 3 },
        { name: 'src_ip', kind: 'column', count: 2 },
        { name: 'action', kind: 'field', count: 3 },
        { name: 'secret', kind: 'field', count: 1 },
      ]),
    );
  });

  it('answers the top values of a field in the current search', async () => {
    const response = await post(analyst, '/search/field-values', { ...DAY, field: 'action', query: 'login' });
    expect(response.json()).toEqual({
      field: 'action',
      values: [
        { value: 'allow', count: 1 },
        { value: 'deny', count: 1 },
      ],
      total: 2,
    });
  });
});

describe('statement timeout', () => {
  it('maps SQLSTATE 57014 to a retryable SEARCH_TIMEOUT', () => {
    const error = searchErrorOf(new Error('failed', { cause: { code: '57014' } }));
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ status: 503, key: 'SEARCH_TIMEOUT', type: 'ServiceUnavailableException' });
    const other = new Error('other');
    expect(searchErrorOf(other)).toBe(other);
  });

  it('runs each search under the statement timeout, and a statement over it answers SEARCH_TIMEOUT', async () => {
    const shown = await withSearchTimeout(ctx.database.db, { statementTimeoutMs: 50 }, (tx) =>
      tx.execute(sql`SHOW statement_timeout`),
    );
    expect((shown as unknown as { rows: { statement_timeout: string }[] }).rows[0]?.statement_timeout).toBe(
      '50ms',
    );
    // The embedded database accepts the setting but does not cancel statements; the server does.
    if (process.env.VIGIL_TEST_DB === 'postgres') {
      await expect(
        withSearchTimeout(ctx.database.db, { statementTimeoutMs: 50 }, (tx) =>
          tx.execute(sql`SELECT pg_sleep(2)`),
        ),
      ).rejects.toMatchObject({ key: 'SEARCH_TIMEOUT', status: 503 });
    }
  });
});
