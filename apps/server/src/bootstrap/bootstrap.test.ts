import { eq } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import type { Database } from '../db/client';
import { orgs } from '../modules/orgs/tables';
import { roles } from '../modules/roles/tables';
import { userEmails, userOrgs, users } from '../modules/users/tables';
import { activityLog } from '../platform/audit/tables';
import { verifyPassword } from '../platform/passwords';
import { bootstrap } from './bootstrap';

let database: Database;
beforeEach(async () => {
  database = await createTestDatabase();
});
afterEach(() => database.close());

async function passwordHashOf(email: string) {
  const [row] = await database.db
    .select({ hash: users.passwordHash })
    .from(users)
    .innerJoin(userEmails, eq(userEmails.userId, users.id))
    .where(eq(userEmails.email, email));
  return row?.hash ?? null;
}

describe('bootstrap', () => {
  it('creates the provider organisation and its administrator with the given password', async () => {
    const result = await bootstrap(database.db, {
      adminEmail: 'Chief@Provider.example',
      adminPassword: 'correct horse battery',
      demoData: false,
    });
    expect(result).toMatchObject({ created: true, generatedAdminPassword: undefined, demo: undefined });
    const allOrgs = await database.db.select().from(orgs);
    expect(allOrgs).toHaveLength(1);
    expect(allOrgs[0]).toMatchObject({ isProvider: true });
    const hash = await passwordHashOf('chief@provider.example');
    expect(await verifyPassword(hash!, 'correct horse battery')).toBe(true);
    const [entry] = await database.db.select().from(activityLog);
    expect(entry).toMatchObject({ action: 'system.bootstrapped', orgId: allOrgs[0]!.id });
  });

  it('generates an administrator password when none is configured and reports it once', async () => {
    const first = await bootstrap(database.db, { adminEmail: 'admin@vigil.example', demoData: false });
    expect(first.generatedAdminPassword).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(
      await verifyPassword((await passwordHashOf('admin@vigil.example'))!, first.generatedAdminPassword!),
    ).toBe(true);
    const second = await bootstrap(database.db, { adminEmail: 'admin@vigil.example', demoData: false });
    expect(second).toEqual({ created: false, adminEmail: 'admin@vigil.example' });
    expect(await database.db.select().from(users)).toHaveLength(1);
  });

  it('adds the demo set: client organisations with different SKUs and a user for every role', async () => {
    const result = await bootstrap(database.db, {
      adminEmail: 'admin@vigil.example',
      adminPassword: 'admin-password',
      demoData: true,
      demoPassword: 'demo-password',
    });
    const clientOrgs = (await database.db.select().from(orgs)).filter((org) => !org.isProvider);
    expect(clientOrgs.length).toBeGreaterThanOrEqual(2);
    expect(new Set(clientOrgs.map((org) => org.productSkus.join(','))).size).toBe(clientOrgs.length);
    expect(new Set(clientOrgs.map((org) => JSON.stringify(org.featureFlags))).size).toBe(clientOrgs.length);

    const roleNames = (
      await database.db.select({ name: roles.name }).from(users).innerJoin(roles, eq(roles.id, users.roleId))
    ).map((row) => row.name);
    for (const role of [
      'TRAC_ADMIN',
      'TRAC_ENGINEER',
      'TRAC_USER',
      'Client Administrator',
      'Client Analyst',
    ]) {
      expect(roleNames).toContain(role);
    }
    expect(
      await verifyPassword((await passwordHashOf('analyst@firstharbor.example'))!, 'demo-password'),
    ).toBe(true);
    expect(result.demo?.generatedPassword).toBeUndefined();
    // Provider staff are authorised for client organisations.
    expect((await database.db.select().from(userOrgs)).length).toBeGreaterThanOrEqual(clientOrgs.length);
  });

  it('writes nothing when the first start fails part-way', async () => {
    // The administrator's e-mail is also a demo user's: the clash comes after the provider org and the
    // administrator were written, and rolls them back too.
    await expect(
      bootstrap(database.db, {
        adminEmail: 'analyst@vigil.example',
        demoData: true,
        demoPassword: 'demo-password',
      }),
    ).rejects.toThrow();
    expect(await database.db.select().from(orgs)).toEqual([]);
    expect(await database.db.select().from(users)).toEqual([]);
  });
});
