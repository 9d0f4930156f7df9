import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../test/app';
import { seedEvents } from '../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../test/fixtures';
import { seedDashboardsDemo, seedLibraryDashboardDemo } from './dashboards';
import { buildReport, runDueSchedules } from '../modules/reports/service';
import { seedReportLibraryDemo, seedReportsDemo } from './reports';

let ctx: TestContext;
let orgId: string;
let analyst: SeededUser;
let reportId: string;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor Demo Bank' })).id;
  analyst = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['REPORT_VIEW', 'DASHBOARD_VIEW', 'CHART_VIEW', 'EVENT_VIEW', 'ALERT_INBOX_VIEW'],
  });
  await seedEvents(db, orgId, [
    {
      timestamp: new Date(Date.now() - 3_600_000),
      host: 'dc-01',
      dataSource: 'windows-security',
      message: 'failed',
      fields: { outcome: 'failure' },
    },
  ]);
  const dashboardId = await seedDashboardsDemo(db, orgId, analyst.id);
  reportId = await seedReportsDemo(db, orgId, {
    dashboardId,
    requestedBy: analyst.id,
    recipient: 'security@harbor.example',
  });
  // The report job's first tick after the start.
  await runDueSchedules(db, (id) => buildReport(db, id), new Date(Date.now() + 2 * 60_000));
});
afterAll(() => ctx.close());

describe('demo reports', () => {
  it('gives each bank a template of its dashboard charts, a report completed by the first tick and a paused schedule', async () => {
    const templates = (await orgRequest(ctx, orgId, 'GET', '/report-templates', analyst)).json();
    expect(templates.items).toHaveLength(1);
    expect(templates.items[0].name).toBe('Weekly security summary');
    expect(templates.items[0].charts.map((chart: { name: string }) => chart.name)).toContain('Top hosts');

    const reports = (await orgRequest(ctx, orgId, 'GET', '/reports', analyst)).json();
    expect(reports.items).toEqual([
      expect.objectContaining({
        id: reportId,
        state: 'COMPLETED',
        range: '7D',
        name: 'Weekly security summary',
      }),
    ]);
    const pdf = await orgRequest(ctx, orgId, 'GET', `/report/${reportId}/pdf`, analyst);
    expect(pdf.statusCode).toBe(200);
    const { text } = await extractText(await getDocumentProxy(new Uint8Array(pdf.rawPayload)), {
      mergePages: false,
    });
    expect(text[0]).toContain('Harbor Demo Bank');
    expect(text.join('\n')).toContain('dc-01');

    const schedules = (await orgRequest(ctx, orgId, 'GET', '/report-schedules', analyst)).json();
    expect(schedules.items).toEqual([
      expect.objectContaining({
        state: 'PAUSED',
        frequency: 'WEEKLY',
        recipients: ['security@harbor.example'],
      }),
    ]);
  });

  it('offers the library schedule to each bank as Not copied', async () => {
    const db = ctx.database.db;
    const libraryDashboardId = await seedLibraryDashboardDemo(db, analyst.id);
    await seedReportLibraryDemo(db, { libraryDashboardId, createdBy: analyst.id, customerOrgIds: [orgId] });
    const schedules = (await orgRequest(ctx, orgId, 'GET', '/report-schedules', analyst)).json();
    expect(schedules.items).toContainEqual(
      expect.objectContaining({
        templateName: 'Monthly alert desk review',
        state: 'NOT_COPIED',
        frequency: 'MONTHLY',
        recipients: [],
        nextRunAt: null,
      }),
    );
    const library = (await orgRequest(ctx, orgId, 'GET', '/report-templates?library=true', analyst)).json();
    expect(library.items[0].charts.map((chart: { name: string }) => chart.name)).toEqual([
      'Alerts by severity',
      'Alert trend',
      'Latest alerts',
      'Dismissed by trigger',
    ]);
  });
});
