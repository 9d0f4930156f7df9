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

/**
 * The provider's report library: a template "Monthly alert desk review" of the library's Alert desk
 * charts and a monthly schedule of it, offered to every bank, where it shows as Not copied (it never
 * runs there until the bank copies it with its own recipients).
 */
export async function seedReportLibraryDemo(
  db: Db,
  ids: { libraryDashboardId: string; createdBy: string; customerOrgIds: string[] },
) {
  const [someOrg] = ids.customerOrgIds;
  if (!someOrg) return;
  const dashboard = await findDashboardView(db, someOrg, ids.libraryDashboardId);
  const template = await insertTemplate(db, null, {
    name: 'Monthly alert desk review',
    description: 'How the alert inbox was worked last month, for the SOC lead.',
    chartIds: (dashboard?.row.tiles ?? []).map((tile) => tile.chartId),
    createdBy: ids.createdBy,
  });
  const schedule = { templateId: template.id, range: 'LAST_MONTH', frequency: 'MONTHLY', recipients: [] };
  const library = await insertSchedule(db, {
    orgId: null,
    library: true,
    ...schedule,
    state: 'ACTIVE',
    nextRunAt: null,
    createdBy: ids.createdBy,
  });
  for (const orgId of ids.customerOrgIds) {
    await insertSchedule(db, {
      orgId,
      copiedFromId: library.id,
      ...schedule,
      state: 'NOT_COPIED',
      nextRunAt: null,
      createdBy: ids.createdBy,
    });
  }
}
