import { and, eq, gte, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { triggerRuns, triggers } from './tables';

/** Trigger figures for other areas (the cyber risk readiness dashboard). */

/** The organisation's own triggers of a domain that are running (ACTIVE). */
export async function activeTriggerCount(db: Db, orgId: string, domain: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(triggers)
    .where(and(eq(triggers.orgId, orgId), eq(triggers.domain, domain), eq(triggers.state, 'ACTIVE')));
  return row?.count ?? 0;
}

/** The runs of a trigger's versions since `since`: how many, how many failed, alerts raised, the last run and its error. */
export async function triggerRunsSince(db: Db, triggerIds: readonly string[], since: Date) {
  const [row] = await db
    .select({
      runs: sql<number>`count(*)::int`,
      failed: sql<number>`count(*) FILTER (WHERE ${triggerRuns.error} IS NOT NULL)::int`,
      alertsRaised: sql<number>`coalesce(sum(${triggerRuns.alertsRaised}), 0)::int`,
      lastRunAt: sql<string | null>`max(${triggerRuns.ranAt})`,
      lastError: sql<
        string | null
      >`(array_agg(${triggerRuns.error} ORDER BY ${triggerRuns.ranAt} DESC) FILTER (WHERE ${triggerRuns.error} IS NOT NULL))[1]`,
    })
    .from(triggerRuns)
    .where(and(inArray(triggerRuns.triggerId, [...triggerIds]), gte(triggerRuns.ranAt, since)));
  return {
    runs: row?.runs ?? 0,
    failed: row?.failed ?? 0,
    alertsRaised: row?.alertsRaised ?? 0,
    lastRunAt: row?.lastRunAt ? new Date(row.lastRunAt) : null,
    lastError: row?.lastError ?? null,
  };
}

/**
 * The organisation's triggers among `ids` (deleted ones left out), with their state and when they
 * last raised alerts: for the risk area's controls.
 */
export async function triggersByIds(db: Db, orgId: string, ids: readonly string[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .select({
      id: triggers.id,
      name: triggers.name,
      domain: triggers.domain,
      state: triggers.state,
      // Qualified by hand: drizzle leaves columns of a one-table query unqualified, which the subquery
      // would take for its own.
      lastFiredOn: sql<
        string | null
      >`(select max(fired.ran_at) from ${triggerRuns} fired where fired.trigger_id = ${triggers}.id and fired.alerts_raised > 0)`,
    })
    .from(triggers)
    .where(and(eq(triggers.orgId, orgId), inArray(triggers.id, [...ids]), ne(triggers.state, 'DELETED')))
    .orderBy(sql`lower(${triggers.name})`);
  return rows.map((row) => ({
    ...row,
    active: row.state === 'ACTIVE',
    lastFiredOn: row.lastFiredOn ? new Date(row.lastFiredOn).toISOString() : null,
  }));
}
