import { and, desc, eq, gte, lte, sql, type SQL } from 'drizzle-orm';
import { ALERT_SEVERITIES } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { triggers } from '../triggers/tables';
import { alerts, alertStateChanges } from './tables';

/**
 * Alert figures for charts and dashboards (spec 3 "security and fraud alerts (list, counts,
 * flagged)", "dismissed trigger activity summary", "alert trends"). Every function is scoped to one
 * organisation and domain; the caller checks the domain's product.
 */
export interface AlertScope {
  orgId: string;
  domain: string;
  begin: Date;
  end: Date;
}

/** Alerts of the scope's organisation and domain whose `at` (fired by default) falls in the range. */
const inScope = (scope: AlertScope, at: SQL = sql`${alerts.firedAt}`) =>
  and(
    eq(alerts.orgId, scope.orgId),
    eq(alerts.domain, scope.domain),
    gte(at, scope.begin),
    lte(at, scope.end),
  );

/** Alerts fired in the range per severity, highest first (every severity listed). */
export async function alertCountsBySeverity(db: Db, scope: AlertScope) {
  const rows = await db
    .select({ severity: alerts.severity, count: sql<number>`count(*)::int` })
    .from(alerts)
    .where(inScope(scope))
    .groupBy(alerts.severity);
  const bySeverity = new Map(rows.map((row) => [row.severity, row.count]));
  const known: string[] = [...ALERT_SEVERITIES];
  const extra = rows.map((row) => row.severity).filter((severity) => !known.includes(severity));
  return [...known, ...extra].map((severity) => ({ key: severity, count: bySeverity.get(severity) ?? 0 }));
}

/**
 * The activity funnel of the alerts fired in the range: all of them, those worked (no longer new),
 * and those escalated or fraud-flagged, each stage a part of the one before.
 */
export async function alertFunnel(db: Db, scope: AlertScope) {
  const [row] = await db
    .select({
      fired: sql<number>`count(*)::int`,
      worked: sql<number>`count(*) FILTER (WHERE ${alerts.state} <> 'NEW')::int`,
      actedOn: sql<number>`count(*) FILTER (WHERE ${alerts.state} IN ('ESCALATED', 'FRAUD_FLAGGED'))::int`,
    })
    .from(alerts)
    .where(inScope(scope));
  return [
    { key: 'Fired', count: row?.fired ?? 0 },
    { key: 'Worked', count: row?.worked ?? 0 },
    { key: 'Escalated or flagged', count: row?.actedOn ?? 0 },
  ];
}

/** Fraud-flagged alerts fired in the range per fraud type, most first. */
export async function flaggedAlertCounts(db: Db, scope: AlertScope, limit: number) {
  return db
    .select({ key: sql<string>`coalesce(${alerts.fraudType}, 'UNKNOWN')`, count: sql<number>`count(*)::int` })
    .from(alerts)
    .where(and(inScope(scope), eq(alerts.state, 'FRAUD_FLAGGED')))
    .groupBy(sql`1`)
    .orderBy(sql`2 DESC`, sql`1`)
    .limit(limit);
}

/** The latest alerts fired in the range, and how many there are. */
export async function latestAlerts(db: Db, scope: AlertScope, limit: number) {
  const [rows, [count]] = await Promise.all([
    db
      .select({
        firedAt: alerts.firedAt,
        title: alerts.title,
        severity: alerts.severity,
        state: alerts.state,
        triggerName: triggers.name,
      })
      .from(alerts)
      .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
      .where(inScope(scope))
      .orderBy(desc(alerts.firedAt), alerts.id)
      .limit(limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(alerts)
      .where(inScope(scope)),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Alerts fired per UTC day of the range (days without alerts left out). */
export async function alertsPerDay(db: Db, scope: AlertScope) {
  const day = sql<string>`to_char(date_trunc('day', ${alerts.firedAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ day, count: sql<number>`count(*)::int` })
    .from(alerts)
    .where(inScope(scope))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

/** The trigger of grouped alerts by name (threat match as one). */
const triggerLabel = sql<string>`coalesce(max(${triggers.name}), CASE WHEN ${alerts.kind} = 'THREAT_MATCH' THEN 'Threat match' ELSE 'Deleted trigger' END)`;

/** Alerts dismissed in the range per trigger (threat match as one), most first. */
export async function dismissedPerTrigger(db: Db, scope: AlertScope, limit: number) {
  return db
    .select({ key: triggerLabel, count: sql<number>`count(*)::int` })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(
      and(
        inScope(scope, sql`coalesce(${alerts.dismissedAt}, ${alerts.firedAt})`),
        eq(alerts.state, 'DISMISSED'),
      ),
    )
    .groupBy(alerts.triggerId, alerts.kind)
    .orderBy(sql`2 DESC`, sql`1`)
    .limit(limit);
}

/**
 * Alerts escalated to incidents in the range per UTC day and trigger (threat match as one), for the
 * escalation chart.
 */
export async function escalationsPerDay(db: Db, scope: AlertScope) {
  const day = sql<string>`to_char(date_trunc('day', ${alerts.escalatedAt} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ day, trigger: triggerLabel, count: sql<number>`count(*)::int` })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(inScope(scope, sql`${alerts.escalatedAt}`))
    .groupBy(sql`1`, alerts.triggerId, alerts.kind)
    .orderBy(sql`1`);
}

/**
 * Alerts of an organisation and domain fired since `since` that are due to be worked (worked already,
 * or fired more than `slaMs` ago), and those of them worked (taken out of New) within `slaMs` of firing.
 */
export async function alertsWorkedInTime(db: Db, orgId: string, domain: string, since: Date, slaMs: number) {
  const sla = sql`make_interval(secs => ${slaMs / 1000})`;
  const workedAt = sql`CASE WHEN ${alerts.state} <> 'NEW' THEN coalesce(
    (SELECT min(${alertStateChanges.changedAt}) FROM ${alertStateChanges} WHERE ${alertStateChanges.alertId} = ${alerts.id}),
    ${alerts.stateChangedAt}, ${alerts.firedAt}) END`;
  const [row] = await db
    .select({
      total: sql<number>`count(*) FILTER (WHERE ${workedAt} IS NOT NULL OR ${alerts.firedAt} < now() - ${sla})::int`,
      onTime: sql<number>`count(*) FILTER (WHERE ${workedAt} <= ${alerts.firedAt} + ${sla})::int`,
    })
    .from(alerts)
    .where(and(eq(alerts.orgId, orgId), eq(alerts.domain, domain), gte(alerts.firedAt, since)));
  return { total: row?.total ?? 0, onTime: row?.onTime ?? 0 };
}
