import { CUSTOM_PARSER_MAX_MAPPINGS, CUSTOM_PARSERS_MAX_PER_ORG, type Event } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { createInputToken } from '../tokens/service';
import { customParsers } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let unentitledOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
let unentitled: SeededUser;
let apiToken: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['CUSTOM_PARSERS'] })).id;
  otherOrgId = (await seedOrg(db, { productSkus: ['CUSTOM_PARSERS'] })).id;
  unentitledOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT', 'EVENT_VIEW'],
  });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['CUSTOM_PARSER_VIEW'] });
  outsider = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT'],
  });
  unentitled = await seedUser(db, {
    homeOrgId: unentitledOrgId,
    permissions: ['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT'],
  });
  apiToken = (
    await createInputToken(db, { orgId, userId: editor.id }, 'API', { description: 'parser tests' })
  ).secret;
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface ParserJson {
  id: string;
  dataSource: string;
  mappings: { from: string; to: string }[];
  [field: string]: unknown;
}

let counter = 0;
const freshSource = (prefix = 'app') => `${prefix}-${++counter}`;
const oneMapping = [{ from: 'src', to: 'src_ip' }];

async function create(payload: object, user = editor, org = orgId): Promise<ParserJson> {
  const response = await call('POST', '/custom-parser', user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ParserJson;
}

async function expectRefused(payload: object, status: number, key: string, field?: string) {
  const before = await ctx.database.db.select({ id: customParsers.id }).from(customParsers);
  const response = await call('POST', '/custom-parser', editor, payload);
  expect(response.statusCode, response.body).toBe(status);
  expect(response.json().key).toBe(key);
  if (field) expect(response.json().field).toBe(field);
  const after = await ctx.database.db.select({ id: customParsers.id }).from(customParsers);
  expect(after).toHaveLength(before.length);
}

describe('custom parsers API', () => {
  it('creates, reads, lists by data source, changes and deletes a parser, auditing each write', async () => {
    const dataSource = freshSource('zeta');
    const created = await create({
      dataSource: ` ${dataSource} `,
      mappings: [
        { from: ' source address ', to: 'src_ip' },
        { from: 'user.name', to: 'user_name' },
      ],
    });
    expect(created).toMatchObject({
      dataSource,
      mappings: [
        { from: 'source address', to: 'src_ip' },
        { from: 'user.name', to: 'user_name' },
      ],
      createdBy: editor.id,
      createdByName: 'Test User',
    });
    const read = await call('GET', `/custom-parser/${created.id}`, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, dataSource });

    const first = await create({ dataSource: freshSource('Alpha'), mappings: oneMapping });
    const listed = await call('GET', '/custom-parsers', viewer);
    expect(listed.statusCode).toBe(200);
    const ids = (listed.json().items as ParserJson[]).map((item) => item.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(created.id));
    expect(listed.json().total).toBe(ids.length);
    const paged = await call('GET', '/custom-parsers?pageSize=1&pageNumber=2', viewer);
    expect(paged.json().items).toHaveLength(1);
    expect(paged.json().total).toBe(ids.length);

    const changed = await call('PUT', `/custom-parser/${created.id}`, editor, {
      dataSource: `${dataSource}-v2`,
      mappings: [{ from: 'dst', to: 'dst_ip' }],
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      dataSource: `${dataSource}-v2`,
      mappings: [{ from: 'dst', to: 'dst_ip' }],
    });

    expect((await call('DELETE', `/custom-parser/${created.id}`, editor)).statusCode).toBe(204);
    const gone = await call('GET', `/custom-parser/${created.id}`, viewer);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().key).toBe('CUSTOM_PARSER_NOT_FOUND');

    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, created.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual([
      'custom-parser.created',
      'custom-parser.deleted',
      'custom-parser.updated',
    ]);
    await call('DELETE', `/custom-parser/${first.id}`, editor);
  });

  it('keeps one parser per data source in an organisation, any case, but not across organisations', async () => {
    const dataSource = freshSource('Dup');
    const first = await create({ dataSource, mappings: oneMapping });
    await expectRefused(
      { dataSource: dataSource.toUpperCase(), mappings: oneMapping },
      409,
      'CUSTOM_PARSER_DATA_SOURCE_TAKEN',
      'dataSource',
    );
    const second = await create({ dataSource: freshSource('Dup'), mappings: oneMapping });
    const rename = await call('PUT', `/custom-parser/${second.id}`, editor, {
      dataSource: dataSource.toLowerCase(),
      mappings: oneMapping,
    });
    expect(rename.statusCode).toBe(409);
    expect(rename.json()).toMatchObject({
      key: 'CUSTOM_PARSER_DATA_SOURCE_TAKEN',
      params: { dataSource: dataSource.toLowerCase() },
    });
    // A parser may take its own data source in another case.
    const same = await call('PUT', `/custom-parser/${first.id}`, editor, {
      dataSource: dataSource.toLowerCase(),
      mappings: oneMapping,
    });
    expect(same.statusCode).toBe(200);
    await create({ dataSource, mappings: oneMapping }, outsider, otherOrgId);
    for (const parser of [first, second]) await call('DELETE', `/custom-parser/${parser.id}`, editor);
  });

  it('refuses bad data sources and mappings with their own keys, storing nothing', async () => {
    const mapping = (from: string, to: string) => ({ dataSource: freshSource(), mappings: [{ from, to }] });
    await expectRefused(
      { dataSource: '  ', mappings: oneMapping },
      400,
      'CUSTOM_PARSER_DATA_SOURCE_REQUIRED',
    );
    await expectRefused({ dataSource: freshSource(), mappings: [] }, 400, 'CUSTOM_PARSER_MAPPING_REQUIRED');
    for (const from of ['src-ip', 'a..b', '.a', 'a.', 'a. b', 'user$name', 'ünïcode']) {
      await expectRefused(mapping(from, 'x'), 400, 'CUSTOM_PARSER_INVALID_FROM_FIELD', 'mappings.0.from');
    }
    for (const to of ['a.b', 'src ip', 'src-ip']) {
      await expectRefused(mapping('a', to), 400, 'CUSTOM_PARSER_INVALID_TO_FIELD', 'mappings.0.to');
    }
    for (const to of ['data_source', 'ts', 'ip', 'user']) {
      await expectRefused(mapping('a', to), 400, 'CUSTOM_PARSER_RESERVED_TO_FIELD', 'mappings.0.to');
    }
    await expectRefused(mapping(' ', 'x'), 400, 'CUSTOM_PARSER_FIELD_REQUIRED', 'mappings.0.from');
    await expectRefused(mapping('a', ''), 400, 'CUSTOM_PARSER_FIELD_REQUIRED', 'mappings.0.to');
    await expectRefused(
      {
        dataSource: freshSource(),
        mappings: [
          { from: 'a', to: 'target' },
          { from: 'b', to: 'other' },
          { from: 'c', to: 'target' },
        ],
      },
      400,
      'CUSTOM_PARSER_DUPLICATE_TO_FIELD',
      'mappings.2.to',
    );
    const tooMany = Array.from({ length: CUSTOM_PARSER_MAX_MAPPINGS + 1 }, (_, index) => ({
      from: `f${index}`,
      to: `t${index}`,
    }));
    await expectRefused(
      { dataSource: freshSource(), mappings: tooMany },
      400,
      'CUSTOM_PARSER_TOO_MANY_MAPPINGS',
    );
    await expectRefused(
      { dataSource: 'x'.repeat(257), mappings: oneMapping },
      400,
      'GENERIC_INVALID_FIELD_VALUE',
    );
    await expectRefused({ dataSource: freshSource() }, 400, 'GENERIC_INVALID_FIELD_VALUE');
    // The maximum is allowed, and a change is checked the same way.
    const full = await create({ dataSource: freshSource(), mappings: tooMany.slice(1) });
    const bad = await call('PUT', `/custom-parser/${full.id}`, editor, mapping('a', 'b.c'));
    expect(bad.json().key).toBe('CUSTOM_PARSER_INVALID_TO_FIELD');
    expect((await call('GET', `/custom-parser/${full.id}`, viewer)).json().mappings).toHaveLength(
      CUSTOM_PARSER_MAX_MAPPINGS,
    );
    await call('DELETE', `/custom-parser/${full.id}`, editor);
  });

  it('refuses a parser beyond the per-organisation limit', async () => {
    const org = (await seedOrg(ctx.database.db, { productSkus: ['CUSTOM_PARSERS'] })).id;
    const admin = await seedUser(ctx.database.db, {
      homeOrgId: org,
      permissions: ['CUSTOM_PARSER_VIEW', 'CUSTOM_PARSER_EDIT'],
    });
    await ctx.database.db.insert(customParsers).values(
      Array.from({ length: CUSTOM_PARSERS_MAX_PER_ORG }, (_, index) => ({
        orgId: org,
        dataSource: `source-${index}`,
        mappings: oneMapping,
      })),
    );
    const refused = await call(
      'POST',
      '/custom-parser',
      admin,
      { dataSource: 'one more', mappings: oneMapping },
      org,
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      key: 'CUSTOM_PARSER_LIMIT_REACHED',
      params: { max: CUSTOM_PARSERS_MAX_PER_ORG },
    });
    expect((await call('GET', '/custom-parsers', admin, undefined, org)).json().total).toBe(
      CUSTOM_PARSERS_MAX_PER_ORG,
    );
  });

  it("answers 404 for another organisation's parsers, whatever the call", async () => {
    const theirs = await create(
      { dataSource: freshSource('theirs'), mappings: oneMapping },
      outsider,
      otherOrgId,
    );
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { dataSource: 'mine now', mappings: oneMapping }],
      ['DELETE', undefined],
    ] as const) {
      const response = await call(method, `/custom-parser/${theirs.id}`, editor, payload);
      expect(response.statusCode).toBe(404);
      expect(response.json().key).toBe('CUSTOM_PARSER_NOT_FOUND');
    }
    const list = (await call('GET', '/custom-parsers', editor)).json() as { items: ParserJson[] };
    expect(list.items.some((item) => item.id === theirs.id)).toBe(false);
    expect(
      (await call('GET', `/custom-parser/${theirs.id}`, outsider, undefined, otherOrgId)).json(),
    ).toMatchObject({ dataSource: theirs.dataSource });
  });

  it('needs CUSTOM_PARSER_EDIT to write, CUSTOM_PARSER_VIEW to read and the CUSTOM_PARSERS product', async () => {
    const mine = await create({ dataSource: freshSource(), mappings: oneMapping });
    const refused = [
      await call('POST', '/custom-parser', viewer, { dataSource: freshSource(), mappings: oneMapping }),
      await call('PUT', `/custom-parser/${mine.id}`, viewer, {
        dataSource: freshSource(),
        mappings: oneMapping,
      }),
      await call('DELETE', `/custom-parser/${mine.id}`, viewer),
    ];
    expect(refused.map((response) => response.statusCode)).toEqual([403, 403, 403]);
    expect(refused[0]!.json().key).toBe('PERMISSION_DENIED');
    const nobody = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
    expect((await call('GET', '/custom-parsers', nobody)).statusCode).toBe(403);
    expect((await call('GET', `/custom-parser/${mine.id}`, nobody)).statusCode).toBe(403);

    for (const [method, path, payload] of [
      ['GET', '/custom-parsers', undefined],
      ['GET', `/custom-parser/${mine.id}`, undefined],
      ['POST', '/custom-parser', { dataSource: freshSource(), mappings: oneMapping }],
      ['PUT', `/custom-parser/${mine.id}`, { dataSource: freshSource(), mappings: oneMapping }],
      ['DELETE', `/custom-parser/${mine.id}`, undefined],
    ] as const) {
      const response = await call(method, path, unentitled, payload, unentitledOrgId);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().key).toBe('PRODUCT_NOT_ENTITLED');
    }
    expect((await call('GET', `/custom-parser/${mine.id}`, viewer)).statusCode).toBe(200);
    await call('DELETE', `/custom-parser/${mine.id}`, editor);
  });
});

describe('custom parsers at ingest', () => {
  const ingest = (events: unknown[]) =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/ingest/events',
      headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${apiToken}` },
      payload: events.map((event) => JSON.stringify(event)).join('\n'),
    });

  async function search(query: string): Promise<Event[]> {
    const response = await call('POST', '/search', editor, { query, intervalType: '24H', pageSize: 100 });
    expect(response.statusCode, response.body).toBe(200);
    return (response.json() as { items: Event[] }).items;
  }

  it('remaps the fields of its data source, any case, and leaves other sources alone', async () => {
    await create({
      dataSource: 'acme-fw',
      mappings: [
        { from: 'source address', to: 'src_ip' },
        { from: 'user.name', to: 'user_name' },
        { from: 'rule.id', to: 'rule_id' },
      ],
    });
    const response = await ingest([
      {
        message: 'acme parsed',
        dataSource: 'ACME-FW',
        fields: { 'source address': '10.1.2.3', user: { name: ' ann ', dept: 'ops' }, rule: { id: 7 } },
      },
      {
        message: 'other untouched',
        dataSource: 'other-fw',
        fields: { 'source address': '10.9.9.9', user: { name: 'bob' } },
      },
      {
        message: 'acme oddity',
        dataSource: 'acme-fw',
        fields: { 'source address': 'gateway-7', user: 'carl' },
      },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().accepted).toBe(3);

    const byIp = await search('src_ip:10.1.2.3');
    expect(byIp.map((event) => event.message)).toEqual(['acme parsed']);
    expect(byIp[0]).toMatchObject({
      srcIp: '10.1.2.3',
      userName: 'ann',
      fields: { user: { dept: 'ops' }, rule: {}, rule_id: 7 },
    });
    expect(byIp[0]!.fields).not.toHaveProperty('source address');
    expect((await search('user_name:ann')).map((event) => event.message)).toEqual(['acme parsed']);
    expect((await search('rule_id:7')).map((event) => event.message)).toEqual(['acme parsed']);

    const [other] = await search('untouched');
    expect(other).toMatchObject({
      srcIp: null,
      userName: null,
      fields: { 'source address': '10.9.9.9', user: { name: 'bob' } },
    });

    // A non-address stays in the fields; a path through a text value finds nothing.
    const [odd] = await search('oddity');
    expect(odd).toMatchObject({
      srcIp: null,
      userName: null,
      fields: { 'source address': 'gateway-7', user: 'carl' },
    });
  });
});
