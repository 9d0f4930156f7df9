import {
  TRIGGER_FIELD_NAME_PATTERN,
  TRIGGER_HEADER_NAME_PATTERN,
  TRIGGER_HEADER_VALUE_MAX_LENGTH,
  TRIGGER_INTERVAL_MAX_SECONDS,
  TRIGGER_INTERVAL_MIN_SECONDS,
  TRIGGER_MAX_HEADERS,
  TRIGGER_PERIOD_SECONDS,
  TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS,
  TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS,
  TRIGGER_SEQUENCE_MIN_STEPS,
  type Aggregation,
  type Trigger,
  type TriggerDisabledReason,
  type TriggerDomain,
  type TriggerManagedBy,
  type TriggerSeverity,
  type TriggerState,
  type TriggerType,
} from '@vigil/contracts';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import { checkActionIds } from '../integrations/actions';
import { viewerOf } from '../roles/rules';
import { findSavedQueryView } from '../saved-queries/repo';
import { findOrgUser } from '../users/repo';
import {
  findTriggerScheduleView,
  findTriggerView,
  findTriggerViews,
  insertTrigger,
  nextTriggerVersions,
  updateTrigger,
  type NewTrigger,
  type TriggerRow,
  type TriggerView,
} from './repo';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

export const triggerNotFound = () =>
  new AppError('NotFoundException', 'TRIGGER_NOT_FOUND', 'Trigger not found');

export const scheduleNotFound = () =>
  new AppError('NotFoundException', 'TRIGGER_SCHEDULE_NOT_FOUND', 'Trigger schedule not found');

export function toJson({ row, savedQueryName, lastRunAt }: TriggerView): Trigger {
  return {
    id: row.id,
    orgId: row.orgId,
    domain: row.domain as TriggerDomain,
    name: row.name,
    description: row.description,
    type: row.type as TriggerType,
    savedQueryId: row.savedQueryId,
    savedQueryName,
    intervalSeconds: row.intervalSeconds,
    aggregation: (row.aggregation as Aggregation | null) ?? null,
    minMatch: row.minMatch,
    maxMatch: row.maxMatch,
    sequence: row.sequence,
    severity: row.severity as TriggerSeverity,
    notifyOnly: row.notifyOnly,
    ticketOwnerId: row.ticketOwnerId,
    watcherIds: row.watcherIds,
    importantFields: row.importantFields,
    customHeaders: row.customHeaders,
    emailRecipients: row.emailRecipients,
    emailDigest: row.emailDigest,
    labels: row.labels,
    scheduleId: row.scheduleId,
    actionIds: row.actionIds,
    state: row.state as TriggerState,
    disabledReason: (row.disabledReason as TriggerDisabledReason | null) ?? null,
    disabledUntil: row.disabledUntil?.toISOString() ?? null,
    managedBy: row.managedBy as TriggerManagedBy,
    source: row.copiedFromId ? 'LIBRARY' : 'CUSTOM',
    copiedFromId: row.copiedFromId,
    libraryVersion: row.libraryVersion,
    baseQuery: row.baseQuery,
    inTest: row.inTest,
    version: row.version,
    previousVersionId: row.previousVersionId,
    nextRunAt: row.nextRunAt?.toISOString() ?? null,
    lastRunAt: lastRunAt?.toISOString() ?? null,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** A trigger of the caller's organisation in a domain it holds; 404 or 403 otherwise. */
export async function triggerView(db: Db, access: AccessContext, id: string): Promise<TriggerView> {
  const view = await findTriggerView(db, access.org.id, id);
  if (!view) throw triggerNotFound();
  assertDomainEntitled(access, view.row.domain);
  return view;
}

export interface TriggerVersion {
  /** The current version. */
  view: TriggerView;
  /** The ids from the one asked for to the current version's, oldest first. */
  versionIds: string[];
}

/**
 * For other modules that keep a trigger's id: the current version of each of the organisation's
 * triggers among `ids`. Editing the alert conditions archives a trigger and continues it under a new
 * id, so an id kept from before answers the newest version. Ids not found are left out.
 */
export async function currentTriggerVersions(
  db: Db,
  orgId: string,
  ids: readonly (string | null)[],
): Promise<Map<string, TriggerVersion>> {
  const chains = new Map([...new Set(ids.filter((id): id is string => id !== null))].map((id) => [id, [id]]));
  for (let ends = [...chains.keys()]; ends.length > 0;) {
    const next = await nextTriggerVersions(db, orgId, ends);
    for (const chain of chains.values()) {
      const following = next.get(chain.at(-1)!);
      if (following) chain.push(following);
    }
    ends = [...next.values()];
  }
  const views = new Map(
    (await findTriggerViews(db, orgId, [...new Set([...chains.values()].map((chain) => chain.at(-1)!))])).map(
      (view) => [view.row.id, view],
    ),
  );
  const found = new Map<string, TriggerVersion>();
  for (const [id, chain] of chains) {
    const view = views.get(chain.at(-1)!);
    if (view) found.set(id, { view, versionIds: chain });
  }
  return found;
}

/** The fields of a trigger a form sends (library triggers leave out the organisation's people and schedule). */
export interface TriggerFields {
  name: string;
  description: string;
  type: TriggerType;
  savedQueryId?: string | null;
  intervalSeconds: number;
  aggregation?: Aggregation | null;
  minMatch?: number | null;
  maxMatch?: number | null;
  sequence?: { savedQueryId: string }[] | null;
  severity: TriggerSeverity;
  notifyOnly: boolean;
  ticketOwnerId?: string | null;
  watcherIds: string[];
  importantFields: string[];
  customHeaders: Record<string, string>;
  emailRecipients: string[];
  emailDigest: boolean;
  labels: string[];
  scheduleId?: string | null;
  actionIds?: string[];
  inTest: boolean;
}

const missingSavedQuery = (field = 'savedQueryId') =>
  validationFailed('TRIGGER_MISSING_SAVED_QUERY', 'A saved query of the organisation is required', { field });

const intervalError = (key: string, field: string, min: number, max: number) =>
  validationFailed(key, `The interval must be between ${min} and ${max} seconds`, {
    field,
    params: { min, max },
  });

const emailSchema = z.email();
const distinct = (values: string[]) => [...new Set(values)];

/**
 * Checks every rule between the fields (spec 3 "Triggers and queries") and returns the values to
 * store: a dynamic threshold runs every 30 minutes, a sequence runs its first step's query.
 */
export async function normalise(db: Db, orgId: string, input: TriggerFields) {
  const { type } = input;
  let intervalSeconds = input.intervalSeconds;
  let savedQueryId = input.savedQueryId ?? null;
  let sequence: { savedQueryId: string }[] | null = null;
  let aggregation = input.aggregation ?? null;

  if (type === 'SEQUENCE') {
    const steps = input.sequence ?? [];
    if (steps.length < TRIGGER_SEQUENCE_MIN_STEPS) {
      throw validationFailed('TRIGGER_SEQUENCE_STEPS_REQUIRED', 'A sequence needs at least two steps', {
        field: 'sequence',
        params: { min: TRIGGER_SEQUENCE_MIN_STEPS },
      });
    }
    for (const step of steps) {
      if (!(await findSavedQueryView(db, orgId, step.savedQueryId))) throw missingSavedQuery('sequence');
    }
    if (
      intervalSeconds < TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS ||
      intervalSeconds > TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS
    ) {
      throw intervalError(
        'TRIGGER_INVALID_SEQUENCE_INTERVAL',
        'intervalSeconds',
        TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS,
        TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS,
      );
    }
    sequence = steps.map((step) => ({ savedQueryId: step.savedQueryId }));
    savedQueryId = steps[0]!.savedQueryId;
  } else {
    const query = savedQueryId ? await findSavedQueryView(db, orgId, savedQueryId) : undefined;
    if (!query) throw missingSavedQuery();
    if (type === 'EVERY_EVENT' && query.row.aggregation) {
      throw validationFailed(
        'TRIGGER_AGGREGATE_QUERY_NOT_ALLOWED',
        'Every-event triggers cannot use an aggregate query',
        { field: 'savedQueryId' },
      );
    }
  }

  if (type === 'DYNAMIC_THRESHOLD') intervalSeconds = TRIGGER_PERIOD_SECONDS;
  if (type === 'TEMPORAL_ANOMALY' && intervalSeconds !== TRIGGER_PERIOD_SECONDS) {
    throw validationFailed(
      'TRIGGER_PERIOD_INTERVAL_REQUIRED',
      'Temporal anomaly needs a 30-minute interval',
      {
        field: 'intervalSeconds',
        params: { seconds: TRIGGER_PERIOD_SECONDS },
      },
    );
  }
  if (intervalSeconds < TRIGGER_INTERVAL_MIN_SECONDS || intervalSeconds > TRIGGER_INTERVAL_MAX_SECONDS) {
    throw intervalError(
      'TRIGGER_INVALID_INTERVAL',
      'intervalSeconds',
      TRIGGER_INTERVAL_MIN_SECONDS,
      TRIGGER_INTERVAL_MAX_SECONDS,
    );
  }

  if (type === 'AGGREGATION' && !aggregation?.field) {
    throw validationFailed('TRIGGER_MISSING_AGGREGATION', 'Aggregation type and field are required', {
      field: 'aggregation',
    });
  }
  // THRESHOLD may group by a field, SEQUENCE correlates its steps by one (the host without it).
  if (type === 'SEQUENCE')
    aggregation = aggregation?.field ? { type: 'terms', field: aggregation.field } : null;
  else if (type !== 'AGGREGATION' && type !== 'THRESHOLD') aggregation = null;

  const minMatch = input.minMatch ?? null;
  const maxMatch = input.maxMatch ?? null;
  const badRange =
    (minMatch !== null && minMatch < 0) ||
    (maxMatch !== null && maxMatch < 0) ||
    (minMatch !== null && maxMatch !== null && minMatch > maxMatch) ||
    (type === 'THRESHOLD' && minMatch === null && maxMatch === null);
  if (badRange) {
    throw validationFailed('TRIGGER_INVALID_MATCH_RANGE', 'Invalid minimum or maximum match', {
      field: 'minMatch',
    });
  }

  const emailRecipients = distinct(input.emailRecipients.filter((address) => address !== ''));
  for (const address of emailRecipients) {
    if (!emailSchema.safeParse(address).success) {
      throw validationFailed('TRIGGER_INVALID_EMAIL', `${address} is not an e-mail address`, {
        field: 'emailRecipients',
        params: { value: address },
      });
    }
  }

  const headers = Object.entries(input.customHeaders);
  for (const [name, value] of headers) {
    if (
      headers.length > TRIGGER_MAX_HEADERS ||
      !TRIGGER_HEADER_NAME_PATTERN.test(name) ||
      /[\r\n]/.test(value) ||
      value.length > TRIGGER_HEADER_VALUE_MAX_LENGTH
    ) {
      throw validationFailed('TRIGGER_INVALID_HEADER', `Invalid e-mail header ${name}`, {
        field: 'customHeaders',
        params: { name },
      });
    }
  }

  const importantFields = distinct(input.importantFields);
  for (const field of importantFields) {
    if (!TRIGGER_FIELD_NAME_PATTERN.test(field)) {
      throw validationFailed('TRIGGER_INVALID_FIELD', `${field} is not a field name`, {
        field: 'importantFields',
        params: { value: field },
      });
    }
  }

  const watcherIds = distinct(input.watcherIds);
  const people = [...(input.ticketOwnerId ? [input.ticketOwnerId] : []), ...watcherIds];
  for (const userId of people) {
    if (!(await findOrgUser(db, orgId, userId))) {
      throw validationFailed('TRIGGER_INVALID_USER', 'Owner and watchers must be users of the organisation', {
        field: userId === input.ticketOwnerId ? 'ticketOwnerId' : 'watcherIds',
      });
    }
  }

  if (input.scheduleId && !(await findTriggerScheduleView(db, orgId, input.scheduleId))) {
    throw scheduleNotFound();
  }

  return {
    name: input.name,
    description: input.description,
    type,
    savedQueryId,
    intervalSeconds,
    aggregation,
    minMatch,
    maxMatch,
    sequence,
    severity: input.severity,
    notifyOnly: input.notifyOnly,
    ticketOwnerId: input.ticketOwnerId ?? null,
    watcherIds,
    importantFields,
    customHeaders: input.customHeaders,
    emailRecipients,
    emailDigest: input.emailDigest,
    labels: distinct(input.labels),
    scheduleId: input.scheduleId ?? null,
    actionIds: input.actionIds?.length ? await checkActionIds(db, orgId, input.actionIds) : [],
    inTest: input.inTest,
  } satisfies Partial<NewTrigger>;
}

export type Normalised = Awaited<ReturnType<typeof normalise>>;

/** The fields whose change makes a new version (spec 3: archived with a new version). */
const CONDITION_FIELDS = [
  'type',
  'savedQueryId',
  'intervalSeconds',
  'aggregation',
  'minMatch',
  'maxMatch',
  'sequence',
] as const;

export const conditionsChanged = (row: TriggerRow, next: Normalised) =>
  CONDITION_FIELDS.some(
    (field) => JSON.stringify(row[field] ?? null) !== JSON.stringify(next[field] ?? null),
  );

/** Where the engine starts: the first window ends one interval from now. */
export const schedulingFrom = (intervalSeconds: number, now = new Date()) => ({
  nextRunAt: new Date(now.getTime() + intervalSeconds * 1000),
  lastWindowEnd: now,
});

export const snapshot = (row: TriggerRow) => ({
  name: row.name,
  type: row.type,
  savedQueryId: row.savedQueryId,
  intervalSeconds: row.intervalSeconds,
  aggregation: row.aggregation,
  minMatch: row.minMatch,
  maxMatch: row.maxMatch,
  sequence: row.sequence,
  severity: row.severity,
  state: row.state,
  version: row.version,
  managedBy: row.managedBy,
});

async function audit(db: Db, actor: Actor, action: string, id: string, details: Record<string, unknown>) {
  await recordActivity(db, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `trigger.${action}`,
    targetType: 'trigger',
    targetId: id,
    details,
    ip: actor.ip,
  });
}

async function viewJson(db: Db, orgId: string, id: string): Promise<Trigger> {
  return toJson((await findTriggerView(db, orgId, id))!);
}

const managedReadOnly = () =>
  new AppError('AccessDeniedException', 'TRIGGER_MANAGED_READ_ONLY', 'Managed triggers cannot be edited');

/** Ops-managed triggers are changed only by provider staff. */
async function assertMayManage(db: Db, access: AccessContext, managedBy: string) {
  if (managedBy === 'OPS' && !(await viewerOf(db, access)).providerStaff) throw managedReadOnly();
}

/** Actions are attached with the automatedIntervention feature only (403 FEATURE_NOT_ENABLED). */
function assertMayAttachActions(access: AccessContext, actionIds: string[] | undefined) {
  if (actionIds?.length && !access.features.automatedIntervention) {
    throw accessDenied('FEATURE_NOT_ENABLED', 'Actions on triggers need the automatedIntervention feature');
  }
}

export async function createTrigger(
  db: Db,
  actor: Actor,
  input: TriggerFields & { domain: TriggerDomain; managedBy?: TriggerManagedBy },
): Promise<Trigger> {
  const { access } = actor;
  assertDomainEntitled(access, input.domain);
  const managedBy = input.managedBy ?? 'CLIENT';
  await assertMayManage(db, access, managedBy);
  assertMayAttachActions(access, input.actionIds);
  const values = await normalise(db, access.org.id, input);
  return db.transaction(async (tx) => {
    const row = await insertTrigger(tx, {
      ...values,
      orgId: access.org.id,
      domain: input.domain,
      managedBy,
      state: 'ACTIVE',
      createdBy: access.user.id,
      ...schedulingFrom(values.intervalSeconds),
    });
    await audit(tx, actor, 'created', row.id, { after: snapshot(row) });
    return viewJson(tx, access.org.id, row.id);
  });
}

export const invalidStateChange = (from: string, to: string) =>
  conflict('TRIGGER_INVALID_STATE_CHANGE', `A ${from} trigger cannot become ${to}`, {
    field: 'state',
    params: { from, to },
  });

/** A trigger the caller may change: theirs, and not ops-managed unless they are provider staff. */
async function changeableRow(db: Db, access: AccessContext, id: string): Promise<TriggerRow> {
  const { row } = await triggerView(db, access, id);
  await assertMayManage(db, access, row.managedBy);
  return row;
}

/**
 * Changes a trigger. A change to the alert conditions archives this row and continues in a new
 * version (409 TRIGGER_MISSING_ARCHIVE_CONFIRMATION unless `confirmArchive`); other fields change
 * in place.
 */
export async function updateTriggerFields(
  db: Db,
  actor: Actor,
  id: string,
  input: TriggerFields & { confirmArchive?: boolean; managedBy?: TriggerManagedBy },
): Promise<Trigger> {
  const { access } = actor;
  const before = await changeableRow(db, access, id);
  // Deleted triggers are restored first; archived ones are history.
  if (before.state === 'DELETED' || before.state === 'ARCHIVED')
    throw invalidStateChange(before.state, 'EDITED');
  const managedBy = input.managedBy ?? (before.managedBy as TriggerManagedBy);
  await assertMayManage(db, access, managedBy);
  assertMayAttachActions(access, input.actionIds);
  const values = await normalise(db, access.org.id, {
    ...input,
    // Left out (or without the feature, whose form has no actions), the trigger keeps the ones it had.
    actionIds:
      access.features.automatedIntervention && input.actionIds !== undefined
        ? input.actionIds
        : before.actionIds,
  });
  if (!conditionsChanged(before, values)) {
    return db.transaction(async (tx) => {
      const row = await updateTrigger(tx, id, { ...values, managedBy });
      await audit(tx, actor, 'updated', id, { before: snapshot(before), after: snapshot(row) });
      return viewJson(tx, access.org.id, id);
    });
  }
  if (!input.confirmArchive) {
    throw conflict(
      'TRIGGER_MISSING_ARCHIVE_CONFIRMATION',
      'Changing the alert conditions archives this version; confirm with confirmArchive',
      { field: 'confirmArchive' },
    );
  }
  return db.transaction(async (tx) => {
    await updateTrigger(tx, id, { state: 'ARCHIVED', nextRunAt: null });
    const running = before.state === 'ACTIVE';
    const row = await insertTrigger(tx, {
      ...values,
      orgId: before.orgId,
      domain: before.domain,
      managedBy,
      state: before.state,
      disabledReason: before.disabledReason,
      disabledUntil: before.disabledUntil,
      // A copy whose alert conditions change no longer follows the library (spec 3: decoupling);
      // it keeps the base query it ran with.
      libraryGroupId: null,
      copiedFromId: null,
      libraryVersion: null,
      baseQuery: before.baseQuery,
      version: before.version + 1,
      previousVersionId: before.id,
      createdBy: access.user.id,
      ...(running ? schedulingFrom(values.intervalSeconds) : {}),
    });
    await audit(tx, actor, 'versioned', row.id, {
      before: snapshot(before),
      after: snapshot(row),
      ...(before.copiedFromId && { decoupledFromLibraryTriggerId: before.copiedFromId }),
    });
    return viewJson(tx, access.org.id, row.id);
  });
}

export type TriggerAction = 'pause' | 'resume' | 'disable' | 'enable' | 'delete' | 'restore';

/** Which states each action starts from, and where it leads. */
export const TRANSITIONS: Record<TriggerAction, { from: TriggerState[]; to: TriggerState }> = {
  pause: { from: ['ACTIVE'], to: 'PAUSED' },
  resume: { from: ['PAUSED'], to: 'ACTIVE' },
  disable: { from: ['ACTIVE', 'PAUSED'], to: 'DISABLED' },
  enable: { from: ['DISABLED'], to: 'ACTIVE' },
  delete: { from: ['ACTIVE', 'PAUSED', 'DISABLED'], to: 'DELETED' },
  // A restored trigger comes back paused, so that it does not fire before someone looks at it.
  restore: { from: ['DELETED'], to: 'PAUSED' },
};

/**
 * Moves a trigger between states. `until` (disable only) disables it temporarily; without it the
 * trigger stays disabled until enabled.
 */
export async function changeTriggerState(
  db: Db,
  actor: Actor,
  id: string,
  action: TriggerAction,
  until?: Date | null,
): Promise<Trigger> {
  const { access } = actor;
  const { from, to } = TRANSITIONS[action];
  const before = await changeableRow(db, access, id);
  if (!from.includes(before.state as TriggerState)) throw invalidStateChange(before.state, to);
  if (until && until.getTime() <= Date.now()) {
    throw validationFailed('TRIGGER_DISABLE_UNTIL_IN_PAST', 'The end of the disable must be in the future', {
      field: 'until',
    });
  }
  const values: Partial<NewTrigger> = {
    state: to,
    disabledReason: null,
    disabledUntil: null,
    nextRunAt: null,
    deletedAt: null,
  };
  if (to === 'ACTIVE') Object.assign(values, schedulingFrom(before.intervalSeconds));
  if (to === 'DISABLED')
    Object.assign(values, {
      disabledReason: until ? 'TEMPORARY' : 'INDEFINITE',
      disabledUntil: until ?? null,
    });
  if (to === 'DELETED') values.deletedAt = new Date();
  return db.transaction(async (tx) => {
    const row = await updateTrigger(tx, id, values);
    await audit(tx, actor, `${action}d`, id, {
      from: before.state,
      to: row.state,
      ...(row.disabledUntil && { until: row.disabledUntil.toISOString() }),
    });
    return viewJson(tx, access.org.id, id);
  });
}
