import { CONTROL_STRENGTH_LABELS, CONTROL_STRENGTHS, RISK_LEVEL_LABELS, RISK_LEVELS } from '@vigil/contracts';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { riskControls, risks } from './tables';

/**
 * Counts of an organisation's risk register for dashboard charts: the register as it stands now,
 * whatever the dashboard's range. Each level shows, most severe last, then the unscored ones.
 */

const NOT_SCORED = 'Not scored';

async function countsBy(
  db: Db,
  table: typeof risks | typeof riskControls,
  column: SQL,
  where: SQL | undefined,
  levels: readonly string[],
  labels: Record<string, string>,
): Promise<{ key: string; count: number }[]> {
  const rows = await db
    .select({ level: sql<string | null>`${column}`, count: sql<number>`count(*)::int` })
    .from(table)
    .where(where)
    .groupBy(column);
  const byLevel = new Map(rows.map((row) => [row.level ?? '', row.count]));
  return [
    ...levels.map((level) => ({ key: labels[level]!, count: byLevel.get(level) ?? 0 })),
    {
      key: NOT_SCORED,
      count: rows.filter((row) => !levels.includes(row.level ?? '')).reduce((n, row) => n + row.count, 0),
    },
  ];
}

/** Active risks of the register per residual risk level. */
export function riskCountsByResidualRisk(db: Db, orgId: string) {
  return countsBy(
    db,
    risks,
    sql`${risks.residualRisk}`,
    and(eq(risks.orgId, orgId), eq(risks.library, false), eq(risks.state, 'ACTIVE')),
    RISK_LEVELS,
    RISK_LEVEL_LABELS,
  );
}

/** Controls of the register per overall score. */
export function controlCountsByOverallScore(db: Db, orgId: string) {
  return countsBy(
    db,
    riskControls,
    sql`${riskControls.overallScore}`,
    and(eq(riskControls.orgId, orgId), eq(riskControls.library, false)),
    CONTROL_STRENGTHS,
    CONTROL_STRENGTH_LABELS,
  );
}
