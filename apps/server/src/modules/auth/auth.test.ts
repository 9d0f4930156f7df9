import { eq } from 'drizzle-orm';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { activityLog } from '../../platform/audit/tables';
import { users } from '../users/tables';
import { sessions } from './tables';

const PASSWORD = 'tidal-Lantern-93-orbit';
let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let otherOrgId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, {
    startJobs: true,
    config: {
      SMTP_URL: smtp.url,
      PUBLIC_URL: 'http://vigil.test',
      KNOWLEDGE_BASE_URL: 'https://help.vigil.test/login/sso',
      KNOWLEDGE_BASE_SECRET: 'a-shared-knowledge-base-secret',
    },
  });
  orgId = (await seedOrg(ctx.database.db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(ctx.database.db, { name: 'Another Bank' })).id;
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const sessionCookie = (response: { cookies: { name: string; value: string }[] }) => {
  const cookie = response.cookies.find((entry) => entry.name === 'vigil_session');
  return cookie ? `vigil_session=${cookie.value}` : undefined;
};

async function newUser(
  options: { permissions?: Parameters<typeof seedUser>[1]['permissions']; homeOrgId?: string } = {},
) {
  return seedUser(ctx.database.db, {
    homeOrgId: options.homeOrgId ?? orgId,
    permissions: options.permissions ?? ['ASSET_VIEW'],
    password: PASSWORD,
    email: `person-${Math.random().toString(36).slice(2)}@harbor.example`,
  });
}

function post(
  url: string,
  options: { cookie?: string; authorization?: string; body?: unknown; text?: string } = {},
) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: {
      'x-requested-with': 'XMLHttpRequest',
      ...(options.cookie && { cookie: options.cookie }),
      ...(options.authorization && { authorization: options.authorization }),
      ...(options.text !== undefined && { 'content-type': 'text/plain' }),
    },
    ...(options.text !== undefined
      ? { payload: options.text }
      : options.body !== undefined
        ? { payload: options.body as object }
        : {}),
  });
}

const get = (url: string, cookie?: string) =>
  ctx.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });

async function signIn(email: string, password = PASSWORD) {
  const response = await post('/api/user/login', { authorization: basic(email, password) });
  return { response, cookie: sessionCookie(response) };
}

/** Gives a user an authenticator secret and answers a code generator for it. */
async function enableTotp(userId: string) {
  const secret = new OTPAuth.Secret({ size: 10 }).base32;
  await ctx.database.db
    .update(users)
    .set({ google2faSecret: ctx.secrets.seal(secret), google2faEnabled: true })
    .where(eq(users.id, userId));
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) });
  return (offsetSteps = 0) => totp.generate({ timestamp: Date.now() + offsetSteps * 30_000 });
}

const actions = async (userId: string) =>
  (await ctx.database.db.select().from(activityLog).where(eq(activityLog.actorUserId, userId))).map(
    (row) => row.action,
  );

describe('password sign-in', () => {
  it('signs in, sets an HttpOnly session cookie and answers the user', async () => {
    const user = await newUser();
    const { response, cookie } = await signIn(user.email.toUpperCase());
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      secondFactorRequired: false,
      google2faInitialized: false,
      u2fInitialized: false,
    });
    const setCookie = String(response.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/i);
    expect(setCookie).toMatch(/SameSite=Lax/i);
    const me = await get('/api/user', cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json()).toMatchObject({ id: user.id, emails: [{ email: user.email }], fullName: 'Test User' });
    expect(await actions(user.id)).toContain('user.login');
  });

  it('answers a wrong password and an unknown e-mail alike, in comparable time', async () => {
    const user = await newUser();
    const timings = { wrong: [] as number[], unknown: [] as number[] };
    for (let i = 0; i < 3; i++) {
      for (const [kind, email] of [
        ['wrong', user.email],
        ['unknown', `nobody-${i}@harbor.example`],
      ] as const) {
        const started = performance.now();
        const { response } = await signIn(email, 'not-the-password');
        timings[kind].push(performance.now() - started);
        expect(response.statusCode).toBe(401);
        expect(response.json()).toMatchObject({ type: 'AuthenticationException', key: 'LOGIN_FAILED' });
        expect(sessionCookie(response)).toBeUndefined();
      }
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[1]!;
    // Both paths verify an argon2 hash; without the dummy hash the unknown e-mail would answer far sooner.
    expect(median(timings.unknown)).toBeGreaterThan(median(timings.wrong) * 0.4);
  });

  it('refuses a malformed authorisation header and a request without the CSRF header', async () => {
    expect((await post('/api/user/login', { authorization: 'Bearer x' })).json().key).toBe('LOGIN_FAILED');
    const user = await newUser();
    const noHeader = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/login',
      headers: { authorization: basic(user.email, PASSWORD) },
    });
    expect(noHeader.statusCode).toBe(403);
    expect(noHeader.json().key).toBe('CSRF_HEADER_MISSING');
  });

  it('locks an account after five failures, even for the right password, and logs the lockout', async () => {
    const user = await newUser();
    for (let i = 0; i < 5; i++)
      expect((await signIn(user.email, 'wrong-password')).response.statusCode).toBe(401);
    const locked = await signIn(user.email);
    expect(locked.response.statusCode).toBe(429);
    expect(locked.response.json()).toMatchObject({ type: 'RateLimitException', key: 'LOGIN_RATE_LIMITED' });
    expect(await actions(user.id)).toContain('user.lockout');
  });

  it('refuses an inactive user', async () => {
    const user = await newUser();
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, user.id));
    expect((await signIn(user.email)).response.statusCode).toBe(401);
  });

  it('ends the session on logout', async () => {
    const user = await newUser();
    const { cookie } = await signIn(user.email);
    const logout = await post('/api/user/logout', { cookie });
    expect(logout.statusCode).toBe(204);
    expect(String(logout.headers['set-cookie'])).toMatch(/vigil_session=;/);
    expect((await get('/api/user', cookie)).statusCode).toBe(401);
  });

  it('rotates the token on update-token and answers the heartbeat', async () => {
    const user = await newUser();
    const { cookie } = await signIn(user.email);
    expect((await post('/api/heartbeat', { cookie })).statusCode).toBe(204);
    const renewed = await post('/api/user/update-token', { cookie });
    const next = sessionCookie(renewed);
    expect(next).toBeDefined();
    expect(next).not.toBe(cookie);
    expect((await get('/api/user', cookie)).statusCode).toBe(401);
    expect((await get('/api/user', next)).statusCode).toBe(200);
    expect((await post('/api/heartbeat')).statusCode).toBe(401);
  });

  it("lists the user's organisations, home first-class and sorted by name", async () => {
    const user = await seedUser(ctx.database.db, {
      homeOrgId: orgId,
      permissions: ['TRAC_USER'],
      authorisedOrgIds: [otherOrgId],
      password: PASSWORD,
    });
    const response = await get('/api/orgs', user.cookie);
    expect(response.json()).toEqual({
      homeOrgId: orgId,
      orgs: [
        { id: otherOrgId, name: 'Another Bank', productSkus: [], isHome: false },
        { id: orgId, name: 'Harbor', productSkus: [], isHome: true },
      ],
    });
  });
});

describe('two-factor sign-in', () => {
  it('holds the session pending until the one-time code, then rotates it', async () => {
    const user = await newUser();
    const code = await enableTotp(user.id);
    const { response, cookie: pending } = await signIn(user.email);
    expect(response.json()).toEqual({
      secondFactorRequired: true,
      google2faInitialized: true,
      u2fInitialized: false,
    });
    // A pending session opens nothing else.
    expect((await get('/api/user', pending)).statusCode).toBe(401);
    expect((await get(`/api/org/${orgId}/user/permissions`, pending)).statusCode).toBe(401);

    const wrong = await post('/api/user/login/google2fa', {
      cookie: pending,
      text: '000000' === code() ? '111111' : '000000',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().key).toBe('INVALID_TOTP');

    const done = await post('/api/user/login/google2fa', { cookie: pending, text: code() });
    expect(done.statusCode).toBe(200);
    expect(done.json()).toMatchObject({ id: user.id, google2faEnabled: true });
    const full = sessionCookie(done);
    expect(full).not.toBe(pending);
    expect((await get('/api/user', full)).statusCode).toBe(200);
    expect((await post('/api/user/login/google2fa', { cookie: pending, text: code() })).json().key).toBe(
      'SECOND_FACTOR_EXPIRED',
    );
  });

  it('never accepts the same code twice', async () => {
    const user = await newUser();
    const code = await enableTotp(user.id);
    const used = code();
    const first = await signIn(user.email);
    expect((await post('/api/user/login/google2fa', { cookie: first.cookie, text: used })).statusCode).toBe(
      200,
    );
    const second = await signIn(user.email);
    const replay = await post('/api/user/login/google2fa', { cookie: second.cookie, text: used });
    expect(replay.statusCode).toBe(400);
    expect(replay.json().key).toBe('INVALID_TOTP');
    // The next step's code still works.
    expect(
      (await post('/api/user/login/google2fa', { cookie: second.cookie, text: code(1) })).statusCode,
    ).toBe(200);
  });

  it('expires the pending state after ten minutes', async () => {
    const user = await newUser();
    const code = await enableTotp(user.id);
    const { cookie } = await signIn(user.email);
    await ctx.database.db
      .update(sessions)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(sessions.userId, user.id));
    const late = await post('/api/user/login/google2fa', { cookie, text: code() });
    expect(late.statusCode).toBe(401);
    expect(late.json().key).toBe('SECOND_FACTOR_EXPIRED');
  });

  it('makes a user of an organisation that requires two-factor set up an authenticator at sign-in', async () => {
    const strictOrg = await seedOrg(ctx.database.db, { settings: { requireTwoFactor: true } });
    const user = await newUser({ homeOrgId: strictOrg.id });
    const { response, cookie } = await signIn(user.email);
    const body = response.json();
    expect(body).toMatchObject({
      secondFactorRequired: true,
      google2faInitialized: false,
      u2fInitialized: false,
    });
    const secret = new URL(body.google2faUri).searchParams.get('secret')!;
    expect(secret).toMatch(/^[A-Z2-7]{16}$/);
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    const done = await post('/api/user/login/google2fa', { cookie, text: code });
    expect(done.statusCode).toBe(200);
    expect(done.json().google2faEnabled).toBe(true);
    expect(await actions(user.id)).toContain('user.2fa_enabled');
  });

  it('lets a signed-in user set up an authenticator, confirmed by a code', async () => {
    const user = await newUser();
    const { cookie } = await signIn(user.email);
    const setup = await post('/api/user/google2fa/setup', { cookie });
    expect(setup.statusCode).toBe(200);
    const { secret, google2faUri } = setup.json();
    expect(google2faUri).toContain(`secret=${secret}`);
    expect((await post('/api/user/google2fa/confirm', { cookie, text: '12345' })).json().key).toBe(
      'INVALID_TOTP',
    );
    const code = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret) }).generate();
    expect((await post('/api/user/google2fa/confirm', { cookie, text: code })).statusCode).toBe(204);
    expect((await signIn(user.email)).response.json().google2faInitialized).toBe(true);
  });

  it("lets an administrator reset a user's authenticator, only in the administrator's organisation", async () => {
    const admin = await newUser({ permissions: ['USER_EDIT', 'ASSET_VIEW'] });
    const user = await newUser();
    await enableTotp(user.id);
    const stranger = await newUser({ homeOrgId: otherOrgId });
    const reset = await post(`/api/org/${orgId}/user/${user.id}/google2fa/reset`, { cookie: admin.cookie });
    expect(reset.statusCode).toBe(204);
    expect((await signIn(user.email)).response.json().secondFactorRequired).toBe(false);
    const elsewhere = await post(`/api/org/${orgId}/user/${stranger.id}/google2fa/reset`, {
      cookie: admin.cookie,
    });
    expect(elsewhere.statusCode).toBe(404);
    const analyst = await newUser();
    expect(
      (await post(`/api/org/${orgId}/user/${user.id}/google2fa/reset`, { cookie: analyst.cookie }))
        .statusCode,
    ).toBe(403);
    expect(await actions(admin.id)).toContain('user.2fa_reset');
    // A stronger account (holding a code the administrator lacks) is not the administrator's to reset.
    const stronger = await newUser({ permissions: ['USER_EDIT', 'ASSET_VIEW', 'RISK_EDIT'] });
    const refused = await post(`/api/org/${orgId}/user/${stronger.id}/u2f/reset`, { cookie: admin.cookie });
    expect(refused.statusCode).toBe(403);
  });
});

describe('removing your own second factor', () => {
  it('needs the current password, then the next sign-in asks for no code', async () => {
    const user = await newUser();
    const code = await enableTotp(user.id);
    const pending = await signIn(user.email);
    const done = await post('/api/user/login/google2fa', { cookie: pending.cookie, text: code() });
    const cookie = sessionCookie(done);
    const wrong = await post('/api/user/google2fa/remove', { cookie, body: { requiredPassword: 'guess' } });
    expect(wrong.json()).toMatchObject({ key: 'PASSWORD_CURRENT_INVALID', field: 'requiredPassword' });
    expect((await signIn(user.email)).response.json().google2faInitialized).toBe(true);
    expect(
      (await post('/api/user/google2fa/remove', { cookie, body: { requiredPassword: PASSWORD } })).statusCode,
    ).toBe(204);
    expect((await signIn(user.email)).response.json()).toMatchObject({ secondFactorRequired: false });
    expect(await actions(user.id)).toContain('user.2fa_removed');
    expect((await post('/api/user/u2f/remove', { body: { requiredPassword: PASSWORD } })).statusCode).toBe(
      401,
    );
  });
});

describe('passwords', () => {
  it('mails a single-use reset link that sets a new password and ends every session', async () => {
    const user = await newUser();
    const { cookie: oldSession } = await signIn(user.email);
    expect((await post('/api/user/forgot', { body: { email: user.email } })).statusCode).toBe(204);
    const mail = await smtp.waitForMessage(user.email);
    const link = new URL(/http:\/\/vigil\.test\/reset-password\?\S+/.exec(mail.text ?? '')![0]);
    const id = link.searchParams.get('id')!;
    const confirmation = link.searchParams.get('confirmation')!;

    const weak = await post('/api/user/password-reset', {
      body: { id, confirmation, newPassword: 'aaaa-bbbb-cccc' },
    });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ key: 'PASSWORD_REPEATED_CHARACTERS', field: 'newPassword' });

    const newPassword = 'harbour-Quartz-58-violet';
    expect(
      (await post('/api/user/password-reset', { body: { id, confirmation, newPassword } })).statusCode,
    ).toBe(204);
    expect((await get('/api/user', oldSession)).statusCode).toBe(401);
    expect((await signIn(user.email, newPassword)).response.statusCode).toBe(200);
    const again = await post('/api/user/password-reset', {
      body: { id, confirmation, newPassword: 'another-Quartz-77-x' },
    });
    expect(again.json().key).toBe('PASSWORD_LINK_INVALID');
    expect(await actions(user.id)).toEqual(
      expect.arrayContaining(['user.password_reset_requested', 'user.password_reset']),
    );
  });

  it('answers forgot-password the same for an unknown e-mail and sends nothing', async () => {
    const before = smtp.messages.length;
    const unknown = await post('/api/user/email/ghost%40harbor.example/forgot');
    expect(unknown.statusCode).toBe(204);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(smtp.messages.length).toBe(before);
  });

  it('refuses a forged or malformed reset link', async () => {
    const forged = await post('/api/user/password-reset', {
      body: {
        id: '00000000-0000-4000-8000-000000000000',
        confirmation: 'guess',
        newPassword: 'harbour-Quartz-58-violet',
      },
    });
    expect(forged.json().key).toBe('PASSWORD_LINK_INVALID');
    expect(
      (
        await post('/api/user/password-reset', { body: { id: 'x', confirmation: 'y', newPassword: 'z' } })
      ).json().key,
    ).toBe('PASSWORD_LINK_INVALID');
  });

  it('changes the own password with the current one, ending the other sessions', async () => {
    const user = await newUser();
    const { cookie: here } = await signIn(user.email);
    const { cookie: elsewhere } = await signIn(user.email);
    const url = `/api/org/${orgId}/user/${user.id}/password`;
    const wrong = await post(url, { cookie: here, body: { requiredPassword: 'nope', newPassword: 'x' } });
    expect(wrong.json()).toMatchObject({ key: 'PASSWORD_CURRENT_INVALID', field: 'requiredPassword' });
    const withName = await post(url, {
      cookie: here,
      body: { requiredPassword: PASSWORD, newPassword: 'my-Test-name-99' },
    });
    expect(withName.json().key).toBe('PASSWORD_CONTAINS_USER_DATA');

    const changed = await post(url, {
      cookie: here,
      body: { requiredPassword: PASSWORD, newPassword: 'harbour-Quartz-58-violet' },
    });
    expect(changed.statusCode).toBe(204);
    expect((await get('/api/user', elsewhere)).statusCode).toBe(401);
    expect((await get('/api/user', sessionCookie(changed))).statusCode).toBe(200);
    const other = await newUser();
    expect(
      (
        await post(`/api/org/${orgId}/user/${other.id}/password`, {
          cookie: sessionCookie(changed),
          body: { requiredPassword: 'a', newPassword: 'b' },
        })
      ).statusCode,
    ).toBe(403);
  });

  it('warns of a common password without refusing it', async () => {
    expect((await post('/api/user/password-check', { body: { password: 'Password1' } })).json()).toEqual({
      common: true,
    });
    expect(
      (await post('/api/user/password-check', { body: { password: 'harbour-Quartz-58-violet' } })).json(),
    ).toEqual({
      common: false,
    });
  });
});

describe('knowledge base', () => {
  it('answers a sign-in address carrying a signed, short-lived token', async () => {
    const user = await newUser();
    const response = await get('/api/knowledge-base-login?r=%2Farticles%2F42', user.cookie);
    const loginUrl = new URL(response.json().loginUrl);
    expect(loginUrl.origin + loginUrl.pathname).toBe('https://help.vigil.test/login/sso');
    expect(loginUrl.searchParams.get('redirect_to')).toBe('/articles/42');
    const [header, payload, signature] = loginUrl.searchParams.get('jwt')!.split('.');
    const { createHmac } = await import('node:crypto');
    expect(signature).toBe(
      createHmac('sha256', 'a-shared-knowledge-base-secret')
        .update(`${header}.${payload}`)
        .digest('base64url'),
    );
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    expect(claims).toMatchObject({ email: user.email });
    expect(claims.exp - claims.iat).toBe(300);
    expect((await get('/api/knowledge-base-login')).statusCode).toBe(401);
  });
});
