import { gzipSync } from 'node:zlib';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { findAsset } from '../assets/repo';
import { createAsset } from '../assets/service';
import { createInputToken, revokeToken } from '../tokens/service';
import { inputTokens } from '../tokens/tables';
import { INGEST_MAX_BATCH_BYTES, INGEST_RATE_LIMIT, readLines } from './ingest';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let viewer: SeededUser;
let otherViewer: SeededUser;
let apiToken: string;
let otherApiToken: string;

const SMALL_LIMIT = 64 * 1024;

async function newToken(org: string, user: SeededUser, kind: 'API' | 'INSTALLER' = 'API') {
  return createInputToken(ctx.database.db, { orgId: org, userId: user.id }, kind, { description: 'test' });
}

beforeAll(async () => {
  ctx = await createTestApp(undefined, {
    ingest: { maxBatchBytes: SMALL_LIMIT },
  });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
  otherViewer = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['EVENT_VIEW'] });
  apiToken = (await newToken(orgId, viewer)).secret;
  otherApiToken = (await newToken(otherOrgId, otherViewer)).secret;
});
afterAll(() => ctx.close());

const ndjson = (events: unknown[]) => events.map((event) => JSON.stringify(event)).join('\n');

function ingest(
  payload: string | Buffer,
  options: { token?: string | null; type?: string; query?: string; headers?: Record<string, string> } = {},
) {
  const token = options.token === undefined ? apiToken : options.token;
  return ctx.app.inject({
    method: 'POST',
    url: `/api/ingest/events${options.query ?? ''}`,
    headers: {
      'content-type': options.type ?? 'application/x-ndjson',
      ...(token !== null && { authorization: `Bearer ${token}` }),
      ...options.headers,
    },
    payload,
  });
}

async function search(user: SeededUser, org: string, query: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/org/${org}/search`,
    headers: browserHeaders(user.cookie),
    payload: { query, intervalType: '24H', pageSize: 100 },
  });
  expect(response.statusCode).toBe(200);
  return response.json() as { items: { message: string; host: string | null }[]; total: number };
}

describe('POST /api/ingest/events authentication', () => {
  it('answers 401 without, with a malformed or with an unknown token', async () => {
    const body = ndjson([{ message: 'x' }]);
    for (const token of [null, 'nonsense', 'vgl_unknownkey000000000000.aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa']) {
      const response = await ingest(body, { token });
      expect(response.statusCode, String(token)).toBe(401);
      expect(response.json().key).toBe('NOT_AUTHENTICATED');
    }
    const basic = await ingest(body, {
      token: null,
      headers: { authorization: `Basic ${Buffer.from(`x:${apiToken}`).toString('base64')}` },
    });
    expect(basic.statusCode).toBe(401);
  });

  it('refuses installer, revoked and expired tokens', async () => {
    const db = ctx.database.db;
    const installer = await newToken(orgId, viewer, 'INSTALLER');
    const revoked = await newToken(orgId, viewer);
    await revokeToken(db, { orgId, userId: viewer.id }, revoked.id);
    const expired = await newToken(orgId, viewer);
    await db
      .update(inputTokens)
      .set({ expiresAt: new Date(Date.now() - 60_000) })
      .where(eq(inputTokens.id, expired.id));
    for (const token of [installer, revoked, expired]) {
      const response = await ingest(ndjson([{ message: 'refused' }]), { token: token.secret });
      expect(response.statusCode).toBe(401);
    }
    expect((await search(viewer, orgId, 'refused')).total).toBe(0);
  });

  it('needs no CSRF header (machine-to-machine)', async () => {
    const response = await ingest(ndjson([{ message: 'no csrf header' }]));
    expect(response.statusCode).toBe(200);
  });
});

describe('POST /api/ingest/events batches', () => {
  it('keeps the good NDJSON lines and reports the bad ones by line number', async () => {
    const body = [
      JSON.stringify({ message: 'ndjson good one', host: 'web-01' }),
      '{ not json',
      '',
      JSON.stringify({ message: 'ndjson good two', timestamp: new Date().toISOString() }),
      JSON.stringify({ message: 'bad time', timestamp: 'yesterday-ish' }),
      '[1, 2]',
      JSON.stringify({ message: 42 }),
      JSON.stringify({ message: 'ndjson good three', fields: { amount: 12 } }) + '\r',
    ].join('\n');
    const response = await ingest(body);
    expect(response.statusCode).toBe(200);
    const result = response.json();
    expect(result.accepted).toBe(3);
    expect(result.rejectedCount).toBe(4);
    expect(result.rejected.map((entry: { line: number }) => entry.line)).toEqual([2, 5, 6, 7]);
    expect(result.rejected[0].error).toMatch(/invalid JSON/);
    expect(result.rejected[1].error).toMatch(/^timestamp/);
    expect(result.rejected[2].error).toMatch(/not a JSON object/);
    expect(result.rejected[3].error).toMatch(/^message/);

    const found = await search(viewer, orgId, 'ndjson');
    expect(found.items.map((item) => item.message).sort()).toEqual([
      'ndjson good one',
      'ndjson good three',
      'ndjson good two',
    ]);
    expect(found.items.find((item) => item.message === 'ndjson good one')?.host).toBe('web-01');
  });

  it('accepts a JSON array, numbering rejections by element index + 1', async () => {
    const response = await ingest(
      JSON.stringify([{ message: 'array first' }, 'oops', { message: 'array third', srcIp: '10.9.9.9' }]),
      { type: 'application/json; charset=utf-8' },
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ accepted: 2, rejected: [{ line: 2 }], rejectedCount: 1 });
    expect((await search(viewer, orgId, 'array')).total).toBe(2);
  });

  it('refuses a JSON body that does not parse, storing nothing', async () => {
    const response = await ingest('[{"message": "broken array"', { type: 'application/json' });
    expect(response.statusCode).toBe(400);
    expect(response.json().key).toBe('EVENT_INVALID');
    expect((await search(viewer, orgId, 'broken')).total).toBe(0);
  });

  it('answers an empty batch with nothing accepted', async () => {
    const response = await ingest('\n\n');
    expect(response.json()).toEqual({ accepted: 0, rejected: [], rejectedCount: 0 });
  });

  it('reads gzip bodies, NDJSON and JSON alike', async () => {
    const lines = await ingest(
      gzipSync(ndjson([{ message: 'gzipped line' }, { message: 'gzipped other' }])),
      {
        headers: { 'content-encoding': 'gzip' },
      },
    );
    expect(lines.json()).toMatchObject({ accepted: 2, rejected: [] });
    const array = await ingest(gzipSync(JSON.stringify([{ message: 'gzipped array' }])), {
      type: 'application/json',
      headers: { 'content-encoding': 'gzip' },
    });
    expect(array.json()).toMatchObject({ accepted: 1 });
    expect((await search(viewer, orgId, 'gzipped')).total).toBe(3);

    const corrupt = await ingest(Buffer.from('not gzip at all'), { headers: { 'content-encoding': 'gzip' } });
    expect(corrupt.statusCode).toBe(400);
    const unknown = await ingest(ndjson([{ message: 'x' }]), { headers: { 'content-encoding': 'br' } });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().field).toBe('content-encoding');
  });

  it('stores nothing of an atomic batch with one bad line, and answers the rejected list', async () => {
    const body = ndjson([{ message: 'atomic one' }, { message: 'atomic two', timestamp: 'never' }]);
    const refused = await ingest(body, { query: '?atomic=true' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      type: 'ValidatorException',
      key: 'EVENT_INVALID',
      accepted: 0,
      rejected: [{ line: 2 }],
      rejectedCount: 1,
    });
    expect((await search(viewer, orgId, 'atomic')).total).toBe(0);

    const clean = await ingest(ndjson([{ message: 'atomic three' }]), { query: '?atomic=true' });
    expect(clean.json()).toMatchObject({ accepted: 1 });
    expect((await search(viewer, orgId, 'atomic')).total).toBe(1);
  });

  it('answers 413 above the batch limit, compressed or not (a gzip bomb included)', async () => {
    expect(INGEST_MAX_BATCH_BYTES).toBe(32 * 1024 * 1024);
    expect(INGEST_RATE_LIMIT).toEqual({ max: 600, timeWindow: '1 minute' });
    const line = JSON.stringify({ message: 'oversize '.padEnd(200, 'x') });
    const big = Array.from({ length: Math.ceil((SMALL_LIMIT * 1.5) / line.length) }, () => line).join('\n');
    const plain = await ingest(big);
    expect(plain.statusCode).toBe(413);
    expect(plain.json().key).toBe('GENERIC_PAYLOAD_TOO_LARGE');

    // Small on the wire, far larger once inflated.
    const bomb = gzipSync(Buffer.alloc(SMALL_LIMIT * 50, 0x20));
    expect(bomb.length).toBeLessThan(SMALL_LIMIT);
    const inflated = await ingest(bomb, { headers: { 'content-encoding': 'gzip' } });
    expect(inflated.statusCode).toBe(413);
    expect(inflated.json().key).toBe('GENERIC_PAYLOAD_TOO_LARGE');
    expect((await search(viewer, orgId, 'oversize')).total).toBe(0);
  });
});

describe('POST /api/ingest/events tenancy and assets', () => {
  it('writes into the token’s organisation whatever the events say', async () => {
    const response = await ingest(
      ndjson([{ message: 'tenancy probe', orgId: otherOrgId, fields: { orgId: otherOrgId } }]),
      { token: apiToken },
    );
    expect(response.json()).toMatchObject({ accepted: 1 });
    expect((await search(viewer, orgId, 'tenancy')).total).toBe(1);
    expect((await search(otherViewer, otherOrgId, 'tenancy')).total).toBe(0);

    const other = await ingest(ndjson([{ message: 'foreign probe', orgId }]), { token: otherApiToken });
    expect(other.json()).toMatchObject({ accepted: 1 });
    expect((await search(otherViewer, otherOrgId, 'foreign')).total).toBe(1);
    expect((await search(viewer, orgId, 'foreign')).total).toBe(0);
  });

  it('moves a known asset’s last-seen and data-last-sent forward', async () => {
    const db = ctx.database.db;
    const asset = await createAsset(
      db,
      orgId,
      {
        name: 'Teller 7',
        importance: 'low',
        tag: null,
        owner: null,
        description: null,
        labels: [],
        hostnames: ['teller-07'],
        ipMacPairs: [{ ip: '10.20.30.40', mac: null }],
      },
      { userId: null },
    );
    const seenAt = new Date(Date.now() - 5 * 60_000);
    const response = await ingest(
      ndjson([
        {
          message: 'asset seen',
          timestamp: new Date(seenAt.getTime() - 60_000).toISOString(),
          dstIp: '10.20.30.40',
        },
        { message: 'asset seen', timestamp: seenAt.toISOString(), srcIp: '10.20.30.40' },
      ]),
    );
    expect(response.json()).toMatchObject({ accepted: 2 });
    let row = (await findAsset(db, orgId, asset.id))!;
    expect(new Date(row.lastSeen!).getTime()).toBe(seenAt.getTime());
    expect(row.dataLastSent).toBeNull();

    await ingest(ndjson([{ message: 'asset sent', timestamp: seenAt.toISOString(), host: 'teller-07' }]));
    row = (await findAsset(db, orgId, asset.id))!;
    expect(new Date(row.dataLastSent!).getTime()).toBe(seenAt.getTime());
  });
});

describe('POST /api/ingest/events rate limit', () => {
  it('answers 429 beyond the per-token limit, counting each token apart', async () => {
    const limited = await createTestApp(undefined, {
      ingest: { rateLimit: { max: 5, timeWindow: '1 minute' } },
    });
    try {
      const db = limited.database.db;
      const org = (await seedOrg(db)).id;
      const user = await seedUser(db, { homeOrgId: org, permissions: [] });
      const token = async () =>
        (await createInputToken(db, { orgId: org, userId: user.id }, 'API', { description: 'rl' })).secret;
      const [first, second] = [await token(), await token()];
      const send = (secret: string) =>
        limited.app.inject({
          method: 'POST',
          url: '/api/ingest/events',
          headers: { 'content-type': 'application/x-ndjson', authorization: `Bearer ${secret}` },
          payload: JSON.stringify({ message: 'rate' }),
        });
      const statuses: number[] = [];
      for (let i = 0; i < 6; i += 1) statuses.push((await send(first)).statusCode);
      expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
      const refused = await send(first);
      expect(refused.json().key).toBe('GENERIC_RATE_LIMITED');
      expect((await send(second)).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('readLines', () => {
  it('splits across chunk boundaries and multi-byte characters', async () => {
    const text = Buffer.from('first ü\nsecond\n\nthird €');
    const chunks = [...text].map((byte) => Buffer.from([byte]));
    const lines: string[] = [];
    for await (const line of readLines(chunks)) lines.push(line);
    expect(lines).toEqual(['first ü', 'second', '', 'third €']);
  });
});

describe('OpenAPI', () => {
  it('documents the route with its NDJSON and JSON bodies and the bearer token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/docs/json' });
    const operation = response.json().paths['/api/ingest/events'].post;
    expect(Object.keys(operation.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-ndjson',
    ]);
    expect(operation.security).toEqual([{ ingestToken: [] }]);
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '400']));
  });
});
