import { TICKET_STATES_OF, type TicketKind } from '@vigil/contracts';
import { and, desc, eq, gte, inArray, lte, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { users } from '../users/tables';
import { ticketHistory, tickets } from './tables';

/**
 * Ticket figures for charts and dashboards (spec 3 "tasks (list, counts)", "incidents (list,
 * counts)", "incident trends"). Every function is scoped to one organisation and kind and counts the
 * tickets created in the range; the caller checks INCIDENT_VIEW or TASK_VIEW.
 */
export interface TicketScope {
  orgId: string;
  kind: TicketKind;
  begin: Date;
  end: Date;
}

const inScope = (scope: TicketScope) =>
  and(
    eq(tickets.orgId, scope.orgId),
    eq(tickets.kind, scope.kind),
    gte(tickets.createdOn, scope.begin),
    lte(tickets.createdOn, scope.end),
  );

/** Tickets created in the range per state, in the kind's order of states (every state listed). */
export async function ticketCountsByState(db: Db, scope: TicketScope) {
  const rows = await db
    .select({ state: tickets.state, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(inScope(scope))
    .groupBy(tickets.state);
  const byState = new Map(rows.map((row) => [row.state, row.count]));
  return TICKET_STATES_OF[scope.kind].map((state) => ({ key: state, count: byState.get(state) ?? 0 }));
}

/** Tickets created in the range per owner (unowned as 'Unassigned'), most first. */
export async function ticketCountsByOwner(db: Db, scope: TicketScope, limit: number) {
  return db
    .select({
      key: sql<string>`coalesce(max(${users.firstName} || ' ' || ${users.lastName}), 'Unassigned')`,
      count: sql<number>`count(*)::int`,
    })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.ownerId))
    .where(inScope(scope))
    .groupBy(tickets.ownerId)
    .orderBy(sql`2 DESC`, sql`1`)
    .limit(limit);
}

/** The latest tickets created in the range, and how many there are. */
export async function latestTickets(db: Db, scope: TicketScope, limit: number) {
  const [rows, [count]] = await Promise.all([
    db
      .select({
        slug: tickets.slug,
        title: tickets.title,
        state: tickets.state,
        ownerName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
        createdOn: tickets.createdOn,
      })
      .from(tickets)
      .leftJoin(users, eq(users.id, tickets.ownerId))
      .where(inScope(scope))
      .orderBy(desc(tickets.createdOn), desc(tickets.number))
      .limit(limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(tickets)
      .where(inScope(scope)),
  ]);
  return { rows, total: count?.total ?? 0 };
}

/** Tickets created per UTC day of the range (days without tickets left out). */
export async function ticketsPerDay(db: Db, scope: TicketScope) {
  const day = sql<string>`to_char(date_trunc('day', ${tickets.createdOn} AT TIME ZONE 'UTC'), 'YYYY-MM-DD')`;
  return db
    .select({ day, count: sql<number>`count(*)::int` })
    .from(tickets)
    .where(inScope(scope))
    .groupBy(sql`1`)
    .orderBy(sql`1`);
}

/**
 * What happened to the tickets of the kind in the range, from their history: entries per action
 * ("state changed", "commented" …), most first.
 */
export async function ticketEventCounts(db: Db, scope: TicketScope) {
  const rows = await db
    .select({ action: ticketHistory.action, count: sql<number>`count(*)::int` })
    .from(ticketHistory)
    .innerJoin(tickets, eq(tickets.id, ticketHistory.ticketId))
    .where(
      and(
        eq(tickets.orgId, scope.orgId),
        eq(tickets.kind, scope.kind),
        gte(ticketHistory.at, scope.begin),
        lte(ticketHistory.at, scope.end),
      ),
    )
    .groupBy(ticketHistory.action)
    .orderBy(sql`2 DESC`, sql`1`);
  return rows.map((row) => ({
    key: row.action.charAt(0).toUpperCase() + row.action.slice(1).replaceAll('-', ' '),
    count: row.count,
  }));
}

/**
 * Tickets of a kind whose deadline (SLA date, else due date, else `defaultDays` after creation) fell
 * between `since` and now, and those of them done (in one of `doneStates`) by it. `where` narrows the
 * tickets further (for example to those a task schedule created).
 */
export async function ticketsDoneInTime(
  db: Db,
  scope: { orgId: string; kind: TicketKind; since: Date; defaultDays: number; doneStates: readonly string[] },
  where?: SQL,
) {
  const deadline = sql`coalesce(${tickets.slaDate}, ${tickets.dueDate}, ${tickets.createdOn} + make_interval(days => ${scope.defaultDays}))`;
  const doneAt = sql`coalesce((SELECT max(${ticketHistory.at}) FROM ${ticketHistory}
    WHERE ${ticketHistory.ticketId} = ${tickets.id} AND ${ticketHistory.action} = 'state-changed'
      AND ${ticketHistory.details}->>'to' = ${tickets.state}), ${tickets.modifiedOn})`;
  const [row] = await db
    .select({
      total: sql<number>`count(*)::int`,
      onTime: sql<number>`count(*) FILTER (WHERE ${inArray(tickets.state, [...scope.doneStates])} AND ${doneAt} <= ${deadline})::int`,
    })
    .from(tickets)
    .where(
      and(
        eq(tickets.orgId, scope.orgId),
        eq(tickets.kind, scope.kind),
        sql`${deadline} >= ${scope.since}`,
        sql`${deadline} <= now()`,
        where,
      ),
    );
  return { total: row?.total ?? 0, onTime: row?.onTime ?? 0 };
}
