import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ALL_PERMISSIONS, FEATURE_FLAGS, PRODUCT_SKUS } from '@vigil/contracts';
import { createTestApp, type TestContext } from './app';
import { seedEvents } from './events';
import { seedOrg, seedUser, type SeededUser } from './fixtures';

let ctx: TestContext;
let victimOrgId: string;
let strangerOrgId: string;
let stranger: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  // The victim's organisation holds every SKU and feature, so no gate but tenancy can refuse.
  victimOrgId = (
    await seedOrg(db, {
      productSkus: [...PRODUCT_SKUS],
      featureFlags: Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, true])),
    })
  ).id;
  const strangerOrg = await seedOrg(db, { productSkus: [...PRODUCT_SKUS] });
  // The stranger holds every permission, in their own organisation only.
  strangerOrgId = strangerOrg.id;
  stranger = await seedUser(db, { homeOrgId: strangerOrg.id, permissions: [...ALL_PERMISSIONS] });
});
afterAll(() => ctx.close());

const sampleUrl = (url: string) =>
  url.replace(':orgId', victimOrgId).replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');

describe('route register', () => {
  it('matches the reviewed snapshot of every route with its permission, feature and SKU', () => {
    const register = [...ctx.app.routeDeclarations]
      .sort((a, b) => a.url.localeCompare(b.url) || a.method.localeCompare(b.method))
      .map((route) => {
        const access = route.access;
        if (!access) return `${route.method} ${route.url} auth=${route.auth}`;
        const needs = [
          `permission=${[access.permission ?? 'member'].flat().join('|')}`,
          access.feature && `feature=${access.feature}`,
          access.sku && `sku=${access.sku}`,
        ].filter(Boolean);
        return `${route.method} ${route.url} ${needs.join(' ')}`;
      });
    expect(register).toMatchSnapshot();
  });
});

describe('tenant isolation', () => {
  it('refuses every org-scoped route to a user of another organisation', async () => {
    const orgRoutes = ctx.app.routeDeclarations.filter((route) => route.access);
    expect(orgRoutes.length).toBeGreaterThan(0);
    for (const route of orgRoutes) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: sampleUrl(route.url),
        headers: { cookie: stranger.cookie, 'x-requested-with': 'XMLHttpRequest' },
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      expect({
        route: `${route.method} ${route.url}`,
        status: response.statusCode,
        key: response.json().key,
      }).toEqual({
        route: `${route.method} ${route.url}`,
        status: 403,
        key: 'ORG_NOT_AUTHORISED',
      });
    }
  });

  it('refuses every org-scoped route to a signed-out caller', async () => {
    for (const route of ctx.app.routeDeclarations.filter((entry) => entry.access)) {
      const response = await ctx.app.inject({
        method: route.method as 'GET',
        url: sampleUrl(route.url),
        headers: { 'x-requested-with': 'XMLHttpRequest' },
      });
      expect(response.statusCode, `${route.method} ${route.url}`).toBe(401);
    }
  });
});

describe('cross-organisation search', () => {
  const search = (user: SeededUser, orgId: string, payload: object) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/search/cross-org`,
      headers: { cookie: user.cookie, 'x-requested-with': 'XMLHttpRequest' },
      payload: { begin: '2024-05-01', end: '2024-05-01', ...payload },
    });

  it('is refused to client users and never reads an organisation the user is not authorised for', async () => {
    const db = ctx.database.db;
    await seedEvents(db, victimOrgId, [{ timestamp: '2024-05-01T12:00:00.000Z', message: 'victim event' }]);
    const fromClient = await search(stranger, strangerOrgId, {});
    expect([fromClient.statusCode, fromClient.json().key]).toEqual([403, 'CROSS_ORG_SEARCH_PROVIDER_ONLY']);

    const providerOrg = await seedOrg(db, { isProvider: true });
    const staff = await seedUser(db, { homeOrgId: providerOrg.id, permissions: [...ALL_PERMISSIONS] });
    const everywhere = await search(staff, providerOrg.id, {});
    expect(everywhere.statusCode).toBe(200);
    expect(everywhere.json()).toMatchObject({ items: [], total: 0 });
    const named = await search(staff, providerOrg.id, { orgIds: [victimOrgId] });
    expect([named.statusCode, named.json().key]).toEqual([403, 'ORG_NOT_AUTHORISED']);
    expect(named.body).not.toContain('victim event');
  });
});

describe('universal ticket inbox', () => {
  it('never reads or closes a ticket of an organisation the user is not authorised for', async () => {
    const db = ctx.database.db;
    const owner = await seedUser(db, { homeOrgId: victimOrgId, permissions: [...ALL_PERMISSIONS] });
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${victimOrgId}/incident`,
      headers: { cookie: owner.cookie, 'x-requested-with': 'XMLHttpRequest' },
      payload: { title: 'Victim incident' },
    });
    const victim = created.json() as { id: string; slug: string; version: number };
    const inboxOrg = await seedOrg(db, { featureFlags: { universalTicketInbox: true } });
    const staff = await seedUser(db, {
      homeOrgId: inboxOrg.id,
      permissions: [...ALL_PERMISSIONS],
      authorisedOrgIds: [strangerOrgId],
    });
    const call = (method: 'GET' | 'POST', path: string, payload?: object) =>
      ctx.app.inject({
        method,
        url: `/api/org/${inboxOrg.id}/universal-inbox/${path}`,
        headers: { cookie: staff.cookie, 'x-requested-with': 'XMLHttpRequest' },
        ...(payload && { payload }),
      });
    const list = await call('GET', 'incidents?q=Victim');
    expect(list.statusCode).toBe(200);
    expect(list.json().items).toEqual([]);
    expect(
      list
        .json()
        .orgs.map((org: { id: string }) => org.id)
        .sort(),
    ).toEqual([inboxOrg.id, strangerOrgId].sort());
    const closing = await call('POST', 'incidents/close', {
      tickets: [{ orgId: victimOrgId, id: victim.id, version: victim.version }],
    });
    expect(closing.json().results).toEqual([
      { orgId: victimOrgId, id: victim.id, slug: null, outcome: 'ORG_NOT_AUTHORISED' },
    ]);
    const after = await ctx.app.inject({
      method: 'GET',
      url: `/api/org/${victimOrgId}/incident/${victim.slug}`,
      headers: { cookie: owner.cookie, 'x-requested-with': 'XMLHttpRequest' },
    });
    expect(after.json()).toMatchObject({ state: 'TRIAGE', version: victim.version });
  });
});
