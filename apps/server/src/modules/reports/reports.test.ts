import { eq } from 'drizzle-orm';
import { inflateSync } from 'node:zlib';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { activityLog } from '../../platform/audit/tables';
import { insertSavedQuery } from '../saved-queries/repo';
import { buildReport, queueOn, runDueSchedules } from './service';
import { reports, reportSchedules } from './tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let otherOrgId: string;
let orgName: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
const chartIds = {} as Record<
  'hosts' | 'logins' | 'trend' | 'outcomes' | 'badge' | 'latest' | 'theirs',
  string
>;
const queries = {} as Record<'logins' | 'failures' | 'byHost', string>;

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

async function pdfText(bytes: Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: false })).text;
}

const PICTURE = '\u0001';

/**
 * What the pages of a report PDF draw, in order: their text, and PICTURE for each image painted
 * (`/Name Do`), read from each page's content stream.
 */
function drawnInOrder(bytes: Buffer): string {
  const pdf = bytes.toString('latin1');
  const objects = new Map(
    [...pdf.matchAll(/(\d+) 0 obj([\s\S]*?)endobj/g)].map(([, id, body]) => [id!, body!]),
  );
  const pages = /\/Type \/Pages[\s\S]*?\/Kids \[([^\]]*)\]/.exec(pdf)![1]!.match(/\d+(?= 0 R)/g)!;
  return pages
    .map((page) => {
      const body = objects.get(/\/Contents (\d+) 0 R/.exec(objects.get(page)!)![1]!)!;
      const stream = body.slice(body.indexOf('stream\n') + 'stream\n'.length, body.lastIndexOf('endstream'));
      const operators = inflateSync(Buffer.from(stream, 'latin1')).toString('latin1');
      return [...operators.matchAll(/\[([^\]]*)\] TJ|\/\w+ Do/g)]
        .map(([, text]) =>
          text === undefined
            ? PICTURE
            : [...text.matchAll(/<([0-9a-f]*)>/g)]
                .map(([, hex]) => Buffer.from(hex!, 'hex').toString('latin1'))
                .join(''),
        )
        .join('');
    })
    .join('');
}

/**
 * The pictures each chart section of a report PDF paints: those after a chart's title and before
 * the next one's, across pages (a picture too tall for the rest of a page starts the next one).
 */
function picturesPerSection(bytes: Buffer, titles: string[]) {
  const squeeze = (text: string) => text.replace(/\s+/g, '');
  const drawn = squeeze(drawnInOrder(bytes));
  const starts = titles.map((title) => drawn.indexOf(squeeze(title)));
  expect(starts.every((start) => start >= 0)).toBe(true);
  const ends = starts.map((start) => Math.min(...starts.filter((other) => other > start), drawn.length));
  return Object.fromEntries(
    titles.map((title, index) => [title, drawn.slice(starts[index], ends[index]).split(PICTURE).length - 1]),
  );
}

async function waitForState(id: string, state: string) {
  await vi.waitFor(
    async () => {
      const response = await call('GET', `/report/${id}`, viewer);
      expect(response.json().state).toBe(state);
    },
    { timeout: 30_000, interval: 250 },
  );
}

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, { config: { SMTP_URL: smtp.url }, startJobs: true });
  const db = ctx.database.db;
  orgName = 'First Community Bank';
  orgId = (await seedOrg(db, { name: orgName })).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['REPORT_VIEW', 'CHART_VIEW', 'EVENT_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  const saved = async (name: string, query: string, aggregation: object | null = null, org = orgId) =>
    (
      await insertSavedQuery(db, {
        orgId: org,
        library: false,
        name,
        query,
        aggregation: aggregation as never,
        primaryField: null,
        createdBy: null,
      })
    ).id;
  queries.logins = await saved('Logins', 'action:login');
  queries.failures = await saved('Failures', 'outcome:failure');
  queries.byHost = await saved('By host', 'action:login', { type: 'terms', field: 'host' });
  const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
  await seedEvents(db, orgId, [
    {
      timestamp: hoursAgo(3),
      host: 'web-01',
      message: 'login ok',
      fields: { action: 'login', outcome: 'success' },
    },
    {
      timestamp: hoursAgo(2),
      host: 'web-01',
      message: 'login failed',
      fields: { action: 'login', outcome: 'failure' },
    },
    {
      timestamp: hoursAgo(1),
      host: 'db-07',
      message: 'login ok',
      fields: { action: 'login', outcome: 'success' },
    },
  ]);
  const chart = async (payload: object, user = editor, org = orgId) => {
    const response = await call('POST', '/chart', user, payload, org);
    expect(response.statusCode, response.body).toBe(201);
    return response.json().id as string;
  };
  chartIds.hosts = await chart({
    name: 'Logins by host',
    type: 'bar',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.byHost],
  });
  chartIds.logins = await chart({
    name: 'Logins over time',
    type: 'line',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.logins, queries.failures],
  });
  chartIds.trend = await chart({
    name: 'Login trend',
    type: 'area',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.logins],
  });
  chartIds.outcomes = await chart({
    name: 'Login outcomes',
    type: 'pie',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.logins, queries.failures],
  });
  chartIds.badge = await chart({
    name: 'Login count',
    type: 'badge',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.logins],
  });
  chartIds.latest = await chart({
    name: 'Latest logins',
    type: 'events_table',
    family: 'SAVED_QUERIES',
    savedQueryIds: [queries.logins],
  });
  const theirs = await saved('Theirs', 'action:login', null, otherOrgId);
  chartIds.theirs = await chart(
    { name: 'Theirs', type: 'badge', family: 'SAVED_QUERIES', savedQueryIds: [theirs] },
    outsider,
    otherOrgId,
  );
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

async function createTemplate(payload: object) {
  const response = await call('POST', '/report-template', editor, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('report templates', () => {
  it('refuses a template without charts, with a chart twice, too many, or with charts not of the organisation', async () => {
    const refused = async (chartList: string[]) => {
      const response = await call('POST', '/report-template', editor, {
        name: 'Refused',
        chartIds: chartList,
      });
      expect(response.statusCode).toBe(400);
      return response.json();
    };
    expect(await refused([])).toMatchObject({ key: 'REPORT_TEMPLATE_NEEDS_CHART', field: 'chartIds' });
    expect((await refused([chartIds.hosts, chartIds.hosts])).key).toBe('REPORT_TEMPLATE_DUPLICATE_CHART');
    const many = Array.from({ length: 25 }, () => crypto.randomUUID());
    expect(await refused(many)).toMatchObject({
      key: 'REPORT_TEMPLATE_TOO_MANY_CHARTS',
      params: { max: 24 },
    });
    expect(await refused([chartIds.hosts, chartIds.theirs])).toMatchObject({
      key: 'REPORT_TEMPLATE_CHART_MISSING',
      params: { id: chartIds.theirs },
    });
    const blank = await call('POST', '/report-template', editor, { name: '  ', chartIds: [chartIds.hosts] });
    expect(blank.statusCode).toBe(400);
    const reader = await call('POST', '/report-template', viewer, {
      name: 'Mine',
      chartIds: [chartIds.hosts],
    });
    expect([reader.statusCode, reader.json().key]).toEqual([403, 'PERMISSION_DENIED']);
  });

  it('creates, orders, changes and deletes templates, auditing each change', async () => {
    const template = await createTemplate({
      name: 'Weekly logins',
      description: 'For the board',
      chartIds: [chartIds.logins, chartIds.hosts],
    });
    expect(template).toMatchObject({
      name: 'Weekly logins',
      charts: [
        { id: chartIds.logins, name: 'Logins over time', type: 'line', live: true },
        { id: chartIds.hosts, name: 'Logins by host', type: 'bar', live: true },
      ],
    });
    const changed = await call('PUT', `/report-template/${template.id}`, editor, {
      name: 'Weekly logins v2',
      chartIds: [chartIds.hosts, chartIds.logins, chartIds.badge],
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().charts.map((chart: { id: string }) => chart.id)).toEqual([
      chartIds.hosts,
      chartIds.logins,
      chartIds.badge,
    ]);
    const list = await call('GET', '/report-templates?search=v2', viewer);
    expect(list.json()).toMatchObject({ total: 1, items: [{ id: template.id, name: 'Weekly logins v2' }] });
    expect(
      (await call('GET', `/report-template/${template.id}`, outsider, undefined, otherOrgId)).statusCode,
    ).toBe(404);
    expect(
      (await call('DELETE', `/report-template/${template.id}`, outsider, undefined, otherOrgId)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/report-template/${template.id}`, editor)).statusCode).toBe(204);
    const gone = await call('GET', `/report-template/${template.id}`, editor);
    expect([gone.statusCode, gone.json().key]).toEqual([404, 'REPORT_TEMPLATE_NOT_FOUND']);
    const actions = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.targetId, template.id));
    expect(actions.map((row) => row.action).sort()).toEqual([
      'report_template.created',
      'report_template.deleted',
      'report_template.updated',
    ]);
  });

  it("locks the series of a chart a template uses: 'Cannot modify a series that is used in an On-Demand Report'", async () => {
    await createTemplate({ name: 'Locking', chartIds: [chartIds.latest] });
    const base = { type: 'events_table', family: 'SAVED_QUERIES', rowLimit: 10 };
    const series = await call('PUT', `/chart/${chartIds.latest}`, editor, {
      ...base,
      name: 'Latest logins',
      savedQueryIds: [queries.failures],
    });
    expect(series.statusCode).toBe(400);
    expect(series.json()).toMatchObject({ key: 'SERIES_USED_IN_ON_DEMAND_REPORT', field: 'savedQueryIds' });
    const renamed = await call('PUT', `/chart/${chartIds.latest}`, editor, {
      ...base,
      name: 'Latest logins',
      rowLimit: 5,
      savedQueryIds: [queries.logins],
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    // A chart no template uses stays free.
    const free = await call('PUT', `/chart/${chartIds.badge}`, editor, {
      name: 'Login count',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.failures],
    });
    expect(free.statusCode, free.body).toBe(200);
    await call('PUT', `/chart/${chartIds.badge}`, editor, {
      name: 'Login count',
      type: 'badge',
      family: 'SAVED_QUERIES',
      savedQueryIds: [queries.logins],
    });

    // The query the locked chart draws keeps its search too; its name may change.
    const query = { name: 'Logins', query: 'action:login' };
    const changed = await call('PUT', `/saved-query/${queries.logins}`, editor, {
      ...query,
      query: 'action:*',
    });
    expect([changed.statusCode, changed.json().key]).toEqual([400, 'SAVED_QUERY_USED_IN_ON_DEMAND_REPORT']);
    const aggregated = await call('PUT', `/saved-query/${queries.logins}`, editor, {
      ...query,
      aggregation: { type: 'count' },
    });
    expect(aggregated.json().key).toBe('SAVED_QUERY_USED_IN_ON_DEMAND_REPORT');
    const removed = await call('DELETE', `/saved-query/${queries.logins}`, editor);
    expect([removed.statusCode, removed.json().key]).toEqual([400, 'SAVED_QUERY_USED_IN_ON_DEMAND_REPORT']);
    const described = await call('PUT', `/saved-query/${queries.logins}`, editor, {
      ...query,
      description: 'Every logon',
    });
    expect(described.statusCode, described.body).toBe(200);
    expect((await call('GET', `/saved-query/${queries.logins}`, editor)).json().query).toBe('action:login');
    // A query only a free chart draws may change.
    const failures = await call('PUT', `/saved-query/${queries.failures}`, editor, {
      name: 'Failures',
      query: 'outcome:failure OR outcome:error',
    });
    expect(failures.statusCode, failures.body).toBe(200);
  });
});

describe('on-demand reports', () => {
  it('builds a requested report into a PDF: cover, then each chart with its picture and data table', async () => {
    const template = await createTemplate({
      name: 'Login activity',
      chartIds: [
        chartIds.hosts,
        chartIds.logins,
        chartIds.trend,
        chartIds.outcomes,
        chartIds.badge,
        chartIds.latest,
      ],
    });
    const refused = await call('POST', '/report', viewer, { templateId: template.id, range: '24H' });
    expect(refused.statusCode).toBe(403);
    const badRange = await call('POST', '/report', editor, { templateId: template.id, range: '2D' });
    expect(badRange.statusCode).toBe(400);
    const response = await call('POST', '/report', editor, { templateId: template.id, range: '24H' });
    expect(response.statusCode, response.body).toBe(202);
    const report = response.json();
    expect(report).toMatchObject({ name: 'Login activity', range: '24H', templateId: template.id });
    expect(['REQUESTED', 'WAITING_FOR_DATA', 'BUILDING', 'COMPLETED']).toContain(report.state);
    await waitForState(report.id, 'COMPLETED');

    const list = await call('GET', '/reports', viewer);
    expect(list.json().items[0]).toMatchObject({ id: report.id, state: 'COMPLETED', errorKey: null });
    expect(list.json().items[0].size).toBeGreaterThan(1000);

    const download = await call('GET', `/report/${report.id}/pdf`, viewer);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('Login activity.pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const pages = await pdfText(download.rawPayload);
    expect(pages.length).toBeGreaterThanOrEqual(2);
    expect(pages[0]).toContain('Login activity');
    expect(pages[0]).toContain(`Organisation: ${orgName}`);
    expect(pages[0]).toContain('Range: Last 24 hours');
    expect(pages[0]).toContain('Generated:');
    const body = pages.slice(1).join('\n');
    for (const title of ['Logins by host', 'Logins over time', 'Login count', 'Latest logins']) {
      expect(body).toContain(title);
    }
    // Bar, line, area and pie charts are drawn as a picture each; badges and events tables are not.
    expect(
      picturesPerSection(download.rawPayload, [
        'Logins by host',
        'Logins over time',
        'Login trend',
        'Login outcomes',
        'Login count',
        'Latest logins',
      ]),
    ).toEqual({
      'Logins by host': 1,
      'Logins over time': 1,
      'Login trend': 1,
      'Login outcomes': 1,
      'Login count': 0,
      'Latest logins': 0,
    });
    // The data tables: hosts with their counts, the events' messages.
    expect(body).toMatch(/web-01\s+2/);
    expect(body).toMatch(/db-07\s+1/);
    expect(body).toContain('login failed');
    expect(pages.at(-1)).toContain(`${pages.length} / ${pages.length}`);

    expect((await call('GET', `/report/${report.id}/pdf`, outsider, undefined, otherOrgId)).statusCode).toBe(
      404,
    );
  });

  it("fails with 'There has been an error generating your report.' and refuses to download what failed", async () => {
    const [row] = await ctx.database.db
      .insert(reports)
      .values({
        orgId,
        templateId: null,
        name: 'Orphan',
        range: '7D',
        begin: new Date(Date.now() - 7 * 86_400_000),
        end: new Date(),
        requestedBy: editor.id,
      })
      .returning();
    await buildReport(ctx.database.db, row!.id);
    const failed = (await call('GET', `/report/${row!.id}`, viewer)).json();
    expect(failed).toMatchObject({ state: 'FAILED', errorKey: 'REPORT_GENERATION_FAILED' });
    const download = await call('GET', `/report/${row!.id}/pdf`, viewer);
    expect([download.statusCode, download.json().key]).toEqual([409, 'REPORT_NOT_READY']);
    expect((await call('DELETE', `/report/${row!.id}`, viewer)).statusCode).toBe(403);
    expect((await call('DELETE', `/report/${row!.id}`, editor)).statusCode).toBe(204);
    const gone = await call('GET', `/report/${row!.id}`, viewer);
    expect([gone.statusCode, gone.json().key]).toEqual([404, 'REPORT_NOT_FOUND']);
  });

  it('builds on the next tick a report whose job was lost and starts over one cut short by a stop', async () => {
    const template = await createTemplate({ name: 'Recovered', chartIds: [chartIds.badge] });
    const insert = async (values: Partial<typeof reports.$inferInsert>) =>
      (
        await ctx.database.db
          .insert(reports)
          .values({
            orgId,
            templateId: template.id,
            name: 'Recovered',
            range: '7D',
            begin: new Date(Date.now() - 7 * 86_400_000),
            end: new Date(),
            requestedBy: editor.id,
            ...values,
          })
          .returning()
      )[0]!;
    // Written, but the process stopped before its job was queued.
    const lost = await insert({});
    // Its worker stopped mid-build 20 minutes ago.
    const cut = await insert({ state: 'BUILDING', requestedOn: new Date(Date.now() - 20 * 60_000) });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await call('GET', `/report/${lost.id}`, viewer)).json().state).toBe('REQUESTED');
    await runDueSchedules(ctx.database.db, queueOn(ctx.jobs), new Date(Date.now() + 2 * 60_000));
    await waitForState(lost.id, 'COMPLETED');
    await waitForState(cut.id, 'COMPLETED');
    // Queued again once built, it is not built twice.
    const size = (await call('GET', `/report/${lost.id}`, viewer)).json().size;
    await buildReport(ctx.database.db, lost.id);
    expect((await call('GET', `/report/${lost.id}`, viewer)).json()).toMatchObject({
      state: 'COMPLETED',
      size,
    });
  });
});

describe('report schedules', () => {
  it('schedules a template, e-mails the PDF to the recipients when due, and pauses, resumes and deletes', async () => {
    const template = await createTemplate({ name: 'Daily digest', chartIds: [chartIds.hosts] });
    const bad = await call('POST', '/report-schedule', editor, {
      templateId: template.id,
      range: '24H',
      frequency: 'DAILY',
      recipients: ['not an address'],
    });
    expect(bad.statusCode).toBe(400);
    const missing = await call('POST', '/report-schedule', editor, {
      templateId: crypto.randomUUID(),
      range: '24H',
      frequency: 'DAILY',
      recipients: ['soc@bank.example'],
    });
    expect([missing.statusCode, missing.json().key]).toEqual([400, 'REPORT_TEMPLATE_NOT_FOUND']);
    const created = await call('POST', '/report-schedule', editor, {
      templateId: template.id,
      range: '24H',
      frequency: 'DAILY',
      recipients: ['SOC@bank.example', 'ciso@bank.example'],
    });
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json();
    expect(schedule).toMatchObject({
      templateName: 'Daily digest',
      state: 'ACTIVE',
      recipients: ['soc@bank.example', 'ciso@bank.example'],
      lastRunState: null,
    });
    const tomorrow = new Date();
    tomorrow.setUTCHours(24, 0, 0, 0);
    expect(schedule.nextRunAt).toBe(tomorrow.toISOString());

    const inUse = await call('DELETE', `/report-template/${template.id}`, editor);
    expect([inUse.statusCode, inUse.json().key]).toEqual([409, 'REPORT_TEMPLATE_IN_USE']);

    const paused = await call('POST', `/report-schedule/${schedule.id}/pause`, editor);
    expect(paused.json().state).toBe('PAUSED');
    const again = await call('POST', `/report-schedule/${schedule.id}/pause`, editor);
    expect([again.statusCode, again.json().key]).toEqual([409, 'REPORT_SCHEDULE_STATE_INVALID']);
    const later = new Date(Date.now() + 2 * 86_400_000);
    expect(await runDueSchedules(ctx.database.db, queueOn(ctx.jobs), later)).toBe(0);
    expect((await call('POST', `/report-schedule/${schedule.id}/resume`, editor)).json().state).toBe(
      'ACTIVE',
    );

    expect(await runDueSchedules(ctx.database.db, queueOn(ctx.jobs), later)).toBe(1);
    const mail = await smtp.waitForMessage('ciso@bank.example', 30_000);
    expect(mail.subject).toBe('Vigil report: Daily digest');
    const [pdf] = mail.attachments;
    expect(pdf).toMatchObject({ filename: 'Daily digest.pdf', contentType: 'application/pdf' });
    const pages = await pdfText(pdf!.content);
    expect(pages[0]).toContain('Daily digest');
    expect(pages.join('\n')).toContain('Logins by host');
    await smtp.waitForMessage('soc@bank.example');
    await vi.waitFor(
      async () => {
        const listed = (await call('GET', '/report-schedules', viewer)).json();
        expect(listed.items.find((item: { id: string }) => item.id === schedule.id)).toMatchObject({
          lastRunState: 'COMPLETED',
        });
      },
      { timeout: 10_000 },
    );
    const built = (await call('GET', '/reports?search=Daily', viewer)).json();
    expect(built.items[0]).toMatchObject({ scheduleId: schedule.id, state: 'COMPLETED' });
    // Not due again until its next run.
    expect(await runDueSchedules(ctx.database.db, queueOn(ctx.jobs), later)).toBe(0);

    const changed = await call('PUT', `/report-schedule/${schedule.id}`, editor, {
      templateId: template.id,
      range: 'LAST_WEEK',
      frequency: 'WEEKLY',
      recipients: ['soc@bank.example'],
    });
    expect(changed.json()).toMatchObject({ frequency: 'WEEKLY', range: 'LAST_WEEK' });
    expect(new Date(changed.json().nextRunAt).getUTCDay()).toBe(1);

    expect(
      (await call('DELETE', `/report-schedule/${schedule.id}`, outsider, undefined, otherOrgId)).statusCode,
    ).toBe(404);
    expect((await call('DELETE', `/report-schedule/${schedule.id}`, editor)).statusCode).toBe(204);
    const [row] = await ctx.database.db
      .select()
      .from(reportSchedules)
      .where(eq(reportSchedules.id, schedule.id));
    expect(row).toMatchObject({ state: 'DELETED', nextRunAt: null });
    const listed = (await call('GET', '/report-schedules', viewer)).json();
    expect(listed.items.some((item: { id: string }) => item.id === schedule.id)).toBe(false);
    expect((await call('DELETE', `/report-template/${template.id}`, editor)).statusCode).toBe(204);
  });
});
