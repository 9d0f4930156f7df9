import type { FastifyBaseLogger } from 'fastify';
import { readFile } from 'node:fs/promises';
import { Readable } from 'node:stream';
import {
  type ActivityNote,
  type ActivityNoteInput,
  TICKET_CSV_MAX_ROWS,
  TICKET_FILES_LIMIT,
  TICKET_INITIAL_STATE,
  TICKET_STATES_OF,
  type Ticket,
  type TicketCreateInput,
  type TicketDetail,
  type TicketKind,
  type TicketList,
  type TicketRef,
  type TicketState,
  type TicketStateInput,
  type TicketUpdateInput,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { csvLine } from '../../platform/csv';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import type { SendMail } from '../../platform/mail';
import type { SpooledFile } from '../../platform/uploads';
import { addNote, listNotes } from '../metadata/notes';
import { checkedContentType, safeFileName } from './file-types';
import { findTemplate } from './templates';
import {
  ancestorIds,
  countFiles,
  deleteFile,
  deleteLink,
  findFile,
  findRef,
  findTicketView,
  insertComment,
  insertFile,
  insertHistory,
  insertLink,
  insertTicket,
  isActiveOrgPerson,
  iterateTickets,
  listChildren,
  listComments,
  listFiles,
  listHistory,
  listLinked,
  listTickets as selectTickets,
  listWatchers,
  lockTicket,
  primaryEmails,
  replaceWatchers,
  selectionWhere,
  updateTicketRow,
  type TicketRow,
  type TicketSelection,
  type TicketSort,
  type TicketView,
} from './repo';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

export interface TicketDeps {
  db: Db;
  /** E-mail to the owner and watchers after each change. */
  sendMail?: SendMail;
  /** Where an e-mail that could not be queued is reported (the change it tells of is saved by then). */
  log?: FastifyBaseLogger;
}

/** What a change needs to tell the owner and watchers of a ticket. */
export type TicketMail = Pick<TicketDeps, 'sendMail' | 'log'>;

export const ticketNotFound = () => new AppError('NotFoundException', 'TICKET_NOT_FOUND', 'Ticket not found');

const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const refOf = (ref: string) => (UUID_TEXT.test(ref) ? { id: ref } : { slug: ref });
const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toTicket({ row, ownerName }: TicketView): Ticket {
  return {
    id: row.id,
    kind: row.kind as TicketKind,
    slug: row.slug,
    title: row.title,
    state: row.state as TicketState,
    description: row.description,
    ownerId: row.ownerId,
    ownerName,
    resolution: row.resolution,
    summaryNote: row.summaryNote,
    dueDate: iso(row.dueDate),
    slaDate: iso(row.slaDate),
    externalId: row.externalId,
    parentId: row.parentId,
    version: row.version,
    createdBy: row.createdBy,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

const toRef = (row: { id: string; kind: string; slug: string; title: string; state: string }): TicketRef => ({
  id: row.id,
  kind: row.kind as TicketKind,
  slug: row.slug,
  title: row.title,
  state: row.state as TicketState,
});

/** A ticket of the caller's organisation and this kind, by id or slug; 404 otherwise. */
export async function ticketView(db: Db, orgId: string, kind: TicketKind, ref: string): Promise<TicketView> {
  const view = await findTicketView(db, orgId, refOf(ref), kind);
  if (!view) throw ticketNotFound();
  return view;
}

// ---------------------------------------------------------------------------------------------------
// Lists and the CSV download

export type TicketPageQuery = TicketSelection & TicketSort & { pageSize: number; pageNumber: number };

/** One page of the tickets of a kind in one organisation or several, in list order, with the total. */
export async function pageOfTickets(
  db: Db,
  orgIds: string | readonly string[],
  kind: TicketKind,
  query: TicketPageQuery,
): Promise<{ items: TicketView[]; total: number }> {
  return selectTickets(db, selectionWhere(orgIds, kind, query), query, {
    limit: query.pageSize,
    offset: (query.pageNumber - 1) * query.pageSize,
  });
}

export async function listTickets(
  db: Db,
  access: AccessContext,
  kind: TicketKind,
  query: TicketPageQuery,
): Promise<TicketList> {
  const { items, total } = await pageOfTickets(db, access.org.id, kind, query);
  return { items: items.map(toTicket), total };
}

export const TICKET_CSV_COLUMNS = [
  'slug',
  'title',
  'state',
  'owner',
  'resolution',
  'dueDate',
  'slaDate',
  'externalId',
  'createdOn',
  'modifiedOn',
  'description',
] as const;

/** The first 1,000 tickets of a selection in list order, as CSV written while it is read. */
export function exportTicketsCsv(
  db: Db,
  access: AccessContext,
  kind: TicketKind,
  query: TicketSelection & TicketSort,
): Readable {
  const where = selectionWhere(access.org.id, kind, query);
  async function* lines() {
    yield csvLine(TICKET_CSV_COLUMNS);
    for await (const views of iterateTickets(db, where, query, TICKET_CSV_MAX_ROWS, 250)) {
      for (const view of views) {
        const ticket = toTicket(view);
        yield csvLine([
          ticket.slug,
          ticket.title,
          ticket.state,
          ticket.ownerName,
          ticket.resolution,
          ticket.dueDate,
          ticket.slaDate,
          ticket.externalId,
          ticket.createdOn,
          ticket.modifiedOn,
          ticket.description,
        ]);
      }
    }
  }
  return Readable.from(lines());
}

// ---------------------------------------------------------------------------------------------------
// One ticket

export async function getTicket(
  db: Db,
  access: AccessContext,
  kind: TicketKind,
  ref: string,
): Promise<TicketDetail> {
  const view = await ticketView(db, access.org.id, kind, ref);
  const { row } = view;
  const [parent, watchers, links, subtasks, comments, history, files] = await Promise.all([
    row.parentId ? findRef(db, access.org.id, row.parentId) : undefined,
    listWatchers(db, row.id),
    listLinked(db, row.id),
    listChildren(db, access.org.id, row.id),
    listComments(db, row.id),
    listHistory(db, row.id),
    listFiles(db, row.id),
  ]);
  return {
    ...toTicket(view),
    parent: parent ? toRef(parent) : null,
    watchers: watchers.map((watcher) => ({ id: watcher.id, name: watcher.name ?? '' })),
    links: links.map(toRef),
    subtasks: subtasks.map(toRef),
    comments: comments.map(({ comment, authorName }) => ({
      id: comment.id,
      authorId: comment.authorId,
      authorName,
      body: comment.body,
      createdOn: comment.createdOn.toISOString(),
    })),
    history: history.map(({ entry, actorName }) => ({
      id: entry.id,
      actorId: entry.actorId,
      actorName,
      action: entry.action,
      details: entry.details,
      at: entry.at.toISOString(),
    })),
    files: files.map((file) => ({ ...file, createdOn: file.createdOn.toISOString() })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Checks shared by create and update

async function assertUser(db: Db, orgId: string, userId: string, key: string, field: string) {
  if (!(await isActiveOrgPerson(db, orgId, userId))) {
    throw validationFailed(key, `Not a user of the organisation: ${userId}`, { field });
  }
}

function assertDueDate(dueDate: string | null | undefined, now: Date) {
  if (dueDate && new Date(dueDate) < now) {
    throw validationFailed('TICKET_INVALID_DUE_DATE', 'The due date is in the past', { field: 'dueDate' });
  }
}

/** The parent named by slug: a ticket of the organisation that is neither this one nor below it. */
async function parentFor(db: Db, orgId: string, slug: string, self?: TicketRow): Promise<string> {
  const parent = await findTicketView(db, orgId, { slug });
  if (!parent) {
    throw validationFailed('TICKET_INVALID_PARENT', `No ticket ${slug}`, {
      field: 'parentSlug',
      params: { slug },
    });
  }
  if (self && (await ancestorIds(db, orgId, parent.row.id)).includes(self.id)) {
    throw validationFailed('TICKET_PARENT_CYCLE', 'A ticket cannot be below itself', { field: 'parentSlug' });
  }
  return parent.row.id;
}

/** Spec 3: the state moves to Analysis when work starts, and back to Triage when nobody owns it. */
function automaticState(kind: TicketKind, state: string, ownerId: string | null): TicketState | null {
  if (kind !== 'incident') return null;
  if (state === 'TRIAGE' && ownerId) return 'ANALYSIS';
  if (state === 'ANALYSIS' && !ownerId) return 'TRIAGE';
  return null;
}

// ---------------------------------------------------------------------------------------------------
// Changes: each in one transaction with its history and audit row, e-mail after the commit

export interface Change {
  action: string;
  details: Record<string, unknown>;
  /** One line for the e-mail. */
  summary: string;
}

async function record(tx: Db, actor: Actor, row: TicketRow, change: Change) {
  await insertHistory(tx, {
    ticketId: row.id,
    actorId: actor.access.user.id,
    action: change.action,
    details: change.details,
  });
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `ticket.${change.action}`,
    targetType: row.kind,
    targetId: row.id,
    details: { slug: row.slug, ...change.details },
    ip: actor.ip,
  });
}

/** Tells the owner and the watchers (not the actor) what changed. */
async function notify(deps: TicketDeps, actor: Actor, ticketId: string, changes: Change[]) {
  if (!deps.sendMail || changes.length === 0) return;
  const view = await findTicketView(deps.db, actor.access.org.id, { id: ticketId });
  if (!view) return;
  const watchers = await listWatchers(deps.db, ticketId);
  const recipients = [
    ...new Set([view.row.ownerId, ...watchers.map((watcher) => watcher.id)].filter(Boolean) as string[]),
  ].filter((id) => id !== actor.access.user.id);
  const emails = await primaryEmails(deps.db, recipients);
  if (emails.length === 0) return;
  const { row } = view;
  const message = {
    to: emails.join(', '),
    subject: `[Vigil] ${row.slug} ${row.title}: ${changes.map((change) => change.summary).join('; ')}`,
    text:
      `${row.slug} ${row.title}\nOrganisation: ${actor.access.org.name}\nState: ${row.state}\n` +
      `Owner: ${view.ownerName ?? 'nobody'}\n\n` +
      `${actor.access.user.firstName} ${actor.access.user.lastName}:\n` +
      changes.map((change) => `- ${change.summary}`).join('\n'),
  };
  try {
    await deps.sendMail(message);
  } catch (error) {
    // The change is committed: an error answer would invite the user to repeat it.
    deps.log?.error({ err: error, ticketId }, 'ticket e-mail not queued');
  }
}

export async function createTicket(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  input: TicketCreateInput,
  /** More work in the ticket's transaction (a submitted draft is removed there). */
  within?: (tx: Db, ticket: TicketRow) => Promise<void>,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const now = new Date();
  if (input.ownerId) await assertUser(db, orgId, input.ownerId, 'TICKET_INVALID_OWNER', 'ownerId');
  const watcherIds = [...new Set(input.watcherIds ?? [])];
  for (const id of watcherIds) await assertUser(db, orgId, id, 'TICKET_INVALID_WATCHER', 'watcherIds');
  assertDueDate(input.dueDate, now);
  const parentId = input.parentSlug ? await parentFor(db, orgId, input.parentSlug) : null;
  const template = input.templateId ? await findTemplate(db, orgId, input.templateId) : undefined;
  if (input.templateId && !template) {
    throw validationFailed('TICKET_TEMPLATE_NOT_FOUND', 'No such ticket template', { field: 'templateId' });
  }
  // The template's watchers who may still watch tickets of the organisation join those given.
  for (const id of template?.watcherIds ?? []) {
    if (!watcherIds.includes(id) && (await isActiveOrgPerson(db, orgId, id))) watcherIds.push(id);
  }
  const row = await db.transaction(async (tx) => {
    const created = await openTicket(tx, actor, kind, {
      title: input.title,
      description: input.description ?? '',
      ownerId: input.ownerId ?? null,
      dueDate: input.dueDate ? new Date(input.dueDate) : null,
      slaDate: input.slaDate ? new Date(input.slaDate) : null,
      externalId: input.externalId || null,
      parentId,
    });
    await replaceWatchers(tx, created.id, watcherIds);
    for (const task of template?.tasks ?? []) {
      await openTicket(tx, actor, 'task', {
        title: task.title,
        description: task.description,
        parentId: created.id,
      });
    }
    await within?.(tx, created);
    return created;
  });
  await notify(deps, actor, row.id, [{ action: 'created', details: {}, summary: 'created' }]);
  return getTicket(db, actor.access, kind, row.id);
}

/**
 * Opens a ticket in the caller's transaction with its slug, first state (Analysis at once for an
 * incident created with an owner) and history. Escalation from the alert inbox uses it too.
 */
export async function openTicket(
  tx: Db,
  actor: Actor,
  kind: TicketKind,
  values: Omit<Parameters<typeof insertTicket>[3], 'state' | 'createdBy'>,
): Promise<TicketRow> {
  const initial = TICKET_INITIAL_STATE[kind];
  const state = automaticState(kind, initial, values.ownerId ?? null) ?? initial;
  const row = await insertTicket(tx, actor.access.org.id, kind, {
    ...values,
    state,
    createdBy: actor.access.user.id,
  });
  await record(tx, actor, row, { action: 'created', details: { state }, summary: 'created' });
  return row;
}

/** Locks the ticket and checks the version the client read: 409 TICKET_MODIFIED when it moved on. */
async function lockedAt(tx: Db, orgId: string, id: string, version?: number): Promise<TicketRow> {
  const row = await lockTicket(tx, orgId, id);
  if (!row) throw ticketNotFound();
  if (version !== undefined && row.version !== version) {
    throw conflict('TICKET_MODIFIED', 'The ticket was modified while editing', {
      params: { version: row.version },
    });
  }
  return row;
}

/**
 * One change of a ticket in one transaction: the row locked (and checked against `version` when
 * given), `work` applied and its change recorded in the history and audit; after the commit the owner
 * and watchers hear of it. Answers the ticket as it is now.
 */
export async function commitChange(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ticketId: string,
  version: number | undefined,
  work: (tx: Db, row: TicketRow) => Promise<Change | null>,
): Promise<TicketDetail> {
  const change = await deps.db.transaction(async (tx) => {
    const row = await lockedAt(tx, actor.access.org.id, ticketId, version);
    const change = await work(tx, row);
    if (change) await record(tx, actor, row, change);
    return change;
  });
  if (change) await notify(deps, actor, ticketId, [change]);
  return getTicket(deps.db, actor.access, kind, ticketId);
}

const FIELD_LABELS: Record<string, string> = {
  title: 'title',
  description: 'description',
  ownerId: 'owner',
  summaryNote: 'summary note',
  dueDate: 'due date',
  slaDate: 'SLA date',
  externalId: 'external id',
  parentId: 'parent',
  watcherIds: 'watchers',
};

const comparable = (value: unknown) => (value instanceof Date ? value.toISOString() : (value ?? null));

export async function updateTicket(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  input: TicketUpdateInput,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const now = new Date();
  const { row: current } = await ticketView(db, orgId, kind, ref);
  if (input.ownerId) await assertUser(db, orgId, input.ownerId, 'TICKET_INVALID_OWNER', 'ownerId');
  const watcherIds = input.watcherIds && [...new Set(input.watcherIds)];
  for (const id of watcherIds ?? []) {
    await assertUser(db, orgId, id, 'TICKET_INVALID_WATCHER', 'watcherIds');
  }
  if (
    input.dueDate !== undefined &&
    comparable(input.dueDate && new Date(input.dueDate)) !== comparable(current.dueDate)
  ) {
    assertDueDate(input.dueDate, now);
  }
  let parentId: string | null | undefined;
  if (input.parentSlug !== undefined) {
    parentId = input.parentSlug ? await parentFor(db, orgId, input.parentSlug, current) : null;
  }

  return commitChange(deps, actor, kind, current.id, input.version, async (tx, row) => {
    const values: Partial<TicketRow> = {};
    const set = <K extends keyof TicketRow>(key: K, value: TicketRow[K] | undefined) => {
      if (value !== undefined && comparable(value) !== comparable(row[key])) values[key] = value;
    };
    set('title', input.title);
    set('description', input.description);
    set('ownerId', input.ownerId);
    set('summaryNote', input.summaryNote);
    set('dueDate', input.dueDate === undefined ? undefined : input.dueDate ? new Date(input.dueDate) : null);
    set('slaDate', input.slaDate === undefined ? undefined : input.slaDate ? new Date(input.slaDate) : null);
    set('externalId', input.externalId === undefined ? undefined : input.externalId || null);
    set('parentId', parentId);
    const fields = Object.keys(values);
    let watchersChanged = false;
    if (watcherIds) {
      const before = (await listWatchers(tx, row.id)).map((watcher) => watcher.id).sort();
      watchersChanged = before.join() !== [...watcherIds].sort().join();
      if (watchersChanged) {
        await replaceWatchers(tx, row.id, watcherIds);
        fields.push('watcherIds');
      }
    }
    if (fields.length === 0) return null;
    const automatic = 'ownerId' in values ? automaticState(kind, row.state, values.ownerId ?? null) : null;
    if (automatic) values.state = automatic;
    const details: Record<string, unknown> = { fields };
    for (const key of ['ownerId', 'dueDate', 'slaDate', 'externalId', 'parentId', 'title'] as const) {
      if (key in values) details[key] = { from: comparable(row[key]), to: comparable(values[key]) };
    }
    if (automatic) details.state = { from: row.state, to: automatic };
    if (watchersChanged) details.watcherIds = watcherIds;
    await updateTicketRow(tx, row.id, values);
    const summary =
      `changed ${fields.map((field) => FIELD_LABELS[field] ?? field).join(', ')}` +
      (automatic ? `; state ${row.state} to ${automatic}` : '');
    const change: Change = { action: 'updated', details, summary };
    return change;
  });
}

/** An incident closed with a resolution (its root cause), as other areas hear of it. */
export interface ClosedIncident {
  orgId: string;
  id: string;
  slug: string;
  resolution: string;
}
export type IncidentClosedListener = (tx: Db, actor: Actor, incident: ClosedIncident) => Promise<void>;
const incidentClosedListeners = new Set<IncidentClosedListener>();

/**
 * Lets another area act when an incident is closed with a resolution, inside the transaction that
 * closes it: a failing listener refuses the close and nothing is written.
 */
export function onIncidentClosed(listener: IncidentClosedListener) {
  incidentClosedListeners.add(listener);
}

export async function changeTicketState(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  input: TicketStateInput,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const { row: current } = await ticketView(db, orgId, kind, ref);
  const valid = TICKET_STATES_OF[kind];
  if (!(valid as readonly string[]).includes(input.state)) {
    throw validationFailed('TICKET_INVALID_STATE', `Not a state of a ${kind}: ${input.state}`, {
      field: 'state',
      params: { state: input.state },
      validValues: [...valid],
    });
  }
  const state = input.state as TicketState;
  if (input.resolution !== undefined && kind !== 'incident') {
    throw validationFailed('TICKET_RESOLUTION_INCIDENT_ONLY', 'Only incidents have resolutions', {
      field: 'resolution',
    });
  }
  if (state === 'RESOLVED' && !input.resolution) {
    throw validationFailed('TICKET_RESOLUTION_REQUIRED', 'Resolving needs a resolution', {
      field: 'resolution',
    });
  }
  return commitChange(deps, actor, kind, current.id, input.version, async (tx, row) => {
    if (row.state === state) {
      throw conflict('TICKET_SAME_STATE', `The ticket is already ${state}`, { params: { state } });
    }
    const values: Partial<TicketRow> = { state };
    if (input.resolution !== undefined) values.resolution = input.resolution;
    await updateTicketRow(tx, row.id, values);
    const resolution = values.resolution ?? row.resolution;
    if (kind === 'incident' && state === 'CLOSED' && resolution) {
      for (const listener of incidentClosedListeners) {
        await listener(tx, actor, { orgId, id: row.id, slug: row.slug, resolution });
      }
    }
    const change: Change = {
      action: 'state-changed',
      details: { from: row.state, to: state, resolution: input.resolution ?? null },
      summary: `state ${row.state} to ${state}${input.resolution ? ` (resolution: ${input.resolution})` : ''}`,
    };
    return change;
  });
}

/** The caller takes the ticket: it needs an SLA date and nobody owning it yet. */
export async function claimTicket(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const { row: current } = await ticketView(db, orgId, kind, ref);
  return commitChange(deps, actor, kind, current.id, undefined, async (tx, row) => {
    if (row.ownerId) {
      throw conflict('TICKET_ALREADY_CLAIMED', 'The ticket has an owner already');
    }
    if (!row.slaDate) {
      throw validationFailed('TICKET_CLAIM_NEEDS_SLA', 'A ticket without an SLA date cannot be claimed', {
        field: 'slaDate',
      });
    }
    const automatic = automaticState(kind, row.state, actor.access.user.id);
    await updateTicketRow(tx, row.id, {
      ownerId: actor.access.user.id,
      ...(automatic && { state: automatic }),
    });
    const change: Change = {
      action: 'claimed',
      details: automatic ? { state: { from: row.state, to: automatic } } : {},
      summary: `claimed${automatic ? `; state ${row.state} to ${automatic}` : ''}`,
    };
    return change;
  });
}

/** A comment; one by the owner of an incident in Triage starts the work (Analysis). */
export async function addComment(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  body: string,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const { row: current } = await ticketView(db, orgId, kind, ref);
  return commitChange(deps, actor, kind, current.id, undefined, async (tx, row) => {
    const comment = await insertComment(tx, { ticketId: row.id, authorId: actor.access.user.id, body });
    const byOwner = row.ownerId === actor.access.user.id;
    const automatic = byOwner && row.state === 'TRIAGE' ? automaticState(kind, row.state, row.ownerId) : null;
    if (automatic) await updateTicketRow(tx, row.id, { state: automatic });
    const change: Change = {
      action: 'commented',
      details: { commentId: comment.id, ...(automatic && { state: { from: row.state, to: automatic } }) },
      summary: `commented: ${body.length > 200 ? `${body.slice(0, 200)}…` : body}`,
    };
    return change;
  });
}

/** Links the ticket with another of the organisation (any kind), never with itself. */
export async function linkTicket(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  slug: string,
  link: boolean,
): Promise<TicketDetail> {
  const { db } = deps;
  const orgId = actor.access.org.id;
  const { row: current } = await ticketView(db, orgId, kind, ref);
  const other = await findTicketView(db, orgId, { slug });
  if (!other) {
    if (!link) throw ticketNotFound();
    throw validationFailed('TICKET_NOT_FOUND', `No ticket ${slug}`, { field: 'slug', params: { slug } });
  }
  if (other.row.id === current.id) {
    throw validationFailed('TICKET_SELF_LINK', 'A ticket cannot link to itself', { field: 'slug' });
  }
  return commitChange(deps, actor, kind, current.id, undefined, async (tx, row) => {
    if (link) {
      if (!(await insertLink(tx, row.id, other.row.id, actor.access.user.id))) {
        throw conflict('TICKET_ALREADY_LINKED', 'The tickets are linked already');
      }
    } else if (!(await deleteLink(tx, row.id, other.row.id))) {
      throw ticketNotFound();
    }
    const action = link ? 'linked' : 'unlinked';
    const change: Change = {
      action,
      details: { ticketId: other.row.id, slug: other.row.slug },
      summary: `${action} ${other.row.slug}`,
    };
    await insertHistory(tx, {
      ticketId: other.row.id,
      actorId: actor.access.user.id,
      action,
      details: { ticketId: row.id, slug: row.slug },
    });
    return change;
  });
}

/** Records on an incident that alerts were escalated to it (in the escalation's transaction). */
export async function recordEscalation(tx: Db, actor: Actor, ticketId: string, alertIds: string[]) {
  const row = await lockedAt(tx, actor.access.org.id, ticketId);
  await record(tx, actor, row, {
    action: 'alerts-escalated',
    details: { alertIds },
    summary: `${alertIds.length} alert(s) escalated`,
  });
}

/** Tells the owner and watchers of an incident that alerts were escalated to it (after the commit). */
export async function notifyEscalation(deps: TicketDeps, actor: Actor, ticketId: string, count: number) {
  await notify(deps, actor, ticketId, [
    { action: 'alerts-escalated', details: {}, summary: `${count} alert(s) escalated` },
  ]);
}

/** The incident of the organisation an alert escalates to, by slug; a 400 naming the field otherwise. */
export async function incidentBySlug(db: Db, orgId: string, slug: string) {
  const view = await findTicketView(db, orgId, { slug });
  if (!view || view.row.kind !== 'incident') {
    throw validationFailed('ALERT_ESCALATION_NOT_INCIDENT', `No incident ${slug}`, {
      field: 'ticketSlug',
      params: { slug },
    });
  }
  return { id: view.row.id, slug: view.row.slug };
}

// ---------------------------------------------------------------------------------------------------
// Files

export const ticketFileNotFound = () =>
  new AppError('NotFoundException', 'TICKET_FILE_NOT_FOUND', 'Ticket file not found');

/**
 * Attaches uploaded files to a ticket. Every file's bytes must match an accepted type (415
 * TICKET_FILE_UNSUPPORTED_TYPE naming the file) and the ticket keeps fewer than 50 files (400
 * TICKET_FILE_TOO_MANY); otherwise nothing is written. One history entry names the files added.
 */
export async function addTicketFiles(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  uploaded: SpooledFile[],
): Promise<TicketDetail> {
  const { row: current } = await ticketView(deps.db, actor.access.org.id, kind, ref);
  if (uploaded.length === 0)
    throw validationFailed('TICKET_FILE_NO_FILE', 'No file uploaded', { field: 'file' });
  const checked: { file: SpooledFile; name: string; contentType: string }[] = [];
  for (const file of uploaded) {
    const name = safeFileName(file.filename);
    const contentType = checkedContentType(name, await readFile(file.path));
    if (!contentType) {
      throw new AppError(
        'UnsupportedMediaTypeException',
        'TICKET_FILE_UNSUPPORTED_TYPE',
        `${name} is not of an accepted type or its bytes do not match its type`,
        { params: { 0: name } },
      );
    }
    checked.push({ file, name, contentType });
  }
  return commitChange(deps, actor, kind, current.id, undefined, async (tx, row) => {
    const count = (await countFiles(tx, row.id)) + checked.length;
    if (count >= TICKET_FILES_LIMIT) {
      throw validationFailed(
        'TICKET_FILE_TOO_MANY',
        `A ticket holds fewer than ${TICKET_FILES_LIMIT} files`,
        {
          field: 'file',
          params: { limit: TICKET_FILES_LIMIT, count },
        },
      );
    }
    const added: { id: string; name: string }[] = [];
    for (const { file, name, contentType } of checked) {
      const content = await readFile(file.path);
      added.push(
        await insertFile(tx, {
          ticketId: row.id,
          name,
          contentType,
          size: content.length,
          content,
          createdBy: actor.access.user.id,
        }),
      );
    }
    return {
      action: 'file-added',
      details: { files: added },
      summary: `attached ${added.map((file) => file.name).join(', ')}`,
    };
  });
}

/** Removes a file from a ticket, kept in the history with its name; 404 TICKET_FILE_NOT_FOUND. */
export async function removeTicketFile(
  deps: TicketDeps,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  fileId: string,
): Promise<TicketDetail> {
  const { row: current } = await ticketView(deps.db, actor.access.org.id, kind, ref);
  return commitChange(deps, actor, kind, current.id, undefined, async (tx, row) => {
    const removed = await deleteFile(tx, row.id, fileId);
    if (!removed) throw ticketFileNotFound();
    return {
      action: 'file-deleted',
      details: { fileId: removed.id, name: removed.name },
      summary: `removed the file ${removed.name}`,
    };
  });
}

/** One file of a ticket of the organisation with its bytes; 404 for others. */
export async function ticketFileContent(
  db: Db,
  orgId: string,
  kind: TicketKind,
  ref: string,
  fileId: string,
) {
  const { row } = await ticketView(db, orgId, kind, ref);
  const file = await findFile(db, row.id, fileId);
  if (!file) throw ticketFileNotFound();
  return file;
}

/**
 * Opens a task for a task schedule in the caller's transaction (no acting user): people who are no
 * longer active users of the organisation are left out.
 */
export async function openScheduledTask(
  tx: Db,
  orgId: string,
  scheduleId: string,
  values: SystemTaskValues & { parentId: string | null },
): Promise<{ id: string; slug: string }> {
  return openSystemTask(tx, orgId, { scheduleId }, values);
}

export interface SystemTaskValues {
  title: string;
  description: string;
  ownerId: string | null;
  watcherIds: string[];
  dueDate: Date | null;
  parentId?: string | null;
}

/**
 * Opens a task that the system raises (a task schedule, a review reminder) in the caller's
 * transaction, with no acting user; `origin` names what raised it in the history and activity log.
 * People who are no longer active users of the organisation are left out.
 */
export async function openSystemTask(
  tx: Db,
  orgId: string,
  origin: Record<string, string>,
  values: SystemTaskValues,
): Promise<{ id: string; slug: string }> {
  const active = async (id: string) => isActiveOrgPerson(tx, orgId, id);
  const ownerId = values.ownerId && (await active(values.ownerId)) ? values.ownerId : null;
  const watcherIds: string[] = [];
  for (const id of new Set(values.watcherIds)) if (await active(id)) watcherIds.push(id);
  const state = TICKET_INITIAL_STATE.task;
  const row = await insertTicket(tx, orgId, 'task', {
    title: values.title,
    description: values.description,
    ownerId,
    dueDate: values.dueDate,
    parentId: values.parentId ?? null,
    state,
    createdBy: null,
  });
  await replaceWatchers(tx, row.id, watcherIds);
  await insertHistory(tx, {
    ticketId: row.id,
    actorId: null,
    action: 'created',
    details: { state, ...origin },
  });
  await recordActivity(tx, {
    orgId,
    actorUserId: null,
    action: 'ticket.created',
    targetType: 'task',
    targetId: row.id,
    details: { slug: row.slug, state, ...origin },
  });
  return { id: row.id, slug: row.slug };
}

/**
 * Closes a task of the organisation in the caller's transaction when it is still open (the work it
 * asked for was done elsewhere, e.g. a review marked done); `actor` is who did it. Answers whether it
 * was closed: a task already closed or invalid, or gone, is left as it is.
 */
export async function closeOpenTask(
  tx: Db,
  actor: Actor,
  taskId: string,
  details: Record<string, string>,
): Promise<boolean> {
  const row = await lockTicket(tx, actor.access.org.id, taskId);
  if (!row || row.kind !== 'task' || row.state !== 'OPEN') return false;
  await updateTicketRow(tx, row.id, { state: 'CLOSED' });
  await record(tx, actor, row, {
    action: 'state-changed',
    details: { from: row.state, to: 'CLOSED', resolution: null, ...details },
    summary: `state ${row.state} to CLOSED`,
  });
  return true;
}

/** Whether a user may own or watch tickets of the organisation (for objects that create tickets). */
export const mayHoldTickets = (db: Db, orgId: string, userId: string) => isActiveOrgPerson(db, orgId, userId);

// ---------------------------------------------------------------------------------------------------
// The activity log's notes on a ticket

const noteTarget = (orgId: string, row: TicketRow) => ({ orgId, objectType: row.kind, objectId: row.id });

/** The ticket's timeline of notes and replies. */
export async function ticketNotes(
  db: Db,
  access: AccessContext,
  kind: TicketKind,
  ref: string,
): Promise<ActivityNote[]> {
  const { row } = await ticketView(db, access.org.id, kind, ref);
  return listNotes(db, noteTarget(access.org.id, row));
}

/** A note or a reply on the ticket's timeline; answers the timeline as it is now. */
export async function addTicketNote(
  db: Db,
  actor: Actor,
  kind: TicketKind,
  ref: string,
  input: ActivityNoteInput,
): Promise<ActivityNote[]> {
  const orgId = actor.access.org.id;
  const { row } = await ticketView(db, orgId, kind, ref);
  await db.transaction((tx) =>
    addNote(tx, noteTarget(orgId, row), { userId: actor.access.user.id, ip: actor.ip }, input),
  );
  return listNotes(db, noteTarget(orgId, row));
}
