import { newDashboardsEnabled, type OrgContext, type Preferences } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

/**
 * Spec 1 section 4.5: the new-dashboards flag is the user's stored choice in an organisation, else on
 * when the organisation has defaultRevealDashboards. The web app lands users on /dashboard (old) or
 * /dashboards/default (new) by it; these are the two answers it decides from.
 */
let ctx: TestContext;
let revealing: string;
let plain: string;
let user: SeededUser;
let colleague: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  revealing = (await seedOrg(ctx.database.db, { featureFlags: { defaultRevealDashboards: true } })).id;
  plain = (await seedOrg(ctx.database.db)).id;
  user = await seedUser(ctx.database.db, {
    homeOrgId: revealing,
    permissions: ['DASHBOARD_VIEW'],
    authorisedOrgIds: [plain],
  });
  colleague = await seedUser(ctx.database.db, { homeOrgId: revealing, permissions: ['DASHBOARD_VIEW'] });
});
afterAll(() => ctx.close());

/** Whether `who` is on the new dashboards in `orgId`, as the web app reads it. */
async function onNewDashboards(orgId: string, who: SeededUser = user) {
  const context = (await orgRequest(ctx, orgId, 'GET', '/context', who)).json<OrgContext>();
  const preferences = (await orgRequest(ctx, orgId, 'GET', '/user/preferences', who)).json<Preferences>();
  return newDashboardsEnabled(preferences, context.features.defaultRevealDashboards === true);
}

const choose = (orgId: string, newDashboards: boolean) =>
  orgRequest(ctx, orgId, 'PATCH', '/user/preferences', user, { newDashboardsEnabled: newDashboards });

describe('new or old dashboards', () => {
  it('follow defaultRevealDashboards until the user chooses', async () => {
    expect(await onNewDashboards(revealing)).toBe(true);
    expect(await onNewDashboards(plain)).toBe(false);
  });

  it('keep the choice per user and organisation, over the flag either way', async () => {
    expect((await choose(revealing, false)).json()).toMatchObject({ newDashboardsEnabled: false });
    expect(await onNewDashboards(revealing)).toBe(false);
    // Another organisation, and another user, still follow the flag.
    expect(await onNewDashboards(plain)).toBe(false);
    expect(await onNewDashboards(revealing, colleague)).toBe(true);

    expect((await choose(plain, true)).statusCode).toBe(200);
    expect(await onNewDashboards(plain)).toBe(true);
    expect(await onNewDashboards(revealing)).toBe(false);
  });

  it('refuse a choice that is not true or false', async () => {
    const bad = await orgRequest(ctx, plain, 'PATCH', '/user/preferences', user, {
      newDashboardsEnabled: 'yes',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ field: 'newDashboardsEnabled' });
    expect(await onNewDashboards(plain)).toBe(true);
  });
});
