import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';

let ctx: TestContext;
let providerOrgId: string;
let clientOrgId: string;
let providerAdmin: SeededUser;
let providerAnalyst: SeededUser;
let clientAdmin: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (
    await seedOrg(db, { name: 'Provider', isProvider: true, featureFlags: { readonlyToggle: true } })
  ).id;
  clientOrgId = (
    await seedOrg(db, {
      name: 'Harbor',
      productSkus: ['CYBERFRAUD_STANDARD'],
      featureFlags: { csmInformation: true },
      settings: {
        csmName: 'Dana Whitfield',
        csmEmailAddress: 'dana@vigil.example',
        emailTimezone: 'America/Chicago',
      },
    })
  ).id;
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', 'GLOBAL_SETTINGS_EDIT'],
    authorisedOrgIds: [clientOrgId],
  });
  providerAnalyst = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', 'ASSET_EDIT'],
    authorisedOrgIds: [clientOrgId],
  });
  clientAdmin = await seedUser(db, {
    homeOrgId: clientOrgId,
    permissions: ['GLOBAL_SETTINGS_EDIT', 'TRAC_ADMIN'],
  });
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });

describe('organisation context', () => {
  it('answers the org, effective features with the feature parameter, permissions and the CSM contact', async () => {
    const response = await call(
      'GET',
      `/api/org/${clientOrgId}/context?feature=universalTicketInbox`,
      providerAnalyst,
    );
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body.org).toMatchObject({ id: clientOrgId, name: 'Harbor', productSkus: ['CYBERFRAUD_STANDARD'] });
    expect(body.features).toMatchObject({
      universalTicketInbox: true,
      csmInformation: true,
      infoPanel: true,
    });
    expect(body.permissions).toEqual(['ASSET_EDIT', 'ASSET_VIEW', 'TRAC_USER']);
    expect(body.csm).toEqual({ csmName: 'Dana Whitfield', csmEmailAddress: 'dana@vigil.example' });
    expect(body.settings).toEqual({ emailTimezone: 'America/Chicago' });
    // readonlyToggle is off for this client organisation.
    expect(body.canToggleReadOnly).toBe(false);
  });

  it('offers read-only mode where the feature is on, and keeps offering it once on', async () => {
    const url = `/api/org/${providerOrgId}/user/read-only`;
    expect(
      (await call('GET', `/api/org/${providerOrgId}/context`, providerAnalyst)).json().canToggleReadOnly,
    ).toBe(true);
    expect((await call('PUT', url, providerAnalyst, { enabled: true })).statusCode).toBe(204);
    const readOnly = (await call('GET', `/api/org/${providerOrgId}/context`, providerAnalyst)).json();
    expect(readOnly).toMatchObject({
      readOnlyMode: true,
      canToggleReadOnly: true,
      permissions: ['ASSET_VIEW'],
    });
    expect((await call('PUT', url, providerAnalyst, { enabled: false })).statusCode).toBe(204);
    expect(
      (await call('GET', `/api/org/${providerOrgId}/context`, providerAnalyst)).json().permissions,
    ).toContain('ASSET_EDIT');
    const noToggle = await call('PUT', `/api/org/${clientOrgId}/user/read-only`, providerAnalyst, {
      enabled: true,
    });
    expect(noToggle.json().key).toBe('FEATURE_NOT_ENABLED');
  });
});

describe('organisation settings', () => {
  it('reads and changes the e-mail timezone, with the change in the activity log', async () => {
    const url = `/api/org/${clientOrgId}/global-settings`;
    expect((await call('GET', url, clientAdmin)).json()).toEqual({
      emailTimezone: 'America/Chicago',
      requireTwoFactor: false,
    });
    const changed = await call('PUT', url, clientAdmin, { emailTimezone: 'UTC' });
    expect(changed.json()).toEqual({ emailTimezone: 'UTC', requireTwoFactor: false });
    const bad = await call('PUT', url, clientAdmin, { emailTimezone: 'Mars/Olympus' });
    expect(bad.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'emailTimezone' });
    expect(bad.json().validValues).toContain('UTC');
    expect((await call('GET', url, providerAnalyst)).statusCode).toBe(403);
    const [entry] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(eq(activityLog.action, 'org.settings_changed'));
    expect(entry!.details).toEqual({
      before: { emailTimezone: 'America/Chicago' },
      after: { emailTimezone: 'UTC' },
    });
  });
});

describe('managed organisations', () => {
  const base = () => `/api/org/${providerOrgId}/managed-orgs`;

  it('lets a provider administrator create an organisation, authorised for it at once', async () => {
    const created = await call('POST', base(), providerAdmin, {
      name: '  Lakeside Credit Union ',
      productSkus: ['RISK_THIRD_PARTY_RISK'],
      managementMode: 'ONBOARDING',
      featureFlags: { universalTicketInbox: true },
      requireTwoFactor: true,
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({
      name: 'Lakeside Credit Union',
      productSkus: ['RISK_THIRD_PARTY_RISK'],
      featureFlags: { universalTicketInbox: true },
      requireTwoFactor: true,
    });
    const mine = (await call('GET', '/api/orgs', providerAdmin))
      .json()
      .orgs.map((org: { name: string }) => org.name);
    expect(mine).toContain('Lakeside Credit Union');

    const id = created.json().id;
    const updated = await call('PUT', `${base()}/${id}`, providerAdmin, {
      name: 'Lakeside CU',
      productSkus: [],
      managementMode: 'CLIENT_MANAGED',
      featureFlags: {},
      requireTwoFactor: false,
      csmName: 'Dana Whitfield',
      csmEmailAddress: 'dana@vigil.example',
      eventRetentionDays: 30,
    });
    expect(updated.json()).toMatchObject({
      name: 'Lakeside CU',
      managementMode: 'CLIENT_MANAGED',
      featureFlags: {},
      eventRetentionDays: 30,
    });
    expect(created.json().eventRetentionDays).toBe(90);
    const listed = (await call('GET', base(), providerAdmin)).json();
    expect(listed.items.map((org: { name: string }) => org.name)).toEqual([
      'Harbor',
      'Lakeside CU',
      'Provider',
    ]);
  });

  it('refuses bad input without writing anything', async () => {
    const before = (await call('GET', base(), providerAdmin)).json().total;
    const badSku = await call('POST', base(), providerAdmin, { name: 'X', productSkus: ['FREE_LUNCH'] });
    expect(badSku.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'productSkus.0' });
    const longName = await call('POST', base(), providerAdmin, { name: 'x'.repeat(101) });
    expect(longName.json().field).toBe('name');
    const shortRetention = await call('POST', base(), providerAdmin, { name: 'Y', eventRetentionDays: 6 });
    expect(shortRetention.statusCode).toBe(400);
    expect(shortRetention.json().field).toBe('eventRetentionDays');
    expect(
      (await call('PUT', `${base()}/00000000-0000-4000-8000-000000000000`, providerAdmin, { name: 'Ghost' }))
        .statusCode,
    ).toBe(404);
    expect((await call('GET', base(), providerAdmin)).json().total).toBe(before);
  });

  it('is closed to a client organisation, even to a holder of TRAC_ADMIN there, and to analysts', async () => {
    expect((await call('GET', `/api/org/${clientOrgId}/managed-orgs`, clientAdmin)).statusCode).toBe(403);
    expect((await call('GET', base(), providerAnalyst)).statusCode).toBe(403);
  });
});
