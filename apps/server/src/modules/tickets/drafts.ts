import {
  ticketDraftInputSchema,
  type TicketDetail,
  type TicketDraft,
  type TicketDraftInput,
  type TicketDraftList,
  type Permission,
  type TicketKind,
} from '@vigil/contracts';
import { and, desc, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { refusalFor } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, AppError, conflict } from '../../platform/errors';
import { escapeLike } from '../../db/like';
import { users } from '../users/tables';
import { createTicket, type Actor, type TicketDeps } from './service';
import { ticketDrafts } from './tables';

type DraftRow = typeof ticketDrafts.$inferSelect;

export const draftNotFound = () =>
  new AppError('NotFoundException', 'TICKET_DRAFT_NOT_FOUND', 'Ticket draft not found');

const draftModified = () =>
  conflict('TICKET_MODIFIED', 'The draft was changed or submitted meanwhile; reload it');

const author = sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`;

function toDraft(row: DraftRow, createdByName: string | null, orgName: string): TicketDraft {
  const iso = (date: Date | null) => (date ? date.toISOString() : null);
  return {
    id: row.id,
    orgId: row.orgId,
    orgName,
    kind: row.kind as TicketKind,
    title: row.title,
    description: row.description,
    ownerId: row.ownerId,
    watcherIds: row.watcherIds,
    dueDate: iso(row.dueDate),
    slaDate: iso(row.slaDate),
    externalId: row.externalId,
    version: row.version,
    createdBy: row.createdBy,
    createdByName,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

function columns(input: TicketDraftInput) {
  const values = ticketDraftInputSchema.parse(input);
  return {
    kind: values.kind,
    title: values.title,
    description: values.description,
    ownerId: values.ownerId,
    watcherIds: [...new Set(values.watcherIds)],
    dueDate: values.dueDate ? new Date(values.dueDate) : null,
    slaDate: values.slaDate ? new Date(values.slaDate) : null,
    externalId: values.externalId || null,
  };
}

/** Drafts of the given organisations, last changed first, each with its organisation's name. */
export async function listDrafts(
  db: Db,
  orgs: { id: string; name: string }[],
  query: { kind?: TicketKind; q?: string; pageSize: number; pageNumber: number },
): Promise<TicketDraftList> {
  if (orgs.length === 0) return { items: [], total: 0, orgs };
  const pattern = query.q ? `%${escapeLike(query.q)}%` : undefined;
  const where = and(
    inArray(
      ticketDrafts.orgId,
      orgs.map((org) => org.id),
    ),
    query.kind ? eq(ticketDrafts.kind, query.kind) : undefined,
    pattern ? or(ilike(ticketDrafts.title, pattern), ilike(ticketDrafts.description, pattern)) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select({ row: ticketDrafts, createdByName: author })
      .from(ticketDrafts)
      .leftJoin(users, eq(users.id, ticketDrafts.createdBy))
      .where(where)
      .orderBy(desc(ticketDrafts.modifiedOn), desc(ticketDrafts.id))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(ticketDrafts)
      .where(where),
  ]);
  const names = new Map(orgs.map((org) => [org.id, org.name]));
  return {
    items: rows.map(({ row, createdByName }) => toDraft(row, createdByName, names.get(row.orgId) ?? '')),
    total: count?.total ?? 0,
    orgs,
  };
}

export async function getDraft(db: Db, actor: Actor, id: string): Promise<TicketDraft> {
  const { org } = actor.access;
  const [found] = await db
    .select({ row: ticketDrafts, createdByName: author })
    .from(ticketDrafts)
    .leftJoin(users, eq(users.id, ticketDrafts.createdBy))
    .where(and(eq(ticketDrafts.orgId, org.id), eq(ticketDrafts.id, id)));
  if (!found) throw draftNotFound();
  return toDraft(found.row, found.createdByName, org.name);
}

async function audit(
  tx: Db,
  actor: Actor,
  action: string,
  row: DraftRow,
  details: Record<string, unknown> = {},
) {
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `ticket-draft.${action}`,
    targetType: 'ticket-draft',
    targetId: row.id,
    details: { kind: row.kind, title: row.title, ...details },
    ip: actor.ip,
  });
}

export async function createDraft(db: Db, actor: Actor, input: TicketDraftInput): Promise<TicketDraft> {
  const row = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(ticketDrafts)
      .values({ ...columns(input), orgId: actor.access.org.id, createdBy: actor.access.user.id })
      .returning();
    await audit(tx, actor, 'created', row!);
    return row!;
  });
  return getDraft(db, actor, row.id);
}

/** The draft locked for a change, refused when it changed since `version` was read. */
async function lockedDraft(tx: Db, orgId: string, id: string, version: number): Promise<DraftRow> {
  const [row] = await tx
    .select()
    .from(ticketDrafts)
    .where(and(eq(ticketDrafts.orgId, orgId), eq(ticketDrafts.id, id)))
    .for('update');
  if (!row) throw draftNotFound();
  if (row.version !== version) throw draftModified();
  return row;
}

export async function replaceDraft(
  db: Db,
  actor: Actor,
  id: string,
  input: TicketDraftInput & { version: number },
): Promise<TicketDraft> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const before = await lockedDraft(tx, orgId, id, input.version);
    const [after] = await tx
      .update(ticketDrafts)
      .set({ ...columns(input), version: before.version + 1, modifiedOn: new Date() })
      .where(and(eq(ticketDrafts.orgId, orgId), eq(ticketDrafts.id, id)))
      .returning();
    await audit(tx, actor, 'updated', after!);
  });
  return getDraft(db, actor, id);
}

export async function deleteDraft(db: Db, actor: Actor, id: string, version: number): Promise<void> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const row = await lockedDraft(tx, orgId, id, version);
    await tx.delete(ticketDrafts).where(and(eq(ticketDrafts.orgId, orgId), eq(ticketDrafts.id, id)));
    await audit(tx, actor, 'deleted', row);
  });
}

/**
 * Submits a draft: the ticket is created by the rules of creation (the kind's edit permission, owner,
 * watchers, dates) and the draft removed in the same transaction, so a draft becomes one ticket once.
 */
export async function submitDraft(
  deps: TicketDeps,
  actor: Actor,
  id: string,
  version: number,
  editPermission: (kind: TicketKind) => Permission,
): Promise<TicketDetail> {
  const draft = await getDraft(deps.db, actor, id);
  if (draft.version !== version) throw draftModified();
  if (refusalFor({ permission: editPermission(draft.kind) }, actor.access)) {
    throw accessDenied('PERMISSION_DENIED', `Creating the ${draft.kind} needs ${editPermission(draft.kind)}`);
  }
  const orgId = actor.access.org.id;
  return createTicket(
    deps,
    actor,
    draft.kind,
    {
      title: draft.title,
      description: draft.description,
      ownerId: draft.ownerId,
      watcherIds: draft.watcherIds,
      dueDate: draft.dueDate,
      slaDate: draft.slaDate,
      externalId: draft.externalId,
    },
    async (tx, ticket) => {
      const row = await lockedDraft(tx, orgId, id, version);
      await tx.delete(ticketDrafts).where(and(eq(ticketDrafts.orgId, orgId), eq(ticketDrafts.id, id)));
      await audit(tx, actor, 'submitted', row, { slug: ticket.slug });
    },
  );
}
