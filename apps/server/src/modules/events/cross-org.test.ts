import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { insertRestriction } from '../restrictions/repo';
import { loadOrgAccess } from '../users/access';
import { users } from '../users/tables';
import { negotiateSearchFormat, orgSearchRefusal } from './cross-org';

let ctx: TestContext;
const org = {
  provider: { id: '', name: '' },
  a: { id: '', name: '' },
  b: { id: '', name: '' },
  c: { id: '', name: '' },
};
let analyst: SeededUser;
let restricted: SeededUser;
let client: SeededUser;
let noEvents: SeededUser;

const DAY = { begin: '2024-05-01', end: '2024-05-01' };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  org.provider = await seedOrg(db, { name: 'Provider', isProvider: true });
  org.a = await seedOrg(db, { name: 'Alpha Bank' });
  org.b = await seedOrg(db, { name: 'Beta Credit Union' });
  org.c = await seedOrg(db, { name: 'Gamma Secret Org' });
  const staff = (permissions: ['EVENT_VIEW'] | []) =>
    seedUser(db, { homeOrgId: org.provider.id, permissions, authorisedOrgIds: [org.a.id, org.b.id] });
  analyst = await staff(['EVENT_VIEW']);
  restricted = await staff(['EVENT_VIEW']);
  noEvents = await staff([]);
  client = await seedUser(db, { homeOrgId: org.a.id, permissions: ['EVENT_VIEW'] });

  await seedEvents(db, org.provider.id, [
    { timestamp: '2024-05-01T01:00:00.000Z', host: 'soc-01', dataSource: 'edr', message: 'provider event' },
  ]);
  await seedEvents(db, org.a.id, [
    {
      timestamp: '2024-05-01T02:00:00.000Z',
      host: 'a-web',
      dataSource: 'firewall',
      message: 'alpha login failed',
    },
    { timestamp: '2024-05-01T05:00:00.000Z', host: 'a-db', dataSource: 'proxy', message: '=cmd|alpha' },
    {
      timestamp: '2024-05-03T00:00:00.000Z',
      host: 'a-web',
      dataSource: 'firewall',
      message: 'alpha outside range',
    },
  ]);
  await seedEvents(db, org.b.id, [
    {
      timestamp: '2024-05-01T03:00:00.000Z',
      host: 'b-web',
      dataSource: 'firewall',
      message: 'beta login failed',
    },
    { timestamp: '2024-05-01T04:00:00.000Z', host: 'b-db', dataSource: 'proxy', message: 'beta proxy hit' },
  ]);
  await seedEvents(db, org.c.id, [
    {
      timestamp: '2024-05-01T06:00:00.000Z',
      host: 'c-web',
      dataSource: 'firewall',
      message: 'gamma login failed',
    },
  ]);
  // In org B the restricted analyst sees the firewall only; in org A nothing restricts them.
  await insertRestriction(db, org.b.id, {
    name: 'Firewall only',
    includeQuery: 'data_source:firewall',
    excludeQuery: null,
    userIds: [restricted.id],
    orgIds: [],
  });
}, 60_000);
afterAll(() => ctx.close());

const post = (
  user: SeededUser,
  payload: object,
  headers: Record<string, string> = {},
  orgId = org.provider.id,
) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/org/${orgId}/search/cross-org`,
    headers: { ...browserHeaders(user.cookie), ...headers },
    payload: { ...DAY, ...payload },
  });

interface Answer {
  items: { message: string; orgId: string; orgName: string }[];
  total: number;
  totalIsLowerBound: boolean;
  skippedOrgs: { id: string; name: string; reason: string }[];
}

async function search(user: SeededUser, payload: object = {}) {
  const response = await post(user, payload);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Answer;
}

const hits = (answer: Answer) => answer.items.map((item) => `${item.orgName}: ${item.message}`);

describe('cross-organisation search', () => {
  it('searches every organisation of the user, each hit labelled, newest first', async () => {
    const answer = await search(analyst);
    expect(hits(answer)).toEqual([
      'Alpha Bank: =cmd|alpha',
      'Beta Credit Union: beta proxy hit',
      'Beta Credit Union: beta login failed',
      'Alpha Bank: alpha login failed',
      'Provider: provider event',
    ]);
    expect(answer.items[0]!.orgId).toBe(org.a.id);
    expect(answer).toMatchObject({ total: 5, totalIsLowerBound: false, skippedOrgs: [] });
  });

  it('applies the query and filters to every organisation and keeps to the named ones', async () => {
    expect(hits(await search(analyst, { query: 'login failed' }))).toEqual([
      'Beta Credit Union: beta login failed',
      'Alpha Bank: alpha login failed',
    ]);
    const onlyB = await search(analyst, {
      orgIds: [org.b.id],
      filters: [{ field: 'host', values: ['b-db'] }],
    });
    expect(hits(onlyB)).toEqual(['Beta Credit Union: beta proxy hit']);
  });

  it('never reads an organisation the user is not authorised for, even when named', async () => {
    expect(hits(await search(analyst, { query: 'gamma' }))).toEqual([]);
    for (const orgIds of [[org.a.id, org.c.id], [randomUUID()]]) {
      const response = await post(analyst, { orgIds });
      expect(response.statusCode).toBe(403);
      expect(response.json()).toMatchObject({ key: 'ORG_NOT_AUTHORISED' });
      expect(response.body).not.toContain('Gamma');
      expect(response.body).not.toContain('gamma');
    }
  });

  it("applies each organisation's data restrictions to that organisation's events only", async () => {
    expect(hits(await search(restricted))).toEqual([
      'Alpha Bank: =cmd|alpha',
      'Beta Credit Union: beta login failed',
      'Alpha Bank: alpha login failed',
      'Provider: provider event',
    ]);
    expect((await search(restricted, { query: 'beta' })).total).toBe(1);
  });

  it('pages over the merged results with the total of all organisations', async () => {
    const page = await search(analyst, { pageSize: 2, pageNumber: 2, sortField: 'host', sortOrder: 'ASC' });
    expect(page.total).toBe(5);
    expect(hits(page)).toEqual(['Beta Credit Union: beta proxy hit', 'Beta Credit Union: beta login failed']);
    const beyond = await post(analyst, { pageSize: 1000, pageNumber: 101 });
    expect(beyond.statusCode).toBe(400);
    expect(beyond.json()).toMatchObject({ key: 'SEARCH_RESPONSE_TOO_LARGE' });
  });

  it('refuses bad input with the search errors', async () => {
    const badQuery = await post(analyst, { query: 'host:(' });
    expect(badQuery.statusCode).toBe(400);
    expect(badQuery.json()).toMatchObject({ key: 'SEARCH_INVALID_QUERY', field: 'query' });
    const badRange = await post(analyst, { begin: '2024-05-02', end: '2024-05-01' });
    expect(badRange.json()).toMatchObject({ key: 'SEARCH_INVALID_RANGE' });
    const badIds = await post(analyst, { orgIds: ['not-a-uuid'] });
    expect(badIds.statusCode).toBe(400);
    expect(badIds.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'orgIds.0' });
  });

  it('is for provider staff with EVENT_VIEW working in the provider organisation', async () => {
    const fromClient = await post(client, {}, {}, org.a.id);
    expect(fromClient.statusCode).toBe(403);
    expect(fromClient.json()).toMatchObject({ key: 'CROSS_ORG_SEARCH_PROVIDER_ONLY' });
    // Provider staff acting in a client organisation are refused the same way.
    const fromClientOrg = await post(analyst, {}, {}, org.a.id);
    expect(fromClientOrg.json()).toMatchObject({ key: 'CROSS_ORG_SEARCH_PROVIDER_ONLY' });
    const withoutPermission = await post(noEvents, {});
    expect(withoutPermission.statusCode).toBe(403);
    expect(withoutPermission.json()).toMatchObject({ key: 'PERMISSION_DENIED' });
    const elsewhere = await post(client, {}, {}, org.provider.id);
    expect(elsewhere.json()).toMatchObject({ key: 'ORG_NOT_AUTHORISED' });
  });

  it('skips an organisation whose own search would refuse the user, by the same rule', async () => {
    const db = ctx.database.db;
    const [row] = await db.select().from(users).where(eq(users.id, analyst.id));
    const { id, homeOrgId, roleId, firstName, lastName, readOnlyMode } = row!;
    const user = { id, homeOrgId, roleId, firstName, lastName, readOnlyMode, email: analyst.email };
    const access = await loadOrgAccess(db, user, org.b.id);
    expect(orgSearchRefusal(user, access)).toBeNull();
    const withoutEvents = {
      ...access!,
      permissions: access!.permissions.filter((code) => code !== 'EVENT_VIEW'),
    };
    expect(orgSearchRefusal(user, withoutEvents)).toBe('PERMISSION_DENIED');
    expect(orgSearchRefusal(user, await loadOrgAccess(db, user, org.c.id))).toBe('ORG_NOT_AUTHORISED');
  });
});

describe('answer formats', () => {
  it('streams CSV with the organisation first and formula-like cells as text', async () => {
    const response = await post(restricted, { sortOrder: 'ASC', columns: ['host'] }, { accept: 'text/csv' });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="cross-org-events.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('org,timestamp,host,srcIp,dstIp,userName,dataSource,message,host');
    expect(lines.slice(1).map((line) => line.split(',')[0])).toEqual([
      'Provider',
      'Alpha Bank',
      'Beta Credit Union',
      'Alpha Bank',
    ]);
    expect(lines[4]).toBe(`Alpha Bank,2024-05-01T05:00:00.000Z,a-db,,,,proxy,"'=cmd|alpha",a-db`);
  });

  it('refuses a representation that is neither JSON nor CSV with 415', async () => {
    const response = await post(analyst, {}, { accept: 'application/xml' });
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({
      type: 'UnsupportedMediaTypeException',
      key: 'SEARCH_UNKNOWN_MEDIA_TYPE',
    });
    const any = await post(analyst, {}, { accept: '*/*' });
    expect(any.statusCode).toBe(200);
    expect((any.json() as Answer).total).toBe(5);
  });

  it('reads the preferred format of an Accept header', () => {
    expect(negotiateSearchFormat(undefined)).toBe('json');
    expect(negotiateSearchFormat('application/json, text/plain, */*')).toBe('json');
    expect(negotiateSearchFormat('text/csv;q=0.5, application/json')).toBe('json');
    expect(negotiateSearchFormat('text/csv, application/json;q=0.1')).toBe('csv');
    expect(negotiateSearchFormat('text/csv;q=0')).toBeNull();
    expect(negotiateSearchFormat('application/xml, text/html')).toBeNull();
  });
});
