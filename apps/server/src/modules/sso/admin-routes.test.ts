import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSamlIdp, type SamlIdp } from '../../../test/saml-idp';

let ctx: TestContext;
let idp: SamlIdp;
let orgId: string;
let admin: SeededUser;
let viewer: SeededUser;
let otherAdmin: SeededUser;
let otherOrgId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  idp = await startSamlIdp({ email: 'ana@lakeside.example' });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  admin = await seedUser(db, { homeOrgId: orgId, permissions: ['GLOBAL_SETTINGS_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['GLOBAL_SETTINGS_VIEW'] });
  otherAdmin = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['GLOBAL_SETTINGS_EDIT'] });
});
afterAll(async () => {
  await idp.close();
  await ctx.close();
});

const input = (overrides: Record<string, unknown> = {}) => ({
  name: 'Lakeside Entra ID',
  entryPoint: idp.entryPoint,
  idpIssuer: idp.issuer,
  idpCert: idp.certificate,
  emailDomains: ['Lakeside.example'],
  ...overrides,
});

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });

describe('SAML provider settings', () => {
  it('adds, lists, changes and removes a provider, and the login page follows', async () => {
    const base = `/api/org/${orgId}/sso/saml-providers`;
    const created = await call('POST', base, admin, input());
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Lakeside Entra ID',
      emailDomains: ['lakeside.example'],
      enabled: true,
    });
    const id = created.json().id;

    const sso = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/saml-enabled?email=ana%40lakeside.example',
    });
    expect(sso.json()).toMatchObject({
      ssoEnabled: true,
      ssoName: 'Lakeside Entra ID',
      ssoUrl: idp.entryPoint,
    });

    const listed = await call('GET', base, viewer);
    expect(listed.json()).toMatchObject({ total: 1, items: [{ id }] });

    const changed = await call('PUT', `${base}/${id}`, admin, input({ enabled: false }));
    expect(changed.json().enabled).toBe(false);
    const off = await ctx.app.inject({
      method: 'GET',
      url: '/api/user/saml-enabled?email=ana%40lakeside.example',
    });
    expect(off.json()).toEqual({ ssoEnabled: false });

    expect((await call('DELETE', `${base}/${id}`, admin)).statusCode).toBe(204);
    expect((await call('GET', base, viewer)).json().total).toBe(0);
  });

  it('refuses an unreadable certificate and a malformed domain, naming the field', async () => {
    const base = `/api/org/${orgId}/sso/saml-providers`;
    const badCert = await call('POST', base, admin, input({ idpCert: 'not a certificate' }));
    expect(badCert.statusCode).toBe(400);
    expect(badCert.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'idpCert' });
    const badDomain = await call('POST', base, admin, input({ emailDomains: ['not a domain'] }));
    expect(badDomain.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'emailDomains.0' });
    expect((await call('GET', base, viewer)).json().total).toBe(0);
  });

  it('refuses a domain another enabled provider already signs in', async () => {
    const base = `/api/org/${orgId}/sso/saml-providers`;
    expect((await call('POST', base, admin, input({ emailDomains: ['shared.example'] }))).statusCode).toBe(
      201,
    );
    const clash = await call(
      'POST',
      base,
      admin,
      input({ name: 'Second', emailDomains: ['other.example', 'shared.example'] }),
    );
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ key: 'SAML_DOMAIN_IN_USE', params: { domains: 'shared.example' } });
  });

  it("keeps each organisation's providers to itself and edits to editors", async () => {
    const base = `/api/org/${orgId}/sso/saml-providers`;
    const created = await call('POST', base, admin, input({ emailDomains: ['private.example'] }));
    const id = created.json().id;
    expect((await call('POST', base, viewer, input({ emailDomains: ['x.example'] }))).statusCode).toBe(403);
    expect((await call('DELETE', `${base}/${id}`, otherAdmin)).statusCode).toBe(403);
    // Through their own organisation's path, another organisation's provider does not exist.
    const foreign = await call('DELETE', `/api/org/${otherOrgId}/sso/saml-providers/${id}`, otherAdmin);
    expect(foreign.statusCode).toBe(404);
    expect((await call('GET', base, viewer)).json().items.map((item: { id: string }) => item.id)).toContain(
      id,
    );
    const otherBase = `/api/org/${(await seedOrg(ctx.database.db)).id}/sso/saml-providers`;
    expect((await call('GET', otherBase, admin)).statusCode).toBe(403);
  });
});
