import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

let ctx: TestContext;
let providerOrgId: string;
let admin: SeededUser;
let analyst: SeededUser;
let clientAdmin: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { isProvider: true })).id;
  const clientOrgId = (await seedOrg(db)).id;
  admin = await seedUser(db, { homeOrgId: providerOrgId, permissions: ['TRAC_ADMIN'] });
  analyst = await seedUser(db, { homeOrgId: clientOrgId, permissions: ['EVENT_VIEW'] });
  clientAdmin = await seedUser(db, { homeOrgId: clientOrgId, permissions: ['TRAC_ADMIN'] });
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });
const shown = async (user: SeededUser) =>
  (await call('GET', '/api/org/all/banners', user)).json().map((banner: { title: string }) => banner.title);

describe('info banners', () => {
  it('shows active banners oldest first, the next one after a dismissal, and none once ended', async () => {
    const base = `/api/org/${providerOrgId}/banners`;
    const maintenance = await call('POST', base, admin, {
      type: 'warning',
      title: 'Maintenance tonight',
      message: 'Search is read-only from 22:00 to 23:00 UTC.',
      hyperlink: 'https://status.vigil.example/maintenance',
    });
    expect(maintenance.statusCode).toBe(201);
    await call('POST', base, admin, {
      type: 'info',
      title: 'New reports',
      message: 'Risk reports are here.',
    });
    await call('POST', base, admin, {
      type: 'success',
      title: 'Already over',
      message: 'Ended yesterday.',
      endsAt: new Date(Date.now() - 86_400_000).toISOString(),
    });
    expect(await shown(analyst)).toEqual(['Maintenance tonight', 'New reports']);

    expect((await call('POST', `/api/banners/${maintenance.json().id}/dismiss`, analyst)).statusCode).toBe(
      204,
    );
    expect(await shown(analyst)).toEqual(['New reports']);
    expect(await shown(clientAdmin)).toEqual(['Maintenance tonight', 'New reports']);

    const newReports = (await call('GET', base, admin))
      .json()
      .items.find((item: { title: string }) => item.title === 'New reports');
    expect((await call('POST', `${base}/${newReports.id}/end`, admin)).statusCode).toBe(204);
    expect(await shown(analyst)).toEqual([]);
    expect((await call('POST', `${base}/${newReports.id}/end`, admin)).statusCode).toBe(404);
  });

  it('refuses a banner without a title or with a bad type, and banner admin outside the provider', async () => {
    const base = `/api/org/${providerOrgId}/banners`;
    expect((await call('POST', base, admin, { type: 'info', title: '  ', message: 'x' })).json().field).toBe(
      'title',
    );
    expect(
      (await call('POST', base, admin, { type: 'panic', title: 'x', message: 'x' })).json().validValues,
    ).toEqual(['success', 'info', 'warning', 'alert']);
    const clientOrg = (await call('GET', '/api/orgs', clientAdmin)).json().homeOrgId;
    expect((await call('GET', `/api/org/${clientOrg}/banners`, clientAdmin)).statusCode).toBe(403);
    expect(
      (await call('POST', '/api/banners/00000000-0000-4000-8000-000000000000/dismiss', analyst)).statusCode,
    ).toBe(404);
  });
});
