import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedRole } from '../../../test/fixtures';
import { SESSION_COOKIE } from '../../platform/access';
import { activityLog } from '../../platform/audit/tables';
import { createSession } from '../auth/sessions';
import { insertUser } from '../users/repo';
import { users } from '../users/tables';
import { ensureSystemRoles } from './repo';
import type { SystemRoleName } from './system-roles';

let ctx: TestContext;
let roleIds: Record<SystemRoleName, string>;
let providerOrgId: string;
let harborOrgId: string;
let otherOrgId: string;
let providerAdmin: Person;
let harborAdmin: Person;
let otherAdmin: Person;

interface Person {
  id: string;
  cookie: string;
}

let counter = 0;
async function person(homeOrgId: string, roleId: string, authorisedOrgIds: string[] = []): Promise<Person> {
  const user = await insertUser(ctx.database.db, {
    email: `role-person${++counter}@example.com`,
    firstName: 'Role',
    lastName: `Person${counter}`,
    homeOrgId,
    roleId,
    passwordHash: null,
    authorisedOrgIds,
  });
  return {
    id: user.id,
    cookie: `${SESSION_COOKIE}=${await createSession(ctx.database.db, { userId: user.id })}`,
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  roleIds = await ensureSystemRoles(db);
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  harborOrgId = (await seedOrg(db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Other' })).id;
  providerAdmin = await person(providerOrgId, roleIds.providerAdmin, [harborOrgId]);
  harborAdmin = await person(harborOrgId, roleIds.clientAdmin);
  otherAdmin = await person(otherOrgId, roleIds.clientAdmin);
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, who: Person, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(who.cookie), ...(payload && { payload }) });
const harbor = (path: string) => `/api/org/${harborOrgId}${path}`;
const roleNames = (response: { json(): { items: { name: string }[] } }) =>
  response.json().items.map((role) => role.name);

async function createRole(name: string, permissions: string[], who = harborAdmin) {
  const response = await call('POST', harbor('/role/custom'), who, {
    name,
    description: 'Test',
    permissions,
  });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; name: string };
}

describe('listing roles', () => {
  it('shows shared and own custom roles; provider roles only to provider staff who ask', async () => {
    await createRole('Harbor Auditors', ['ASSET_VIEW']);
    await call('POST', `/api/org/${otherOrgId}/role/custom`, otherAdmin, {
      name: 'Other Auditors',
      permissions: ['ASSET_VIEW'],
    });
    const plain = roleNames(await call('GET', harbor('/roles?includeTracRoles=true'), harborAdmin));
    expect(plain).toEqual(
      expect.arrayContaining(['Client Administrator', 'Compliance Officer', 'Harbor Auditors']),
    );
    expect(plain).not.toContain('TRAC_ADMIN');
    expect(plain).not.toContain('Other Auditors');

    const staff = roleNames(await call('GET', harbor('/roles?includeTracRoles=true'), providerAdmin));
    expect(staff).toEqual(expect.arrayContaining(['TRAC_ADMIN', 'TRAC_ENGINEER', 'TRAC_USER']));
    expect(roleNames(await call('GET', harbor('/roles'), providerAdmin))).not.toContain('TRAC_ADMIN');
  });

  it('counts the users of each role in this organisation', async () => {
    const roles = (await call('GET', harbor('/roles'), harborAdmin)).json().items;
    expect(roles.find((role: { id: string }) => role.id === roleIds.clientAdmin)).toMatchObject({
      shared: true,
      deleted: false,
      userCount: 1,
    });
  });
});

describe('custom roles', () => {
  it('are created with their permissions and audited', async () => {
    const role = await createRole('Asset Readers', ['ASSET_VIEW', 'EVENT_VIEW', 'ASSET_VIEW']);
    expect(role).toMatchObject({
      name: 'Asset Readers',
      permissions: ['ASSET_VIEW', 'EVENT_VIEW'],
      shared: false,
      provider: false,
      userCount: 0,
    });
    const [audit] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'role.created'), eq(activityLog.targetId, role.id)));
    expect(audit).toMatchObject({ orgId: harborOrgId, actorUserId: harborAdmin.id });
    expect(audit?.details).toMatchObject({
      after: { name: 'Asset Readers', permissions: ['ASSET_VIEW', 'EVENT_VIEW'] },
    });
  });

  it('refuse role markers from anyone but provider staff', async () => {
    for (const marker of ['TRAC_ADMIN', 'TRAC_ENGINEER', 'TRAC_USER', 'COMPLIANCE_ADMIN']) {
      const response = await call('POST', harbor('/role/custom'), harborAdmin, {
        name: `With ${marker}`,
        permissions: ['ASSET_VIEW', marker],
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({
        key: 'ROLE_MARKER_NOT_ALLOWED',
        params: { permission: marker },
      });
    }
  });

  it('refuse permissions the creator does not hold', async () => {
    const limitedAdmin = await person(
      harborOrgId,
      (await seedRole(ctx.database.db, ['USER_EDIT', 'ASSET_VIEW'], harborOrgId)).id,
    );
    const response = await call('POST', harbor('/role/custom'), limitedAdmin, {
      name: 'Stronger',
      permissions: ['ASSET_EDIT'],
    });
    expect(response.statusCode).toBe(403);
    expect(response.json()).toMatchObject({
      key: 'ROLE_PERMISSION_NOT_HELD',
      params: { permission: 'ASSET_EDIT' },
    });
    await createRole('Weaker', ['ASSET_VIEW'], limitedAdmin);
  });

  it('refuse a missing required dependency, naming both codes', async () => {
    const response = await call('POST', harbor('/role/custom'), harborAdmin, {
      name: 'Dashboards only',
      permissions: ['DASHBOARD_VIEW'],
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({
      key: 'ROLE_REQUIRES_PERMISSION',
      field: 'permissions',
      params: { permission: 'DASHBOARD_VIEW', needs: 'EVENT_VIEW' },
    });
    // Recommendations are only hints.
    await createRole('Reports only', ['REPORT_VIEW']);
  });

  it('refuse unknown codes and taken names', async () => {
    const unknown = await call('POST', harbor('/role/custom'), harborAdmin, {
      name: 'X',
      permissions: ['ROOT'],
    });
    expect(unknown.statusCode).toBe(400);
    const taken = await call('POST', harbor('/role/custom'), harborAdmin, {
      name: 'client administrator',
      permissions: [],
    });
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ key: 'ROLE_NAME_TAKEN', field: 'name' });
  });

  it('change with effect on the next request of their users', async () => {
    const role = await createRole('Changing', ['ASSET_VIEW']);
    const holder = await person(harborOrgId, role.id);
    expect((await call('GET', harbor('/user/permissions'), holder)).json().permissions).toEqual([
      'ASSET_VIEW',
    ]);
    const updated = await call('PUT', harbor(`/role/custom/${role.id}`), harborAdmin, {
      name: 'Changed',
      description: 'Now with events',
      permissions: ['ASSET_VIEW', 'EVENT_VIEW'],
    });
    expect(updated.json()).toMatchObject({ name: 'Changed', userCount: 1 });
    expect((await call('GET', harbor('/user/permissions'), holder)).json().permissions).toEqual([
      'ASSET_VIEW',
      'EVENT_VIEW',
    ]);
    const [audit] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'role.updated'), eq(activityLog.targetId, role.id)));
    expect(audit?.details).toMatchObject({
      before: { name: 'Changing', permissions: ['ASSET_VIEW'] },
      after: { name: 'Changed', permissions: ['ASSET_VIEW', 'EVENT_VIEW'] },
    });
  });

  it('are the only editable ones: shared roles refused, other organisations not found', async () => {
    const shared = await call('PUT', harbor(`/role/custom/${roleIds.clientAnalyst}`), harborAdmin, {
      name: 'Mine now',
      permissions: [],
    });
    expect(shared.statusCode).toBe(400);
    expect(shared.json().key).toBe('ROLE_NOT_EDITABLE');
    expect(
      (await call('DELETE', harbor(`/role/custom/${roleIds.clientAnalyst}`), harborAdmin)).json().key,
    ).toBe('ROLE_NOT_EDITABLE');
    const foreign = (
      await call('POST', `/api/org/${otherOrgId}/role/custom`, otherAdmin, {
        name: 'Foreign',
        permissions: ['ASSET_VIEW'],
      })
    ).json() as { id: string };
    for (const [method, path] of [
      ['PUT', `/role/custom/${foreign.id}`],
      ['DELETE', `/role/custom/${foreign.id}`],
      ['POST', `/role/custom/${foreign.id}/restore`],
    ] as const) {
      const response = await call(
        method,
        harbor(path),
        harborAdmin,
        method === 'PUT' ? { name: 'x', permissions: [] } : undefined,
      );
      expect({ path, status: response.statusCode }).toEqual({ path, status: 404 });
    }
  });
});

describe('deleting and restoring', () => {
  it('needs a target role for a role in use, and moves its users in the same step', async () => {
    const role = await createRole('Going', ['ASSET_VIEW']);
    const holder = await person(harborOrgId, role.id);
    const refused = await call('DELETE', harbor(`/role/custom/${role.id}`), harborAdmin);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'ROLE_IN_USE', params: { count: 1 } });
    const toItself = await call(
      'DELETE',
      harbor(`/role/custom/${role.id}?targetRoleId=${role.id}`),
      harborAdmin,
    );
    expect(toItself.json().key).toBe('ROLE_INVALID');
    const toProvider = await call(
      'DELETE',
      harbor(`/role/custom/${role.id}?targetRoleId=${roleIds.providerAdmin}`),
      harborAdmin,
    );
    expect(toProvider.json().key).toBe('ROLE_INVALID');

    const deleted = await call(
      'DELETE',
      harbor(`/role/custom/${role.id}?targetRoleId=${roleIds.clientAnalyst}`),
      harborAdmin,
    );
    expect(deleted.statusCode).toBe(204);
    const [moved] = await ctx.database.db.select().from(users).where(eq(users.id, holder.id));
    expect(moved?.roleId).toBe(roleIds.clientAnalyst);
    expect(roleNames(await call('GET', harbor('/roles'), harborAdmin))).not.toContain('Going');
    const withDeleted = (await call('GET', harbor('/roles?includeDeleted=true'), harborAdmin)).json().items;
    expect(withDeleted.find((entry: { id: string }) => entry.id === role.id)).toMatchObject({
      deleted: true,
    });

    const restored = await call('POST', harbor(`/role/custom/${role.id}/restore`), harborAdmin);
    expect(restored.statusCode).toBe(200);
    expect(restored.json()).toMatchObject({ name: 'Going', deleted: false });
    expect((await call('POST', harbor(`/role/custom/${role.id}/restore`), harborAdmin)).statusCode).toBe(404);
  });

  it('deletes an unused role without a target; a deleted role gives no permissions and cannot be given', async () => {
    const role = await createRole('Unused', ['ASSET_VIEW']);
    expect((await call('DELETE', harbor(`/role/custom/${role.id}`), harborAdmin)).statusCode).toBe(204);
    const target = await person(harborOrgId, roleIds.clientAnalyst);
    const give = await call('PUT', harbor(`/user/${target.id}/role/${role.id}`), harborAdmin);
    expect(give.json().key).toBe('ROLE_INVALID');
  });

  it('refuses to touch a role holding more than the actor', async () => {
    const strong = await createRole('Strong', ['ASSET_EDIT', 'USER_EDIT']);
    const limitedAdmin = await person(
      harborOrgId,
      (await seedRole(ctx.database.db, ['USER_EDIT'], harborOrgId)).id,
    );
    const response = await call('PUT', harbor(`/role/custom/${strong.id}`), limitedAdmin, {
      name: 'Strong',
      permissions: ['USER_EDIT'],
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('ROLE_PERMISSION_NOT_HELD');
  });
});
