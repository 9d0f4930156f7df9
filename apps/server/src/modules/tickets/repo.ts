import {
  TICKET_SLUG_PREFIX,
  type TicketFilter,
  type TicketKind,
  type TicketSortField,
  type TicketState,
} from '@vigil/contracts';
import {
  and,
  asc,
  desc,
  eq,
  exists,
  ilike,
  inArray,
  isNotNull,
  isNull,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import { userEmails, userOrgs, users } from '../users/tables';
import {
  ticketComments,
  ticketCounters,
  ticketFiles,
  ticketHistory,
  ticketLinks,
  tickets,
  ticketWatchers,
} from './tables';

export type TicketRow = typeof tickets.$inferSelect;
export type NewTicket = Omit<typeof tickets.$inferInsert, 'id' | 'number' | 'slug' | 'orgId' | 'kind'>;

export interface TicketView {
  row: TicketRow;
  ownerName: string | null;
}

const fullName = (table: typeof users) => sql<string | null>`${table.firstName} || ' ' || ${table.lastName}`;

function selectViews(db: Db) {
  return db
    .select({ row: tickets, ownerName: fullName(users) })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.ownerId));
}

export interface TicketSelection {
  filter: TicketFilter;
  states?: TicketState[];
  q?: string;
  ownerId?: string;
}

const FILTERS: Record<TicketKind, Record<TicketFilter, SQL | undefined>> = {
  incident: {
    all: undefined,
    open: sql`${tickets.state} IN ('TRIAGE', 'ANALYSIS', 'REMEDIATION')`,
    inProgress: sql`${tickets.state} IN ('ANALYSIS', 'REMEDIATION')`,
    pending: sql`${tickets.state} = 'TRIAGE'`,
  },
  task: {
    all: undefined,
    open: sql`${tickets.state} = 'OPEN'`,
    inProgress: and(eq(tickets.state, 'OPEN'), isNotNull(tickets.ownerId)),
    pending: and(eq(tickets.state, 'OPEN'), isNull(tickets.ownerId)),
  },
};

/** The tickets of one organisation, or of several (the universal inbox), matching a selection. */
export function selectionWhere(
  orgId: string | readonly string[],
  kind: TicketKind,
  selection: TicketSelection,
): SQL {
  const pattern = selection.q ? `%${escapeLike(selection.q)}%` : undefined;
  return and(
    typeof orgId === 'string' ? eq(tickets.orgId, orgId) : inArray(tickets.orgId, [...orgId]),
    eq(tickets.kind, kind),
    FILTERS[kind][selection.filter],
    selection.states?.length ? inArray(tickets.state, selection.states) : undefined,
    selection.ownerId ? eq(tickets.ownerId, selection.ownerId) : undefined,
    pattern
      ? or(
          ilike(tickets.slug, pattern),
          ilike(tickets.title, pattern),
          ilike(tickets.description, pattern),
          ilike(tickets.externalId, pattern),
        )
      : undefined,
  )!;
}

const SORTS: Record<TicketSortField, SQL> = {
  number: sql`${tickets.number}`,
  title: sql`lower(${tickets.title})`,
  state: sql`${tickets.state}`,
  createdOn: sql`${tickets.createdOn}`,
  modifiedOn: sql`${tickets.modifiedOn}`,
  dueDate: sql`${tickets.dueDate}`,
  slaDate: sql`${tickets.slaDate}`,
};

export interface TicketSort {
  sortBy: TicketSortField;
  desc: boolean;
}

const orderOf = (sort: TicketSort) => [
  sql`${SORTS[sort.sortBy]} ${sort.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`}`,
  sort.desc ? desc(tickets.number) : asc(tickets.number),
];

export async function listTickets(
  db: Db,
  where: SQL,
  sort: TicketSort,
  page: { limit: number; offset: number },
): Promise<{ items: TicketView[]; total: number }> {
  const [items, [count]] = await Promise.all([
    selectViews(db)
      .where(where)
      .orderBy(...orderOf(sort))
      .limit(page.limit)
      .offset(page.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(tickets)
      .where(where),
  ]);
  return { items, total: count?.total ?? 0 };
}

/** A ticket by id or by slug (case-insensitive), of the organisation and kind when given. */
export async function findTicketView(
  db: Db,
  orgId: string,
  ref: { id?: string; slug?: string },
  kind?: TicketKind,
): Promise<TicketView | undefined> {
  const [view] = await selectViews(db).where(
    and(
      eq(tickets.orgId, orgId),
      kind ? eq(tickets.kind, kind) : undefined,
      ref.id ? eq(tickets.id, ref.id) : eq(tickets.slug, (ref.slug ?? '').toUpperCase()),
    ),
  );
  return view;
}

/** Locks the ticket row for the rest of the transaction. */
/** The kind and slug of the organisation's tickets by id, for other modules; ids not found are left out. */
export async function ticketRefs(
  db: Db,
  orgId: string,
  ids: (string | null)[],
): Promise<Map<string, { kind: TicketKind; slug: string }>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: tickets.id, kind: tickets.kind, slug: tickets.slug })
    .from(tickets)
    .where(and(eq(tickets.orgId, orgId), inArray(tickets.id, wanted)));
  return new Map(rows.map((row) => [row.id, { kind: row.kind as TicketKind, slug: row.slug }]));
}

export async function lockTicket(tx: Db, orgId: string, id: string): Promise<TicketRow | undefined> {
  const [row] = await tx
    .select()
    .from(tickets)
    .where(and(eq(tickets.orgId, orgId), eq(tickets.id, id)))
    .for('update');
  return row;
}

/**
 * Inserts a ticket with the next slug of its organisation and kind. The counter row is updated in the
 * caller's transaction, so concurrent creations wait for each other and never share a number.
 */
export async function insertTicket(
  tx: Db,
  orgId: string,
  kind: TicketKind,
  values: NewTicket,
): Promise<TicketRow> {
  const [counter] = await tx
    .insert(ticketCounters)
    .values({ orgId, kind, lastNumber: 1 })
    .onConflictDoUpdate({
      target: [ticketCounters.orgId, ticketCounters.kind],
      set: { lastNumber: sql`${ticketCounters.lastNumber} + 1` },
    })
    .returning();
  const number = counter!.lastNumber;
  const [row] = await tx
    .insert(tickets)
    .values({ ...values, orgId, kind, number, slug: `${TICKET_SLUG_PREFIX[kind]}-${number}` })
    .returning();
  return row!;
}

export async function updateTicketRow(tx: Db, id: string, values: Partial<TicketRow>): Promise<TicketRow> {
  const [row] = await tx
    .update(tickets)
    .set({ ...values, version: sql`${tickets.version} + 1`, modifiedOn: new Date() })
    .where(eq(tickets.id, id))
    .returning();
  return row!;
}

export async function listWatchers(db: Db, ticketId: string) {
  return db
    .select({ id: users.id, name: fullName(users) })
    .from(ticketWatchers)
    .innerJoin(users, eq(users.id, ticketWatchers.userId))
    .where(eq(ticketWatchers.ticketId, ticketId))
    .orderBy(sql`lower(${users.lastName})`, sql`lower(${users.firstName})`);
}

export async function replaceWatchers(tx: Db, ticketId: string, userIds: string[]) {
  await tx.delete(ticketWatchers).where(eq(ticketWatchers.ticketId, ticketId));
  if (userIds.length > 0) {
    await tx.insert(ticketWatchers).values(userIds.map((userId) => ({ ticketId, userId })));
  }
}

const refColumns = {
  id: tickets.id,
  kind: tickets.kind,
  slug: tickets.slug,
  title: tickets.title,
  state: tickets.state,
};

export async function listLinked(db: Db, ticketId: string) {
  const other = sql`CASE WHEN ${ticketLinks.firstId} = ${ticketId} THEN ${ticketLinks.secondId} ELSE ${ticketLinks.firstId} END`;
  return db
    .select(refColumns)
    .from(ticketLinks)
    .innerJoin(tickets, eq(tickets.id, other))
    .where(or(eq(ticketLinks.firstId, ticketId), eq(ticketLinks.secondId, ticketId)))
    .orderBy(asc(tickets.kind), asc(tickets.number));
}

const linkPair = (a: string, b: string) =>
  a < b ? { firstId: a, secondId: b } : { firstId: b, secondId: a };

/** Links two tickets; false when they already were. */
export async function insertLink(tx: Db, a: string, b: string, createdBy: string): Promise<boolean> {
  const rows = await tx
    .insert(ticketLinks)
    .values({ ...linkPair(a, b), createdBy })
    .onConflictDoNothing()
    .returning();
  return rows.length > 0;
}

export async function deleteLink(tx: Db, a: string, b: string): Promise<boolean> {
  const { firstId, secondId } = linkPair(a, b);
  const rows = await tx
    .delete(ticketLinks)
    .where(and(eq(ticketLinks.firstId, firstId), eq(ticketLinks.secondId, secondId)))
    .returning();
  return rows.length > 0;
}

export async function listChildren(db: Db, orgId: string, ticketId: string) {
  return db
    .select(refColumns)
    .from(tickets)
    .where(and(eq(tickets.orgId, orgId), eq(tickets.parentId, ticketId)))
    .orderBy(asc(tickets.kind), asc(tickets.number));
}

export async function findRef(db: Db, orgId: string, id: string) {
  const [row] = await db
    .select(refColumns)
    .from(tickets)
    .where(and(eq(tickets.orgId, orgId), eq(tickets.id, id)));
  return row;
}

/** The ids of `id` and every ticket above it, nearest first (at most `max`). */
export async function ancestorIds(db: Db, orgId: string, id: string, max = 100): Promise<string[]> {
  const chain: string[] = [];
  let current: string | null = id;
  while (current && chain.length < max && !chain.includes(current)) {
    chain.push(current);
    const [row] = await db
      .select({ parentId: tickets.parentId })
      .from(tickets)
      .where(and(eq(tickets.orgId, orgId), eq(tickets.id, current)));
    current = row?.parentId ?? null;
  }
  return chain;
}

export async function insertComment(tx: Db, values: typeof ticketComments.$inferInsert) {
  const [row] = await tx.insert(ticketComments).values(values).returning();
  return row!;
}

export async function listComments(db: Db, ticketId: string) {
  return db
    .select({ comment: ticketComments, authorName: fullName(users) })
    .from(ticketComments)
    .leftJoin(users, eq(users.id, ticketComments.authorId))
    .where(eq(ticketComments.ticketId, ticketId))
    .orderBy(asc(ticketComments.createdOn), asc(ticketComments.id));
}

export async function insertHistory(tx: Db, values: typeof ticketHistory.$inferInsert) {
  await tx.insert(ticketHistory).values(values);
}

export async function listHistory(db: Db, ticketId: string) {
  return db
    .select({ entry: ticketHistory, actorName: fullName(users) })
    .from(ticketHistory)
    .leftJoin(users, eq(users.id, ticketHistory.actorId))
    .where(eq(ticketHistory.ticketId, ticketId))
    .orderBy(asc(ticketHistory.at), asc(ticketHistory.id));
}

/** The primary e-mail addresses of users, active ones only. */
export async function primaryEmails(db: Db, userIds: string[]): Promise<string[]> {
  if (userIds.length === 0) return [];
  const rows = await db
    .select({ email: userEmails.email })
    .from(userEmails)
    .innerJoin(users, eq(users.id, userEmails.userId))
    .where(
      and(
        inArray(userEmails.userId, userIds),
        eq(userEmails.primary, true),
        eq(users.active, true),
        isNull(users.deletedAt),
      ),
    );
  return rows.map((row) => row.email);
}

/** Keyset pages of a ticket selection in list order, for the CSV download. */
export async function* iterateTickets(
  db: Db,
  where: SQL,
  sort: TicketSort,
  max: number,
  batch: number,
): AsyncGenerator<TicketView[]> {
  for (let offset = 0; offset < max; offset += batch) {
    const rows = await selectViews(db)
      .where(where)
      .orderBy(...orderOf(sort))
      .limit(Math.min(batch, max - offset))
      .offset(offset);
    if (rows.length > 0) yield rows;
    if (rows.length < batch) return;
  }
}

/** Whether a user may own or watch tickets of the organisation: active, of it or authorised for it. */
export async function isActiveOrgPerson(db: Db, orgId: string, userId: string): Promise<boolean> {
  const authorised = db
    .select({ userId: userOrgs.userId })
    .from(userOrgs)
    .where(and(eq(userOrgs.userId, users.id), eq(userOrgs.orgId, orgId)));
  const [row] = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.id, userId),
        eq(users.active, true),
        isNull(users.deletedAt),
        or(eq(users.homeOrgId, orgId), exists(authorised)),
      ),
    );
  return row !== undefined;
}

/** The files of a ticket without their bytes, by name. */
export async function listFiles(db: Db, ticketId: string) {
  return db
    .select({
      id: ticketFiles.id,
      name: ticketFiles.name,
      contentType: ticketFiles.contentType,
      size: ticketFiles.size,
      createdBy: ticketFiles.createdBy,
      createdByName: fullName(users),
      createdOn: ticketFiles.createdOn,
    })
    .from(ticketFiles)
    .leftJoin(users, eq(users.id, ticketFiles.createdBy))
    .where(eq(ticketFiles.ticketId, ticketId))
    .orderBy(sql`lower(${ticketFiles.name})`, asc(ticketFiles.createdOn), asc(ticketFiles.id));
}

export async function countFiles(db: Db, ticketId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(ticketFiles)
    .where(eq(ticketFiles.ticketId, ticketId));
  return row?.count ?? 0;
}

export async function insertFile(tx: Db, values: typeof ticketFiles.$inferInsert) {
  const [row] = await tx
    .insert(ticketFiles)
    .values(values)
    .returning({ id: ticketFiles.id, name: ticketFiles.name });
  return row!;
}

/** One file of a ticket with its bytes. */
export async function findFile(db: Db, ticketId: string, fileId: string) {
  const [row] = await db
    .select()
    .from(ticketFiles)
    .where(and(eq(ticketFiles.ticketId, ticketId), eq(ticketFiles.id, fileId)));
  return row;
}

export async function deleteFile(tx: Db, ticketId: string, fileId: string) {
  const [row] = await tx
    .delete(ticketFiles)
    .where(and(eq(ticketFiles.ticketId, ticketId), eq(ticketFiles.id, fileId)))
    .returning({ id: ticketFiles.id, name: ticketFiles.name });
  return row;
}
