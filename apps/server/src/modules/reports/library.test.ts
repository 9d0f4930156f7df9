import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { charts } from '../dashboards/tables';
import { setScheduleRun } from './repo';
import { queueOn, runDueSchedules } from './service';
import { reports, reportSchedules, reportTemplates } from './tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let providerOrgId: string;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
let providerAdmin: SeededUser;

const EDIT = [
  'REPORT_VIEW',
  'REPORT_EDIT',
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
] as const;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);
const asProvider = (method: HttpMethod, path: string, payload?: object) =>
  call(method, path, providerAdmin, payload, providerOrgId);

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, { config: { SMTP_URL: smtp.url }, startJobs: true });
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db, { name: 'First Community Bank' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Second Savings' })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['REPORT_VIEW', 'CHART_VIEW', 'EVENT_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId, otherOrgId],
  });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const schedulesOf = async (user: SeededUser, org: string, library = false) =>
  (await call('GET', `/report-schedules${library ? '?library=true' : ''}`, user, undefined, org)).json()
    .items as { id: string; state: string; copiedFromId: string | null; range: string; templateId: string }[];

describe('report library', () => {
  it('offers library schedules to customers as NOT_COPIED, never runs them, and copies one with the organisation’s recipients', async () => {
    const db = ctx.database.db;
    const libraryChart = await asProvider('POST', '/chart', {
      name: 'Alerts by severity',
      type: 'bar',
      family: 'ALERT_COUNTS',
      library: true,
    });
    expect(libraryChart.statusCode, libraryChart.body).toBe(201);
    const ownChart = (
      await call('POST', '/chart', editor, { name: 'Our alerts', type: 'pie', family: 'ALERT_COUNTS' })
    ).json();

    // Library templates: provider administrators only, of library charts only.
    const byCustomer = await call('POST', '/report-template', editor, {
      name: 'Library digest',
      chartIds: [libraryChart.json().id],
      library: true,
    });
    expect([byCustomer.statusCode, byCustomer.json().key]).toEqual([403, 'LIBRARY_COPY_DENIED']);
    const mixed = await asProvider('POST', '/report-template', {
      name: 'Library digest',
      chartIds: [ownChart.id],
      library: true,
    });
    expect([mixed.statusCode, mixed.json().key]).toEqual([400, 'REPORT_TEMPLATE_CHART_MISSING']);
    const template = await asProvider('POST', '/report-template', {
      name: 'Library digest',
      chartIds: [libraryChart.json().id],
      library: true,
    });
    expect(template.statusCode, template.body).toBe(201);
    expect(template.json()).toMatchObject({ library: true, copiedFromId: null });
    const libraryTemplateId = template.json().id as string;
    const listed = (await call('GET', '/report-templates?library=true', viewer)).json();
    expect(listed.items.map((item: { id: string }) => item.id)).toEqual([libraryTemplateId]);
    expect((await call('GET', '/report-templates', viewer)).json().items).toEqual([]);
    const hijack = await call('PUT', `/report-template/${libraryTemplateId}`, editor, {
      name: 'Hijack',
      chartIds: [libraryChart.json().id],
    });
    expect([hijack.statusCode, hijack.json().key]).toEqual([403, 'LIBRARY_COPY_DENIED']);
    // Customers cannot build the library's template themselves: they copy it.
    const onDemand = await call('POST', '/report', editor, { templateId: libraryTemplateId, range: '24H' });
    expect([onDemand.statusCode, onDemand.json().key]).toEqual([400, 'REPORT_TEMPLATE_NOT_FOUND']);

    // Library schedules: no recipients of their own, a library template, provider administrators only.
    const schedule = { templateId: libraryTemplateId, range: '7D', frequency: 'WEEKLY', library: true };
    const withRecipients = await asProvider('POST', '/report-schedule', {
      ...schedule,
      recipients: ['soc@provider.example'],
    });
    expect([withRecipients.statusCode, withRecipients.json().key]).toEqual([
      400,
      'REPORT_LIBRARY_SCHEDULE_RECIPIENTS',
    ]);
    const notAdmin = await call('POST', '/report-schedule', editor, schedule);
    expect([notAdmin.statusCode, notAdmin.json().key]).toEqual([403, 'LIBRARY_COPY_DENIED']);
    const noRecipients = await call('POST', '/report-schedule', editor, { ...schedule, library: false });
    expect([noRecipients.statusCode, noRecipients.json().key]).toEqual([
      400,
      'REPORT_SCHEDULE_NEEDS_RECIPIENT',
    ]);
    const created = await asProvider('POST', '/report-schedule', schedule);
    expect(created.statusCode, created.body).toBe(201);
    const library = created.json();
    expect(library).toMatchObject({ library: true, state: 'ACTIVE', nextRunAt: null, recipients: [] });
    const second = (
      await asProvider('POST', '/report-schedule', { ...schedule, range: '30D', frequency: 'MONTHLY' })
    ).json();

    // Copied to every customer once.
    const byClient = await call('POST', '/report-schedules/library/copy-to-customers', editor);
    expect(byClient.statusCode).toBe(403);
    const first = await asProvider('POST', '/report-schedules/library/copy-to-customers');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toEqual({ copied: 4, skipped: 0, orgs: 2 });
    const again = await asProvider('POST', '/report-schedules/library/copy-to-customers');
    expect(again.json()).toEqual({ copied: 0, skipped: 4, orgs: 2 });
    expect(await schedulesOf(providerAdmin, providerOrgId)).toEqual([]);

    const offered = (await schedulesOf(viewer, orgId)).find((item) => item.copiedFromId === library.id)!;
    expect(offered).toMatchObject({
      state: 'NOT_COPIED',
      templateName: 'Library digest',
      recipients: [],
      nextRunAt: null,
      library: false,
    });
    expect((await schedulesOf(viewer, orgId, true)).map((item) => item.id).sort()).toEqual(
      [library.id, second.id].sort(),
    );

    // A NOT_COPIED schedule is neither changed, paused nor resumed before it is copied...
    const change = await call('PUT', `/report-schedule/${offered.id}`, editor, {
      templateId: libraryTemplateId,
      range: '24H',
      frequency: 'DAILY',
      recipients: ['soc@bank.example'],
    });
    expect([change.statusCode, change.json().key]).toEqual([409, 'REPORT_SCHEDULE_NOT_COPIED']);
    for (const move of ['pause', 'resume']) {
      const moved = await call('POST', `/report-schedule/${offered.id}/${move}`, editor);
      expect([moved.statusCode, moved.json().key]).toEqual([409, 'REPORT_SCHEDULE_NOT_COPIED']);
    }
    // ...and never runs, even when it looks due.
    await setScheduleRun(db, offered.id, { nextRunAt: new Date(Date.now() - 60_000) });
    const later = new Date(Date.now() + 40 * 86_400_000);
    expect(await runDueSchedules(db, queueOn(ctx.jobs), later)).toBe(0);
    expect(await db.select().from(reports).where(eq(reports.scheduleId, offered.id))).toEqual([]);

    // The library's changes reach the copies nobody copied yet.
    const changed = await asProvider('PUT', `/report-schedule/${library.id}`, { ...schedule, range: '30D' });
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await schedulesOf(viewer, orgId)).find((item) => item.id === offered.id)?.range).toBe('30D');

    // Copying: REPORT_EDIT of the organisation; other organisations do not see it.
    const activate = { recipients: ['SOC@bank.example', 'ciso@bank.example'] };
    const byViewer = await call('POST', `/report-schedule/${offered.id}/activate`, viewer, activate);
    expect([byViewer.statusCode, byViewer.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const foreign = await call(
      'POST',
      `/report-schedule/${offered.id}/activate`,
      outsider,
      activate,
      otherOrgId,
    );
    expect([foreign.statusCode, foreign.json().key]).toEqual([404, 'REPORT_SCHEDULE_NOT_FOUND']);
    const empty = await call('POST', `/report-schedule/${offered.id}/activate`, editor, { recipients: [] });
    expect(empty.statusCode).toBe(400);
    const activated = await call('POST', `/report-schedule/${offered.id}/activate`, editor, activate);
    expect(activated.statusCode, activated.body).toBe(200);
    expect(activated.json()).toMatchObject({
      state: 'ACTIVE',
      range: '30D',
      recipients: ['soc@bank.example', 'ciso@bank.example'],
      copiedFromId: library.id,
    });
    expect(activated.json().templateId).not.toBe(libraryTemplateId);
    const twice = await call('POST', `/report-schedule/${offered.id}/activate`, editor, activate);
    expect([twice.statusCode, twice.json().key]).toEqual([409, 'REPORT_SCHEDULE_STATE_INVALID']);
    // The organisation's own copy of the template, drawing its own copy of the library chart.
    const copy = (await call('GET', `/report-template/${activated.json().templateId}`, viewer)).json();
    expect(copy).toMatchObject({ name: 'Library digest', library: false, copiedFromId: libraryTemplateId });
    const [chartCopy] = await db.select().from(charts).where(eq(charts.id, copy.charts[0].id));
    expect(chartCopy).toMatchObject({ orgId, copiedFromId: libraryChart.json().id });

    // Only the copied schedule runs and e-mails; the other organisation's NOT_COPIED one stays silent.
    expect(await runDueSchedules(db, queueOn(ctx.jobs), later)).toBe(1);
    const mail = await smtp.waitForMessage('ciso@bank.example', 30_000);
    expect(mail.subject).toBe('Vigil report: Library digest');
    await smtp.waitForMessage('soc@bank.example');
    await vi.waitFor(
      async () => {
        const [row] = await db.select().from(reportSchedules).where(eq(reportSchedules.id, offered.id));
        expect(row?.lastRunState).toBe('COMPLETED');
      },
      { timeout: 10_000 },
    );
    expect(smtp.messages).toHaveLength(2);
    const theirs = (await schedulesOf(outsider, otherOrgId)).filter((item) => item.state === 'NOT_COPIED');
    expect(theirs).toHaveLength(2);

    // The library template stays while copies not yet copied build on it; deleting the library
    // schedules takes those copies along, and the activated copy keeps running on its own template.
    const inUse = await asProvider('DELETE', `/report-template/${libraryTemplateId}`);
    expect([inUse.statusCode, inUse.json().key]).toEqual([409, 'REPORT_TEMPLATE_IN_USE']);
    const notTheirs = await call('DELETE', `/report-schedule/${library.id}`, editor);
    expect([notTheirs.statusCode, notTheirs.json().key]).toEqual([403, 'LIBRARY_COPY_DENIED']);
    for (const id of [library.id, second.id]) {
      expect((await asProvider('DELETE', `/report-schedule/${id}`)).statusCode).toBe(204);
    }
    expect(await schedulesOf(outsider, otherOrgId)).toEqual([]);
    expect((await schedulesOf(viewer, orgId)).map((item) => [item.id, item.state])).toEqual([
      [offered.id, 'ACTIVE'],
    ]);
    expect((await asProvider('DELETE', `/report-template/${libraryTemplateId}`)).statusCode).toBe(204);
    const [kept] = await db
      .select()
      .from(reportTemplates)
      .where(and(eq(reportTemplates.orgId, orgId), eq(reportTemplates.id, copy.id)));
    expect(kept?.copiedFromId).toBeNull();
  });

  it('dismissing a NOT_COPIED schedule keeps it skipped by later copies', async () => {
    const chart = (
      await asProvider('POST', '/chart', {
        name: 'Trend',
        type: 'line',
        family: 'ALERT_TRENDS',
        library: true,
      })
    ).json();
    const template = (
      await asProvider('POST', '/report-template', { name: 'Trends', chartIds: [chart.id], library: true })
    ).json();
    const library = (
      await asProvider('POST', '/report-schedule', {
        templateId: template.id,
        range: '24H',
        frequency: 'DAILY',
        library: true,
      })
    ).json();
    await asProvider('POST', '/report-schedules/library/copy-to-customers');
    const offered = (await schedulesOf(viewer, orgId)).find((item) => item.copiedFromId === library.id)!;
    expect((await call('DELETE', `/report-schedule/${offered.id}`, editor)).statusCode).toBe(204);
    const again = await asProvider('POST', '/report-schedules/library/copy-to-customers');
    expect(again.json()).toMatchObject({ copied: 0, skipped: 2 });
    expect((await schedulesOf(viewer, orgId)).some((item) => item.copiedFromId === library.id)).toBe(false);
  });
});
