import type { AddressInfo } from 'node:net';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedRole } from '../../../test/fixtures';
import {
  readAuthnRequest,
  startSamlIdp,
  type BuildResponseOptions,
  type SamlIdp,
} from '../../../test/saml-idp';
import { activityLog } from '../../platform/audit/tables';
import { insertUser } from '../users/repo';
import { users } from '../users/tables';
import { insertSamlProvider } from './repo';
import { samlProviders } from './tables';

const LOGIN_FAILED = '/login?error=SAML_LOGIN_FAILED';
/** What app.inject requests look like to the server, and so the public URL the tests run under. */
const INJECT_BASE = 'http://localhost:80';

let ctx: TestContext;
let idp: SamlIdp;
let orgId: string;
let providerId: string;
let alice: { id: string; email: string };

beforeAll(async () => {
  ctx = await createTestApp(async (app) => {
    app.post(
      '/api/test/echo',
      { config: { auth: 'public' }, schema: { body: z.object({ name: z.string() }) } },
      async (request) => request.body,
    );
  });
  const db = ctx.database.db;
  idp = await startSamlIdp({ email: 'alice@bank.example' });
  orgId = (await seedOrg(db)).id;
  const role = await seedRole(db, ['EVENT_VIEW']);
  const addUser = async (email: string) => {
    const user = await insertUser(db, {
      email,
      firstName: 'Sso',
      lastName: 'User',
      homeOrgId: orgId,
      roleId: role.id,
      passwordHash: null,
    });
    return { id: user.id, email };
  };
  alice = await addUser('alice@bank.example');
  const bob = await addUser('bob@bank.example');
  await db.update(users).set({ active: false }).where(eq(users.id, bob.id));
  await addUser('carol@other.example');

  const provider = await insertSamlProvider(db, {
    orgId,
    name: 'Bank IdP',
    entryPoint: idp.entryPoint,
    idpIssuer: idp.issuer,
    idpCert: idp.certificate,
    emailDomains: ['Bank.example'],
  });
  providerId = provider.id;
  await insertSamlProvider(db, {
    orgId,
    name: 'Retired IdP',
    entryPoint: idp.entryPoint,
    idpIssuer: idp.issuer,
    idpCert: idp.certificate,
    emailDomains: ['retired.example'],
    enabled: false,
  });
});

afterAll(async () => {
  await ctx?.close();
  await idp?.close();
});

const samlEnabled = (email: string) =>
  ctx.app.inject({ method: 'GET', url: `/api/user/saml-enabled?email=${encodeURIComponent(email)}` });

/** Starts a sign-in the way the login page does and answers the AuthnRequest it sends. */
async function startSignIn(email = alice.email) {
  const response = await samlEnabled(email);
  return readAuthnRequest(response.json().samlRequest);
}

/** A response of the identity provider to a fresh sign-in of Alice, with the given changes. */
async function answer(changes: Partial<BuildResponseOptions> = {}) {
  const request = await startSignIn();
  return idp.buildResponse({
    inResponseTo: request.id,
    acsUrl: request.acsUrl,
    audience: request.issuer,
    email: alice.email,
    ...changes,
  });
}

const postToAcs = (form: Record<string, string>) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/saml/acs',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(form).toString(),
  });

async function lastAudit() {
  const [row] = await ctx.database.db.select().from(activityLog).orderBy(desc(activityLog.id)).limit(1);
  return row;
}

async function expectRefused(response: Awaited<ReturnType<typeof postToAcs>>, reason: string) {
  expect(response.statusCode).toBe(303);
  expect(response.headers.location).toBe(LOGIN_FAILED);
  expect(response.headers['set-cookie']).toBeUndefined();
  expect(await lastAudit()).toMatchObject({
    action: 'user.login_failed',
    details: { method: 'saml', reason },
  });
}

describe('GET /api/user/saml-enabled', () => {
  it("answers the provider's name, sign-on URL and an AuthnRequest for a configured domain, in any case", async () => {
    const response = await samlEnabled('Alice@BANK.example');
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toMatchObject({ ssoEnabled: true, ssoName: 'Bank IdP', ssoUrl: idp.entryPoint });
    // Base64 as it goes into the query string, before URL encoding.
    expect(body.samlRequest).toMatch(/^[A-Za-z0-9+/]+=*$/);
    expect(readAuthnRequest(body.samlRequest)).toMatchObject({
      destination: idp.entryPoint,
      acsUrl: `${INJECT_BASE}/api/saml/acs`,
      issuer: INJECT_BASE,
    });
  });

  it('gives the same answer whether or not the user exists', async () => {
    const known = (await samlEnabled(alice.email)).json();
    const unknown = (await samlEnabled('nobody@bank.example')).json();
    expect(Object.keys(unknown).sort()).toEqual(Object.keys(known).sort());
    expect({ ...unknown, samlRequest: undefined }).toEqual({ ...known, samlRequest: undefined });
  });

  it('answers ssoEnabled false for a domain without an enabled provider', async () => {
    for (const email of ['carol@other.example', 'someone@retired.example']) {
      const response = await samlEnabled(email);
      expect(response.statusCode).toBe(200);
      expect(response.json()).toEqual({ ssoEnabled: false });
    }
  });

  it('refuses a malformed e-mail with GENERIC_INVALID_FIELD_VALUE', async () => {
    const response = await samlEnabled('not-an-email');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'email' });
  });
});

describe('POST /api/saml/acs', () => {
  it('signs in an active user of the provider and lands on the dashboards', async () => {
    const response = await postToAcs({ SAMLResponse: await answer() });
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/dashboards/default');
    const cookie = response.cookies.find((candidate) => candidate.name === 'vigil_session');
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });

    const whoami = await ctx.app.inject({
      method: 'GET',
      url: '/api/user',
      headers: { cookie: `vigil_session=${cookie!.value}` },
    });
    expect(whoami.statusCode).toBe(200);
    expect(whoami.json()).toMatchObject({ id: alice.id });
    expect(await lastAudit()).toMatchObject({
      action: 'user.login',
      orgId,
      actorUserId: alice.id,
      details: { method: 'saml', providerId },
    });
    const [user] = await ctx.database.db.select().from(users).where(eq(users.id, alice.id));
    expect(user!.lastLoginAt).not.toBeNull();
  });

  it('takes the e-mail from its attribute when the NameID is an opaque id', async () => {
    const response = await postToAcs({ SAMLResponse: await answer({ nameId: 'a1b2c3-opaque' }) });
    expect(response.headers.location).toBe('/dashboards/default');
    expect(await lastAudit()).toMatchObject({ action: 'user.login', actorUserId: alice.id });
  });

  const fiveMinutes = 5 * 60_000;
  const refusals: { name: string; reason: string; changes: Partial<BuildResponseOptions> }[] = [
    { name: 'signed by another key', reason: 'invalid_response', changes: { signWith: 'other-key' } },
    {
      name: 'for another audience',
      reason: 'invalid_response',
      changes: { audience: 'https://other-app.example' },
    },
    {
      name: 'expired',
      reason: 'invalid_response',
      changes: { notOnOrAfter: new Date(Date.now() - fiveMinutes) },
    },
    {
      name: 'issued too long ago, even with open conditions',
      reason: 'stale_assertion',
      changes: {
        issuedAt: new Date(Date.now() - 2 * fiveMinutes),
        notOnOrAfter: new Date(Date.now() + fiveMinutes),
      },
    },
    {
      name: 'naming another issuer under the same key',
      reason: 'issuer_mismatch',
      changes: { issuer: 'https://idp.example/other-tenant' },
    },
    {
      name: 'addressed to another service',
      reason: 'recipient_mismatch',
      changes: { acsUrl: 'https://other-app.example/api/saml/acs' },
    },
    {
      name: 'not answering a request made here',
      reason: 'unknown_request',
      changes: { inResponseTo: undefined },
    },
    {
      name: 'for a user outside the provider domains',
      reason: 'domain_not_allowed',
      changes: { email: 'carol@other.example' },
    },
    { name: 'for an unknown user', reason: 'unknown_user', changes: { email: 'nobody@bank.example' } },
    { name: 'for an inactive user', reason: 'user_inactive', changes: { email: 'bob@bank.example' } },
  ];
  for (const { name, reason, changes } of refusals) {
    it(`refuses a response ${name}`, async () => {
      await expectRefused(await postToAcs({ SAMLResponse: await answer(changes) }), reason);
    });
  }

  it('refuses a response posted a second time', async () => {
    const samlResponse = await answer();
    expect((await postToAcs({ SAMLResponse: samlResponse })).headers.location).toBe('/dashboards/default');
    await expectRefused(await postToAcs({ SAMLResponse: samlResponse }), 'unknown_request');
  });

  it('refuses an accepted assertion again even as the answer to a new request', async () => {
    const assertionId = '_assertion-used-once';
    const first = await postToAcs({ SAMLResponse: await answer({ assertionId }) });
    expect(first.headers.location).toBe('/dashboards/default');
    await expectRefused(await postToAcs({ SAMLResponse: await answer({ assertionId }) }), 'replayed');
  });

  it('refuses the answer to a request of a provider disabled meanwhile', async () => {
    const samlResponse = await answer();
    await ctx.database.db
      .update(samlProviders)
      .set({ enabled: false })
      .where(eq(samlProviders.id, providerId));
    try {
      await expectRefused(await postToAcs({ SAMLResponse: samlResponse }), 'provider_disabled');
    } finally {
      await ctx.database.db
        .update(samlProviders)
        .set({ enabled: true })
        .where(eq(samlProviders.id, providerId));
    }
  });

  it('sends malformed, missing and oversized responses to the login page too', async () => {
    await expectRefused(await postToAcs({ SAMLResponse: 'bm90IGEgcmVzcG9uc2U=' }), 'malformed_response');
    await expectRefused(await postToAcs({ RelayState: 'x' }), 'malformed_request');
    await expectRefused(await postToAcs({ SAMLResponse: 'A'.repeat(600 * 1024) }), 'malformed_request');
  });

  it('takes urlencoded bodies on its own routes only; JSON routes elsewhere are unchanged', async () => {
    const json = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'x-requested-with': 'XMLHttpRequest' },
      payload: { name: 'json' },
    });
    expect(json.statusCode).toBe(200);
    expect(json.json()).toEqual({ name: 'json' });
    const form = await ctx.app.inject({
      method: 'POST',
      url: '/api/test/echo',
      headers: { 'x-requested-with': 'XMLHttpRequest', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=form',
    });
    // Refused as an unsupported media type, where a parsed form would have passed the body schema.
    expect(form.statusCode).toBe(400);
    expect(form.json().message).toMatch(/Unsupported Media Type/);
  });
});

describe('sign-in through the identity provider', () => {
  it('follows the login page, the identity provider and its form post to a signed-in session', async () => {
    await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(ctx.app.server.address() as AddressInfo).port}`;
    idp.setEmail(alice.email);

    const check = await (
      await fetch(`${base}/api/user/saml-enabled?email=${encodeURIComponent(alice.email)}`)
    ).json();
    expect(check.ssoEnabled).toBe(true);
    // What the /saml-redirect page navigates to.
    const idpPage = await fetch(`${check.ssoUrl}?SAMLRequest=${encodeURIComponent(check.samlRequest)}`);
    expect(idpPage.status).toBe(200);
    const html = await idpPage.text();
    const unescape = (value: string) =>
      value
        .replace(/&quot;/g, '"')
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&amp;/g, '&');
    const action = unescape(/<form method="post" action="([^"]*)"/.exec(html)![1]!);
    const samlResponse = unescape(/name="SAMLResponse" value="([^"]*)"/.exec(html)![1]!);
    expect(action).toBe(`${base}/api/saml/acs`);

    const acs = await fetch(action, {
      method: 'POST',
      // A browser posts the identity provider's form cross-site, without the CSRF header.
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        origin: new URL(idp.entryPoint).origin,
      },
      body: new URLSearchParams({ SAMLResponse: samlResponse }),
      redirect: 'manual',
    });
    expect(acs.status).toBe(303);
    expect(acs.headers.get('location')).toBe('/dashboards/default');
    const sessionCookie = acs.headers
      .getSetCookie()
      .map((header) => header.split(';')[0]!)
      .find((pair) => pair.startsWith('vigil_session='));
    expect(sessionCookie).toBeDefined();

    const whoami = await fetch(`${base}/api/user`, { headers: { cookie: sessionCookie! } });
    expect(whoami.status).toBe(200);
    expect(await whoami.json()).toMatchObject({ id: alice.id });
  });
});
