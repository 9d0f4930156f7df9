import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PREFERENCES } from '@vigil/contracts';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

let ctx: TestContext;
let orgA: string;
let orgB: string;
let user: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  orgA = (await seedOrg(ctx.database.db)).id;
  orgB = (await seedOrg(ctx.database.db)).id;
  user = await seedUser(ctx.database.db, {
    homeOrgId: orgA,
    permissions: ['TRAC_USER'],
    authorisedOrgIds: [orgB],
  });
});
afterAll(() => ctx.close());

const prefs = (orgId: string, payload?: object) =>
  ctx.app.inject({
    method: payload ? 'PATCH' : 'GET',
    url: `/api/org/${orgId}/user/preferences`,
    headers: browserHeaders(user.cookie),
    ...(payload && { payload }),
  });

describe('preferences', () => {
  it('start at the defaults and keep each change, per organisation', async () => {
    expect((await prefs(orgA)).json()).toEqual(DEFAULT_PREFERENCES);
    const changed = await prefs(orgA, { darkMode: true, pageSize: 50, leftBarVisible: false });
    expect(changed.json()).toMatchObject({
      darkMode: true,
      pageSize: 50,
      leftBarVisible: false,
      shortcutKeys: true,
    });
    expect((await prefs(orgA, { inactivityTimeout: false })).json()).toMatchObject({
      darkMode: true,
      inactivityTimeout: false,
    });
    expect((await prefs(orgB)).json()).toEqual(DEFAULT_PREFERENCES);
  });

  it('refuse a bad value, naming the field, and change nothing', async () => {
    const bad = await prefs(orgA, { pageSize: 100000, darkMode: false });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'pageSize' });
    expect((await prefs(orgA)).json()).toMatchObject({ pageSize: 50, darkMode: true });
    const tooMany = await prefs(orgA, {
      recentTickets: Array.from({ length: 6 }, (_, i) => ({ slugName: 'INC', slugId: String(i) })),
    });
    expect(tooMany.json().field).toBe('recentTickets');
  });
});
