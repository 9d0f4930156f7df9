import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedRole } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { SESSION_COOKIE } from '../../platform/access';
import { activityLog } from '../../platform/audit/tables';
import { hashPassword } from '../../platform/passwords';
import { createSession } from '../auth/sessions';
import { ensureSystemRoles } from '../roles/repo';
import { roles } from '../roles/tables';
import type { SystemRoleName } from '../roles/system-roles';
import { insertJobDescriptor } from './job-descriptors';
import { insertUser } from './repo';
import { users } from './tables';

const PASSWORD = 'tidal-Lantern-93-orbit';
let ctx: TestContext;
let smtp: TestSmtpServer;
let roleIds: Record<SystemRoleName, string>;
let providerOrgId: string;
let harborOrgId: string;
let otherOrgId: string;
let providerAdmin: Person;
let harborAdmin: Person;
let harborAnalyst: Person;
let harborCompliance: Person;
let otherAdmin: Person;

interface Person {
  id: string;
  email: string;
  cookie: string;
}

let counter = 0;
async function person(
  homeOrgId: string,
  roleId: string,
  options: { email?: string; authorisedOrgIds?: string[] } = {},
) {
  const email = options.email ?? `person${++counter}@harbor.example`;
  const user = await insertUser(ctx.database.db, {
    email,
    firstName: `First${counter}`,
    lastName: `Last${counter}`,
    homeOrgId,
    roleId,
    passwordHash: await hashPassword(PASSWORD),
    authorisedOrgIds: options.authorisedOrgIds,
  });
  const token = await createSession(ctx.database.db, { userId: user.id });
  return { id: user.id, email, cookie: `${SESSION_COOKIE}=${token}` };
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, {
    startJobs: true,
    config: { SMTP_URL: smtp.url, PUBLIC_URL: 'http://vigil.test' },
  });
  const db = ctx.database.db;
  roleIds = await ensureSystemRoles(db);
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  harborOrgId = (await seedOrg(db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Other Bank' })).id;
  // The provider's first user sets the internal e-mail domain.
  providerAdmin = await person(providerOrgId, roleIds.providerAdmin, {
    email: 'root@vigil.test',
    authorisedOrgIds: [harborOrgId],
  });
  harborAdmin = await person(harborOrgId, roleIds.clientAdmin);
  harborAnalyst = await person(harborOrgId, roleIds.clientAnalyst);
  harborCompliance = await person(harborOrgId, roleIds.complianceOfficer);
  otherAdmin = await person(otherOrgId, roleIds.clientAdmin, { email: 'admin@other.example' });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, who: Person, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(who.cookie), ...(payload && { payload }) });
const harbor = (path: string) => `/api/org/${harborOrgId}${path}`;
const provider = (path: string) => `/api/org/${providerOrgId}${path}`;
const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;
const login = (email: string, password = PASSWORD) =>
  ctx.app.inject({
    method: 'POST',
    url: '/api/user/login',
    headers: { authorization: basic(email, password), 'x-requested-with': 'XMLHttpRequest' },
  });

async function lastAudit(action: string, targetId: string) {
  const rows = await ctx.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, action), eq(activityLog.targetId, targetId)));
  return rows.at(-1);
}

const newUserBody = (overrides: object = {}) => ({
  email: `new${++counter}@harbor.example`,
  firstName: 'Nora',
  lastName: 'Quinn',
  roleId: roleIds.clientAnalyst,
  ...overrides,
});

describe('creating a user', () => {
  it('creates the user, audits it and mails a new-user link that sets the password', async () => {
    const body = newUserBody({ email: 'Nora.Quinn@Harbor.example', username: 'nquinn' });
    const response = await call('POST', harbor('/user'), harborAdmin, body);
    expect(response.statusCode).toBe(201);
    const created = response.json();
    expect(created).toMatchObject({
      email: 'nora.quinn@harbor.example',
      fullName: 'Nora Quinn',
      username: 'nquinn',
      roleId: roleIds.clientAnalyst,
      roleName: 'Client Analyst',
      homeOrgId: harborOrgId,
      active: true,
    });
    const audit = await lastAudit('user.created', created.id);
    expect(audit).toMatchObject({ orgId: harborOrgId, actorUserId: harborAdmin.id });
    expect(audit?.details).toMatchObject({
      after: { email: 'nora.quinn@harbor.example', firstName: 'Nora' },
    });

    const mail = await smtp.waitForMessage('nora.quinn@harbor.example');
    const link = /http:\/\/vigil\.test\/new-user\?id=([^&\s]+)&confirmation=(\S+)/.exec(mail.text ?? '');
    expect(link).not.toBeNull();
    expect((await login('nora.quinn@harbor.example', 'anything-at-all-7')).statusCode).toBe(401);
    const set = await ctx.app.inject({
      method: 'POST',
      url: '/api/user/password-reset',
      headers: browserHeaders(),
      payload: { id: link![1], confirmation: link![2], newPassword: 'Copper-kettle-49-river' },
    });
    expect(set.statusCode).toBe(204);
    expect((await login('nora.quinn@harbor.example', 'Copper-kettle-49-river')).statusCode).toBe(200);
  });

  it('refuses an invalid or taken e-mail, naming the field', async () => {
    const invalid = await call('POST', harbor('/user'), harborAdmin, newUserBody({ email: 'not-an-email' }));
    expect(invalid.statusCode).toBe(400);
    expect(invalid.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'email' });
    // Unique across every organisation, whatever the case.
    const taken = await call(
      'POST',
      harbor('/user'),
      harborAdmin,
      newUserBody({ email: 'ADMIN@other.example' }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ key: 'USER_EMAIL_TAKEN', field: 'email' });
  });

  it("needs the provider's domain for internal users", async () => {
    const outside = await call(
      'POST',
      provider('/user'),
      providerAdmin,
      newUserBody({ email: 'engineer@gmail.example', roleId: roleIds.providerUser }),
    );
    expect(outside.statusCode).toBe(400);
    expect(outside.json()).toMatchObject({
      key: 'USER_EMAIL_NOT_PROVIDER_DOMAIN',
      field: 'email',
      params: { domain: 'vigil.test' },
    });
    const inside = await call(
      'POST',
      provider('/user'),
      providerAdmin,
      newUserBody({ email: 'engineer@vigil.test', roleId: roleIds.providerUser }),
    );
    expect(inside.statusCode).toBe(201);
  });

  it('refuses roles the admin may not give: unknown, of another org, provider, or stronger', async () => {
    const otherCustom = await seedRole(ctx.database.db, ['ASSET_VIEW'], otherOrgId);
    const cases: [string, number, string][] = [
      ['00000000-0000-4000-8000-000000000099', 400, 'ROLE_INVALID'],
      [otherCustom.id, 400, 'ROLE_INVALID'],
      [roleIds.providerAdmin, 400, 'ROLE_INVALID'],
      // Compliance Officer holds COMPLIANCE_ADMIN, which a client administrator does not.
      [roleIds.complianceOfficer, 403, 'ROLE_PERMISSION_NOT_HELD'],
    ];
    for (const [roleId, status, key] of cases) {
      const response = await call('POST', harbor('/user'), harborAdmin, newUserBody({ roleId }));
      expect({ roleId, status: response.statusCode, key: response.json().key }).toEqual({
        roleId,
        status,
        key,
      });
    }
    // Provider staff may not give a provider role to a client's user either.
    const providerRoleToClient = await call(
      'POST',
      harbor('/user'),
      providerAdmin,
      newUserBody({ roleId: roleIds.providerUser }),
    );
    expect(providerRoleToClient.json().key).toBe('ROLE_INVALID');
  });

  it("refuses unknown job descriptors and accepts the organisation's", async () => {
    const jd = await insertJobDescriptor(ctx.database.db, harborOrgId, 'Fraud desk');
    const otherJd = await insertJobDescriptor(ctx.database.db, otherOrgId, 'Other desk');
    const bad = await call(
      'POST',
      harbor('/user'),
      harborAdmin,
      newUserBody({ jobDescriptorIds: [otherJd.id] }),
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ key: 'INVALID_JOB_DESCRIPTORS', field: 'jobDescriptorIds' });
    const good = await call('POST', harbor('/user'), harborAdmin, newUserBody({ jobDescriptorIds: [jd.id] }));
    expect(good.json().jobDescriptorIds).toEqual([jd.id]);
  });

  it('needs USER_EDIT', async () => {
    const response = await call('POST', harbor('/user'), harborAnalyst, newUserBody());
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('PERMISSION_DENIED');
  });
});

describe('listing users', () => {
  let listOrg: string;
  let lister: Person;
  beforeAll(async () => {
    const db = ctx.database.db;
    listOrg = (await seedOrg(db, { name: 'List Bank' })).id;
    lister = await person(listOrg, roleIds.clientAdmin, { email: 'zed.lister@list.example' });
    const hiddenRole = await seedRole(db, ['ASSET_VIEW'], listOrg);
    await db.update(roles).set({ hidden: true }).where(eq(roles.id, hiddenRole.id));
    for (const [first, last, roleId] of [
      ['Ann', 'Adams', roleIds.clientAnalyst],
      ['Bob', 'Brown', roleIds.clientAnalyst],
      ['Cy', 'Cole', roleIds.clientAnalyst],
      ['=Di', 'Dane', roleIds.clientAnalyst],
      ['Ghost', 'Hidden', hiddenRole.id],
    ] as const) {
      const user = await insertUser(db, {
        email: `${first.replace('=', '').toLowerCase()}@list.example`,
        firstName: first,
        lastName: last,
        homeOrgId: listOrg,
        roleId,
        passwordHash: null,
      });
      if (first === 'Cy') await db.update(users).set({ active: false }).where(eq(users.id, user.id));
    }
  });

  const list = (query: string) => call('GET', `/api/org/${listOrg}/users?${query}`, lister);
  const names = (response: { json(): { items: { lastName: string }[] } }) =>
    response.json().items.map((user) => user.lastName);
  const listerName = () => expect.stringMatching(/^Last/);

  it('filters by active state, leaving out hidden-role holders and other organisations', async () => {
    expect(names(await list(''))).toEqual(['Adams', 'Brown', 'Dane', listerName()]);
    expect(names(await list('active=INACTIVE'))).toEqual(['Cole']);
    expect((await list('active=ALL')).json().total).toBe(5);
  });

  it('searches names and e-mail addresses', async () => {
    expect(names(await list('q=bob'))).toEqual(['Brown']);
    expect(names(await list('q=ann%40list'))).toEqual(['Adams']);
    expect(names(await list('q=%25'))).toEqual([]);
  });

  it('pages by pageNumber or pageId and sorts', async () => {
    const first = await list('pageSize=2&pageNumber=1&active=ALL');
    expect(first.json().total).toBe(5);
    expect(names(first)).toEqual(['Adams', 'Brown']);
    expect(names(await list('pageSize=2&pageId=1&active=ALL'))).toEqual(['Cole', 'Dane']);
    expect(names(await list('sortBy=email&desc=true'))).toEqual([listerName(), 'Dane', 'Brown', 'Adams']);
    const bad = await list('sortBy=password');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().field).toBe('sortBy');
  });

  it('exports the search as CSV, with formulas neutralised', async () => {
    const response = await call('GET', `/api/org/${listOrg}/users-csv?active=ALL`, lister);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe('First name,Last name,Username,E-mail,Role,Active,Two-factor,Last sign-in,Created');
    expect(lines).toHaveLength(6);
    expect(lines.find((line) => line.includes('Dane'))).toMatch(
      /^"'=Di",Dane,,di@list\.example,Client Analyst,true,false,,/,
    );
  });
});

describe('changing a user', () => {
  it('edits name and username, refusing a taken username', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const response = await call('PUT', harbor(`/user/${target.id}`), harborAdmin, {
      firstName: 'Renamed',
      lastName: 'Person',
      username: 'renamed.person',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ fullName: 'Renamed Person', username: 'renamed.person' });
    expect((await lastAudit('user.updated', target.id))?.details).toMatchObject({
      before: { firstName: expect.stringMatching(/^First/) },
      after: { firstName: 'Renamed', username: 'renamed.person' },
    });
    const other = await person(harborOrgId, roleIds.clientAnalyst);
    const taken = await call('PUT', harbor(`/user/${other.id}`), harborAdmin, {
      firstName: 'A',
      lastName: 'B',
      username: 'RENAMED.person',
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ key: 'USERNAME_TAKEN', field: 'username' });
  });

  it('changes the e-mail address, which signs in from then on', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const response = await call('PUT', harbor(`/user/${target.id}/email/moved@harbor.example`), harborAdmin);
    expect(response.statusCode).toBe(200);
    expect(response.json().email).toBe('moved@harbor.example');
    expect((await login('moved@harbor.example')).statusCode).toBe(200);
    expect((await lastAudit('user.email_changed', target.id))?.details).toEqual({
      before: { email: target.email },
      after: { email: 'moved@harbor.example' },
    });
    const taken = await call('PUT', harbor(`/user/${target.id}/email/${harborAdmin.email}`), harborAdmin);
    expect(taken.json().key).toBe('USER_EMAIL_TAKEN');
  });

  it('deactivates (ending sessions and sign-in) and activates again', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const deactivated = await call('POST', harbor(`/user/${target.id}/deactivate`), harborAdmin);
    expect(deactivated.json().active).toBe(false);
    expect((await call('GET', harbor('/context'), target)).statusCode).toBe(401);
    expect((await login(target.email)).statusCode).toBe(401);
    const activated = await call('POST', harbor(`/user/${target.id}/activate`), harborAdmin);
    expect(activated.json().active).toBe(true);
    expect((await login(target.email)).statusCode).toBe(200);
    expect((await lastAudit('user.deactivated', target.id))?.details).toMatchObject({
      before: { active: true },
      after: { active: false },
    });
  });

  it('deletes softly: gone from lists, no sign-in, sessions ended', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    expect((await call('DELETE', harbor(`/user/${target.id}`), harborAdmin)).statusCode).toBe(204);
    expect((await call('GET', harbor(`/user/${target.id}`), harborAdmin)).statusCode).toBe(404);
    expect((await call('GET', harbor('/context'), target)).statusCode).toBe(401);
    expect((await login(target.email)).statusCode).toBe(401);
    const all = (await call('GET', harbor('/users?active=ALL&pageSize=500'), harborAdmin)).json();
    expect(all.items.map((user: { id: string }) => user.id)).not.toContain(target.id);
    expect((await call('POST', harbor(`/user/${target.id}/activate`), harborAdmin)).statusCode).toBe(404);
  });

  it('refuses administrators acting on themselves', async () => {
    for (const [method, path] of [
      ['POST', `/user/${harborAdmin.id}/deactivate`],
      ['DELETE', `/user/${harborAdmin.id}`],
      ['PUT', `/user/${harborAdmin.id}/role/${roleIds.clientAnalyst}`],
    ] as const) {
      const response = await call(method, harbor(path), harborAdmin);
      expect(response.json().key).toBe('USER_SELF_CHANGE_REFUSED');
    }
  });

  it('changes the role, effective with the next request', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const before = (await call('GET', harbor('/user/permissions'), target)).json().permissions;
    expect(before).not.toContain('USER_VIEW');
    const response = await call('PUT', harbor(`/user/${target.id}/role/${roleIds.clientAdmin}`), harborAdmin);
    expect(response.json()).toMatchObject({ roleId: roleIds.clientAdmin, roleName: 'Client Administrator' });
    expect((await call('GET', harbor('/user/permissions'), target)).json().permissions).toContain(
      'USER_EDIT',
    );
    expect((await lastAudit('user.role_changed', target.id))?.details).toMatchObject({
      before: { roleId: roleIds.clientAnalyst },
      after: { roleId: roleIds.clientAdmin },
    });
  });

  it('sets job descriptors, refusing unknown ones', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const jd = await insertJobDescriptor(ctx.database.db, harborOrgId, 'Branch security');
    const ok = await call('PUT', harbor(`/user/${target.id}/job-descriptors`), harborAdmin, {
      jobDescriptorIds: [jd.id],
    });
    expect(ok.json().jobDescriptorIds).toEqual([jd.id]);
    const bad = await call('PUT', harbor(`/user/${target.id}/job-descriptors`), harborAdmin, {
      jobDescriptorIds: ['00000000-0000-4000-8000-000000000077'],
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().key).toBe('INVALID_JOB_DESCRIPTORS');
  });
});

describe('privilege escalation and tenancy', () => {
  it('refuses a client admin giving a provider role or a stronger role', async () => {
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const toProvider = await call(
      'PUT',
      harbor(`/user/${target.id}/role/${roleIds.providerAdmin}`),
      harborAdmin,
    );
    expect(toProvider.json().key).toBe('ROLE_INVALID');
    const stronger = await call(
      'PUT',
      harbor(`/user/${target.id}/role/${roleIds.complianceOfficer}`),
      harborAdmin,
    );
    expect(stronger.statusCode).toBe(403);
    expect(stronger.json()).toMatchObject({
      key: 'ROLE_PERMISSION_NOT_HELD',
      params: { permission: 'COMPLIANCE_ADMIN' },
    });
  });

  it('refuses a user manager taking over a stronger account', async () => {
    const userManager = await person(
      harborOrgId,
      (await seedRole(ctx.database.db, ['USER_EDIT'], harborOrgId)).id,
    );
    for (const [method, path] of [
      ['PUT', `/user/${harborAdmin.id}/email/mine@harbor.example`],
      ['POST', `/user/${harborAdmin.id}/deactivate`],
      ['DELETE', `/user/${harborAdmin.id}`],
      ['PUT', `/user/${harborAdmin.id}/role/${roleIds.clientAnalyst}`],
    ] as const) {
      const response = await call(method, harbor(path), userManager);
      expect({ path, status: response.statusCode, key: response.json().key }).toEqual({
        path,
        status: 403,
        key: 'ROLE_PERMISSION_NOT_HELD',
      });
    }
    // The compliance officer's role holds COMPLIANCE_ADMIN, which the client admin lacks.
    const compliance = await call('POST', harbor(`/user/${harborCompliance.id}/deactivate`), harborAdmin);
    expect(compliance.statusCode).toBe(403);
  });

  it("answers 404 for another organisation's users, through every call", async () => {
    const id = otherAdmin.id;
    for (const [method, path, body] of [
      ['GET', `/user/${id}`],
      ['PUT', `/user/${id}`, { firstName: 'X', lastName: 'Y' }],
      ['PUT', `/user/${id}/email/x@harbor.example`],
      ['POST', `/user/${id}/activate`],
      ['POST', `/user/${id}/deactivate`],
      ['DELETE', `/user/${id}`],
      ['PUT', `/user/${id}/role/${roleIds.clientAnalyst}`],
      ['PUT', `/user/${id}/job-descriptors`, { jobDescriptorIds: [] }],
      ['GET', `/user/${id}/orgs`],
      ['POST', `/user/${id}/google2fa/reset`],
    ] as const) {
      const response = await call(method, harbor(path), harborAdmin, body);
      expect({ path, method, status: response.statusCode }).toEqual({ path, method, status: 404 });
    }
    expect((await call('GET', harbor('/users'), otherAdmin)).statusCode).toBe(403);
  });
});

describe('authorised organisations', () => {
  it('are set by provider staff within their own organisations', async () => {
    const engineer = await person(providerOrgId, roleIds.providerEngineer, { email: 'eng@vigil.test' });
    const grant = await call('PUT', provider(`/user/${engineer.id}/authorized-orgs`), providerAdmin, {
      orgIds: [harborOrgId],
    });
    expect(grant.statusCode).toBe(200);
    expect(grant.json()).toEqual(
      expect.arrayContaining([
        { id: harborOrgId, name: 'Harbor', isHome: false },
        { id: providerOrgId, name: 'Provider', isHome: true },
      ]),
    );
    expect((await call('GET', harbor('/context'), engineer)).statusCode).toBe(200);
    expect((await lastAudit('user.authorised_orgs_changed', engineer.id))?.details).toEqual({
      before: { orgIds: [] },
      after: { orgIds: [harborOrgId] },
    });

    const refused = await call('PUT', provider(`/user/${engineer.id}/authorized-orgs`), providerAdmin, {
      orgIds: [harborOrgId, otherOrgId],
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ key: 'USER_ORGS_NOT_AUTHORISED', params: { count: 1 } });

    const revoked = await call('PUT', provider(`/user/${engineer.id}/authorized-orgs`), providerAdmin, {
      orgIds: [],
    });
    expect(revoked.json()).toEqual([{ id: providerOrgId, name: 'Provider', isHome: true }]);
    expect((await call('GET', harbor('/context'), engineer)).statusCode).toBe(403);
  });

  it('are not for client administrators', async () => {
    const response = await call('PUT', harbor(`/user/${harborAnalyst.id}/authorized-orgs`), harborAdmin, {
      orgIds: [harborOrgId],
    });
    expect(response.statusCode).toBe(403);
  });
});

describe('person summaries', () => {
  it('list active people of the org and those authorised for it, without hidden-role holders', async () => {
    const hiddenRole = await seedRole(ctx.database.db, ['ASSET_VIEW'], harborOrgId);
    await ctx.database.db.update(roles).set({ hidden: true }).where(eq(roles.id, hiddenRole.id));
    const hiddenPerson = await person(harborOrgId, hiddenRole.id);
    const response = await call('GET', harbor('/user/summary'), harborAnalyst);
    expect(response.statusCode).toBe(200);
    const ids = response.json().map((entry: { id: string }) => entry.id);
    expect(ids).toContain(providerAdmin.id);
    expect(ids).toContain(harborAnalyst.id);
    expect(ids).not.toContain(hiddenPerson.id);
    expect(ids).not.toContain(otherAdmin.id);
    expect(response.json()[0]).toEqual({
      id: expect.any(String),
      fullName: expect.any(String),
      active: true,
      roleId: expect.any(String),
      homeOrgId: expect.any(String),
    });
    // Holders of a hidden role see each other.
    const seen = await call('GET', harbor('/user/summary'), hiddenPerson);
    expect(seen.json().map((entry: { id: string }) => entry.id)).toContain(hiddenPerson.id);
  });

  it('include inactive people on request', async () => {
    const inactive = await person(harborOrgId, roleIds.clientAnalyst);
    await call('POST', harbor(`/user/${inactive.id}/deactivate`), harborAdmin);
    const without = (await call('GET', harbor('/user/summary'), harborAnalyst)).json();
    const withInactive = (
      await call('GET', harbor('/user/summary?includeInactive=true'), harborAnalyst)
    ).json();
    expect(without.map((entry: { id: string }) => entry.id)).not.toContain(inactive.id);
    expect(withInactive.find((entry: { id: string }) => entry.id === inactive.id)).toMatchObject({
      active: false,
    });
  });
});

describe('own profile', () => {
  it('reads and changes name, username and typed contact numbers', async () => {
    const me = await person(harborOrgId, roleIds.clientAnalyst);
    const contactNumbers = [
      { type: 'Mobile', number: '+1 555 0100' },
      { type: 'Emergency', number: '(555) 0199' },
    ];
    const response = await call('PUT', harbor('/user'), me, {
      firstName: 'Pat',
      lastName: 'Example',
      username: 'pat.example',
      contactNumbers,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ firstName: 'Pat', username: 'pat.example', contactNumbers });
    expect((await call('GET', harbor('/user'), me)).json()).toMatchObject({
      emails: [{ email: me.email }],
      contactNumbers,
    });
    expect((await lastAudit('user.profile_updated', me.id))?.details).toMatchObject({
      after: { contactNumbers },
    });
    const bad = await call('PUT', harbor('/user'), me, {
      firstName: 'Pat',
      lastName: 'Example',
      contactNumbers: [{ type: 'Pager', number: '123' }],
    });
    expect(bad.statusCode).toBe(400);
  });
});
