import { and, eq, gte, inArray, lte, ne, sql, type SQL } from 'drizzle-orm';
import {
  ALERT_BULK_MAX,
  ALERT_BULK_MAX_AGE_DAYS,
  ALERT_DISMISSAL_REASONS,
  ALERT_FILTER_KEYS,
  ALERT_SORT_STATE,
  ALERT_STATES,
  FRAUD_TYPES,
  type Alert,
  type AlertBulkResult,
  type AlertDetail,
  type AlertEvents,
  type AlertFilterKey,
  type AlertList,
  type AlertPage,
  type AlertSort,
  type AlertState,
  type AlertStateChangeInput,
  type AlertView,
  type AlertEscalateInput,
  type LinkedAlert,
  type TicketRef,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, AppError, conflict, invalidField, validationFailed } from '../../platform/errors';
import { selectEvents } from '../events/repo';
import { restrictionCondition, resolveSort, toEvent } from '../events/service';
import { restrictionsForUser } from '../restrictions/repo';
import { startEscalation } from '../metadata/escalation-engine';
import {
  incidentBySlug,
  notifyEscalation,
  openTicket,
  recordEscalation,
  type TicketMail,
} from '../tickets/service';
import {
  escalatedAlertTraits,
  findAlertView,
  listTicketAlerts,
  insertStateChange,
  insertView,
  listAlerts,
  listHistory,
  listStories,
  listTriggerRows,
  listViewers,
  updateAlert,
  type AlertRow,
  type AlertView as AlertRowView,
} from './repo';
import { alerts } from './tables';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

type Domain = 'security' | 'fraud';

const DAY_MS = 86_400_000;

export const alertNotFound = () => new AppError('NotFoundException', 'ALERT_NOT_FOUND', 'Alert not found');

const iso = (date: Date | null) => (date ? date.toISOString() : null);

export function toJson({ row, triggerName, ticketSlug, viewed }: AlertRowView): Alert {
  return {
    id: row.id,
    domain: row.domain as Domain,
    kind: row.kind as Alert['kind'],
    triggerId: row.triggerId,
    triggerName,
    title: row.title,
    state: row.state as AlertState,
    severity: row.severity,
    firedAt: row.firedAt.toISOString(),
    windowStart: iso(row.windowStart),
    windowEnd: iso(row.windowEnd),
    matchCount: row.matchCount,
    groupKey: row.groupKey,
    eventCount: row.events.length,
    details: row.details,
    fraudType: row.fraudType,
    fraudCertainty: row.fraudCertainty,
    dismissalReason: row.dismissalReason,
    dismissalNotes: row.dismissalNotes,
    ticketId: row.ticketId,
    ticketSlug,
    stateChangedAt: iso(row.stateChangedAt),
    escalatedAt: iso(row.escalatedAt),
    dismissedAt: iso(row.dismissedAt),
    flaggedAt: iso(row.flaggedAt),
    viewed,
  };
}

// ---------------------------------------------------------------------------------------------------
// Inbox selection: domain, states, `key:value` filters and fired-time range

export interface Selection {
  domain: Domain;
  states?: AlertState[];
  filters?: string[];
  begin?: string;
  end?: string;
}

const FILTER_FORMAT = /^([A-Za-z]+):(.+)$/;
const UUID_TEXT = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function filterCondition(key: AlertFilterKey, value: string, raw: string): SQL {
  switch (key) {
    case 'severity':
      return eq(alerts.severity, value.toUpperCase());
    case 'kind':
      return eq(alerts.kind, value.toUpperCase());
    case 'trigger':
      if (!UUID_TEXT.test(value)) throw invalidFilter(raw);
      return eq(alerts.triggerId, value);
    case 'title':
      return sql`${alerts.title} ILIKE ${`%${value.replace(/[\\%_]/g, (char) => `\\${char}`)}%`}`;
    case 'group':
      return eq(alerts.groupKey, value);
  }
}

const invalidFilter = (filter: string) =>
  validationFailed('ALERT_FILTER_INVALID', `Not a valid alert filter: ${filter}`, {
    field: 'filter',
    params: { filter },
    validValues: [...ALERT_FILTER_KEYS],
  });

/** The conditions of `key:value` filters: 400 on a bad format, an unknown key or a key given twice. */
export function filterConditions(filters: readonly string[]): SQL[] {
  const seen = new Set<string>();
  return filters.map((raw) => {
    const match = FILTER_FORMAT.exec(raw.trim());
    if (!match) {
      throw validationFailed('ALERT_FILTER_FORMAT_INVALID', `Filters have the form key:value: ${raw}`, {
        field: 'filter',
        params: { filter: raw },
      });
    }
    const key = match[1]! as AlertFilterKey;
    const value = match[2]!.trim();
    if (!ALERT_FILTER_KEYS.includes(key) || value === '') throw invalidFilter(raw);
    if (seen.has(key)) {
      throw validationFailed('ALERT_FILTER_ONE_KEY', `One value per filter key: ${key}`, {
        field: 'filter',
        params: { key },
      });
    }
    seen.add(key);
    return filterCondition(key, value, raw);
  });
}

function selectionWhere(orgId: string, selection: Selection, withStates = true): SQL {
  return and(
    eq(alerts.orgId, orgId),
    eq(alerts.domain, selection.domain),
    withStates ? inArray(alerts.state, selection.states ?? ['NEW']) : undefined,
    selection.begin ? gte(alerts.firedAt, new Date(selection.begin)) : undefined,
    selection.end ? lte(alerts.firedAt, new Date(selection.end)) : undefined,
    ...filterConditions(selection.filters ?? []),
  )!;
}

/** Sorts by the time of one state need that state alone as the filter. */
export function assertSort(sort: AlertSort, states: readonly AlertState[]) {
  const needs = ALERT_SORT_STATE[sort];
  if (needs && !(states.length === 1 && states[0] === needs)) {
    throw validationFailed('ALERT_SORT_INVALID', `Sort ${sort} needs the state filter ${needs} alone`, {
      field: 'sort',
      params: { sort, state: needs },
    });
  }
}

export async function listInbox(
  db: Db,
  access: AccessContext,
  query: Selection & { view: AlertView; sort: AlertSort; pageSize: number; pageNumber: number },
): Promise<AlertList> {
  assertDomainEntitled(access, query.domain);
  const states = query.states?.length ? [...new Set(query.states)] : (['NEW'] as AlertState[]);
  assertSort(query.sort, states);
  const page = { limit: query.pageSize, offset: (query.pageNumber - 1) * query.pageSize };
  const selection = { ...query, states };
  switch (query.view) {
    case 'alert': {
      const where = selectionWhere(access.org.id, selection);
      const { items, total } = await listAlerts(db, access.user.id, where, query.sort, page);
      return { view: 'alert', items: items.map(toJson), total };
    }
    case 'trigger': {
      // Counts per state: every state counts, whatever the state tab.
      const where = selectionWhere(access.org.id, selection, false);
      const { items, total } = await listTriggerRows(db, where, page);
      return {
        view: 'trigger',
        items: items.map((item) => ({
          triggerId: item.triggerId,
          kind: item.kind as Alert['kind'],
          name: item.name ?? (item.kind === 'THREAT_MATCH' ? 'Threat match' : 'Deleted trigger'),
          counts: item.counts,
          total: item.total,
          latestFiredAt: new Date(item.latestFiredAt).toISOString(),
        })),
        total,
      };
    }
    case 'story': {
      const where = selectionWhere(access.org.id, selection);
      const { items, total } = await listStories(db, where, page);
      return {
        view: 'story',
        items: items.map((item) => ({
          ...item,
          firstFiredAt: new Date(item.firstFiredAt).toISOString(),
          lastFiredAt: new Date(item.lastFiredAt).toISOString(),
        })),
        total,
      };
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// One alert

async function visibleAlert(db: Db, access: AccessContext, id: string): Promise<AlertRowView> {
  const view = await findAlertView(db, access.org.id, access.user.id, id);
  if (!view) throw alertNotFound();
  assertDomainEntitled(access, view.row.domain);
  return view;
}

export async function getAlert(db: Db, access: AccessContext, id: string): Promise<AlertDetail> {
  const view = await visibleAlert(db, access, id);
  const [history, viewers] = await Promise.all([listHistory(db, id), listViewers(db, id)]);
  return {
    ...toJson(view),
    history: history.map(({ change, changedByName }) => ({
      fromState: change.fromState as AlertState,
      toState: change.toState as AlertState,
      changedBy: change.changedBy,
      changedByName,
      changedAt: change.changedAt.toISOString(),
      reason: change.reason,
      notes: change.notes,
    })),
    viewers: viewers.map((viewer) => ({ ...viewer, viewedAt: viewer.viewedAt.toISOString() })),
  };
}

/** The stored matched events the caller may see (data restrictions apply), newest first. */
export async function alertEvents(db: Db, access: AccessContext, id: string): Promise<AlertEvents> {
  const { row } = await visibleAlert(db, access, id);
  const stored = row.events;
  if (stored.length === 0) return { items: [], stored: 0 };
  const times = stored.map((event) => new Date(event.ts).getTime());
  const restrictions = await restrictionsForUser(db, access.org.id, access.user.id);
  const rows = await selectEvents(
    db,
    {
      orgId: access.org.id,
      begin: new Date(Math.min(...times)),
      end: new Date(Math.max(...times)),
      condition: sql`id = ANY(${sql.param(stored.map((event) => event.id))}::uuid[]) AND ${restrictionCondition(restrictions)}`,
    },
    resolveSort('timestamp', 'desc'),
    { limit: stored.length, offset: 0 },
  );
  return { items: rows.map(toEvent), stored: stored.length };
}

/** Idempotent: the first call records the view (the client calls it after 10 seconds on screen). */
export async function markViewed(db: Db, actor: Actor, id: string): Promise<void> {
  await visibleAlert(db, actor.access, id);
  await insertView(db, id, actor.access.user.id);
}

/** Alerts sharing the group key (else the trigger), newest first. */
export async function similarAlerts(
  db: Db,
  access: AccessContext,
  id: string,
  page: { pageSize: number; pageNumber: number },
): Promise<AlertPage> {
  const { row } = await visibleAlert(db, access, id);
  const key = row.groupKey
    ? eq(alerts.groupKey, row.groupKey)
    : row.triggerId
      ? eq(alerts.triggerId, row.triggerId)
      : sql`FALSE`;
  const where = and(eq(alerts.orgId, access.org.id), eq(alerts.domain, row.domain), ne(alerts.id, id), key)!;
  const { items, total } = await listAlerts(db, access.user.id, where, 'newest', {
    limit: page.pageSize,
    offset: (page.pageNumber - 1) * page.pageSize,
  });
  return { items: items.map(toJson), total };
}

// ---------------------------------------------------------------------------------------------------
// State changes

/** The checks of a state change that do not depend on the alert. */
function parseChange(input: AlertStateChangeInput): AlertState {
  if (input.state === '') throw validationFailed('ALERT_STATE_EMPTY', 'No state given', { field: 'state' });
  if (!(ALERT_STATES as readonly string[]).includes(input.state)) {
    throw invalidField('state', input.state, [...ALERT_STATES]);
  }
  const state = input.state as AlertState;
  if (state === 'ESCALATED' && !input.ticketSlug) {
    throw validationFailed('ALERT_ESCALATION_NEEDS_TICKET', 'Escalation needs a ticket slug', {
      field: 'ticketSlug',
    });
  }
  if (state === 'DISMISSED') {
    if (!input.reason) {
      throw validationFailed('ALERT_DISMISS_REASON_REQUIRED', 'Dismissal needs a reason', {
        field: 'reason',
        validValues: [...ALERT_DISMISSAL_REASONS],
      });
    }
    if (!(ALERT_DISMISSAL_REASONS as readonly string[]).includes(input.reason)) {
      throw invalidField('reason', input.reason, [...ALERT_DISMISSAL_REASONS]);
    }
    if (input.reason === 'OTHER' && !input.notes) {
      throw validationFailed('ALERT_DISMISS_DETAILS_REQUIRED', 'Dismissing as Other needs notes', {
        field: 'notes',
      });
    }
  }
  if (state === 'FRAUD_FLAGGED') {
    if (!input.fraudType) {
      throw validationFailed('ALERT_FRAUD_TYPE_REQUIRED', 'Fraud flag needs a fraud type', {
        field: 'fraudType',
        validValues: [...FRAUD_TYPES],
      });
    }
    if (!(FRAUD_TYPES as readonly string[]).includes(input.fraudType)) {
      throw invalidField('fraudType', input.fraudType, [...FRAUD_TYPES]);
    }
    const certainty = input.fraudCertainty ?? 'SUSPECTED';
    if (certainty === 'CONFIRMED' && input.fraudType === 'UNKNOWN') {
      throw validationFailed('ALERT_FRAUD_CONFIRMED_UNKNOWN', 'Confirmed fraud cannot be Unknown', {
        field: 'fraudType',
      });
    }
    if (certainty === 'SUSPECTED' && input.fraudType === 'OTHER') {
      throw validationFailed('ALERT_FRAUD_SUSPECTED_OTHER', 'Suspected fraud cannot be Other', {
        field: 'fraudType',
      });
    }
  }
  return state;
}

/** The checks against the alert as it is now. */
function assertTransition(row: AlertRow, state: AlertState) {
  if (row.state === 'ESCALATED') {
    throw conflict('ALERT_ESCALATED_FROZEN', 'An escalated alert cannot change state');
  }
  if (row.state === state) {
    throw conflict('ALERT_SAME_STATE', `The alert is already ${state}`, { params: { state } });
  }
  if (state === 'FRAUD_FLAGGED') {
    if (row.domain !== 'fraud') {
      throw validationFailed('ALERT_FRAUD_SECURITY_ALERT', 'Security alerts cannot be flagged as fraud');
    }
    if (row.ticketId) throw conflict('ALERT_FRAUD_TICKET_ATTACHED', 'A ticket is attached to the alert');
  }
}

/** Applies a checked change in the caller's transaction: the alert, its history and the audit. */
async function applyChange(
  tx: Db,
  actor: Actor,
  row: AlertRow,
  state: AlertState,
  input: AlertStateChangeInput,
  ticketId?: string,
) {
  const now = new Date();
  const { access } = actor;
  const values: Partial<AlertRow> = { state, stateChangedAt: now, stateChangedBy: access.user.id };
  if (state === 'ESCALATED') {
    Object.assign(values, { escalatedAt: now, ticketId });
    await recordEscalation(tx, actor, ticketId!, [row.id]);
    await startEscalation(tx, access.org.id, ticketId!, now);
  }
  if (state === 'DISMISSED') {
    Object.assign(values, {
      dismissedAt: now,
      dismissalReason: input.reason,
      dismissalNotes: input.notes ?? null,
    });
  }
  if (state === 'FRAUD_FLAGGED') {
    Object.assign(values, {
      flaggedAt: now,
      fraudType: input.fraudType,
      fraudCertainty: input.fraudCertainty ?? 'SUSPECTED',
    });
  }
  const updated = await updateAlert(tx, row.id, values);
  await insertStateChange(tx, {
    alertId: row.id,
    fromState: row.state,
    toState: state,
    changedBy: access.user.id,
    changedAt: now,
    reason: input.reason ?? input.fraudType ?? null,
    notes: input.notes ?? null,
  });
  await recordActivity(tx, {
    orgId: access.org.id,
    actorUserId: access.user.id,
    action: 'alert.state-changed',
    targetType: 'alert',
    targetId: row.id,
    details: {
      from: row.state,
      to: state,
      reason: input.reason ?? null,
      fraudType: values.fraudType ?? null,
      fraudCertainty: values.fraudCertainty ?? null,
      ticketId: values.ticketId ?? null,
    },
    ip: actor.ip,
  });
  return updated;
}

/** The incident an escalation names by slug (400 when the organisation has no such incident). */
async function escalationTicket(
  db: Db,
  access: AccessContext,
  state: AlertState,
  input: AlertStateChangeInput,
) {
  return state === 'ESCALATED' ? incidentBySlug(db, access.org.id, input.ticketSlug!) : undefined;
}

/** Locks the alert so that concurrent changes see each other's result. */
async function lockedAlert(tx: Db, orgId: string, id: string): Promise<AlertRow | undefined> {
  const [row] = await tx
    .select()
    .from(alerts)
    .where(and(eq(alerts.orgId, orgId), eq(alerts.id, id)))
    .for('update');
  return row;
}

export async function changeAlertState(
  db: Db,
  actor: Actor,
  id: string,
  input: AlertStateChangeInput,
  mail?: TicketMail,
): Promise<AlertDetail> {
  const { access } = actor;
  await visibleAlert(db, access, id);
  const state = parseChange(input);
  const ticket = await escalationTicket(db, access, state, input);
  await db.transaction(async (tx) => {
    const row = (await lockedAlert(tx, access.org.id, id))!;
    assertTransition(row, state);
    await applyChange(tx, actor, row, state, input, ticket?.id);
  });
  if (ticket) await notifyEscalation({ db, ...mail }, actor, ticket.id, 1);
  return getAlert(db, access, id);
}

type BulkInput = AlertStateChangeInput & { ids?: string[]; selection?: Selection };

/**
 * One change over many alerts fired in the last 30 days: the listed ones, or those a selection
 * finds (at most ALERT_BULK_MAX). Each alert succeeds or fails on its own; failures carry the key.
 */
export async function bulkChangeState(
  db: Db,
  actor: Actor,
  input: BulkInput,
  now = new Date(),
  mail?: TicketMail,
): Promise<AlertBulkResult> {
  const { access } = actor;
  const state = parseChange(input);
  const ticket = await escalationTicket(db, access, state, input);
  const reach = new Date(now.getTime() - ALERT_BULK_MAX_AGE_DAYS * DAY_MS);
  let ids: string[];
  if (input.ids?.length) {
    ids = [...new Set(input.ids)];
  } else if (input.selection) {
    const selection = input.selection;
    assertDomainEntitled(access, selection.domain);
    const begin =
      selection.begin && new Date(selection.begin) > reach ? selection.begin : reach.toISOString();
    const where = selectionWhere(access.org.id, { ...selection, begin });
    const found = await db
      .select({ id: alerts.id })
      .from(alerts)
      .where(where)
      .orderBy(sql`${alerts.firedAt} DESC`)
      .limit(ALERT_BULK_MAX);
    ids = found.map((row) => row.id);
  } else {
    throw validationFailed('ALERT_BULK_NOTHING_SELECTED', 'Give alert ids or a selection', { field: 'ids' });
  }
  const results: AlertBulkResult['results'] = [];
  for (const id of ids) {
    try {
      await db.transaction(async (tx) => {
        const row = await lockedAlert(tx, access.org.id, id);
        if (!row) throw alertNotFound();
        assertDomainEntitled(access, row.domain);
        if (row.firedAt < reach) {
          throw validationFailed('ALERT_BULK_TOO_OLD', 'The alert fired too long ago for bulk actions', {
            params: { days: ALERT_BULK_MAX_AGE_DAYS },
          });
        }
        assertTransition(row, state);
        await applyChange(tx, actor, row, state, input, ticket?.id);
      });
      results.push({ id, ok: true });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ id, ok: false, key: error.key, message: error.message, params: error.params });
    }
  }
  const succeeded = results.filter((result) => result.ok).length;
  if (ticket && succeeded > 0) await notifyEscalation({ db, ...mail }, actor, ticket.id, succeeded);
  return { succeeded, failed: results.length - succeeded, results };
}

// ---------------------------------------------------------------------------------------------------
// Incidents

/**
 * Escalates alerts to a new incident, all or none: the incident takes the title given, else the name
 * of the first alert's trigger (else its title), and lists the alerts in its description. Creating the
 * incident needs INCIDENT_EDIT besides the inbox's edit permission.
 */
export async function escalateToNewIncident(
  db: Db,
  actor: Actor,
  input: AlertEscalateInput,
): Promise<TicketRef> {
  const { access } = actor;
  if (!access.permissions.has('INCIDENT_EDIT')) {
    throw accessDenied('PERMISSION_DENIED', 'Creating an incident needs the Incidents edit permission');
  }
  const ids = [...new Set(input.ids)];
  const views: AlertRowView[] = [];
  for (const id of ids) views.push(await visibleAlert(db, access, id));
  return db.transaction(async (tx) => {
    const rows: AlertRow[] = [];
    for (const id of ids) {
      const row = (await lockedAlert(tx, access.org.id, id))!;
      assertTransition(row, 'ESCALATED');
      rows.push(row);
    }
    const first = views[0]!;
    const ticket = await openTicket(tx, actor, 'incident', {
      title: input.title ?? first.triggerName ?? first.row.title,
      description: views
        .map(({ row }) => `${row.title} (${row.severity}, fired ${row.firedAt.toISOString()})`)
        .join('\n'),
    });
    for (const row of rows) {
      await applyChange(tx, actor, row, 'ESCALATED', { state: 'ESCALATED' }, ticket.id);
    }
    return {
      id: ticket.id,
      kind: 'incident' as const,
      slug: ticket.slug,
      title: ticket.title,
      state: ticket.state as TicketRef['state'],
    };
  });
}

/** The alerts escalated to a ticket, newest first. */
export async function alertsOfTicket(db: Db, orgId: string, ticketId: string): Promise<LinkedAlert[]> {
  const rows = await listTicketAlerts(db, orgId, ticketId);
  return rows.map((row) => ({
    ...row,
    firedAt: row.firedAt.toISOString(),
    escalatedAt: iso(row.escalatedAt),
  }));
}

/** Escalated alerts read when comparing incidents. */
const TRAITS_MAX_ALERTS = 5000;

/** Per ticket with escalated alerts: the triggers, hosts, IPs and users of those alerts. */
export async function ticketAlertTraits(db: Db, orgId: string) {
  const byTicket = new Map<
    string,
    { triggers: Map<string, string>; hosts: Set<string>; ips: Set<string>; users: Set<string> }
  >();
  for (const row of await escalatedAlertTraits(db, orgId, TRAITS_MAX_ALERTS)) {
    let traits = byTicket.get(row.ticketId);
    if (!traits) {
      traits = { triggers: new Map(), hosts: new Set(), ips: new Set(), users: new Set() };
      byTicket.set(row.ticketId, traits);
    }
    if (row.triggerId) traits.triggers.set(row.triggerId, row.triggerName ?? row.triggerId);
    for (const host of row.hosts) traits.hosts.add(host);
    for (const ip of row.ips) traits.ips.add(ip);
    for (const user of row.users) traits.users.add(user);
  }
  return byTicket;
}
