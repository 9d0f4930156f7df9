import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { hashToken } from '../../platform/tokens';
import { authenticateInputToken, LAST_USED_RESOLUTION_MS } from './service';
import { inputTokens } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let auditor: SeededUser;
let outsider: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['AUTH_TOKEN_VIEW', 'AUTH_TOKEN_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['AUTH_TOKEN_VIEW'] });
  auditor = await seedUser(db, { homeOrgId: orgId, permissions: ['ACTIVITY_LOG_VIEW'] });
  outsider = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['AUTH_TOKEN_VIEW', 'AUTH_TOKEN_EDIT'],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface TokenJson {
  id: string;
  kind: string;
  key: string;
  state: string;
  secret?: string;
  [field: string]: unknown;
}

async function create(path: '/tokens/installer' | '/token/api', payload: object = {}, org = orgId) {
  const response = await call('POST', path, org === orgId ? editor : outsider, payload, org);
  expect(response.statusCode).toBe(201);
  return response.json() as TokenJson & { secret: string };
}

const externalInput = {
  description: 'Vendor feed',
  queueName: 'vendor-queue-1',
  cloudAccessKeyId: 'AKIAEXAMPLE0001',
  cloudSecret: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
};

const rowOf = async (id: string) =>
  (await ctx.database.db.select().from(inputTokens).where(eq(inputTokens.id, id)))[0]!;

const list = async (query = '', user = viewer) => {
  const response = await call('GET', `/tokens${query}`, user);
  expect(response.statusCode).toBe(200);
  return response.json() as { items: TokenJson[]; total: number };
};

describe('input tokens', () => {
  it('creates installer and API tokens, showing the secret once and storing only its hash', async () => {
    const future = new Date(Date.now() + 30 * 86_400_000).toISOString();
    const installer = await create('/tokens/installer', { description: ' Branch PCs ', expiresAt: future });
    const api = await create('/token/api', { description: 'Core banking' });
    expect(installer).toMatchObject({
      kind: 'INSTALLER',
      description: 'Branch PCs',
      state: 'active',
      expiresAt: future,
      createdBy: editor.id,
      createdByName: 'Test User',
      lastUsedAt: null,
    });
    expect(api).toMatchObject({ kind: 'API', expiresAt: null, state: 'active' });
    for (const token of [installer, api]) {
      expect(token.key).toMatch(/^vgl_[A-Za-z0-9_-]{24}$/);
      const [key, secret] = token.secret.split('.');
      expect(key).toBe(token.key);
      expect(Buffer.from(secret!, 'base64url').length).toBeGreaterThanOrEqual(32);
      const row = await rowOf(token.id);
      expect(row.secretHash).toBe(hashToken(secret!));
      expect(JSON.stringify(row)).not.toContain(secret);
    }

    const listed = await list();
    expect(listed.items.map((token) => token.id).slice(0, 2)).toEqual([api.id, installer.id]);
    const text = JSON.stringify(listed);
    expect(text).not.toContain(api.secret.split('.')[1]);
    expect(text).not.toContain('secretHash');
    expect(listed.items.every((token) => !('secret' in token))).toBe(true);
    expect((await list('?kind=INSTALLER')).items.map((token) => token.id)).toContain(installer.id);
    expect((await list('?kind=INSTALLER')).items.map((token) => token.id)).not.toContain(api.id);

    const log = await call('GET', '/activity-logs?action=token.', auditor);
    const entries = log.json().items as { action: string; targetId: string; details: object }[];
    expect(entries.filter((entry) => [api.id, installer.id].includes(entry.targetId))).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toContain(api.secret.split('.')[1]);
  });

  it('refuses an expiry in the past and a long description, writing nothing', async () => {
    const before = (await list()).total;
    const past = await call('POST', '/token/api', editor, { expiresAt: '2020-01-01T00:00:00Z' });
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ key: 'TOKEN_EXPIRY_IN_PAST', field: 'expiresAt' });
    const long = await call('POST', '/tokens/installer', editor, { description: 'x'.repeat(201) });
    expect(long.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'description' });
    expect((await list()).total).toBe(before);
  });

  it('revokes a token, which stays listed as revoked, once', async () => {
    const token = await create('/token/api', { description: 'To revoke' });
    const revoked = await call('POST', `/token/${token.id}/revoke`, editor);
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json()).toMatchObject({ id: token.id, state: 'revoked', revokedByName: 'Test User' });
    expect(revoked.json().revokedAt).toEqual(expect.any(String));
    const again = await call('POST', `/token/${token.id}/revoke`, editor);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('TOKEN_ALREADY_REVOKED');
    expect((await list('?state=revoked')).items.map((item) => item.id)).toContain(token.id);
    expect((await list('?state=active')).items.map((item) => item.id)).not.toContain(token.id);
    const missing = await call('POST', `/token/00000000-0000-4000-8000-000000000009/revoke`, editor);
    expect(missing.json()).toMatchObject({ key: 'TOKEN_NOT_FOUND' });
    expect(missing.statusCode).toBe(404);
    const log = await call('GET', '/activity-logs?action=token.revoked', auditor);
    expect(log.json().items[0]).toMatchObject({ targetId: token.id, actorUserId: editor.id });
  });

  it('lists expired tokens as expired', async () => {
    const token = await create('/tokens/installer', { description: 'Old' });
    await ctx.database.db
      .update(inputTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inputTokens.id, token.id));
    expect((await list('?state=expired')).items.map((item) => item.id)).toEqual([token.id]);
    expect((await list()).items.find((item) => item.id === token.id)?.state).toBe('expired');
  });

  it('keeps one external data-vendor token, replacing it and encrypting the cloud secret', async () => {
    expect((await call('GET', '/tokens/external', viewer)).json()).toEqual({ token: null });
    const first = await call('PUT', '/tokens/external', editor, externalInput);
    expect(first.statusCode).toBe(201);
    const created = first.json() as TokenJson & { secret: string };
    expect(created).toMatchObject({
      kind: 'EXTERNAL',
      queueName: 'vendor-queue-1',
      cloudAccessKeyId: 'AKIAEXAMPLE0001',
      hasCloudSecret: true,
    });
    expect(created.secret).toMatch(/^vgl_[^.]+\.[A-Za-z0-9_-]{43}$/);
    expect(JSON.stringify(created)).not.toContain(externalInput.cloudSecret);

    const row = await rowOf(created.id);
    expect(row.cloudSecretEncrypted).not.toBeNull();
    expect(row.cloudSecretEncrypted).not.toContain(externalInput.cloudSecret);
    expect(ctx.secrets.open(row.cloudSecretEncrypted!)).toBe(externalInput.cloudSecret);

    const replaced = await call('PUT', '/tokens/external', editor, {
      ...externalInput,
      queueName: 'vendor-queue-2',
      cloudSecret: 'another-secret-value',
    });
    expect(replaced.statusCode).toBe(200);
    const current = (await call('GET', '/tokens/external', viewer)).json().token as TokenJson;
    expect(current).toMatchObject({ id: replaced.json().id, queueName: 'vendor-queue-2' });
    expect(current).not.toHaveProperty('secret');
    const externals = await ctx.database.db
      .select()
      .from(inputTokens)
      .where(eq(inputTokens.kind, 'EXTERNAL'));
    expect(externals.filter((token) => token.orgId === orgId).map((token) => token.id)).toEqual([
      replaced.json().id,
    ]);
    expect(await authenticateInputToken(ctx.database.db, created.secret)).toBeNull();
    expect(await authenticateInputToken(ctx.database.db, replaced.json().secret)).toMatchObject({
      kind: 'EXTERNAL',
      orgId,
    });

    const missingField = await call('PUT', '/tokens/external', editor, { ...externalInput, queueName: ' ' });
    expect(missingField.json()).toMatchObject({ field: 'queueName' });

    expect((await call('DELETE', '/tokens/external', editor)).statusCode).toBe(204);
    expect((await call('GET', '/tokens/external', viewer)).json()).toEqual({ token: null });
    const again = await call('DELETE', '/tokens/external', editor);
    expect(again.statusCode).toBe(404);
    expect(again.json().key).toBe('TOKEN_NOT_FOUND');

    const actions = (await call('GET', '/activity-logs?action=token.', auditor))
      .json()
      .items.map((entry: { action: string }) => entry.action);
    expect(actions.slice(0, 3)).toEqual([
      'token.external.deleted',
      'token.external.replaced',
      'token.created',
    ]);
  });

  it('refuses every write without AUTH_TOKEN_EDIT and every call to another organisation', async () => {
    const token = await create('/token/api');
    const writes: [HttpMethod, string, object?][] = [
      ['POST', '/tokens/installer', {}],
      ['POST', '/token/api', {}],
      ['PUT', '/tokens/external', externalInput],
      ['DELETE', '/tokens/external'],
      ['POST', `/token/${token.id}/revoke`],
    ];
    for (const [method, path, payload] of writes) {
      const response = await call(method, path, viewer, payload);
      expect({ path, status: response.statusCode, key: response.json().key }).toEqual({
        path,
        status: 403,
        key: 'PERMISSION_DENIED',
      });
    }
    expect((await call('GET', '/tokens', auditor)).statusCode).toBe(403);
    for (const [method, path, payload] of [['GET', '/tokens'], ...writes] as typeof writes) {
      const response = await call(method, path, outsider, payload);
      expect({ path, key: response.json().key }).toEqual({ path, key: 'ORG_NOT_AUTHORISED' });
    }
    // In their own organisation, the outsider cannot reach this one's token either.
    const foreign = await call('POST', `/token/${token.id}/revoke`, outsider, undefined, otherOrgId);
    expect(foreign.statusCode).toBe(404);
    expect((await rowOf(token.id)).revokedAt).toBeNull();
    const theirs = await call('GET', '/tokens', outsider, undefined, otherOrgId);
    expect(theirs.json().items.map((item: TokenJson) => item.id)).not.toContain(token.id);
  });
});

describe('GET /getCredentials', () => {
  const getCredentials = (authorization?: string) =>
    ctx.app.inject({
      method: 'GET',
      url: '/api/getCredentials',
      headers: authorization ? { authorization } : {},
    });

  it('answers an external data vendor its delivery credentials, and only for that token', async () => {
    const put = await call('PUT', '/tokens/external', editor, externalInput);
    expect(put.statusCode, put.body).toBeLessThan(300);
    const { id, secret } = put.json() as TokenJson & { secret: string };

    const answer = await getCredentials(`Bearer ${secret}`);
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.headers['cache-control']).toBe('no-store');
    expect(answer.json()).toEqual({
      orgId,
      queueName: 'vendor-queue-1',
      cloudAccessKeyId: 'AKIAEXAMPLE0001',
      cloudSecret: externalInput.cloudSecret,
    });

    const api = await create('/token/api');
    const [key] = secret.split('.') as [string, string];
    for (const presented of [
      undefined,
      'Bearer nonsense',
      `Bearer ${key}.wrongwrongwrongwrong`,
      `Bearer ${api.secret}`,
    ]) {
      const refused = await getCredentials(presented);
      expect(refused.statusCode).toBe(401);
      expect(refused.body).not.toContain(externalInput.cloudSecret);
    }

    expect((await call('POST', `/token/${id}/revoke`, editor)).statusCode).toBe(200);
    expect((await getCredentials(`Bearer ${secret}`)).statusCode).toBe(401);
  });
});

describe('authenticateInputToken', () => {
  it('accepts the right secret and records the use at most once a minute', async () => {
    const db = ctx.database.db;
    const token = await create('/token/api');
    const now = new Date();
    expect(await authenticateInputToken(db, token.secret, undefined, now)).toEqual({
      orgId,
      tokenId: token.id,
      kind: 'API',
    });
    expect((await rowOf(token.id)).lastUsedAt?.getTime()).toBe(now.getTime());
    const soon = new Date(now.getTime() + LAST_USED_RESOLUTION_MS / 2);
    expect(await authenticateInputToken(db, token.secret, ['API'], soon)).not.toBeNull();
    expect((await rowOf(token.id)).lastUsedAt?.getTime()).toBe(now.getTime());
    const later = new Date(now.getTime() + LAST_USED_RESOLUTION_MS + 1000);
    expect(await authenticateInputToken(db, ` ${token.secret} `, ['API'], later)).not.toBeNull();
    expect((await rowOf(token.id)).lastUsedAt?.getTime()).toBe(later.getTime());
    expect((await list()).items.find((item) => item.id === token.id)?.lastUsedAt).toBe(later.toISOString());
  });

  it('refuses a wrong secret, a wrong kind, malformed text, revoked and expired tokens', async () => {
    const db = ctx.database.db;
    const token = await create('/token/api');
    const [key, secret] = token.secret.split('.') as [string, string];
    const wrong = `${key}.${secret.slice(0, -2)}${secret.endsWith('AA') ? 'BB' : 'AA'}`;
    const refused = [
      wrong,
      `${key}.`,
      key,
      secret,
      '',
      `${key}.${secret}.extra`,
      `vgl_unknownkeyunknownkey00.${secret}`,
    ];
    for (const presented of refused) expect(await authenticateInputToken(db, presented)).toBeNull();
    expect(await authenticateInputToken(db, token.secret, ['INSTALLER'])).toBeNull();

    // Another organisation's key with this organisation's secret, or with a made-up one.
    const foreign = await create('/token/api', {}, otherOrgId);
    const foreignKey = foreign.key;
    expect(await authenticateInputToken(db, `${foreignKey}.${secret}`)).toBeNull();
    expect(await authenticateInputToken(db, foreign.secret)).toMatchObject({ orgId: otherOrgId });

    const expired = await create('/tokens/installer');
    await db
      .update(inputTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(inputTokens.id, expired.id));
    expect(await authenticateInputToken(db, expired.secret)).toBeNull();

    expect(await authenticateInputToken(db, token.secret)).not.toBeNull();
    await call('POST', `/token/${token.id}/revoke`, editor);
    expect(await authenticateInputToken(db, token.secret)).toBeNull();
  });
});
