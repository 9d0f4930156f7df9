import { eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';

let ctx: TestContext;
let providerOrgId: string;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
let clientAdmin: SeededUser;
let providerAdmin: SeededUser;
let providerAnalyst: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['SAVED_SEARCH_VIEW'] });
  outsider = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'],
  });
  clientAdmin = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT', 'TRAC_ADMIN'],
  });
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'],
    authorisedOrgIds: [orgId, otherOrgId],
  });
  providerAnalyst = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'],
    authorisedOrgIds: [orgId],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface SavedJson {
  id: string;
  name: string;
  library: boolean;
  editable: boolean;
  orgId: string | null;
  [field: string]: unknown;
}

let counter = 0;
const fresh = (prefix = 'Query') => `${prefix} ${++counter}`;

async function save(payload: object, user = editor, org = orgId): Promise<SavedJson> {
  const response = await call('POST', '/saved-query', user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as SavedJson;
}

const list = async (user: SeededUser, query = '', org = orgId) => {
  const response = await call('GET', `/saved-queries${query}`, user, undefined, org);
  expect(response.statusCode).toBe(200);
  return response.json() as { items: SavedJson[]; total: number };
};

describe('saved queries', () => {
  it('saves, reads, lists by name, changes and deletes a query, auditing each write', async () => {
    const name = fresh('Failed logins');
    const saved = await save({
      name: ` ${name} `,
      description: 'Brute force',
      query: 'action:login AND outcome:failure',
      aggregation: { type: 'terms', field: 'user_name', size: 10 },
      primaryField: 'user_name',
    });
    expect(saved).toMatchObject({
      name,
      description: 'Brute force',
      query: 'action:login AND outcome:failure',
      aggregation: { type: 'terms', field: 'user_name', size: 10 },
      primaryField: 'user_name',
      library: false,
      editable: true,
      orgId,
      createdBy: editor.id,
      createdByName: 'Test User',
    });
    const read = await call('GET', `/saved-query/${saved.id}`, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: saved.id, name });

    const found = await list(viewer, `?search=${encodeURIComponent(name.toUpperCase())}`);
    expect(found.items.map((item) => item.id)).toEqual([saved.id]);

    const changed = await call('PUT', `/saved-query/${saved.id}`, editor, {
      name: `${name} v2`,
      query: 'host:web01',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({ name: `${name} v2`, aggregation: null, primaryField: null });

    expect((await call('DELETE', `/saved-query/${saved.id}`, editor)).statusCode).toBe(204);
    expect((await call('GET', `/saved-query/${saved.id}`, viewer)).json().key).toBe('SAVED_QUERY_NOT_FOUND');

    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, saved.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual(['saved-query.created', 'saved-query.deleted', 'saved-query.updated']);
  });

  it('keeps names unique in an organisation, any case, but not across organisations', async () => {
    const name = fresh('Unique');
    const first = await save({ name, query: 'host:a' });
    const duplicate = await call('POST', '/saved-query', editor, {
      name: name.toUpperCase(),
      query: 'host:b',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ key: 'SAVED_QUERY_NAME_TAKEN', field: 'name' });

    const second = await save({ name: fresh('Unique'), query: 'host:c' });
    const rename = await call('PUT', `/saved-query/${second.id}`, editor, {
      name: name.toLowerCase(),
      query: 'x',
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json().key).toBe('SAVED_QUERY_NAME_TAKEN');
    // Renaming a query to its own name in another case is fine.
    const same = await call('PUT', `/saved-query/${first.id}`, editor, {
      name: name.toLowerCase(),
      query: 'x',
    });
    expect(same.statusCode).toBe(200);

    await save({ name, query: 'host:a' }, outsider, otherOrgId);
  });

  it('refuses invalid queries with the position of the fault, and overlong ones', async () => {
    const response = await call('POST', '/saved-query', editor, { name: fresh(), query: 'host:(web01' });
    expect(response.statusCode).toBe(400);
    const body = response.json();
    expect(body).toMatchObject({ key: 'SAVED_QUERY_INVALID_QUERY', field: 'query' });
    expect(typeof body.params.position).toBe('number');

    const tooLong = await call('POST', '/saved-query', editor, { name: fresh(), query: 'a'.repeat(2049) });
    expect(tooLong.statusCode).toBe(400);
    const blank = await call('POST', '/saved-query', editor, { name: fresh(), query: '  ' });
    expect(blank.statusCode).toBe(400);
    const noName = await call('POST', '/saved-query', editor, { name: ' ', query: 'host:a' });
    expect(noName.statusCode).toBe(400);
  });

  it("answers 404 for another organisation's queries, whatever the call", async () => {
    const theirs = await save({ name: fresh('Theirs'), query: 'host:x' }, outsider, otherOrgId);
    for (const [method, path, payload] of [
      ['GET', `/saved-query/${theirs.id}`, undefined],
      ['PUT', `/saved-query/${theirs.id}`, { name: 'Mine now', query: 'host:y' }],
      ['DELETE', `/saved-query/${theirs.id}`, undefined],
    ] as const) {
      const response = await call(method, path, editor, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().key).toBe('SAVED_QUERY_NOT_FOUND');
    }
    expect((await list(editor)).items.some((item) => item.id === theirs.id)).toBe(false);
  });

  it('needs SAVED_SEARCH_EDIT to write and SAVED_SEARCH_VIEW to read', async () => {
    const mine = await save({ name: fresh(), query: 'host:a' });
    const refused = [
      await call('POST', '/saved-query', viewer, { name: fresh(), query: 'host:a' }),
      await call('PUT', `/saved-query/${mine.id}`, viewer, { name: fresh(), query: 'host:a' }),
      await call('DELETE', `/saved-query/${mine.id}`, viewer),
    ];
    expect(refused.map((response) => response.statusCode)).toEqual([403, 403, 403]);
    const nobody = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['ASSET_VIEW'] });
    expect((await call('GET', '/saved-queries', nobody)).statusCode).toBe(403);
  });

  it('lets only provider administrators promote, and shows library queries to every organisation read-only', async () => {
    const name = fresh('Library');
    const mine = await save({ name, query: 'event_type:malware' });

    for (const user of [editor, clientAdmin, providerAnalyst]) {
      const response = await call('POST', `/saved-query/${mine.id}/promote`, user);
      expect(response.statusCode).toBe(403);
    }
    expect((await call('POST', `/saved-query/${mine.id}/promote`, clientAdmin)).json().key).toBe(
      'SAVED_QUERY_PROMOTE_DENIED',
    );

    const promoted = await call('POST', `/saved-query/${mine.id}/promote`, providerAdmin);
    expect(promoted.statusCode).toBe(200);
    expect(promoted.json()).toMatchObject({ id: mine.id, library: true, orgId: null, editable: true });
    expect((await call('POST', `/saved-query/${mine.id}/promote`, providerAdmin)).json().key).toBe(
      'SAVED_QUERY_ALREADY_LIBRARY',
    );

    // Visible to another organisation, flagged, not editable by its people.
    const seen = (await list(outsider, '', otherOrgId)).items.find((item) => item.id === mine.id);
    expect(seen).toMatchObject({ library: true, editable: false });
    expect((await call('GET', `/saved-query/${mine.id}`, outsider, undefined, otherOrgId)).statusCode).toBe(
      200,
    );
    for (const [user, org] of [
      [outsider, otherOrgId],
      [editor, orgId],
    ] as const) {
      const put = await call('PUT', `/saved-query/${mine.id}`, user, { name, query: 'host:z' }, org);
      expect(put.statusCode).toBe(403);
      expect(put.json().key).toBe('SAVED_QUERY_LIBRARY_READ_ONLY');
      const del = await call('DELETE', `/saved-query/${mine.id}`, user, undefined, org);
      expect(del.statusCode).toBe(403);
    }

    // The organisation may reuse the name for a query of its own; the library may not hold it twice.
    const reuse = await save({ name, query: 'host:a' });
    const again = await call('POST', `/saved-query/${reuse.id}/promote`, providerAdmin);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('SAVED_QUERY_NAME_TAKEN');

    // Provider staff may change library queries.
    const edit = await call('PUT', `/saved-query/${mine.id}`, providerAnalyst, {
      name,
      description: 'Curated',
      query: 'event_type:malware AND severity:>3',
    });
    expect(edit.statusCode).toBe(200);
    expect(edit.json()).toMatchObject({ library: true, description: 'Curated' });

    const audit = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(like(activityLog.action, 'saved-query.promoted'));
    expect(audit.length).toBeGreaterThanOrEqual(1);
    expect((await call('DELETE', `/saved-query/${mine.id}`, providerAdmin)).statusCode).toBe(204);
  });
});
