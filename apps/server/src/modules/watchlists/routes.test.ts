import { Readable } from 'node:stream';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WATCHLIST_MAX_ITEMS, WATCHLIST_UPLOAD_MAX_BYTES, WATCHLIST_WARN_ITEMS } from '@vigil/contracts';
import {
  browserHeaders,
  createTestApp,
  type HttpMethod,
  orgRequest,
  type TestContext,
} from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { orgs } from '../orgs/tables';
import { watchlistValues } from './service';
import { watchlistItems } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let fraudOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let noAccess: SeededUser;
let outsider: SeededUser;
let fraudEditor: SeededUser;

const EDIT = ['THREATMATCH_VIEW', 'THREATMATCH_EDIT'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  fraudOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['THREATMATCH_VIEW'] });
  noAccess = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  fraudEditor = await seedUser(db, { homeOrgId: fraudOrgId, permissions: [...EDIT] });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface WatchlistJson {
  id: string;
  name: string;
  domain: string;
  field: string;
  itemCount: number;
  nearLimit: boolean;
}

let counter = 0;
const fresh = () => `Watchlist ${++counter}`;

async function create(payload: object = {}, user = editor, org = orgId): Promise<WatchlistJson> {
  const response = await call(
    'POST',
    '/watchlist',
    user,
    { name: fresh(), field: 'user_name', items: ['alice'], ...payload },
    org,
  );
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as WatchlistJson;
}

const values = (count: number, prefix = 'v') =>
  Array.from({ length: count }, (_, index) => `${prefix}${index}`);

const BOUNDARY = '----vigil-watchlist-boundary-Q2kS7f';

function multipart(filename: string, content: string | Buffer) {
  async function* body() {
    yield Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: text/plain\r\n\r\n',
    );
    yield Buffer.from(content);
    yield Buffer.from(`\r\n--${BOUNDARY}--\r\n`);
  }
  return Readable.from(body());
}

const upload = (
  id: string,
  filename: string,
  content: string | Buffer,
  mode = 'append',
  user = editor,
  org = orgId,
) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/org/${org}/watchlist/${id}/upload?mode=${mode}`,
    headers: { ...browserHeaders(user.cookie), 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: multipart(filename, content),
  });

const storedValues = async (id: string) =>
  (
    await ctx.database.db
      .select({ value: watchlistItems.value })
      .from(watchlistItems)
      .where(eq(watchlistItems.watchlistId, id))
  )
    .map((row) => row.value)
    .sort();

describe('watchlists', () => {
  it('creates, reads, lists, changes and deletes a watchlist, with an audit trail', async () => {
    const created = await create({
      name: 'Privileged',
      description: 'Admins',
      items: [' svc_backup ', 'root', 'root', '', 'admin'],
    });
    expect(created).toMatchObject({ domain: 'security', field: 'user_name', itemCount: 3, nearLimit: false });
    expect(await storedValues(created.id)).toEqual(['admin', 'root', 'svc_backup']);

    const read = await call('GET', `/watchlist/${created.id}`, viewer);
    expect(read.json()).toMatchObject({ name: 'Privileged', description: 'Admins', itemCount: 3 });

    const listed = await call('GET', '/watchlists?search=privil', viewer);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id: created.id, itemCount: 3 }] });

    const changed = await call('PUT', `/watchlist/${created.id}`, editor, {
      name: 'Privileged accounts',
      field: 'fields.account',
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      name: 'Privileged accounts',
      field: 'fields.account',
      itemCount: 3,
    });

    const removed = await call('DELETE', `/watchlist/${created.id}`, editor);
    expect(removed.statusCode).toBe(204);
    expect((await call('GET', `/watchlist/${created.id}`, viewer)).statusCode).toBe(404);
    expect(await storedValues(created.id)).toEqual([]);

    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, created.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual(['watchlist.created', 'watchlist.deleted', 'watchlist.updated']);
  });

  it('refuses bad input with catalogue keys and writes nothing', async () => {
    const cases: [object, number, string][] = [
      [{ items: [] }, 400, 'WATCHLIST_ITEMS_REQUIRED'],
      [{ items: ['  ', ''] }, 400, 'WATCHLIST_ITEMS_REQUIRED'],
      [{ field: 'user name' }, 400, 'WATCHLIST_FIELD_INVALID'],
      [{ field: 'user*' }, 400, 'WATCHLIST_FIELD_INVALID'],
      [{ field: 'a:b' }, 400, 'WATCHLIST_FIELD_INVALID'],
      [{ field: '' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ name: '' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ items: ['x'.repeat(1001)] }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ items: values(WATCHLIST_MAX_ITEMS + 5) }, 400, 'WATCHLIST_TOO_MANY_ITEMS'],
    ];
    for (const [payload, status, key] of cases) {
      const name = fresh();
      const response = await call('POST', '/watchlist', editor, {
        name,
        field: 'user_name',
        items: ['a'],
        ...payload,
      });
      expect([response.statusCode, response.json().key], JSON.stringify(payload).slice(0, 80)).toEqual([
        status,
        key,
      ]);
      const listed = await call('GET', `/watchlists?search=${encodeURIComponent(name)}`, editor);
      expect(listed.json().total).toBe(0);
    }
    const overflow = await call('POST', '/watchlist', editor, {
      name: fresh(),
      field: 'user_name',
      items: values(WATCHLIST_MAX_ITEMS + 5),
    });
    expect(overflow.json().params).toEqual({ max: WATCHLIST_MAX_ITEMS, overflow: 5 });
  });

  it('keeps names unique per organisation and domain, any case', async () => {
    await create({ name: 'Card BINs' });
    const again = await call('POST', '/watchlist', editor, { name: 'card bins', field: 'x', items: ['1'] });
    expect([again.statusCode, again.json().key]).toEqual([409, 'WATCHLIST_NAME_TAKEN']);
    await create({ name: 'Card BINs' }, outsider, otherOrgId);
    const other = await create({ name: 'Other' });
    const rename = await call('PUT', `/watchlist/${other.id}`, editor, { name: 'CARD BINS', field: 'x' });
    expect([rename.statusCode, rename.json().key]).toEqual([409, 'WATCHLIST_NAME_TAKEN']);
  });

  it('adds and removes items, skipping repeats and keeping at least one', async () => {
    const list = await create({ items: ['a', 'b'] });
    const added = await call('POST', `/watchlist/${list.id}/items`, editor, {
      values: ['b', 'c', ' c ', 'd'],
    });
    expect(added.json()).toMatchObject({ itemCount: 4 });
    const page = await call('GET', `/watchlist/${list.id}/items?pageSize=2&pageNumber=2`, viewer);
    expect(page.json()).toEqual({ items: ['c', 'd'], total: 4 });
    const searched = await call('GET', `/watchlist/${list.id}/items?search=C`, viewer);
    expect(searched.json()).toEqual({ items: ['c'], total: 1 });

    const removed = await call('DELETE', `/watchlist/${list.id}/items`, editor, { values: ['a', 'zzz'] });
    expect(removed.json()).toMatchObject({ itemCount: 3 });
    const last = await call('DELETE', `/watchlist/${list.id}/items`, editor, { values: ['b', 'c', 'd'] });
    expect([last.statusCode, last.json().key]).toEqual([400, 'WATCHLIST_ITEMS_REQUIRED']);
    expect(await storedValues(list.id)).toEqual(['b', 'c', 'd']);
  });

  it('flags a watchlist near the limit and refuses items past it with the overflow', async () => {
    const list = await create({ items: values(WATCHLIST_WARN_ITEMS - 1) });
    expect(list.nearLimit).toBe(false);
    const near = await call('POST', `/watchlist/${list.id}/items`, editor, { values: ['one more'] });
    expect(near.json()).toMatchObject({ itemCount: WATCHLIST_WARN_ITEMS, nearLimit: true });
    const listed = await call('GET', `/watchlists?search=${encodeURIComponent(list.name)}`, viewer);
    expect(listed.json().items[0]).toMatchObject({ nearLimit: true });

    const tooMany = values(WATCHLIST_MAX_ITEMS - WATCHLIST_WARN_ITEMS + 3, 'w');
    const refused = await call('POST', `/watchlist/${list.id}/items`, editor, { values: [...tooMany, 'v0'] });
    expect([refused.statusCode, refused.json().key, refused.json().params]).toEqual([
      400,
      'WATCHLIST_TOO_MANY_ITEMS',
      { max: WATCHLIST_MAX_ITEMS, overflow: 3 },
    ]);
    expect((await storedValues(list.id)).length).toBe(WATCHLIST_WARN_ITEMS);
  });

  it('uploads plain text and CSV, appending or replacing, and exports CSV', async () => {
    const list = await create({ field: 'src_ip', items: ['10.0.0.1'] });
    const text = await upload(list.id, 'ips.txt', '10.0.0.2\r\n\r\n 10.0.0.3 \n10.0.0.2\n10.0.0.1\n');
    expect(text.statusCode, text.body).toBe(200);
    expect(text.json()).toMatchObject({ read: 3, added: 2, watchlist: { itemCount: 3 } });

    const csv = await upload(list.id, 'ips.CSV', 'SRC_IP,note\n"10.0.0.9",x\n10.0.0.3,y\n', 'replace');
    expect(csv.json()).toMatchObject({ read: 2, added: 1, watchlist: { itemCount: 2 } });
    expect(await storedValues(list.id)).toEqual(['10.0.0.3', '10.0.0.9']);

    await call('POST', `/watchlist/${list.id}/items`, editor, { values: ['-1,a'] });
    const exported = await call('GET', `/watchlist/${list.id}/export`, viewer);
    expect(exported.headers['content-type']).toContain('text/csv');
    expect(exported.body).toBe('value\r\n"\'-1,a"\r\n10.0.0.3\r\n10.0.0.9\r\n');

    const again = await upload(list.id, 'export.csv', exported.body, 'replace');
    expect(again.json()).toMatchObject({ read: 3, added: 0 });
    expect(await storedValues(list.id)).toEqual(['-1,a', '10.0.0.3', '10.0.0.9']);
  });

  it('refuses a whole upload over the limit with the overflow count, writing nothing', async () => {
    const list = await create({ items: ['keep'] });
    const file = values(WATCHLIST_MAX_ITEMS + 1, 'u').join('\n');
    const replaced = await upload(list.id, 'big.txt', file, 'replace');
    expect([replaced.statusCode, replaced.json().key, replaced.json().params]).toEqual([
      400,
      'WATCHLIST_TOO_MANY_ITEMS',
      { max: WATCHLIST_MAX_ITEMS, overflow: 1 },
    ]);
    const appended = await upload(list.id, 'big.txt', values(WATCHLIST_MAX_ITEMS, 'u').join('\n'));
    expect(appended.json().params).toEqual({ max: WATCHLIST_MAX_ITEMS, overflow: 1 });
    expect(await storedValues(list.id)).toEqual(['keep']);
  });

  it('refuses malformed, empty, over-long and too large uploads with the file name', async () => {
    const list = await create({ items: ['keep'] });
    const cases: [string, string | Buffer, number, string, object][] = [
      ['bad.csv', 'a\n"open quote\nb', 400, 'WATCHLIST_UPLOAD_MALFORMED', { 0: 'bad.csv' }],
      ['nul.txt', 'a\u0000b\n', 400, 'WATCHLIST_UPLOAD_MALFORMED', { 0: 'nul.txt' }],
      ['blank.txt', '\n  \n', 400, 'WATCHLIST_ITEMS_REQUIRED', {}],
      [
        'long.txt',
        `ok\n${'x'.repeat(1001)}\n`,
        400,
        'WATCHLIST_UPLOAD_VALUE_TOO_LONG',
        { 0: 'long.txt', line: 2 },
      ],
      [
        'huge.txt',
        Buffer.alloc(WATCHLIST_UPLOAD_MAX_BYTES + 1, 'a'),
        413,
        'WATCHLIST_UPLOAD_TOO_LARGE',
        { 0: 'huge.txt' },
      ],
    ];
    for (const [filename, content, status, key, params] of cases) {
      const response = await upload(list.id, filename, content, 'replace');
      expect([response.statusCode, response.json().key], filename).toEqual([status, key]);
      expect(response.json().params ?? {}).toMatchObject(params);
    }
    const notMultipart = await call('POST', `/watchlist/${list.id}/upload`, editor, { values: ['x'] });
    expect([notMultipart.statusCode, notMultipart.json().key]).toEqual([400, 'WATCHLIST_UPLOAD_NO_FILE']);
    expect(await storedValues(list.id)).toEqual(['keep']);
  });

  it('refuses other organisations (404) and callers without the permission (403)', async () => {
    const list = await create();
    const routes: [HttpMethod, string, object?][] = [
      ['GET', `/watchlist/${list.id}`],
      ['PUT', `/watchlist/${list.id}`, { name: 'x', field: 'y' }],
      ['DELETE', `/watchlist/${list.id}`],
      ['GET', `/watchlist/${list.id}/items`],
      ['POST', `/watchlist/${list.id}/items`, { values: ['x'] }],
      ['DELETE', `/watchlist/${list.id}/items`, { values: ['alice'] }],
      ['GET', `/watchlist/${list.id}/export`],
    ];
    for (const [method, path, payload] of routes) {
      const foreign = await call(method, path, outsider, payload, otherOrgId);
      expect([foreign.statusCode, foreign.json().key], `${method} ${path}`).toEqual([
        404,
        'WATCHLIST_NOT_FOUND',
      ]);
      const denied = await call(method, path, method === 'GET' ? noAccess : viewer, payload);
      expect([denied.statusCode, denied.json().key], `${method} ${path}`).toEqual([403, 'PERMISSION_DENIED']);
    }
    const foreignUpload = await upload(list.id, 'a.txt', 'x', 'append', outsider, otherOrgId);
    expect([foreignUpload.statusCode, foreignUpload.json().key]).toEqual([404, 'WATCHLIST_NOT_FOUND']);
    const viewerUpload = await upload(list.id, 'a.txt', 'x', 'append', viewer);
    expect([viewerUpload.statusCode, viewerUpload.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await upload(list.id, 'a.txt', 'x')).statusCode).toBe(200);
    expect((await call('GET', '/watchlists', noAccess)).statusCode).toBe(403);
    expect(
      (await call('POST', '/watchlist', viewer, { name: 'n', field: 'f', items: ['x'] })).statusCode,
    ).toBe(403);
    expect(await storedValues(list.id)).toEqual(['alice', 'x']);
  });

  it('keeps fraud watchlists apart and behind the fraud product', async () => {
    const fraud = await create(
      { domain: 'fraud', name: 'Mule accounts', field: 'account' },
      fraudEditor,
      fraudOrgId,
    );
    expect(fraud.domain).toBe('fraud');
    // The same name is free in the security domain.
    await create({ name: 'Mule accounts' }, fraudEditor, fraudOrgId);
    const fraudList = await call('GET', '/watchlists?domain=fraud', fraudEditor, undefined, fraudOrgId);
    expect(fraudList.json()).toMatchObject({ total: 1, items: [{ id: fraud.id }] });

    const listed = await call('GET', '/watchlists?domain=fraud', editor);
    expect([listed.statusCode, listed.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
    const created = await call('POST', '/watchlist', editor, {
      domain: 'fraud',
      name: 'F',
      field: 'f',
      items: ['x'],
    });
    expect([created.statusCode, created.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
    expect((await call('GET', '/watchlists?domain=other', editor)).statusCode).toBe(400);

    // An organisation that lost the product keeps its fraud watchlists out of reach.
    const lapsedOrg = await seedOrg(ctx.database.db, { productSkus: ['CYBERFRAUD_PREMIUM'] });
    const lapsedEditor = await seedUser(ctx.database.db, { homeOrgId: lapsedOrg.id, permissions: [...EDIT] });
    const kept = await create({ domain: 'fraud' }, lapsedEditor, lapsedOrg.id);
    await ctx.database.db.update(orgs).set({ productSkus: [] }).where(eq(orgs.id, lapsedOrg.id));
    const read = await call('GET', `/watchlist/${kept.id}`, lapsedEditor, undefined, lapsedOrg.id);
    expect([read.statusCode, read.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
  });

  it('hands triggers the field and values of a watchlist of the organisation only', async () => {
    const list = await create({ field: 'user_name', items: ['b', 'a'] });
    expect(await watchlistValues(ctx.database.db, orgId, list.id)).toEqual({
      domain: 'security',
      field: 'user_name',
      values: ['a', 'b'],
    });
    expect(await watchlistValues(ctx.database.db, otherOrgId, list.id)).toBeUndefined();
  });
});
