import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedEvents, seedManyEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { insertRestriction } from '../restrictions/repo';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let restricted: SeededUser;
let noEvents: SeededUser;
let stranger: SeededUser;

const BEGIN = '2024-05-01T00:00:00.000Z';
const END = '2024-05-01T23:59:59.999Z';
const ALL = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT', 'EVENT_VIEW'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...ALL] });
  restricted = await seedUser(db, { homeOrgId: orgId, permissions: [...ALL] });
  noEvents = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'],
  });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...ALL] });
  await seedManyEvents(db, orgId, 130, new Date('2024-05-01T08:00:00Z'), {
    host: 'web-01',
    dataSource: 'proxy',
    message: 'login ok',
  });
  await seedEvents(db, orgId, [
    { timestamp: '2024-05-01T20:00:00Z', host: 'fw-01', dataSource: 'firewall', message: 'deny' },
    { timestamp: '2024-05-01T21:00:00Z', host: 'fw-01', dataSource: 'firewall', message: 'deny again' },
  ]);
  await seedEvents(db, otherOrgId, [{ timestamp: '2024-05-01T20:30:00Z', host: 'fw-01', message: 'theirs' }]);
  await insertRestriction(db, orgId, {
    name: 'Firewall only',
    includeQuery: 'data_source:firewall',
    excludeQuery: null,
    userIds: [restricted.id],
    orgIds: [],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

interface Search {
  id: string;
  query: string;
  total: number;
  events: { id: string; host: string; message: string }[];
  hiddenCount: number;
}

async function createIncident(user = editor, org = orgId) {
  const response = await call('POST', '/incident', user, { title: 'With searches' }, org);
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; slug: string };
}

async function attach(slug: string, query: string, user = editor): Promise<Search[]> {
  const response = await call('POST', `/incident/${slug}/searches`, user, { query, begin: BEGIN, end: END });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Search[];
}

const list = async (slug: string, user = editor) => {
  const response = await call('GET', `/incident/${slug}/searches`, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as Search[];
};

describe('searches attached to tickets', () => {
  it('keeps the first 100 matching events, which stay after the events age out', async () => {
    const incident = await createIncident();
    const [search] = await attach(incident.slug, 'host:web-01');
    expect(search).toMatchObject({ query: 'host:web-01', total: 130, hiddenCount: 0 });
    expect(search!.events).toHaveLength(100);
    expect(search!.events.every((event) => event.host === 'web-01')).toBe(true);

    const detail = await call('GET', `/incident/${incident.slug}`, editor);
    expect(
      (detail.json() as { history: { action: string }[] }).history.map((entry) => entry.action),
    ).toContain('search-attached');

    await ctx.database.db.execute(sql`DELETE FROM events WHERE org_id = ${orgId} AND host = 'web-01'`);
    const [kept] = await list(incident.slug);
    expect(kept!.events.map((event) => event.id)).toEqual(search!.events.map((event) => event.id));

    const removed = await call('DELETE', `/incident/${incident.slug}/searches/${search!.id}`, editor);
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual([]);
    expectError(
      await call('DELETE', `/incident/${incident.slug}/searches/${search!.id}`, editor),
      404,
      'TICKET_SEARCH_NOT_FOUND',
    );
  });

  it("respects data restrictions: the attaching user's and each viewer's", async () => {
    const incident = await createIncident();
    const [everything] = await attach(incident.slug, 'data_source:firewall OR data_source:other');
    expect(everything!.events.map((event) => event.message)).toEqual(['deny again', 'deny']);
    // The restricted user's own search keeps only what their restriction shows: the firewall events.
    const [, own] = await attach(incident.slug, 'host:fw-01 OR host:web-02', restricted);
    expect(own!.events.map((event) => event.message)).toEqual(['deny again', 'deny']);
    await seedManyEvents(ctx.database.db, orgId, 3, new Date('2024-05-01T12:00:00Z'), {
      host: 'web-02',
      dataSource: 'proxy',
      message: 'proxy hit',
    });
    // The editor's search keeps proxy events too; the restricted viewer sees only the firewall ones.
    await attach(incident.slug, 'host:web-02 OR host:fw-01');
    const asRestricted = await list(incident.slug, restricted);
    expect(asRestricted[2]!.events.map((event) => event.host)).toEqual(['fw-01', 'fw-01']);
    expect(asRestricted[2]!.hiddenCount).toBe(3);
    const asEditorNow = await list(incident.slug);
    expect(asEditorNow[2]!.events).toHaveLength(5);
  });

  it('refuses bad queries, readers without EVENT_VIEW and tickets of other organisations', async () => {
    const incident = await createIncident();
    expectError(
      await call('POST', `/incident/${incident.slug}/searches`, editor, {
        query: 'host:(',
        begin: BEGIN,
        end: END,
      }),
      400,
      'SEARCH_INVALID_QUERY',
    );
    expectError(
      await call('POST', `/incident/${incident.slug}/searches`, editor, {
        query: 'x',
        begin: END,
        end: BEGIN,
      }),
      400,
      'SEARCH_INVALID_RANGE',
    );
    expectError(
      await call('POST', `/incident/${incident.slug}/searches`, noEvents, {
        query: 'x',
        begin: BEGIN,
        end: END,
      }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await call('GET', `/incident/${incident.slug}/searches`, noEvents), 403, 'PERMISSION_DENIED');
    expectError(
      await call('POST', `/incident/${incident.id}/searches`, stranger, { query: '' }, otherOrgId),
      404,
      'TICKET_NOT_FOUND',
    );
    expect(await list(incident.slug)).toEqual([]);
    // Another organisation's events never come along.
    const theirs = await createIncident(stranger, otherOrgId);
    const attached = await call(
      'POST',
      `/incident/${theirs.slug}/searches`,
      stranger,
      { query: 'host:fw-01', begin: BEGIN, end: END },
      otherOrgId,
    );
    expect((attached.json() as Search[])[0]!.events.map((event) => event.message)).toEqual(['theirs']);
  });
});
