import { and, asc, desc, eq, isNotNull, sql, type SQL } from 'drizzle-orm';
import { ALERT_SEVERITIES, ALERT_STATES, type AlertSort, type AlertState } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { events } from '../events/tables';
import { tickets } from '../tickets/tables';
import { triggers } from '../triggers/tables';
import { users } from '../users/tables';
import { alerts, alertStateChanges, alertViews } from './tables';

export type AlertRow = typeof alerts.$inferSelect;
export type NewAlert = typeof alerts.$inferInsert;

export interface AlertView {
  row: AlertRow;
  triggerName: string | null;
  ticketSlug: string | null;
  viewed: boolean;
}

/** Higher severities first; unknown ones last. */
const severityRank = sql`array_position(${sql.param([...ALERT_SEVERITIES])}::text[], ${alerts.severity})`;

const SORTS: Record<AlertSort, SQL[]> = {
  newest: [desc(alerts.firedAt)],
  oldest: [asc(alerts.firedAt)],
  severity: [sql`${severityRank} ASC NULLS LAST`, desc(alerts.firedAt)],
  lastEscalated: [sql`${alerts.escalatedAt} DESC NULLS LAST`, desc(alerts.firedAt)],
  dismissed: [sql`${alerts.dismissedAt} DESC NULLS LAST`, desc(alerts.firedAt)],
  fraudFlagged: [sql`${alerts.flaggedAt} DESC NULLS LAST`, desc(alerts.firedAt)],
};

function selectViews(db: Db, userId: string) {
  return db
    .select({
      row: alerts,
      triggerName: triggers.name,
      ticketSlug: tickets.slug,
      viewed: sql<boolean>`EXISTS (SELECT 1 FROM ${alertViews} v WHERE v.alert_id = ${alerts.id} AND v.user_id = ${userId})`,
    })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .leftJoin(tickets, and(eq(tickets.id, alerts.ticketId), eq(tickets.orgId, alerts.orgId)));
}

/** One page of alerts meeting `where` (which includes the organisation). */
export async function listAlerts(
  db: Db,
  userId: string,
  where: SQL,
  sort: AlertSort,
  page: { limit: number; offset: number },
): Promise<{ items: AlertView[]; total: number }> {
  const [items, [count]] = await Promise.all([
    selectViews(db, userId)
      .where(where)
      .orderBy(...SORTS[sort], asc(alerts.id))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(alerts)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function findAlertView(
  db: Db,
  orgId: string,
  userId: string,
  id: string,
): Promise<AlertView | undefined> {
  const [view] = await selectViews(db, userId).where(and(eq(alerts.orgId, orgId), eq(alerts.id, id)));
  return view;
}

/** The trigger view: one row per trigger (threat match as one row) with counts per state. */
export async function listTriggerRows(db: Db, where: SQL, page: { limit: number; offset: number }) {
  const grouped = db
    .select({
      triggerId: alerts.triggerId,
      kind: alerts.kind,
      name: sql<string | null>`max(${triggers.name})`.as('name'),
      total: sql<number>`count(*)::int`.as('total'),
      latestFiredAt: sql<Date>`max(${alerts.firedAt})`.as('latest'),
      counts: sql<Record<AlertState, number>>`json_build_object(${sql.join(
        ALERT_STATES.map((state) => sql`${state}::text, count(*) FILTER (WHERE ${alerts.state} = ${state})`),
        sql`, `,
      )})`.as('counts'),
    })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(where)
    .groupBy(alerts.triggerId, alerts.kind);
  const [items, [count]] = await Promise.all([
    grouped
      .orderBy(sql`max(${alerts.firedAt}) DESC`, alerts.triggerId)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(DISTINCT (${alerts.triggerId}, ${alerts.kind}))::int` })
      .from(alerts)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** Similar alerts share a group key; an alert without one is a story of its own. */
const storyKey = sql<string>`coalesce(${alerts.groupKey}, ${alerts.id}::text)`;

/** The story view: similar alerts together with their count and time span. */
export async function listStories(db: Db, where: SQL, page: { limit: number; offset: number }) {
  const [items, [count]] = await Promise.all([
    db
      .select({
        groupKey: storyKey,
        title: sql<string>`(array_agg(${alerts.title} ORDER BY ${alerts.firedAt} DESC))[1]`,
        severity: sql<string>`(array_agg(${alerts.severity} ORDER BY ${severityRank} ASC NULLS LAST))[1]`,
        count: sql<number>`count(*)::int`,
        firstFiredAt: sql<Date>`min(${alerts.firedAt})`,
        lastFiredAt: sql<Date>`max(${alerts.firedAt})`,
        latestAlertId: sql<string>`(array_agg(${alerts.id} ORDER BY ${alerts.firedAt} DESC))[1]::text`,
      })
      .from(alerts)
      .where(where)
      .groupBy(storyKey)
      .orderBy(sql`max(${alerts.firedAt}) DESC`, storyKey)
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(DISTINCT ${storyKey})::int` })
      .from(alerts)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

export async function listHistory(db: Db, alertId: string) {
  return db
    .select({
      change: alertStateChanges,
      changedByName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(alertStateChanges)
    .leftJoin(users, eq(users.id, alertStateChanges.changedBy))
    .where(eq(alertStateChanges.alertId, alertId))
    .orderBy(asc(alertStateChanges.changedAt), asc(alertStateChanges.id));
}

export async function listViewers(db: Db, alertId: string) {
  return db
    .select({
      userId: alertViews.userId,
      name: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
      viewedAt: alertViews.viewedAt,
    })
    .from(alertViews)
    .leftJoin(users, eq(users.id, alertViews.userId))
    .where(eq(alertViews.alertId, alertId))
    .orderBy(asc(alertViews.viewedAt));
}

/** Records a view once; answers whether it was the first. */
export async function insertView(db: Db, alertId: string, userId: string): Promise<boolean> {
  const rows = await db.insert(alertViews).values({ alertId, userId }).onConflictDoNothing().returning();
  return rows.length > 0;
}

export async function updateAlert(db: Db, id: string, values: Partial<NewAlert>): Promise<AlertRow> {
  const [row] = await db.update(alerts).set(values).where(eq(alerts.id, id)).returning();
  return row!;
}

export async function insertStateChange(db: Db, values: typeof alertStateChanges.$inferInsert) {
  await db.insert(alertStateChanges).values(values);
}

export async function insertAlerts(db: Db, values: NewAlert[]): Promise<void> {
  if (values.length > 0) await db.insert(alerts).values(values);
}

/** Values of the events an alert matched, for comparing incidents. */
const matchedValues = (column: SQL) => sql<string[]>`coalesce((
  SELECT array_agg(DISTINCT v) FROM (
    SELECT ${column} AS v FROM ${events} ev, jsonb_to_recordset(${alerts.events}) AS m(id uuid, ts timestamptz)
    WHERE ev.org_id = ${alerts.orgId} AND ev.ts = m.ts AND ev.id = m.id
  ) s WHERE v IS NOT NULL), '{}')`;

/**
 * Every escalated alert of the organisation (at most `limit`, newest first) with its ticket, trigger
 * and the hosts, IPs and users of its matched events.
 */
export async function escalatedAlertTraits(db: Db, orgId: string, limit: number) {
  return db
    .select({
      ticketId: sql<string>`${alerts.ticketId}`,
      triggerId: alerts.triggerId,
      triggerName: triggers.name,
      hosts: matchedValues(sql`lower(ev.host)`),
      ips: matchedValues(sql`unnest(ARRAY[host(ev.src_ip), host(ev.dst_ip)])`),
      users: matchedValues(sql`lower(ev.user_name)`),
    })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(and(eq(alerts.orgId, orgId), isNotNull(alerts.ticketId)))
    .orderBy(desc(alerts.escalatedAt))
    .limit(limit);
}

/** The alerts escalated to a ticket, newest first. */
export async function listTicketAlerts(db: Db, orgId: string, ticketId: string) {
  return db
    .select({
      id: alerts.id,
      title: alerts.title,
      severity: alerts.severity,
      triggerName: triggers.name,
      firedAt: alerts.firedAt,
      escalatedAt: alerts.escalatedAt,
    })
    .from(alerts)
    .leftJoin(triggers, eq(triggers.id, alerts.triggerId))
    .where(and(eq(alerts.orgId, orgId), eq(alerts.ticketId, ticketId)))
    .orderBy(desc(alerts.firedAt));
}
