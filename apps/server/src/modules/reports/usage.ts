import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { chartIdsUsingQuery } from '../dashboards/repo';
import { reportTemplates } from './tables';

/**
 * Whether a chart is drawn by a report template, and so by on-demand and scheduled reports: its
 * series are then locked (spec 3 "Locking"). Library charts may be used by any organisation's template.
 */
export async function chartUsedInReports(db: Db, chartId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(sql`${reportTemplates.chartIds} @> ${JSON.stringify([chartId])}::jsonb`)
    .limit(1);
  return row !== undefined;
}

/**
 * Whether a saved or library query draws a chart of a report template: its search is then locked
 * like the chart's series (spec 3 "Locking").
 */
export async function savedQueryUsedInReports(db: Db, savedQueryId: string): Promise<boolean> {
  const chartIds = await chartIdsUsingQuery(db, savedQueryId);
  if (chartIds.length === 0) return false;
  const [row] = await db
    .select({ id: reportTemplates.id })
    .from(reportTemplates)
    .where(sql`${reportTemplates.chartIds} ?| ${sql.param(chartIds)}::text[]`)
    .limit(1);
  return row !== undefined;
}
