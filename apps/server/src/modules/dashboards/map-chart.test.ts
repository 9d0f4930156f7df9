import type { ChartData } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { insertRestriction } from '../restrictions/repo';
import { insertSavedQuery } from '../saved-queries/repo';

/** Map charts: exactly one non-aggregate query; events per country of their source IP, located offline. */
let ctx: TestContext;
let orgId: string;
let editor: SeededUser;
let restricted: SeededUser;
const queries = {} as Record<'logins' | 'failures' | 'byHost', string>;

const EDIT = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'DASHBOARD_VIEW',
] as const;
const DAY = { begin: '2024-05-01T00:00:00.000Z', end: '2024-05-01T23:59:59.999Z' };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  const otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  restricted = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  await insertRestriction(db, orgId, {
    name: 'Only web-01',
    includeQuery: 'host:web-01',
    excludeQuery: null,
    userIds: [restricted.id],
    orgIds: [],
  });
  const saved = async (name: string, query: string, aggregation: object | null = null) =>
    (
      await insertSavedQuery(db, {
        orgId,
        library: false,
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
  const login = (minute: number, srcIp: string | undefined, host = 'web-01') => ({
    timestamp: `2024-05-01T09:${String(minute).padStart(2, '0')}:00.000Z`,
    host,
    srcIp,
    message: 'login',
    fields: { action: 'login' },
  });
  await seedEvents(db, orgId, [
    login(0, '8.8.8.8'),
    login(1, '8.8.4.4'),
    login(2, '8.8.8.8', 'web-02'),
    login(3, '193.0.6.139'),
    login(4, '2a00:1450:4001::1', 'web-02'),
    login(5, '202.12.27.33', 'web-02'),
    // Private and absent source IPs: counted in the total, on no country.
    login(6, '10.0.0.5'),
    login(7, undefined),
    { ...login(8, '8.8.8.8'), fields: { action: 'query' } },
  ]);
  await seedEvents(db, otherOrgId, [login(0, '8.8.8.8')]);
});
afterAll(() => ctx.close());

const create = (user: SeededUser, savedQueryIds: string[]) =>
  orgRequest(ctx, orgId, 'POST', '/chart', user, {
    name: 'Logins by country',
    type: 'map',
    family: 'SAVED_QUERIES',
    savedQueryIds,
  });

describe('map charts', () => {
  it('need exactly one non-aggregate query', async () => {
    for (const savedQueryIds of [[queries.logins, queries.failures], [queries.byHost]]) {
      const response = await create(editor, savedQueryIds);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        key: 'CHART_NEEDS_ONE_NON_AGGREGATE_QUERY',
        field: 'savedQueryIds',
        params: { type: 'map' },
      });
    }
    expect((await create(editor, [queries.logins])).statusCode).toBe(201);
  });

  it("count the query's events per country of their source IP, most first", async () => {
    const chart = (await create(editor, [queries.logins])).json<{ id: string }>();
    const response = await orgRequest(ctx, orgId, 'POST', `/chart/${chart.id}/data`, editor, DAY);
    expect(response.statusCode).toBe(200);
    const data = response.json<ChartData>();
    expect(data.categories).toEqual(['US', 'DE', 'JP', 'NL']);
    expect(data.series).toEqual([{ name: 'Logins', values: [3, 1, 1, 1] }]);
    // Every login with a source IP, the private one too; not the one without, nor the other query's.
    expect(data.total).toBe(7);
  });

  it("respect the viewer's data restrictions", async () => {
    const chart = (await create(editor, [queries.logins])).json<{ id: string }>();
    const response = await orgRequest(ctx, orgId, 'POST', `/chart/${chart.id}/data`, restricted, DAY);
    const data = response.json<ChartData>();
    expect(data.categories).toEqual(['US', 'NL']);
    expect(data.series).toEqual([{ name: 'Logins', values: [2, 1] }]);
    expect(data.total).toBe(4);
  });
});
