import {
  TICKET_SEARCH_EVENTS_KEPT,
  TICKET_SEARCHES_LIMIT,
  ticketSearchInputSchema,
  type Event,
  type TicketKind,
  type TicketSearch,
  type TicketSearchInput,
} from '@vigil/contracts';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { accessDenied, AppError, validationFailed } from '../../platform/errors';
import { searchEvents, type SearchActor } from '../events/service';
import { restrictionsForUser } from '../restrictions/repo';
import { users } from '../users/tables';
import { commitChange, ticketView, type Actor, type TicketDeps } from './service';
import { ticketSearches } from './tables';

type SearchRow = typeof ticketSearches.$inferSelect;

export const ticketSearchNotFound = () =>
  new AppError('NotFoundException', 'TICKET_SEARCH_NOT_FOUND', 'Search not found on this ticket');

/** Searching events is for those who may read them. */
function assertEventReader(access: AccessContext) {
  if (!access.permissions.has('EVENT_VIEW')) {
    throw accessDenied('PERMISSION_DENIED', 'Searches of a ticket show events: EVENT_VIEW is needed');
  }
}

const actorOf = (access: AccessContext): SearchActor => ({ orgId: access.org.id, userId: access.user.id });

/** The search's events as the viewer may see them: the first matching events, newest first. */
const searchOf =
  (actor: SearchActor, row: Pick<SearchRow, 'query' | 'begin' | 'end'>, pageSize: number) => (db: Db) =>
    searchEvents(db, actor, {
      query: row.query,
      begin: row.begin.toISOString(),
      end: row.end.toISOString(),
      filters: [],
      sortField: 'timestamp',
      sortOrder: 'desc',
      pageSize,
      pageNumber: 1,
    });

/**
 * The ticket's searches with their kept events. The kept events were matched under the attaching
 * user's data restrictions; a viewer with restrictions of their own sees only those kept events that
 * their restrictions show today (checked against the stored events, so events that aged out since are
 * left out for them and counted in `hiddenCount`).
 */
export async function ticketSearchList(
  db: Db,
  access: AccessContext,
  kind: TicketKind,
  ref: string,
): Promise<TicketSearch[]> {
  assertEventReader(access);
  const { row: ticket } = await ticketView(db, access.org.id, kind, ref);
  const rows = await db
    .select({
      row: ticketSearches,
      createdByName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
    })
    .from(ticketSearches)
    .leftJoin(users, eq(users.id, ticketSearches.createdBy))
    .where(eq(ticketSearches.ticketId, ticket.id))
    .orderBy(asc(ticketSearches.createdOn), asc(ticketSearches.id));
  const restricted = (await restrictionsForUser(db, access.org.id, access.user.id)).length > 0;
  const result: TicketSearch[] = [];
  for (const { row, createdByName } of rows) {
    const kept = row.events as unknown as Event[];
    let events = kept;
    if (restricted) {
      const visible = await searchOf(actorOf(access), row, TICKET_SEARCH_EVENTS_KEPT * 10)(db);
      const ids = new Set(visible.items.map((event) => event.id));
      events = kept.filter((event) => ids.has(event.id));
    }
    result.push({
      id: row.id,
      query: row.query,
      begin: row.begin.toISOString(),
      end: row.end.toISOString(),
      total: row.total,
      events,
      hiddenCount: kept.length - events.length,
      createdBy: row.createdBy,
      createdByName,
      createdOn: row.createdOn.toISOString(),
    });
  }
  return result;
}

/**
 * Runs the search as the user (their data restrictions apply) and keeps its first 100 events with the
 * ticket, copied, so they stay when the events age out. The history names the query.
 */
export async function attachTicketSearch(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  input: TicketSearchInput,
): Promise<TicketSearch[]> {
  const { db } = deps;
  const { access } = actor;
  assertEventReader(access);
  const values = ticketSearchInputSchema.parse(input);
  const { row: ticket } = await ticketView(db, access.org.id, kind, ref);
  const found = await searchEvents(db, actorOf(access), {
    query: values.query,
    begin: values.begin,
    end: values.end,
    intervalType: values.intervalType,
    filters: [],
    sortField: 'timestamp',
    sortOrder: 'desc',
    pageSize: TICKET_SEARCH_EVENTS_KEPT,
    pageNumber: 1,
  });
  await commitChange(deps, actor, kind, ticket.id, undefined, async (tx, row) => {
    const [count] = await tx
      .select({ total: sql<number>`count(*)::int` })
      .from(ticketSearches)
      .where(eq(ticketSearches.ticketId, row.id));
    if ((count?.total ?? 0) >= TICKET_SEARCHES_LIMIT) {
      throw validationFailed(
        'TICKET_SEARCH_TOO_MANY',
        `A ticket holds at most ${TICKET_SEARCHES_LIMIT} searches`,
        {
          field: 'query',
          params: { limit: TICKET_SEARCHES_LIMIT },
        },
      );
    }
    const [search] = await tx
      .insert(ticketSearches)
      .values({
        ticketId: row.id,
        query: values.query,
        begin: new Date(found.begin),
        end: new Date(found.end),
        total: found.total,
        events: found.items as unknown as Record<string, unknown>[],
        createdBy: access.user.id,
      })
      .returning();
    return {
      action: 'search-attached',
      details: { searchId: search!.id, query: values.query, total: found.total },
      summary: `search attached: ${values.query || '*'}`,
    };
  });
  return ticketSearchList(db, access, kind, ticket.id);
}

export async function removeTicketSearch(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  searchId: string,
): Promise<TicketSearch[]> {
  const { db } = deps;
  const { access } = actor;
  assertEventReader(access);
  const { row: ticket } = await ticketView(db, access.org.id, kind, ref);
  await commitChange(deps, actor, kind, ticket.id, undefined, async (tx, row) => {
    const [removed] = await tx
      .delete(ticketSearches)
      .where(and(eq(ticketSearches.ticketId, row.id), eq(ticketSearches.id, searchId)))
      .returning({ query: ticketSearches.query });
    if (!removed) throw ticketSearchNotFound();
    return {
      action: 'search-removed',
      details: { searchId, query: removed.query },
      summary: `search removed: ${removed.query || '*'}`,
    };
  });
  return ticketSearchList(db, access, kind, ticket.id);
}
