import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { startLocalBankingServer, type LocalBankingServer } from '../../../test/banking-server';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

let ctx: TestContext;
let bank: LocalBankingServer;
let orgId: string;
let plainOrgId: string;
let admin: SeededUser;
let viewer: SeededUser;
let plainAdmin: SeededUser;

const PERMISSIONS = ['INTEGRATION_VIEW', 'INTEGRATION_EDIT', 'ACTION_VIEW', 'ACTION_EDIT'] as const;

beforeAll(async () => {
  bank = await startLocalBankingServer();
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { featureFlags: { automatedIntervention: true } })).id;
  plainOrgId = (await seedOrg(db)).id;
  admin = await seedUser(db, { homeOrgId: orgId, permissions: [...PERMISSIONS] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['INTEGRATION_VIEW', 'ACTION_VIEW'] });
  plainAdmin = await seedUser(db, { homeOrgId: plainOrgId, permissions: [...PERMISSIONS] });
});
afterAll(async () => {
  await ctx.close();
  await bank.close();
});

const call = (method: HttpMethod, path: string, payload?: object, user = admin, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const connection = (provider: string, secret: string | null = 'provider-secret') => ({
  provider,
  apiBaseUrl: bank.url,
  authBaseUrl: bank.url,
  clientId: 'vigil',
  clientSecret: secret,
});

async function createAction(payload: object) {
  const response = await call('POST', '/actions', payload);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

interface Pending {
  id: string;
  value: string;
  state: string;
  error: string | null;
  request: { method: string; url: string; body?: unknown } | null;
}

async function run(actionId: string, payload: object) {
  const response = await call('POST', `/action/${actionId}/run`, payload);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: Pending[] }).items;
}

describe('action integrations', () => {
  it('need the automatedIntervention feature, valid base URLs and a secret, one per provider', async () => {
    expect((await call('GET', '/action-integrations', undefined, plainAdmin, plainOrgId)).statusCode).toBe(
      403,
    );
    const bad = await call('POST', '/action-integrations', { ...connection('Q2'), apiBaseUrl: 'q2.example' });
    expect(bad.json()).toMatchObject({ key: 'INVALID_BASE_URL', field: 'apiBaseUrl' });
    const noSecret = await call('POST', '/action-integrations', connection('Q2', null));
    expect(noSecret.statusCode).toBe(400);
    const created = await call('POST', '/action-integrations', connection('Q2'));
    expect(created.statusCode).toBe(201);
    expect(created.body).not.toContain('provider-secret');
    expect(created.json()).toMatchObject({ provider: 'Q2', clientSecretSet: true });
    expect((await call('POST', '/action-integrations', connection('Q2'))).json()).toMatchObject({
      key: 'ACTION_INTEGRATION_EXISTS',
    });
    expect((await call('POST', '/action-integrations', connection('Q2'), viewer)).statusCode).toBe(403);
  });

  it('refuse too many action fields, a provider without the action and a warning code outside 1 to 999', async () => {
    const base = {
      name: 'Warn',
      type: 'ADD_WARNING_CODE',
      provider: 'SYMXCHANGE',
      fields: ['account'],
      warningCode: 5,
    };
    const refusals = [
      [{ ...base, fields: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'ACTION_MAX_FIELDS_REACHED'],
      [{ ...base, provider: 'Q2' }, 'ACTION_PROVIDER_MISMATCH'],
      [{ ...base, warningCode: 0 }, 'SYMXCHANGE_INVALID_WARNING_CODE'],
      [{ ...base, warningCode: 1000 }, 'SYMXCHANGE_INVALID_WARNING_CODE'],
      [{ ...base, warningCode: null }, 'SYMXCHANGE_INVALID_WARNING_CODE'],
    ] as const;
    for (const [payload, key] of refusals) {
      expect((await call('POST', '/actions', payload)).json()).toMatchObject({ key });
    }
  });
});

describe('actions', () => {
  it('answer "contact support" while the Symxchange integration is missing', async () => {
    const id = await createAction({
      name: 'Warning code 77',
      type: 'ADD_WARNING_CODE',
      provider: 'SYMXCHANGE',
      fields: ['account'],
      warningCode: 77,
    });
    expect((await call('POST', `/action/${id}/run`, { values: ['1001'] })).json()).toMatchObject({
      key: 'SYMXCHANGE_INTEGRATION_MISSING',
    });
  });

  it('add a Symxchange warning code to each account an event names, record it and undo only executed ones', async () => {
    await call('POST', '/action-integrations', connection('SYMXCHANGE'));
    const id = await createAction({
      name: 'Fraud hold',
      type: 'ADD_WARNING_CODE',
      provider: 'SYMXCHANGE',
      fields: ['fields.account', 'fields.toAccount'],
      multipleValues: 'SEND_ALL',
      warningCode: 42,
    });
    const [first, second] = await run(id, { event: { fields: { account: '2001', toAccount: '2002' } } });
    expect([first?.value, second?.value]).toEqual(['2001', '2002']);
    expect(first).toMatchObject({
      state: 'EXECUTED',
      request: { method: 'POST', url: `${bank.url}/accounts/2001/warning-codes`, body: { code: 42 } },
    });
    expect(bank.warningCodes.get('2001')).toEqual([42]);
    expect(
      bank.requests.filter((request) => request.method === 'POST').map((request) => request.path),
    ).toEqual(['/accounts/2001/warning-codes', '/accounts/2002/warning-codes']);
    expect(bank.requests.every((request) => request.authorization === 'Bearer provider-token-1')).toBe(true);

    const undone = await call('POST', `/pending-action/${first!.id}/undo`);
    expect(undone.json()).toMatchObject({ state: 'REVERTED' });
    expect(bank.warningCodes.get('2001')).toEqual([]);
    expect((await call('POST', `/pending-action/${first!.id}/undo`)).json()).toMatchObject({
      key: 'PENDING_ACTION_NOT_EXECUTED',
    });
    const listed = await call('GET', '/pending-actions', undefined, viewer);
    expect(listed.json()).toMatchObject({ total: 2 });
  });

  it('fail the pending action of an account that already has 20 warning codes', async () => {
    bank.warningCodes.set(
      '3001',
      Array.from({ length: 20 }, (_, index) => index + 1),
    );
    const id = await createAction({
      name: 'Full account',
      type: 'ADD_WARNING_CODE',
      provider: 'SYMXCHANGE',
      fields: ['account'],
      warningCode: 500,
    });
    const [pending] = await run(id, { values: ['3001'] });
    expect(pending).toMatchObject({ state: 'FAILED' });
    expect(pending!.error).toMatch(/20 warning codes/);
    expect(bank.warningCodes.get('3001')).toHaveLength(20);
    expect((await call('POST', `/pending-action/${pending!.id}/undo`)).statusCode).toBe(409);
  });

  it('disable online-banking users on Apiture and Q2 by the multiple-values handling', async () => {
    expect(
      (
        await call('POST', '/actions', {
          name: 'x',
          type: 'DISABLE_USER',
          provider: 'APITURE',
          fields: ['user'],
        })
      ).statusCode,
    ).toBe(201);
    const apiture = (await call('GET', '/actions')).json() as { items: { id: string; name: string }[] };
    const apitureId = apiture.items.find((item) => item.name === 'x')!.id;
    expect((await call('POST', `/action/${apitureId}/run`, { values: ['u1'] })).json()).toMatchObject({
      key: 'APITURE_ADB_INTEGRATION_MISSING',
    });
    await call('POST', '/action-integrations', connection('APITURE'));
    await call('PUT', `/action/${apitureId}`, {
      name: 'Disable first user',
      type: 'DISABLE_USER',
      provider: 'APITURE',
      fields: ['user'],
      multipleValues: 'SEND_FIRST',
    });
    const firstOnly = await run(apitureId, { values: ['alice', 'bob'] });
    expect(firstOnly.map((item) => item.value)).toEqual(['alice']);
    expect(bank.userStates.get('alice')).toBe('disabled');
    expect(bank.userStates.has('bob')).toBe(false);
    await call('POST', `/pending-action/${firstOnly[0]!.id}/undo`);
    expect(bank.userStates.get('alice')).toBe('enabled');

    const q2 = await createAction({
      name: 'Q2 disable',
      type: 'DISABLE_USER',
      provider: 'Q2',
      fields: ['user'],
      multipleValues: 'SEND_NONE',
    });
    expect(await run(q2, { values: ['carol', 'dave'] })).toEqual([]);
    const [carol] = await run(q2, { values: ['carol'] });
    expect(carol).toMatchObject({
      state: 'EXECUTED',
      request: { method: 'POST', url: `${bank.url}/users/carol/disable` },
    });
    expect(bank.userStates.get('carol')).toBe('disabled');
    const [blocked] = await run(q2, { values: ['blocked-user'] });
    expect(blocked).toMatchObject({ state: 'FAILED' });
  });

  it('keep other organisations out', async () => {
    const other = await seedUser(ctx.database.db, { homeOrgId: plainOrgId, permissions: [...PERMISSIONS] });
    const [pending] = ((await call('GET', '/pending-actions')).json() as { items: Pending[] }).items;
    const response = await orgRequest(ctx, orgId, 'POST', `/pending-action/${pending!.id}/undo`, other);
    expect(response.statusCode).toBe(403);
  });
});
