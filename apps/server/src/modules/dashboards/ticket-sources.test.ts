import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { alerts } from '../alerts/tables';
import { insertTicket } from '../tickets/repo';
import { ticketHistory } from '../tickets/tables';

/** The incident, task and escalation families of charts, under the viewer's permissions. */
let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let incidentsOnly: SeededUser;
let tasksOnly: SeededUser;
let owner: SeededUser;

const EDIT = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'DASHBOARD_VIEW',
  'ALERT_INBOX_VIEW',
  'INCIDENT_VIEW',
  'TASK_VIEW',
] as const;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
const LAST_WEEK = { begin: new Date(now - 7 * DAY).toISOString(), end: new Date(now).toISOString() };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  // Task events, the escalation chart and the activity funnel are premium-only sources.
  orgId = (await seedOrg(db, { productSkus: ['REPORTING_PREMIUM'] })).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  owner = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW'] });
  incidentsOnly = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['DASHBOARD_VIEW', 'INCIDENT_VIEW'],
  });
  tasksOnly = await seedUser(db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW', 'TASK_VIEW'] });
  const ticket = (kind: 'incident' | 'task', title: string, state: string, ago: number, ownerId?: string) =>
    insertTicket(db, orgId, kind, {
      title,
      state,
      ownerId: ownerId ?? null,
      createdOn: new Date(now - ago),
      modifiedOn: new Date(now - ago),
    });
  await ticket('incident', 'Phishing wave', 'TRIAGE', 2 * HOUR, owner.id);
  await ticket('incident', 'Card skimming', 'ANALYSIS', 3 * DAY, owner.id);
  await ticket('incident', 'Old ransomware', 'CLOSED', 60 * DAY);
  // Inside the last hour: counted by ranges, left out of the trend.
  await ticket('incident', 'Just opened', 'TRIAGE', 10 * 60_000);
  const review = await ticket('task', 'Review firewall rules', 'OPEN', DAY);
  const rotate = await ticket('task', 'Rotate keys', 'CLOSED', 2 * DAY, owner.id);
  const theirTask = await insertTicket(db, otherOrgId, 'task', { title: 'Theirs', state: 'OPEN' });
  const happened = (ticketId: string, action: string, ago: number) => ({
    ticketId,
    action,
    at: new Date(now - ago),
  });
  await db
    .insert(ticketHistory)
    .values([
      happened(review.id, 'created', DAY),
      happened(review.id, 'commented', HOUR),
      happened(rotate.id, 'created', 2 * DAY),
      happened(rotate.id, 'commented', DAY),
      happened(rotate.id, 'state-changed', DAY),
      happened(rotate.id, 'commented', 30 * DAY),
      happened(theirTask.id, 'commented', HOUR),
    ]);
  await insertTicket(db, otherOrgId, 'incident', {
    title: 'Theirs',
    state: 'TRIAGE',
    createdOn: new Date(now - HOUR * 5),
  });
  await db.insert(alerts).values([
    {
      orgId,
      kind: 'THREAT_MATCH',
      title: 'Escalated one',
      severity: 'HIGH',
      state: 'ESCALATED',
      firedAt: new Date(now - 2 * DAY),
      escalatedAt: new Date(now - 2 * DAY),
    },
    {
      orgId,
      kind: 'THREAT_MATCH',
      title: 'Escalated two',
      severity: 'HIGH',
      state: 'ESCALATED',
      firedAt: new Date(now - DAY),
      escalatedAt: new Date(now - DAY),
    },
    { orgId, kind: 'THREAT_MATCH', title: 'Not escalated', severity: 'LOW', firedAt: new Date(now - DAY) },
    {
      orgId: otherOrgId,
      kind: 'THREAT_MATCH',
      title: 'Theirs',
      severity: 'LOW',
      firedAt: new Date(now - DAY),
      escalatedAt: new Date(now - DAY),
    },
  ]);
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object) =>
  orgRequest(ctx, orgId, method, path, user, payload);

async function createChart(payload: object): Promise<{ id: string; rowLimit: number | null }> {
  const response = await call('POST', '/chart', editor, { name: 'Chart', ...payload });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

async function data(chartId: string, user: SeededUser, range: object = LAST_WEEK) {
  const response = await call('POST', `/chart/${chartId}/data`, user, range);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

describe('incident and task families', () => {
  it('lists the latest incidents of the range with their state and owner, up to 1000 rows', async () => {
    const list = await createChart({ type: 'table', family: 'INCIDENT_LIST', rowLimit: 2 });
    const drawn = await data(list.id, incidentsOnly);
    expect(drawn.columns).toEqual(['Incident', 'Title', 'State', 'Owner', 'Created']);
    expect(drawn.rows.map((row: string[]) => row.slice(1, 4))).toEqual([
      ['Just opened', 'TRIAGE', null],
      ['Phishing wave', 'TRIAGE', 'Test User'],
    ]);
    expect(drawn.rows[0][0]).toMatch(/^INC-\d+$/);
    // Three in the week; the old one and the other organisation's are not.
    expect(drawn.total).toBe(3);

    const fresh = await createChart({ type: 'table', family: 'TASK_LIST' });
    expect(fresh.rowLimit).toBe(10);
    expect((await createChart({ type: 'table', family: 'TASK_LIST', rowLimit: 1000 })).rowLimit).toBe(1000);
    for (const rowLimit of [0, 1001]) {
      const refused = await call('POST', '/chart', editor, {
        name: 'Too many',
        type: 'table',
        family: 'INCIDENT_LIST',
        rowLimit,
      });
      expect([refused.statusCode, refused.json().key, refused.json().field]).toEqual([
        400,
        'CHART_ROW_LIMIT_INVALID',
        'rowLimit',
      ]);
    }
    const badType = await call('POST', '/chart', editor, { name: 'Pie', type: 'pie', family: 'TASK_LIST' });
    expect([badType.statusCode, badType.json().key]).toEqual([400, 'CHART_TYPE_NOT_SUPPORTED']);
  });

  it('counts incidents and tasks by state (every state listed) and by owner', async () => {
    const byState = await createChart({ type: 'bar', family: 'INCIDENT_STATE_COUNTS' });
    expect(await data(byState.id, incidentsOnly)).toMatchObject({
      categories: ['TRIAGE', 'ANALYSIS', 'REMEDIATION', 'RESOLVED', 'CLOSED', 'INVALID'],
      series: [{ name: 'Incidents', values: [2, 1, 0, 0, 0, 0] }],
    });
    const year = { intervalType: 'ALL_TIME' };
    expect((await data(byState.id, incidentsOnly, year)).series[0].values).toEqual([2, 1, 0, 0, 1, 0]);

    const badge = await createChart({ type: 'badge', family: 'INCIDENT_STATE_COUNTS' });
    expect((await data(badge.id, incidentsOnly)).value).toBe(3);

    const byOwner = await createChart({ type: 'pie', family: 'INCIDENT_OWNER_COUNTS' });
    expect(await data(byOwner.id, incidentsOnly)).toMatchObject({
      categories: ['Test User', 'Unassigned'],
      series: [{ values: [2, 1] }],
    });

    const tasks = await createChart({ type: 'table', family: 'TASK_STATE_COUNTS' });
    expect(await data(tasks.id, tasksOnly)).toMatchObject({
      categories: ['OPEN', 'CLOSED', 'INVALID'],
      series: [{ name: 'Tasks', values: [1, 1, 0] }],
    });
    const taskOwners = await createChart({ type: 'bar', family: 'TASK_OWNER_COUNTS' });
    expect((await data(taskOwners.id, tasksOnly)).series[0].values).toEqual([1, 1]);
  });

  it('draws the incident trend over the past year without the last hour, whatever the range', async () => {
    const trend = await createChart({ type: 'line', family: 'INCIDENT_TRENDS' });
    const drawn = await data(trend.id, incidentsOnly, { intervalType: '1H' });
    expect(drawn.timeAxis).toBe(true);
    expect(drawn.categories.length).toBeGreaterThanOrEqual(365);
    expect(new Date(drawn.end).getTime()).toBeLessThanOrEqual(Date.now() - HOUR);
    // Three incidents of the past year; the one of ten minutes ago is left out.
    expect(sum(drawn.series[0].values)).toBe(3);
  });

  it('counts what happened to the tasks in the range, from their history', async () => {
    const events = await createChart({ type: 'bar', family: 'TASK_EVENTS' });
    expect(await data(events.id, tasksOnly)).toMatchObject({
      categories: ['Commented', 'Created', 'State changed'],
      series: [{ name: 'Tasks', values: [2, 2, 1] }],
    });
    const badge = await createChart({ type: 'badge', family: 'TASK_EVENTS' });
    expect((await data(badge.id, tasksOnly, { intervalType: 'ALL_TIME' })).value).toBe(6);
    const denied = await call('POST', `/chart/${events.id}/data`, incidentsOnly, LAST_WEEK);
    expect([denied.statusCode, denied.json().key]).toEqual([403, 'PERMISSION_DENIED']);
  });

  it('refuses ticket families to viewers without INCIDENT_VIEW or TASK_VIEW', async () => {
    const incidents = await createChart({ type: 'table', family: 'INCIDENT_LIST' });
    const trend = await createChart({ type: 'bar', family: 'INCIDENT_TRENDS' });
    const tasks = await createChart({ type: 'bar', family: 'TASK_STATE_COUNTS' });
    for (const [chart, user] of [
      [incidents, tasksOnly],
      [trend, tasksOnly],
      [tasks, incidentsOnly],
    ] as const) {
      const denied = await call('POST', `/chart/${chart.id}/data`, user, LAST_WEEK);
      expect([denied.statusCode, denied.json().key, denied.json().params]).toEqual([
        403,
        'PERMISSION_DENIED',
        { permission: chart === tasks ? 'TASK_VIEW' : 'INCIDENT_VIEW' },
      ]);
    }
  });
});

describe('escalation chart', () => {
  it('counts alerts escalated per day and trigger in the range, needing the alert inbox', async () => {
    const chart = await createChart({ type: 'bar', family: 'ESCALATIONS' });
    const drawn = await data(chart.id, editor);
    expect(drawn.timeAxis).toBe(true);
    expect(drawn.categories.length).toBe(8);
    expect(drawn.series).toHaveLength(1);
    expect(drawn.series[0].name).toBe('Threat match');
    expect(sum(drawn.series[0].values)).toBe(2);
    const day = (ago: number) => new Date(now - ago).toISOString().slice(0, 10);
    const at = (date: string) =>
      drawn.series[0].values[drawn.categories.findIndex((c: string) => c.startsWith(date))];
    expect([at(day(2 * DAY)), at(day(DAY))]).toEqual([1, 1]);

    const denied = await call('POST', `/chart/${chart.id}/data`, incidentsOnly, LAST_WEEK);
    expect([denied.statusCode, denied.json().key]).toEqual([403, 'PERMISSION_DENIED']);
  });
});

describe('activity funnel', () => {
  it('narrows the alerts fired in the range to those worked and those escalated or flagged', async () => {
    const chart = await createChart({ type: 'bar', family: 'ACTIVITY_FUNNEL' });
    expect(await data(chart.id, editor)).toMatchObject({
      categories: ['Fired', 'Worked', 'Escalated or flagged'],
      series: [{ name: 'Alerts', values: [3, 2, 2] }],
    });
    const denied = await call('POST', `/chart/${chart.id}/data`, incidentsOnly, LAST_WEEK);
    expect([denied.statusCode, denied.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const pie = await call('POST', '/chart', editor, { name: 'Pie', type: 'pie', family: 'ACTIVITY_FUNNEL' });
    expect([pie.statusCode, pie.json().key]).toEqual([400, 'CHART_TYPE_NOT_SUPPORTED']);
  });
});

describe('premium-only sources', () => {
  it('refuses task events, the escalation chart and the activity funnel without REPORTING_PREMIUM', async () => {
    const db = ctx.database.db;
    const provider = await seedOrg(db, { name: 'Provider', isProvider: true });
    const standard = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
    const providerAdmin = await seedUser(db, {
      homeOrgId: provider.id,
      permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
      authorisedOrgIds: [orgId, otherOrgId],
    });
    const inStandard = (method: HttpMethod, path: string, payload?: object, user = standard) =>
      orgRequest(ctx, otherOrgId, method, path, user, payload);
    for (const family of ['TASK_EVENTS', 'ESCALATIONS', 'ACTIVITY_FUNNEL']) {
      const refused = await inStandard('POST', '/chart', { name: 'Premium', type: 'bar', family });
      expect([refused.statusCode, refused.json().key, refused.json().params]).toEqual([
        403,
        'CHART_SOURCE_PREMIUM_ONLY',
        { family },
      ]);
      const preview = await inStandard('POST', '/chart/preview', {
        chart: { name: 'Premium', type: 'bar', family },
        range: LAST_WEEK,
      });
      expect([preview.statusCode, preview.json().key]).toEqual([403, 'CHART_SOURCE_PREMIUM_ONLY']);
    }
    // Standard sources stay open, and a standard chart cannot be turned into a premium one.
    const standardChart = await inStandard('POST', '/chart', {
      name: 'Dismissed',
      type: 'bar',
      family: 'DISMISSED_TRIGGER_ACTIVITY',
    });
    expect(standardChart.statusCode, standardChart.body).toBe(201);
    const turned = await inStandard('PUT', `/chart/${standardChart.json().id}`, {
      name: 'Dismissed',
      type: 'bar',
      family: 'ESCALATIONS',
    });
    expect([turned.statusCode, turned.json().key]).toEqual([403, 'CHART_SOURCE_PREMIUM_ONLY']);
    const charts = (await inStandard('GET', '/charts')).json().items as { id: string; family: string }[];
    expect(charts.map((chart) => chart.family)).toEqual(['DISMISSED_TRIGGER_ACTIVITY']);

    // A library chart on a premium source draws in premium organisations only.
    const library = await orgRequest(ctx, provider.id, 'POST', '/chart', providerAdmin, {
      name: 'Library funnel',
      type: 'bar',
      family: 'ACTIVITY_FUNNEL',
      library: true,
    });
    expect(library.statusCode, library.body).toBe(201);
    const theirs = await inStandard('POST', `/chart/${library.json().id}/data`, LAST_WEEK);
    expect([theirs.statusCode, theirs.json().key]).toEqual([403, 'CHART_SOURCE_PREMIUM_ONLY']);
    expect((await data(library.json().id, editor)).categories).toEqual([
      'Fired',
      'Worked',
      'Escalated or flagged',
    ]);
  });
});
