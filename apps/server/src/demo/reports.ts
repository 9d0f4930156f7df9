import { nextReportRun, resolveSearchRange } from '@vigil/contracts';
import type { Db } from '../db/client';
import { findDashboardView } from '../modules/dashboards/repo';
import { insertReport, insertSchedule, insertTemplate } from '../modules/reports/repo';

/**
 * A bank's report template "Weekly security summary" (the charts of its default dashboard), a report
 * of it over the last 7 days, and a paused weekly schedule that would e-mail it to the bank's
 * security team. Answers the report's id. The report is left requested: the report job's first tick
 * after the server starts builds it, so that building PDFs does not slow the first start.
 */
export async function seedReportsDemo(
  db: Db,
  orgId: string,
  ids: { dashboardId: string; requestedBy: string; recipient: string },
): Promise<string> {
  const dashboard = await findDashboardView(db, orgId, ids.dashboardId);
  const template = await insertTemplate(db, orgId, {
    name: 'Weekly security summary',
    description: 'Events, sign-ins, hosts and alerts of the week, for the security committee.',
    chartIds: (dashboard?.row.tiles ?? []).map((tile) => tile.chartId),
    createdBy: ids.requestedBy,
  });
  const now = new Date();
  const report = await insertReport(db, {
    orgId,
    templateId: template.id,
    scheduleId: null,
    name: template.name,
    range: '7D',
    ...resolveSearchRange('7D', now),
    state: 'REQUESTED',
    requestedBy: ids.requestedBy,
  });
  await insertSchedule(db, {
    orgId,
    templateId: template.id,
    range: 'LAST_WEEK',
    frequency: 'WEEKLY',
    recipients: [ids.recipient],
    state: 'PAUSED',
    nextRunAt: nextReportRun('WEEKLY', now),
    createdBy: ids.requestedBy,
  });
  return report.id;
}
