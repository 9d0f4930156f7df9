import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
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
