import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../test/fixtures';
import { accessOf } from './access';
import { orgParamsSchema } from './http';

let ctx: TestContext;
let homeOrg: { id: string };
let otherOrg: { id: string };
let grantedOrg: { id: string };
let member: SeededUser;
let provider: SeededUser;
let readOnly: SeededUser;

beforeAll(async () => {
  // Routes declared as real modules do; only the handlers are test doubles of a module's work.
  ctx = await createTestApp((app) => {
    const answer = { response: { 200: z.object({ orgId: z.string(), permissions: z.array(z.string()) }) } };
    const handler = async (request: Parameters<typeof accessOf>[0]) => ({
      orgId: accessOf(request).org.id,
      permissions: [...accessOf(request).permissions],
    });
    app.get(
      '/api/org/:orgId/probe/any',
      { config: { access: {} }, schema: { params: orgParamsSchema, ...answer } },
      handler,
    );
    app.get(
      '/api/org/:orgId/probe/assets',
      { config: { access: { permission: 'ASSET_VIEW' } }, schema: { params: orgParamsSchema, ...answer } },
      handler,
    );
    app.post(
      '/api/org/:orgId/probe/assets',
      {
        config: { access: { permission: 'ASSET_EDIT' } },
        schema: { params: orgParamsSchema, body: z.object({ name: z.string().min(1) }), ...answer },
      },
      handler,
    );
    app.get(
      '/api/org/:orgId/probe/universal-inbox',
      {
        config: { access: { feature: 'universalTicketInbox' } },
        schema: { params: orgParamsSchema, ...answer },
      },
      handler,
    );
    app.get(
      '/api/org/:orgId/probe/fraud',
      { config: { access: { sku: 'fraud' } }, schema: { params: orgParamsSchema, ...answer } },
      handler,
    );
  });
  const db = ctx.database.db;
  homeOrg = await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] });
  otherOrg = await seedOrg(db);
  grantedOrg = await seedOrg(db, { featureFlags: { universalTicketInbox: true } });
  member = await seedUser(db, { homeOrgId: homeOrg.id, permissions: ['ASSET_EDIT'] });
  provider = await seedUser(db, {
    homeOrgId: homeOrg.id,
    permissions: ['ASSET_EDIT', 'TRAC_USER'],
    authorisedOrgIds: [grantedOrg.id],
  });
  readOnly = await seedUser(db, {
    homeOrgId: homeOrg.id,
    permissions: ['ASSET_EDIT', 'TRAC_USER'],
    readOnlyMode: true,
  });
});

afterAll(() => ctx.close());

const get = (url: string, cookie?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

describe('org-scoped access', () => {
  it('answers 401 NOT_AUTHENTICATED without a session, and with an unknown one', async () => {
    for (const cookie of [undefined, 'vigil_session=forged']) {
      const response = await get(`/api/org/${homeOrg.id}/probe/any`, cookie);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ type: 'AuthenticationException', key: 'NOT_AUTHENTICATED' });
    }
  });

  it('lets a user act in the home organisation and puts the org on the request', async () => {
    const response = await get(`/api/org/${homeOrg.id}/probe/any`, member.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().orgId).toBe(homeOrg.id);
  });

  it('refuses an organisation the user is not authorised for, and a malformed or unknown id alike', async () => {
    for (const orgId of [otherOrg.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const response = await get(`/api/org/${orgId}/probe/any`, member.cookie);
      expect(response.statusCode).toBe(403);
      expect(response.json().key).toBe('ORG_NOT_AUTHORISED');
    }
  });

  it('lets provider staff into the organisations they are authorised for', async () => {
    expect((await get(`/api/org/${grantedOrg.id}/probe/any`, provider.cookie)).statusCode).toBe(200);
    expect((await get(`/api/org/${otherOrg.id}/probe/any`, provider.cookie)).statusCode).toBe(403);
  });

  it('derives the view code from an edit code and checks the route permission', async () => {
    const response = await get(`/api/org/${homeOrg.id}/probe/assets`, member.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json().permissions.sort()).toEqual(['ASSET_EDIT', 'ASSET_VIEW']);

    const noAssets = await seedUser(ctx.database.db, { homeOrgId: homeOrg.id, permissions: ['EVENT_VIEW'] });
    const refused = await get(`/api/org/${homeOrg.id}/probe/assets`, noAssets.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('PERMISSION_DENIED');
  });

  it('keeps only _VIEW codes in read-only mode, so edits are refused', async () => {
    const view = await get(`/api/org/${homeOrg.id}/probe/assets`, readOnly.cookie);
    expect(view.json().permissions).toEqual(['ASSET_VIEW']);
    const edit = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${homeOrg.id}/probe/assets`,
      headers: { cookie: readOnly.cookie, 'x-requested-with': 'XMLHttpRequest' },
      payload: { name: 'x' },
    });
    expect(edit.statusCode).toBe(403);
    expect(edit.json().key).toBe('PERMISSION_DENIED');
  });

  it('refuses before validating the body, so a stranger learns nothing from validation errors', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${otherOrg.id}/probe/assets`,
      headers: { cookie: member.cookie, 'x-requested-with': 'XMLHttpRequest' },
      payload: { name: '' },
    });
    expect(response.statusCode).toBe(403);
  });

  it('gates on the organisation feature flags, which the feature query parameter can switch on', async () => {
    const off = await get(`/api/org/${homeOrg.id}/probe/universal-inbox`, provider.cookie);
    expect(off.statusCode).toBe(403);
    expect(off.json().key).toBe('FEATURE_NOT_ENABLED');
    expect((await get(`/api/org/${grantedOrg.id}/probe/universal-inbox`, provider.cookie)).statusCode).toBe(
      200,
    );
    expect(
      (
        await get(
          `/api/org/${homeOrg.id}/probe/universal-inbox?feature=universalTicketInbox`,
          provider.cookie,
        )
      ).statusCode,
    ).toBe(200);
  });

  it('gates on the product SKUs of the organisation', async () => {
    expect((await get(`/api/org/${homeOrg.id}/probe/fraud`, provider.cookie)).statusCode).toBe(200);
    const refused = await get(`/api/org/${grantedOrg.id}/probe/fraud`, provider.cookie);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('PRODUCT_NOT_ENTITLED');
  });

  it('answers the effective permissions of the user in the organisation', async () => {
    const response = await get(`/api/org/${homeOrg.id}/user/permissions`, readOnly.cookie);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ permissions: ['ASSET_VIEW'] });
  });
});

describe('route declarations', () => {
  it('refuses to start with an org-scoped route that declares no access', async () => {
    const broken = createTestApp((app) => {
      app.get('/api/org/:orgId/undeclared', async () => ({}));
    });
    await expect(broken).rejects.toThrow(/declares no config.access/);
  });
});
