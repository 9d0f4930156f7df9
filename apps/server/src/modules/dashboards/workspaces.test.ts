import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { dashboards, workspaces } from './tables';

let ctx: TestContext;
let providerOrgId: string;
let orgId: string;
let premiumOrgId: string;
let otherOrgId: string;
let owner: SeededUser;
let colleague: SeededUser;
let bystander: SeededUser;
let reader: SeededUser;
let outsider: SeededUser;
let providerAdmin: SeededUser;
let dashboardId: string;
let otherDashboardId: string;

const EDIT = ['DASHBOARD_VIEW', 'DASHBOARD_EDIT', 'CHART_VIEW', 'EVENT_VIEW'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  premiumOrgId = (await seedOrg(db, { productSkus: ['REPORTING_PREMIUM'] })).id;
  otherOrgId = (await seedOrg(db)).id;
  owner = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  colleague = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  bystander = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  reader = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId, premiumOrgId, otherOrgId],
  });
  const [mine] = await db
    .insert(dashboards)
    .values({ orgId, name: 'Security operations', tiles: [] })
    .returning();
  dashboardId = mine!.id;
  const [theirs] = await db
    .insert(dashboards)
    .values({ orgId: otherOrgId, name: 'Theirs', tiles: [] })
    .returning();
  otherDashboardId = theirs!.id;
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface WorkspaceJson {
  id: string;
  labels: string[];
  editable: boolean;
  [key: string]: unknown;
}

async function create(payload: object, user = owner, org = orgId): Promise<WorkspaceJson> {
  const response = await call('POST', '/workspace', user, { name: 'Workspace', ...payload }, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

const names = async (user: SeededUser, query = '', org = orgId) =>
  ((await call('GET', `/workspaces${query}`, user, undefined, org)).json().items as { name: string }[]).map(
    (w) => w.name,
  );

const refusal = (response: { statusCode: number; json: () => { key: string } }) => [
  response.statusCode,
  response.json().key,
];

describe('workspace sharing', () => {
  it('shows a personal workspace to its owner only, with the Personal and Editor labels', async () => {
    const personal = await create({ name: 'My notes', dashboardIds: [dashboardId] });
    expect(personal).toMatchObject({
      sharing: 'NOBODY',
      owned: true,
      editable: true,
      labels: ['PERSONAL', 'EDITOR'],
      dashboards: [{ id: dashboardId, name: 'Security operations' }],
    });
    expect(await names(owner)).toContain('My notes');
    expect(await names(colleague)).not.toContain('My notes');
    const hidden = await call('GET', `/workspace/${personal.id}`, colleague);
    expect(refusal(hidden)).toEqual([404, 'WORKSPACE_NOT_FOUND']);
    const [row] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, personal.id), eq(activityLog.action, 'workspace.created')));
    expect(row?.actorUserId).toBe(owner.id);
  });

  it('shares with specific users view-only: they see it as Viewer and cannot change it', async () => {
    const shared = await create({
      name: 'Shift handover',
      dashboardIds: [dashboardId],
      sharing: 'USERS',
      sharedUserIds: [colleague.id],
    });
    expect(shared.labels).toEqual(['SHARED', 'EDITOR']);
    expect(shared.sharedUsers).toEqual([{ id: colleague.id, name: 'Test User' }]);

    const seen = await call('GET', `/workspace/${shared.id}`, colleague);
    expect(seen.statusCode).toBe(200);
    expect(seen.json()).toMatchObject({
      owned: false,
      editable: false,
      labels: ['SHARED_WITH_ME', 'VIEWER'],
      sharedUsers: [],
      dashboards: [{ name: 'Security operations' }],
    });
    expect(await names(bystander)).not.toContain('Shift handover');

    const change = await call('PUT', `/workspace/${shared.id}`, colleague, {
      name: 'Renamed',
      dashboardIds: [dashboardId],
      sharing: 'USERS',
      sharedUserIds: [colleague.id],
    });
    expect(refusal(change)).toEqual([403, 'WORKSPACE_PERMISSION_DENIED']);
    expect(refusal(await call('POST', `/workspace/${shared.id}/delete`, colleague))).toEqual([
      403,
      'WORKSPACE_PERMISSION_DENIED',
    ]);
    const [row] = await ctx.database.db.select().from(workspaces).where(eq(workspaces.id, shared.id));
    expect(row?.name).toBe('Shift handover');

    // Made editable by others, the colleague changes it without seeing whom it is shared with.
    const editable = await call('PUT', `/workspace/${shared.id}`, owner, {
      name: 'Shift handover',
      dashboardIds: [dashboardId],
      sharing: 'USERS',
      sharedUserIds: [colleague.id],
      editableByOthers: true,
    });
    expect(editable.statusCode, editable.body).toBe(200);
    const renamed = await call('PUT', `/workspace/${shared.id}`, colleague, {
      name: 'Shift handover (nights)',
      dashboardIds: [],
      sharing: 'USERS',
      sharedUserIds: [],
      editableByOthers: true,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toMatchObject({ labels: ['SHARED_WITH_ME', 'EDITOR'], dashboards: [] });
    const asOwner = (await call('GET', `/workspace/${shared.id}`, owner)).json();
    expect(asOwner.sharedUsers).toEqual([{ id: colleague.id, name: 'Test User' }]);
  });

  it('lets others change an editable workspace, but only the owner changes who sees it', async () => {
    const team = await create({
      name: 'Team board',
      sharing: 'ALL',
      editableByOthers: true,
    });
    expect(team.labels).toEqual(['SHARED', 'PUBLIC', 'EDITOR']);
    const asColleague = (await call('GET', `/workspace/${team.id}`, colleague)).json();
    expect(asColleague.labels).toEqual(['PUBLIC', 'EDITOR']);

    const renamed = await call('PUT', `/workspace/${team.id}`, colleague, {
      name: 'Team board (week 12)',
      dashboardIds: [dashboardId],
      sharing: 'ALL',
      editableByOthers: true,
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().dashboards).toEqual([{ id: dashboardId, name: 'Security operations' }]);

    const reshared = await call('PUT', `/workspace/${team.id}`, colleague, {
      name: 'Team board (week 12)',
      sharing: 'NOBODY',
      editableByOthers: true,
    });
    expect(refusal(reshared)).toEqual([403, 'WORKSPACE_PERMISSION_DENIED']);
    // A reader without DASHBOARD_EDIT sees it as a viewer and cannot reach the change.
    expect((await call('GET', `/workspace/${team.id}`, reader)).json().labels).toEqual(['PUBLIC', 'VIEWER']);
    const denied = await call('PUT', `/workspace/${team.id}`, reader, { name: 'x' });
    expect(refusal(denied)).toEqual([403, 'PERMISSION_DENIED']);

    const made = await call('PUT', `/workspace/${team.id}`, owner, {
      name: 'Team board (week 12)',
      sharing: 'USERS',
      sharedUserIds: [bystander.id],
    });
    expect(made.statusCode, made.body).toBe(200);
    expect(await names(colleague)).not.toContain('Team board (week 12)');
    expect(await names(bystander)).toContain('Team board (week 12)');
    const audit = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, team.id), eq(activityLog.action, 'workspace.updated')));
    expect(audit).toHaveLength(2);

    const deleted = await call('POST', `/workspace/${team.id}/delete`, owner);
    expect(deleted.statusCode).toBe(204);
    expect(await names(bystander)).not.toContain('Team board (week 12)');
  });

  it('refuses bad input with a key and writes nothing', async () => {
    const before = (await ctx.database.db.select().from(workspaces)).length;
    const cases: [object, number, string, string?][] = [
      [{ name: '' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ dashboardIds: [otherDashboardId] }, 400, 'WORKSPACE_DASHBOARD_MISSING', 'dashboardIds.0'],
      [
        { sharing: 'USERS', sharedUserIds: [outsider.id] },
        400,
        'WORKSPACE_SHARE_USER_INVALID',
        'sharedUserIds.0',
      ],
      [{ sharing: 'EVERYONE' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ premiumOnly: true }, 403, 'PRODUCT_NOT_ENTITLED'],
      [{ library: true }, 403, 'LIBRARY_COPY_DENIED'],
    ];
    for (const [payload, status, key, field] of cases) {
      const response = await call('POST', '/workspace', owner, { name: 'Bad', ...payload });
      expect([response.statusCode, response.json().key], JSON.stringify(payload)).toEqual([status, key]);
      if (field) expect(response.json().field).toBe(field);
    }
    expect((await ctx.database.db.select().from(workspaces)).length).toBe(before);
  });

  it('answers 404 to users of other organisations', async () => {
    const shared = await create({ name: 'For everyone', sharing: 'ALL' });
    for (const [method, path, body] of [
      ['GET', `/workspace/${shared.id}`, undefined],
      ['PUT', `/workspace/${shared.id}`, { name: 'Mine now' }],
      ['POST', `/workspace/${shared.id}/delete`, undefined],
    ] as const) {
      const response = await call(method, path, outsider, body, otherOrgId);
      expect(refusal(response), `${method} ${path}`).toEqual([404, 'WORKSPACE_NOT_FOUND']);
    }
    expect(await names(outsider, '', otherOrgId)).not.toContain('For everyone');
  });
});

describe('premium-only workspaces and the library', () => {
  it('keeps premium-only workspaces to organisations with REPORTING_PREMIUM', async () => {
    const premiumUser = await seedUser(ctx.database.db, { homeOrgId: premiumOrgId, permissions: [...EDIT] });
    const premium = await create(
      { name: 'Premium board', premiumOnly: true, sharing: 'ALL' },
      premiumUser,
      premiumOrgId,
    );
    expect(premium.labels).toEqual(['SHARED', 'PUBLIC', 'EDITOR', 'PREMIUM_ONLY']);
    // Should the product be withdrawn, the workspace is hidden.
    await ctx.database.db.update(workspaces).set({ orgId }).where(eq(workspaces.id, premium.id));
    expect(refusal(await call('GET', `/workspace/${premium.id}`, owner))).toEqual([
      404,
      'WORKSPACE_NOT_FOUND',
    ]);
  });

  it('copies default library workspaces to customers once, premium-only ones only to premium organisations', async () => {
    const db = ctx.database.db;
    const [libraryDashboard] = await db
      .insert(dashboards)
      .values({ orgId: null, library: true, name: 'Library overview', tiles: [] })
      .returning();
    const standard = await create(
      { name: 'SOC starter', library: true, copyToCustomers: true, dashboardIds: [libraryDashboard!.id] },
      providerAdmin,
      providerOrgId,
    );
    expect(standard.labels).toEqual(['EDITOR', 'DEFAULT']);
    await create(
      { name: 'Premium analytics', library: true, copyToCustomers: true, premiumOnly: true },
      providerAdmin,
      providerOrgId,
    );
    await create({ name: 'Optional', library: true }, providerAdmin, providerOrgId);

    const libraryAsCustomer = (await call('GET', '/workspaces?library=true', owner)).json().items;
    expect(libraryAsCustomer.map((w: WorkspaceJson) => [w.name, w.labels])).toEqual([
      ['Optional', ['VIEWER']],
      ['Premium analytics', ['VIEWER', 'DEFAULT', 'PREMIUM_ONLY']],
      ['SOC starter', ['VIEWER', 'DEFAULT']],
    ]);
    const changeLibrary = await call('PUT', `/workspace/${standard.id}`, owner, { name: 'Mine' });
    expect(refusal(changeLibrary)).toEqual([403, 'WORKSPACE_PERMISSION_DENIED']);
    expect(refusal(await call('POST', '/workspaces/library/copy-to-customers', owner))).toEqual([
      403,
      'PERMISSION_DENIED',
    ]);

    const first = await call(
      'POST',
      '/workspaces/library/copy-to-customers',
      providerAdmin,
      {},
      providerOrgId,
    );
    expect(first.statusCode, first.body).toBe(200);
    // Three customers: the standard one everywhere, the premium one in the premium organisation.
    expect(first.json()).toEqual({ copied: 4, skipped: 2, orgs: 3 });
    const copies = await db.select().from(workspaces).where(eq(workspaces.copiedFromId, standard.id));
    expect(copies.map((copy) => copy.orgId).sort()).toEqual([orgId, premiumOrgId, otherOrgId].sort());

    const seen = (await call('GET', '/workspaces?search=SOC', colleague)).json().items;
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ ownerId: null, labels: ['PUBLIC', 'VIEWER', 'DEFAULT'] });
    expect(seen[0].dashboards).toEqual([{ id: expect.any(String), name: 'Library overview' }]);
    const [copiedDashboard] = await db
      .select()
      .from(dashboards)
      .where(and(eq(dashboards.orgId, orgId), eq(dashboards.copiedFromId, libraryDashboard!.id)));
    expect(seen[0].dashboards[0].id).toBe(copiedDashboard!.id);
    expect(await names(owner)).not.toContain('Premium analytics');

    const again = await call(
      'POST',
      '/workspaces/library/copy-to-customers',
      providerAdmin,
      {},
      providerOrgId,
    );
    expect(again.json()).toEqual({ copied: 0, skipped: 6, orgs: 3 });
  });

  it('copies the default library workspaces into a new customer organisation', async () => {
    const created = await orgRequest(ctx, providerOrgId, 'POST', '/managed-orgs', providerAdmin, {
      name: 'Lakeside Credit Union',
    });
    expect(created.statusCode, created.body).toBe(201);
    const newOrgId = created.json().id as string;
    const copies = await ctx.database.db.select().from(workspaces).where(eq(workspaces.orgId, newOrgId));
    // The standard default one; not the premium-only one, nor the optional one.
    expect(copies.map((copy) => [copy.name, copy.sharing, copy.ownerId])).toEqual([
      ['SOC starter', 'ALL', null],
    ]);
    expect(copies[0]!.dashboardIds).toHaveLength(1);
  });
});
