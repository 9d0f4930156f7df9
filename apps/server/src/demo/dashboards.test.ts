import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../test/app';
import { seedEvents } from '../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../test/fixtures';
import {
  seedDashboardsDemo,
  seedLibraryDashboardDemo,
  seedLibraryWorkspaceDemo,
  seedProviderDashboardDemo,
  seedRiskComplianceDashboardDemo,
  seedWorkspaceDemo,
} from './dashboards';
import { PROVIDER_HOSTS, seedProviderEventsDemo } from './events';

let ctx: TestContext;
let orgId: string;
let providerOrgId: string;
let providerStaff: SeededUser;
let analyst: SeededUser;
let admin: SeededUser;
let colleague: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  analyst = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['DASHBOARD_VIEW', 'CHART_VIEW', 'EVENT_VIEW', 'ALERT_INBOX_VIEW'],
  });
  const hour = (hoursAgo: number) => new Date(Date.now() - hoursAgo * 3_600_000);
  await seedEvents(db, orgId, [
    {
      timestamp: hour(2),
      host: 'dc-01',
      dataSource: 'windows-security',
      message: 'failed',
      fields: { outcome: 'failure' },
    },
    {
      timestamp: hour(3),
      host: 'dc-01',
      dataSource: 'windows-security',
      message: 'ok',
      fields: { outcome: 'success' },
    },
    {
      timestamp: hour(4),
      host: 'core-01',
      dataSource: 'core-banking',
      message: 'wire of 10.00 USD',
      fields: { transactionType: 'wire' },
    },
    {
      timestamp: hour(5),
      host: 'fw-01',
      dataSource: 'firewall',
      message: 'deny',
      fields: { action: 'deny' },
    },
  ]);
  admin = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW', 'DASHBOARD_EDIT'] });
  colleague = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW', 'DASHBOARD_EDIT'] });
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  providerStaff = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['DASHBOARD_VIEW', 'CHART_VIEW', 'EVENT_VIEW', 'ALERT_INBOX_VIEW'],
  });
  // As at the first start, in one transaction: every row made in it has the same creation time.
  await db.transaction(async (tx) => {
    const dashboardId = await seedDashboardsDemo(tx, orgId, analyst.id);
    const libraryDashboardId = await seedLibraryDashboardDemo(tx, analyst.id);
    await seedLibraryWorkspaceDemo(tx, {
      libraryDashboardId,
      createdBy: analyst.id,
      customerOrgIds: [orgId],
    });
    await seedWorkspaceDemo(tx, orgId, { ownerId: admin.id, analystId: analyst.id, dashboardId });
    await seedProviderEventsDemo(tx, providerOrgId);
    await seedProviderDashboardDemo(tx, providerOrgId, analyst.id);
  });
});
afterAll(() => ctx.close());

describe('demo risk and compliance dashboard', () => {
  it('draws the register and the frameworks of a bank with a risk product, after the landing dashboard', async () => {
    const db = ctx.database.db;
    const riskOrgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
    const viewer = await seedUser(db, {
      homeOrgId: riskOrgId,
      permissions: [
        'DASHBOARD_VIEW',
        'CHART_VIEW',
        'RISK_VIEW',
        'POLICY_FRAMEWORK_VIEW',
        'EVENT_VIEW',
        'ALERT_INBOX_VIEW',
      ],
    });
    await seedDashboardsDemo(db, riskOrgId, viewer.id);
    const id = await seedRiskComplianceDashboardDemo(db, riskOrgId, viewer.id);
    const landing = await orgRequest(ctx, riskOrgId, 'GET', '/dashboards/default', viewer);
    expect(landing.json().dashboard.name).toBe('Security operations');
    const dashboard = (await orgRequest(ctx, riskOrgId, 'GET', `/dashboard/${id}`, viewer)).json();
    expect(dashboard.tiles.map((tile: { chart: { name: string } }) => tile.chart.name)).toEqual([
      'Risks by residual risk',
      'Controls by overall score',
      'Framework answers',
      'FFIEC CAT summary',
      'FFIEC CAT inherent risk profile',
    ]);
    const data = [];
    for (const tile of dashboard.tiles as { chartId: string }[]) {
      const response = await orgRequest(ctx, riskOrgId, 'POST', `/chart/${tile.chartId}/data`, viewer, {});
      expect(response.statusCode, response.body).toBe(200);
      data.push(response.json());
    }
    expect(data[0].categories.at(-1)).toBe('Not scored');
    expect(data[1].categories.at(-1)).toBe('Not scored');
    // This organisation has adopted no framework: the framework charts are empty, not failing.
    expect(data[2].categories).toEqual([]);
    expect(data[3].rows).toEqual([]);
    expect(data[4].rows).toEqual([]);
  });
});

describe('demo dashboards', () => {
  it("land each bank's users on a dashboard whose every chart draws live data", async () => {
    const landing = await orgRequest(ctx, orgId, 'GET', '/dashboards/default', analyst);
    const dashboard = landing.json().dashboard;
    expect(dashboard.name).toBe('Security operations');
    expect(dashboard.tiles.map((tile: { chart: { name: string } }) => tile.chart.name)).toEqual([
      'Events by data source',
      'Failed sign-ins',
      'Top hosts',
      'Alerts by severity',
      'Transactions by type',
      'Latest core-banking events',
      'Alert trend',
    ]);
    const data: Record<string, Record<string, unknown>> = {};
    for (const tile of dashboard.tiles as { chartId: string; chart: { name: string } }[]) {
      const response = await orgRequest(ctx, orgId, 'POST', `/chart/${tile.chartId}/data`, analyst, {
        intervalType: dashboard.intervalType,
      });
      expect(response.statusCode, `${tile.chart.name}: ${response.body}`).toBe(200);
      data[tile.chart.name] = response.json();
    }
    expect(data['Failed sign-ins']!.value).toBe(1);
    expect(data['Top hosts']!.categories).toEqual(['dc-01', 'core-01', 'fw-01']);
    expect(data['Transactions by type']!.categories).toEqual(['wire']);
    expect(
      (data['Latest core-banking events']!.events as { host: string }[]).map((event) => event.host),
    ).toEqual(['core-01']);
    const series = data['Events by data source']!.series as { name: string; values: number[] }[];
    expect(series.map((entry) => [entry.name, entry.values.reduce((a, b) => a + b, 0)])).toEqual([
      ['Events from windows-security', 2],
      ['Events from firewall', 1],
      ['Events from web-proxy', 0],
      ['Events from core-banking', 1],
    ]);
  });

  it('offer the provider library dashboard to every organisation', async () => {
    const library = await orgRequest(ctx, orgId, 'GET', '/dashboards?library=true', analyst);
    expect(
      library.json().items.map((item: { name: string; chartCount: number }) => [item.name, item.chartCount]),
    ).toEqual([['Alert desk', 4]]);
  });

  it("share the administrator's workspace view-only with the analyst, and with nobody else", async () => {
    const shiftHandover = (items: { name: string }[]) =>
      items.filter((item) => item.name === 'Shift handover');
    const seen = await orgRequest(ctx, orgId, 'GET', '/workspaces', analyst);
    expect(shiftHandover(seen.json().items)).toMatchObject([
      {
        labels: ['SHARED_WITH_ME', 'VIEWER'],
        dashboards: [{ name: 'Security operations' }],
      },
    ]);
    const own = await orgRequest(ctx, orgId, 'GET', '/workspaces', admin);
    expect(shiftHandover(own.json().items)[0]).toMatchObject({ labels: ['SHARED', 'EDITOR'] });
    const theirs = await orgRequest(ctx, orgId, 'GET', '/workspaces', colleague);
    expect(shiftHandover(theirs.json().items)).toEqual([]);
  });

  it('offer a Default library workspace of the Alert desk, copied to each bank for all its users', async () => {
    const library = await orgRequest(ctx, orgId, 'GET', '/workspaces?library=true', analyst);
    expect(library.json().items).toMatchObject([
      { name: 'SOC essentials', copyToCustomers: true, dashboards: [{ name: 'Alert desk' }] },
    ]);
    expect(library.json().items[0].labels).toContain('DEFAULT');
    const copied = await orgRequest(ctx, orgId, 'GET', '/workspaces', colleague);
    const [copy] = copied.json().items.filter((item: { name: string }) => item.name === 'SOC essentials');
    expect(copy).toMatchObject({ sharing: 'ALL', dashboards: [{ name: 'Alert desk' }] });
    const desk = await orgRequest(ctx, orgId, 'GET', `/dashboard/${copy.dashboards[0].id}`, analyst);
    expect(desk.json()).toMatchObject({ type: 'NORMAL', orgId, name: 'Alert desk' });
    expect(desk.json().tiles).toHaveLength(4);
  });
});

describe('demo provider dashboard', () => {
  it("lands provider staff on a dashboard of the provider's own events, every chart with figures", async () => {
    const landing = await orgRequest(ctx, providerOrgId, 'GET', '/dashboards/default', providerStaff);
    const dashboard = landing.json().dashboard;
    expect(dashboard.name).toBe('Platform operations');
    const data: Record<string, Record<string, unknown>> = {};
    for (const tile of dashboard.tiles as { chartId: string; chart: { name: string } }[]) {
      const response = await orgRequest(
        ctx,
        providerOrgId,
        'POST',
        `/chart/${tile.chartId}/data`,
        providerStaff,
        { intervalType: dashboard.intervalType },
      );
      expect(response.statusCode, `${tile.chart.name}: ${response.body}`).toBe(200);
      data[tile.chart.name] = response.json();
    }
    expect(Object.keys(data)).toEqual([
      'Events by data source',
      'Failed sign-ins',
      'Top hosts',
      'Denied connections by port',
      'Sign-ins by user',
      'Latest blocked web requests',
    ]);
    const series = data['Events by data source']!.series as { name: string; values: number[] }[];
    expect(series.map((entry) => entry.name)).toEqual([
      'Events from windows-security',
      'Events from firewall',
      'Events from web-proxy',
    ]);
    for (const entry of series) expect(entry.values.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
    expect(data['Failed sign-ins']!.value).toBeGreaterThan(0);
    const hosts = PROVIDER_HOSTS.map((host) => host.hostname);
    expect(data['Top hosts']!.categories).toEqual(expect.arrayContaining(hosts));
    for (const name of ['Denied connections by port', 'Sign-ins by user']) {
      const values = (data[name]!.series as { values: number[] }[])[0]!.values;
      expect(values.length, name).toBeGreaterThan(0);
      expect(
        values.every((value) => value > 0),
        name,
      ).toBe(true);
    }
    const blocked = data['Latest blocked web requests']!.events as { host: string; message: string }[];
    expect(blocked.length).toBeGreaterThan(0);
    for (const event of blocked) {
      expect(hosts).toContain(event.host);
      expect(event.message).toMatch(/^BLOCKED /);
    }
  });
});
