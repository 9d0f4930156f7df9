import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { users } from '../users/tables';
import { restrictionsForUser } from './repo';
import { dataRestrictions, dataRestrictionTargets } from './tables';

let ctx: TestContext;
let orgId: string;
let clientOrgId: string;
let otherOrgId: string;
let admin: SeededUser;
let viewer: SeededUser;
let analyst: SeededUser;
let clientUser: SeededUser;
let outsider: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  clientOrgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  admin = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['DATA_RESTRICTION_EDIT'],
    authorisedOrgIds: [clientOrgId],
  });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['DATA_RESTRICTION_VIEW'] });
  analyst = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
  clientUser = await seedUser(db, { homeOrgId: clientOrgId, permissions: ['EVENT_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['DATA_RESTRICTION_EDIT'] });
});
afterAll(() => ctx.close());

const base = () => `/api/org/${orgId}/data-restriction`;
const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });

const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'Card data only',
  includeQuery: 'source:cards AND NOT type:debug',
  excludeQuery: null,
  userIds: [analyst.id],
  orgIds: [],
  ...overrides,
});

async function create(overrides: Record<string, unknown> = {}) {
  const response = await call('POST', base(), admin, input(overrides));
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string };
}

/** Rows of every table a restriction change writes to. */
async function rowCounts() {
  const db = ctx.database.db;
  const [[restrictions], [targets], [activity]] = await Promise.all([
    db.select({ n: count() }).from(dataRestrictions),
    db.select({ n: count() }).from(dataRestrictionTargets),
    db.select({ n: count() }).from(activityLog),
  ]);
  return { restrictions: restrictions!.n, targets: targets!.n, activity: activity!.n };
}

describe('data restrictions', () => {
  it('creates, lists, changes, deletes and restores a restriction, auditing each change', async () => {
    const created = await call(
      'POST',
      base(),
      admin,
      input({ name: '  Card data only  ', orgIds: [clientOrgId] }),
    );
    expect(created.statusCode).toBe(201);
    const restriction = created.json();
    expect(restriction).toMatchObject({
      name: 'Card data only',
      includeQuery: 'source:cards AND NOT type:debug',
      excludeQuery: null,
      users: [{ id: analyst.id, fullName: 'Test User' }],
      orgs: [{ id: clientOrgId }],
      deletedAt: null,
    });
    const { id } = restriction;

    expect((await call('GET', `${base()}/${id}`, viewer)).json()).toEqual(restriction);
    const listed = await call('GET', `/api/org/${orgId}/data-restrictions`, viewer);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id }] });

    const changed = await call(
      'PUT',
      `${base()}/${id}`,
      admin,
      input({ includeQuery: '', excludeQuery: 'severity:low', userIds: [], orgIds: [orgId] }),
    );
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ includeQuery: null, excludeQuery: 'severity:low', users: [] });

    expect((await call('DELETE', `${base()}/${id}`, admin)).statusCode).toBe(204);
    expect((await call('GET', `/api/org/${orgId}/data-restrictions`, viewer)).json().total).toBe(0);
    const withDeleted = await call('GET', `/api/org/${orgId}/data-restrictions?includeDeleted=true`, viewer);
    expect(withDeleted.json().items[0]).toMatchObject({ id, deletedAt: expect.any(String) });
    expect((await call('PUT', `${base()}/${id}`, admin, input())).json()).toMatchObject({
      key: 'DATA_RESTRICTION_DELETED',
    });

    const restored = await call('POST', `${base()}/${id}/restore`, admin);
    expect(restored.json()).toMatchObject({ id, deletedAt: null, excludeQuery: 'severity:low' });

    const log = await ctx.database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.targetId, id))
      .orderBy(activityLog.id);
    expect(log.map((row) => row.action)).toEqual([
      'data_restriction.created',
      'data_restriction.updated',
      'data_restriction.deleted',
      'data_restriction.restored',
    ]);
    expect(log.every((row) => row.orgId === orgId && row.actorUserId === admin.id)).toBe(true);
    expect(log[1]!.details).toMatchObject({
      before: { includeQuery: 'source:cards AND NOT type:debug', users: [{ id: analyst.id }] },
      after: { includeQuery: null, excludeQuery: 'severity:low', orgs: [{ id: orgId }] },
    });
    await call('DELETE', `${base()}/${id}`, admin);
  });

  it('answers the users it applies to: the listed ones and every user of the listed organisations', async () => {
    const { id } = await create({ userIds: [analyst.id], orgIds: [clientOrgId] });
    const applies = await call('GET', `${base()}/${id}/users`, viewer);
    expect(applies.statusCode).toBe(200);
    expect(applies.json().items).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ id: analyst.id, via: 'user', homeOrgId: orgId, active: true }),
        expect.objectContaining({ id: clientUser.id, via: 'org', homeOrgId: clientOrgId }),
      ]),
    );
    expect(applies.json().total).toBe(2);
    await call('DELETE', `${base()}/${id}`, admin);
  });

  it('gives a search the live restrictions that apply to a user', async () => {
    const db = ctx.database.db;
    const byUser = await create({ name: 'By user', userIds: [analyst.id] });
    const byOrg = await create({ name: 'By org', userIds: [], orgIds: [orgId], excludeQuery: 'type:hr' });
    const deleted = await create({ name: 'Deleted', userIds: [analyst.id] });
    await call('DELETE', `${base()}/${deleted.id}`, admin);

    expect((await restrictionsForUser(db, orgId, analyst.id)).map((item) => item.name)).toEqual([
      'By org',
      'By user',
    ]);
    // The viewer's home is the organisation, so only the organisation-wide one applies.
    expect(await restrictionsForUser(db, orgId, viewer.id)).toEqual([
      {
        id: byOrg.id,
        name: 'By org',
        includeQuery: 'source:cards AND NOT type:debug',
        excludeQuery: 'type:hr',
      },
    ]);
    // In another organisation none of them applies.
    expect(await restrictionsForUser(db, clientOrgId, analyst.id)).toEqual([]);

    const mine = await call('GET', base(), viewer);
    expect(mine.json()).toMatchObject({ total: 1, items: [{ id: byOrg.id }] });
    const analysts = await call('GET', `${base()}?userId=${analyst.id}`, viewer);
    expect(analysts.json().total).toBe(2);
    for (const { id } of [byUser, byOrg]) await call('DELETE', `${base()}/${id}`, admin);
  });

  it('needs an include or an exclude query, each valid', async () => {
    const none = await call('POST', base(), admin, input({ includeQuery: '  ', excludeQuery: null }));
    expect(none.statusCode).toBe(400);
    expect(none.json()).toMatchObject({ key: 'DATA_RESTRICTION_QUERY_REQUIRED', type: 'ValidatorException' });

    const badInclude = await call('POST', base(), admin, input({ includeQuery: '(source:cards' }));
    expect(badInclude.statusCode).toBe(400);
    expect(badInclude.json()).toMatchObject({
      key: 'DATA_RESTRICTION_INVALID_QUERY',
      field: 'includeQuery',
      params: { field: 'includeQuery', message: expect.stringContaining('ends too early'), position: 13 },
    });

    const badExclude = await call('POST', base(), admin, input({ excludeQuery: 'type:debug)' }));
    expect(badExclude.json()).toMatchObject({
      key: 'DATA_RESTRICTION_INVALID_QUERY',
      field: 'excludeQuery',
      params: { message: 'Unexpected ")" at position 11' },
    });

    const noName = await call('POST', base(), admin, input({ name: ' ' }));
    expect(noName.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'name' });
  });

  it('refuses users of other organisations and organisations the caller is not authorised for', async () => {
    const unknown = '00000000-0000-4000-8000-000000000009';
    for (const userIds of [[outsider.id], [clientUser.id], [analyst.id, unknown]]) {
      const response = await call('POST', base(), admin, input({ userIds }));
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ key: 'DATA_RESTRICTION_UNKNOWN_USER', field: 'userIds' });
    }
    for (const orgIds of [[otherOrgId], [unknown]]) {
      const response = await call('POST', base(), admin, input({ orgIds }));
      expect(response.json()).toMatchObject({
        key: 'DATA_RESTRICTION_UNKNOWN_ORG',
        field: 'orgIds',
        params: { id: orgIds[0] },
      });
    }
    const deletedUser = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: [] });
    await ctx.database.db.update(users).set({ deletedAt: new Date() }).where(eq(users.id, deletedUser.id));
    expect((await call('POST', base(), admin, input({ userIds: [deletedUser.id] }))).json().key).toBe(
      'DATA_RESTRICTION_UNKNOWN_USER',
    );
  });

  it('writes nothing when a request is refused', async () => {
    const { id } = await create({ name: 'Kept as it was' });
    const before = await rowCounts();
    const stored = (await call('GET', `${base()}/${id}`, viewer)).json();

    const refused = [
      await call('POST', base(), admin, input({ orgIds: [clientOrgId, otherOrgId] })),
      await call('POST', base(), admin, input({ excludeQuery: 'a:b AND' })),
      await call('PUT', `${base()}/${id}`, admin, input({ name: 'Changed', orgIds: [otherOrgId] })),
      await call('PUT', `${base()}/${id}`, admin, input({ name: 'Changed', includeQuery: 'NOT' })),
      await call('PUT', `${base()}/${id}`, admin, input({ userIds: [outsider.id] })),
    ];
    expect(refused.map((response) => response.statusCode)).toEqual([400, 400, 400, 400, 400]);
    expect(await rowCounts()).toEqual(before);
    expect((await call('GET', `${base()}/${id}`, viewer)).json()).toEqual(stored);
    await call('DELETE', `${base()}/${id}`, admin);
  });

  it("keeps each organisation's restrictions to itself and changes to editors", async () => {
    const { id } = await create();
    expect((await call('POST', base(), viewer, input())).statusCode).toBe(403);
    expect((await call('DELETE', `${base()}/${id}`, viewer)).statusCode).toBe(403);
    expect((await call('GET', `/api/org/${orgId}/data-restrictions`, analyst)).statusCode).toBe(403);

    expect((await call('GET', `${base()}/${id}`, outsider)).json().key).toBe('ORG_NOT_AUTHORISED');
    // Through their own organisation's path, the restriction does not exist.
    const foreign = `/api/org/${otherOrgId}/data-restriction/${id}`;
    const answers = [
      await call('GET', foreign, outsider),
      await call('PUT', foreign, outsider, input({ userIds: [] })),
      await call('DELETE', foreign, outsider),
      await call('POST', `${foreign}/restore`, outsider),
      await call('GET', `${foreign}/users`, outsider),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([404, 404, 404, 404, 404]);
    expect((await call('GET', `/api/org/${otherOrgId}/data-restrictions`, outsider)).json().total).toBe(0);
    expect((await call('GET', `${base()}/${id}`, viewer)).json().deletedAt).toBeNull();
    await call('DELETE', `${base()}/${id}`, admin);
  });

  it('pages the list by name', async () => {
    const ids = [];
    for (const name of ['Charlie', 'alpha', 'Bravo']) ids.push((await create({ name })).id);
    const page = await call('GET', `/api/org/${orgId}/data-restrictions?pageSize=2&pageNumber=2`, viewer);
    expect(page.json()).toMatchObject({ total: 3, items: [{ name: 'Charlie' }] });
    const first = await call('GET', `/api/org/${orgId}/data-restrictions?pageSize=2`, viewer);
    expect(first.json().items.map((item: { name: string }) => item.name)).toEqual(['alpha', 'Bravo']);
    for (const id of ids) await call('DELETE', `${base()}/${id}`, admin);
  });
});
