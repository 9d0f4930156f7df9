import { validateQuery } from '@vigil/query';
import {
  hasSkuGate,
  TRIGGER_LIBRARY_STATS_DAYS,
  TRIGGER_RESYNC_CONDITION_FIELDS,
  TRIGGER_RESYNC_FIELDS,
  type LibraryBulkEditRequest,
  type LibraryBulkEditResult,
  type LibraryCopyResult,
  type LibraryStats,
  type LibraryTrigger,
  type LibraryTriggerFields,
  type TriggerDomain,
  type TriggerLibrary,
  type TriggerLibraryGroup,
  type TriggerLibraryGroupFields,
  type TriggerManagedBy,
  type TriggerResyncField,
  type TriggerState,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { onUniqueViolation } from '../../platform/error-handler';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import { listUserOrgs } from '../orgs/repo';
import { viewerOf } from '../roles/rules';
import { findSavedQueryView } from '../saved-queries/repo';
import {
  countActiveCopies,
  countGroupTriggers,
  deleteLibraryGroup,
  findCopiesInOrgs,
  findLibraryGroup,
  findLibraryTrigger,
  findOrgTriggers,
  insertLibraryGroup,
  libraryGroupNameTaken,
  listLiveCopies,
  listCopies,
  listLibraryGroups,
  listLibraryTriggers,
  setResyncInfo,
  updateLibraryGroup,
  type LibraryGroupRow,
  type LibraryTriggerView,
} from './library-repo';
import { insertTrigger, updateTrigger, type NewTrigger, type TriggerRow } from './repo';
import {
  conditionsChanged,
  invalidStateChange,
  normalise,
  schedulingFrom,
  snapshot,
  toJson,
  triggerNotFound,
  TRANSITIONS,
  type Actor,
} from './service';

/**
 * The trigger library (spec 3). Library triggers have no organisation (`org_id` null) and belong to
 * a group; the provider organisation keeps them. Provider administrators change them and copy them
 * to organisations; a copy remembers its library trigger (`copied_from_id`) and version and carries
 * its group's base query. Any organisation may read the library.
 */

const groupNotFound = () =>
  new AppError('NotFoundException', 'TRIGGER_LIBRARY_GROUP_NOT_FOUND', 'Default trigger group not found');

const providerOnly = () =>
  accessDenied('TRIGGER_LIBRARY_PROVIDER_ONLY', 'The trigger library is kept in the provider organisation');

const adminOnly = () =>
  accessDenied(
    'TRIGGER_LIBRARY_ADMIN_ONLY',
    'Only provider administrators may change the trigger library or copy its triggers',
  );

const needs = (access: AccessContext, permission: 'TRIGGER_VIEW' | 'TRIGGER_EDIT') => {
  if (!access.permissions.has(permission)) {
    throw accessDenied('PERMISSION_DENIED', `${permission} is needed`);
  }
};

/** Provider staff (home in the provider organisation) working in the provider organisation. */
async function assertProviderStaff(
  db: Db,
  access: AccessContext,
  permission: 'TRIGGER_VIEW' | 'TRIGGER_EDIT',
) {
  if (!access.org.isProvider) throw providerOnly();
  needs(access, permission);
  if (!(await viewerOf(db, access)).providerStaff) throw providerOnly();
}

/** Provider administrators (TRAC_ADMIN held by provider staff) with TRIGGER_EDIT, in the provider organisation. */
async function assertLibraryAdmin(db: Db, access: AccessContext) {
  await assertProviderStaff(db, access, 'TRIGGER_EDIT');
  if (!access.permissions.has('TRAC_ADMIN')) throw adminOnly();
}

/**
 * The provider keeps both domains' library whatever its own products; elsewhere the fraud library
 * needs the fraud product like fraud triggers.
 */
function assertLibraryDomain(access: AccessContext, domain: string) {
  if (!access.org.isProvider) assertDomainEntitled(access, domain);
}

async function audit(
  db: Db,
  actor: Actor,
  orgId: string,
  action: string,
  target: { type: string; id: string },
  details: Record<string, unknown>,
) {
  await recordActivity(db, {
    orgId,
    actorUserId: actor.access.user.id,
    action,
    targetType: target.type,
    targetId: target.id,
    details,
    ip: actor.ip,
  });
}

function groupJson(row: LibraryGroupRow): TriggerLibraryGroup {
  return {
    id: row.id,
    domain: row.domain as TriggerDomain,
    name: row.name,
    description: row.description,
    baseQuery: row.baseQuery,
    createdOn: row.createdOn.toISOString(),
  };
}

function libraryJson(view: LibraryTriggerView, provider: boolean): LibraryTrigger {
  const { row } = view;
  return {
    ...toJson({ row, savedQueryName: view.savedQueryName, lastRunAt: null }),
    groupId: row.libraryGroupId!,
    groupName: view.groupName,
    // Outside the provider organisation only the organisation's own copy is told.
    copyCount: provider ? Number(view.copyCount) : view.copyHereId ? 1 : 0,
    copyHereId: view.copyHereId,
    resyncAnalysedAt: row.resyncInfo?.analysedAt ?? null,
  };
}

/** The library of a domain: its groups with their live triggers. Any organisation may read it. */
export async function readLibrary(
  db: Db,
  access: AccessContext,
  domain: TriggerDomain,
): Promise<TriggerLibrary> {
  assertLibraryDomain(access, domain);
  const [groups, views] = await Promise.all([
    listLibraryGroups(db, domain),
    listLibraryTriggers(db, domain, access.org.id),
  ]);
  const provider = access.org.isProvider;
  return {
    groups: groups.map((group) => ({
      ...groupJson(group),
      triggers: views
        .filter((view) => view.row.libraryGroupId === group.id)
        .map((view) => libraryJson(view, provider)),
    })),
  };
}

async function libraryView(db: Db, access: AccessContext, id: string): Promise<LibraryTriggerView> {
  const view = await findLibraryTrigger(db, id, access.org.id);
  if (!view) throw triggerNotFound();
  assertLibraryDomain(access, view.row.domain);
  return view;
}

export async function readLibraryTrigger(db: Db, access: AccessContext, id: string): Promise<LibraryTrigger> {
  const view = await libraryView(db, access, id);
  if (view.row.state === 'DELETED') throw triggerNotFound();
  return libraryJson(view, access.org.isProvider);
}

// ---- Groups ----

function assertValidBaseQuery(query: string) {
  if (query === '') return;
  const result = validateQuery(query);
  if (!result.valid) {
    throw validationFailed(
      'TRIGGER_LIBRARY_INVALID_BASE_QUERY',
      `Invalid base query at ${result.position}: ${result.message}`,
      { field: 'baseQuery', params: { position: result.position, message: result.message } },
    );
  }
}

const groupNameTaken = (name: string) =>
  conflict('TRIGGER_LIBRARY_GROUP_NAME_TAKEN', `A library group named ${name} already exists`, {
    field: 'name',
    params: { name },
  });

/** Unique-index races end as 409 like the checked case. */
const mapDuplicateName = <T>(name: string, write: () => Promise<T>): Promise<T> =>
  onUniqueViolation(write, () => groupNameTaken(name));

type GroupInput = TriggerLibraryGroupFields;

export async function createLibraryGroup(
  db: Db,
  actor: Actor,
  input: GroupInput,
): Promise<TriggerLibraryGroup> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  assertLibraryDomain(access, input.domain);
  assertValidBaseQuery(input.baseQuery);
  if (await libraryGroupNameTaken(db, input.domain, input.name)) throw groupNameTaken(input.name);
  return mapDuplicateName(input.name, () =>
    db.transaction(async (tx) => {
      const row = await insertLibraryGroup(tx, input);
      await audit(
        tx,
        actor,
        access.org.id,
        'trigger-library.group-created',
        { type: 'trigger-library-group', id: row.id },
        {
          after: groupJson(row),
        },
      );
      return groupJson(row);
    }),
  );
}

export async function updateLibraryGroupFields(
  db: Db,
  actor: Actor,
  id: string,
  input: GroupInput,
): Promise<TriggerLibraryGroup> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const before = await findLibraryGroup(db, id);
  if (!before) throw groupNotFound();
  assertLibraryDomain(access, input.domain);
  if (before.domain !== input.domain && (await countGroupTriggers(db, id)) > 0) {
    throw conflict(
      'TRIGGER_LIBRARY_GROUP_DOMAIN_CHANGE',
      'A group holding triggers cannot change its domain',
      {
        field: 'domain',
      },
    );
  }
  assertValidBaseQuery(input.baseQuery);
  if (await libraryGroupNameTaken(db, input.domain, input.name, id)) throw groupNameTaken(input.name);
  return mapDuplicateName(input.name, () =>
    db.transaction(async (tx) => {
      const row = await updateLibraryGroup(tx, id, input);
      await audit(
        tx,
        actor,
        access.org.id,
        'trigger-library.group-updated',
        { type: 'trigger-library-group', id },
        {
          before: groupJson(before),
          after: groupJson(row),
        },
      );
      return groupJson(row);
    }),
  );
}

export async function removeLibraryGroup(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const before = await findLibraryGroup(db, id);
  if (!before) throw groupNotFound();
  if ((await countGroupTriggers(db, id)) > 0) {
    throw conflict('TRIGGER_LIBRARY_GROUP_NOT_EMPTY', 'The group still holds library triggers');
  }
  await db.transaction(async (tx) => {
    await deleteLibraryGroup(tx, id);
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.group-deleted',
      { type: 'trigger-library-group', id },
      {
        before: groupJson(before),
      },
    );
  });
}

// ---- Library triggers ----

type LibraryInput = LibraryTriggerFields;

const libraryQueryRequired = (field: string) =>
  validationFailed(
    'TRIGGER_LIBRARY_QUERY_REQUIRED',
    'Library triggers run library queries, which every organisation sees',
    { field },
  );

/** The trigger rules, plus: the saved query and every sequence step are library queries. */
async function normaliseLibrary(db: Db, access: AccessContext, input: LibraryInput) {
  const values = await normalise(db, access.org.id, {
    ...input,
    watcherIds: [],
    ticketOwnerId: null,
    scheduleId: null,
  });
  const queryIds = values.sequence?.map((step) => step.savedQueryId) ?? [values.savedQueryId!];
  for (const queryId of queryIds) {
    const query = await findSavedQueryView(db, access.org.id, queryId);
    if (!query?.row.library) throw libraryQueryRequired(values.sequence ? 'sequence' : 'savedQueryId');
  }
  return values;
}

async function groupFor(db: Db, access: AccessContext, groupId: string): Promise<LibraryGroupRow> {
  const group = await findLibraryGroup(db, groupId);
  if (!group) throw groupNotFound();
  assertLibraryDomain(access, group.domain);
  return group;
}

async function libraryJsonOf(db: Db, access: AccessContext, id: string) {
  return libraryJson((await findLibraryTrigger(db, id, access.org.id))!, true);
}

export async function createLibraryTrigger(
  db: Db,
  actor: Actor,
  input: LibraryInput,
): Promise<LibraryTrigger> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const group = await groupFor(db, access, input.groupId);
  const values = await normaliseLibrary(db, access, input);
  return db.transaction(async (tx) => {
    const row = await insertTrigger(tx, {
      ...values,
      orgId: null,
      domain: group.domain,
      libraryGroupId: group.id,
      managedBy: 'OPS',
      state: 'ACTIVE',
      createdBy: access.user.id,
    });
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.created',
      { type: 'trigger', id: row.id },
      {
        group: group.name,
        after: snapshot(row),
      },
    );
    return libraryJsonOf(tx, access, row.id);
  });
}

/**
 * Changes a library trigger in place. A change to its alert conditions raises its version, so that
 * its copies show as out of date until resynced.
 */
export async function updateLibraryTrigger(
  db: Db,
  actor: Actor,
  id: string,
  input: LibraryInput,
): Promise<LibraryTrigger> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const { row: before } = await libraryView(db, access, id);
  if (before.state === 'DELETED') throw triggerNotFound();
  const group = await groupFor(db, access, input.groupId);
  if (group.domain !== before.domain) throw groupNotFound();
  const values = await normaliseLibrary(db, access, input);
  const version = conditionsChanged(before, values) ? before.version + 1 : before.version;
  return db.transaction(async (tx) => {
    const row = await updateTrigger(tx, id, { ...values, libraryGroupId: group.id, version });
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.updated',
      { type: 'trigger', id },
      {
        before: snapshot(before),
        after: snapshot(row),
      },
    );
    return libraryJsonOf(tx, access, id);
  });
}

/** Deletes a library trigger; refused while copies run in some organisations. Copies stay. */
export async function removeLibraryTrigger(db: Db, actor: Actor, id: string): Promise<void> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const { row: before } = await libraryView(db, access, id);
  if (before.state === 'DELETED') throw triggerNotFound();
  const active = await countActiveCopies(db, id);
  if (active > 0) {
    throw conflict(
      'TRIGGER_LIBRARY_ACTIVE_IN_SOME_ORGS',
      'The library trigger is active in some organisations',
      {
        params: { count: active },
      },
    );
  }
  await db.transaction(async (tx) => {
    await updateTrigger(tx, id, { state: 'DELETED', deletedAt: new Date() });
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.deleted',
      { type: 'trigger', id },
      {
        before: snapshot(before),
      },
    );
  });
}

// ---- Copies ----

/** The organisations the acting user may act in, by id. */
async function myOrgs(db: Db, access: AccessContext) {
  const mine = await listUserOrgs(db, { id: access.user.id, homeOrgId: access.user.homeOrgId });
  return new Map(mine.map((org) => [org.id, org]));
}

/** The values a copy takes from its library trigger (the organisation's people and schedule stay). */
const copiedValues = (library: TriggerRow, group: LibraryGroupRow | undefined) => ({
  name: library.name,
  description: library.description,
  type: library.type,
  savedQueryId: library.savedQueryId,
  intervalSeconds: library.intervalSeconds,
  aggregation: library.aggregation,
  minMatch: library.minMatch,
  maxMatch: library.maxMatch,
  sequence: library.sequence,
  severity: library.severity,
  notifyOnly: library.notifyOnly,
  importantFields: library.importantFields,
  customHeaders: library.customHeaders,
  emailRecipients: library.emailRecipients,
  emailDigest: library.emailDigest,
  labels: library.labels,
  inTest: library.inTest,
  baseQuery: group?.baseQuery ? group.baseQuery : null,
});

/** Stores an organisation's copy of a library trigger, ACTIVE with its first run one interval from now. */
export async function insertLibraryCopy(
  db: Db,
  library: TriggerRow,
  group: LibraryGroupRow | undefined,
  copy: { orgId: string; managedBy: TriggerManagedBy; createdBy: string | null },
): Promise<TriggerRow> {
  return insertTrigger(db, {
    ...copiedValues(library, group),
    ...copy,
    domain: library.domain,
    libraryGroupId: library.libraryGroupId,
    copiedFromId: library.id,
    libraryVersion: library.version,
    state: 'ACTIVE',
    ...schedulingFrom(library.intervalSeconds),
  });
}

/**
 * Copies a library trigger to organisations the user may act in (403 ORG_NOT_AUTHORISED, writing
 * nothing, when one is not). One copy per organisation: an organisation that holds one is skipped
 * and reported, as is one without the fraud product for a fraud trigger.
 */
export async function copyLibraryTrigger(
  db: Db,
  actor: Actor,
  id: string,
  input: { orgIds: string[]; managedBy: TriggerManagedBy },
): Promise<LibraryCopyResult> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const { row: library } = await libraryView(db, access, id);
  if (library.state === 'DELETED') throw triggerNotFound();
  const group = library.libraryGroupId ? await findLibraryGroup(db, library.libraryGroupId) : undefined;
  const mine = await myOrgs(db, access);
  const orgIds = [...new Set(input.orgIds)];
  if (orgIds.some((orgId) => !mine.has(orgId))) {
    throw accessDenied('ORG_NOT_AUTHORISED', 'orgIds names an organisation the user may not act in');
  }
  // A copy made at the same moment by another administrator breaks the one-copy index: 409
  // GENERIC_CONFLICT, nothing stored.
  return db.transaction(async (tx) => {
    const existing = await findCopiesInOrgs(tx, id, orgIds);
    const result: LibraryCopyResult = { copied: [], skipped: [] };
    for (const orgId of orgIds) {
      const org = mine.get(orgId)!;
      const held = existing.get(orgId);
      if (held) {
        result.skipped.push({ orgId, orgName: org.name, reason: 'ALREADY_COPIED', triggerId: held.id });
        continue;
      }
      if (library.domain === 'fraud' && !hasSkuGate(org.productSkus, 'fraud')) {
        result.skipped.push({ orgId, orgName: org.name, reason: 'PRODUCT_NOT_ENTITLED', triggerId: null });
        continue;
      }
      const row = await insertLibraryCopy(tx, library, group, {
        orgId,
        managedBy: input.managedBy,
        createdBy: access.user.id,
      });
      await audit(
        tx,
        actor,
        orgId,
        'trigger.copied-from-library',
        { type: 'trigger', id: row.id },
        {
          libraryTriggerId: library.id,
          libraryVersion: library.version,
          after: snapshot(row),
        },
      );
      result.copied.push({ orgId, orgName: org.name, triggerId: row.id });
    }
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.copied',
      { type: 'trigger', id },
      {
        copied: result.copied.map((entry) => entry.orgId),
        skipped: result.skipped.map((entry) => ({ orgId: entry.orgId, reason: entry.reason })),
      },
    );
    return result;
  });
}

// ---- Statistics ----

const DAY_MS = 86_400_000;

/**
 * Which organisations hold a copy (among those the user may act in), their states and the alerts
 * their copies raised over the last 30 days. Provider staff in the provider organisation.
 */
export async function libraryStats(
  db: Db,
  access: AccessContext,
  id: string,
  now = new Date(),
): Promise<LibraryStats> {
  await assertProviderStaff(db, access, 'TRIGGER_VIEW');
  const view = await libraryView(db, access, id);
  if (view.row.state === 'DELETED') throw triggerNotFound();
  const mine = await myOrgs(db, access);
  const since = new Date(now.getTime() - TRIGGER_LIBRARY_STATS_DAYS * DAY_MS);
  const copies = await listCopies(db, id, [...mine.keys()], since);
  const count = (state: TriggerState) => copies.filter((copy) => copy.row.state === state).length;
  const analysed = view.row.resyncInfo;
  return {
    trigger: libraryJson(view, true),
    copies: copies.map(({ row, orgName, alerts }) => ({
      orgId: row.orgId!,
      orgName,
      triggerId: row.id,
      name: row.name,
      state: row.state as TriggerState,
      severity: row.severity as LibraryStats['copies'][number]['severity'],
      labels: row.labels,
      managedBy: row.managedBy as TriggerManagedBy,
      libraryVersion: row.libraryVersion,
      upToDate: row.libraryVersion === view.row.version,
      differences:
        analysed && row.resyncInfo?.libraryVersion === view.row.version
          ? (row.resyncInfo.differences ?? [])
          : null,
      alertsLast30Days: alerts,
    })),
    counts: { active: count('ACTIVE'), paused: count('PAUSED'), disabled: count('DISABLED') },
    alertsLast30Days: copies.reduce((sum, copy) => sum + copy.alerts, 0),
  };
}

// ---- Resync ----

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The row fields each resync field stands for. */
const RESYNC_COLUMNS: Record<TriggerResyncField, (keyof ReturnType<typeof copiedValues>)[]> = {
  name: ['name'],
  description: ['description'],
  severity: ['severity'],
  query: ['savedQueryId', 'sequence', 'baseQuery'],
  intervalSeconds: ['intervalSeconds'],
  aggregation: ['aggregation'],
  matches: ['minMatch', 'maxMatch'],
  labels: ['labels'],
  importantFields: ['importantFields'],
  notifyOnly: ['notifyOnly'],
  customHeaders: ['customHeaders'],
  emailRecipients: ['emailRecipients', 'emailDigest'],
};

/** The resync fields in which a copy differs from what its library trigger would give it. */
function differencesOf(copy: TriggerRow, target: ReturnType<typeof copiedValues>): TriggerResyncField[] {
  return TRIGGER_RESYNC_FIELDS.filter((field) =>
    RESYNC_COLUMNS[field].some((column) => !same(copy[column], target[column])),
  );
}

/**
 * The resync analysis: calculates for every copy in the organisations the user works the fields that
 * differ from the library trigger at its current version, and stores them (resync needs this
 * information).
 */
export async function analyseResync(
  db: Db,
  actor: Actor,
  id: string,
  now = new Date(),
): Promise<LibraryStats> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const { row: library } = await libraryView(db, access, id);
  if (library.state === 'DELETED') throw triggerNotFound();
  const group = library.libraryGroupId ? await findLibraryGroup(db, library.libraryGroupId) : undefined;
  const target = copiedValues(library, group);
  const mine = await myOrgs(db, access);
  const analysedAt = now.toISOString();
  await db.transaction(async (tx) => {
    // Only the organisations the user works: copies elsewhere stay without information.
    const copies = await listLiveCopies(tx, id, [...mine.keys()]);
    for (const copy of copies) {
      await setResyncInfo(tx, copy.id, {
        analysedAt,
        libraryVersion: library.version,
        differences: differencesOf(copy, target),
      });
    }
    await setResyncInfo(tx, id, { analysedAt, libraryVersion: library.version });
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.resync-analysed',
      { type: 'trigger', id },
      {
        libraryVersion: library.version,
        copies: copies.length,
      },
    );
  });
  return libraryStats(db, access, id, now);
}

const PERIODIC_TYPES = ['DYNAMIC_THRESHOLD', 'TEMPORAL_ANOMALY'];
const idList = (rows: { id: string }[]) => rows.map((row) => row.id).join(', ');

/**
 * Copies the chosen fields of the library trigger to the named copies, in one transaction; the
 * spec's resync errors refuse the whole request.
 */
export async function resyncCopies(
  db: Db,
  actor: Actor,
  id: string,
  input: { triggerIds: string[]; fields: TriggerResyncField[] },
): Promise<{ synced: { orgId: string; triggerId: string }[] }> {
  const { access } = actor;
  await assertLibraryAdmin(db, access);
  const fields = [...new Set(input.fields)];
  if (fields.length === 0) {
    throw validationFailed('TRIGGER_RESYNC_NO_FIELDS_SELECTED', 'Select at least one field to resync', {
      field: 'fields',
    });
  }
  const { row: library } = await libraryView(db, access, id);
  if (library.state !== 'ACTIVE') {
    throw conflict('TRIGGER_RESYNC_INACTIVE', 'The library trigger is not active', { params: { ids: id } });
  }
  const ids = [...new Set(input.triggerIds)];
  const mine = await myOrgs(db, access);
  const copies = await findOrgTriggers(db, ids, [...mine.keys()]);
  const missing = ids.filter((triggerId) => !copies.some((copy) => copy.id === triggerId));
  if (missing.length > 0) {
    throw new AppError('NotFoundException', 'TRIGGER_RESYNC_IDS_NOT_FOUND', 'Some triggers were not found', {
      field: 'triggerIds',
      params: { ids: missing.join(', ') },
    });
  }
  const notCopied = copies.filter((copy) => copy.copiedFromId !== id);
  if (notCopied.length > 0) {
    throw conflict(
      'TRIGGER_RESYNC_NOT_COPIED_FROM_LIBRARY',
      'Some triggers were not copied from this library trigger',
      {
        field: 'triggerIds',
        params: { ids: idList(notCopied) },
      },
    );
  }
  const inactive = copies.filter((copy) => copy.state === 'DELETED' || copy.state === 'ARCHIVED');
  if (inactive.length > 0) {
    throw conflict('TRIGGER_RESYNC_INACTIVE', 'Inactive triggers cannot be resynced', {
      field: 'triggerIds',
      params: { ids: idList(inactive) },
    });
  }
  if (!library.resyncInfo) {
    throw conflict(
      'TRIGGER_RESYNC_NO_ANALYSIS_RUN',
      'No resync analysis has been run for this library trigger',
    );
  }
  const stale = copies.filter(
    (copy) =>
      library.resyncInfo!.libraryVersion !== library.version ||
      copy.resyncInfo?.libraryVersion !== library.version,
  );
  if (stale.length > 0) {
    throw conflict('TRIGGER_RESYNC_INFO_NOT_CALCULATED', 'Resync information is not yet calculated', {
      params: { ids: idList(stale) },
    });
  }
  if (fields.includes('intervalSeconds') && PERIODIC_TYPES.includes(library.type)) {
    throw validationFailed(
      'TRIGGER_RESYNC_INTERVAL_CANNOT_SYNC',
      'The interval cannot be synced for this type',
      {
        field: 'fields',
        params: { type: library.type },
      },
    );
  }
  const conditionFields = fields.filter((field) => TRIGGER_RESYNC_CONDITION_FIELDS.includes(field));
  const otherType = copies.filter((copy) => copy.type !== library.type);
  if (conditionFields.length > 0 && otherType.length > 0) {
    throw conflict(
      'TRIGGER_RESYNC_CONFIG_TYPE_DIFFERS',
      'The trigger type differs from the library trigger',
      {
        field: 'fields',
        params: { ids: idList(otherType) },
      },
    );
  }
  const group = library.libraryGroupId ? await findLibraryGroup(db, library.libraryGroupId) : undefined;
  const target = copiedValues(library, group);
  const analysedAt = new Date().toISOString();
  return db.transaction(async (tx) => {
    const synced = [];
    for (const copy of copies) {
      const values: Partial<NewTrigger> = {};
      for (const field of fields) {
        for (const column of RESYNC_COLUMNS[field]) Object.assign(values, { [column]: target[column] });
      }
      const next = { ...copy, ...values } as TriggerRow;
      const remaining = differencesOf(next, target);
      const rescheduled =
        copy.state === 'ACTIVE' &&
        values.intervalSeconds !== undefined &&
        values.intervalSeconds !== copy.intervalSeconds;
      const row = await updateTrigger(tx, copy.id, {
        ...values,
        // The copy holds the library's version once nothing of the conditions differs.
        libraryVersion: remaining.some((field) => TRIGGER_RESYNC_CONDITION_FIELDS.includes(field))
          ? copy.libraryVersion
          : library.version,
        resyncInfo: { analysedAt, libraryVersion: library.version, differences: remaining },
        ...(rescheduled ? schedulingFrom(values.intervalSeconds!) : {}),
      });
      await audit(
        tx,
        actor,
        copy.orgId!,
        'trigger.resynced',
        { type: 'trigger', id: copy.id },
        {
          libraryTriggerId: id,
          fields,
          before: snapshot(copy),
          after: snapshot(row),
        },
      );
      synced.push({ orgId: copy.orgId!, triggerId: copy.id });
    }
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.resynced',
      { type: 'trigger', id },
      {
        fields,
        triggerIds: synced.map((entry) => entry.triggerId),
      },
    );
    return { synced };
  });
}

// ---- Bulk edit across organisations ----

/**
 * Changes the copies of a library trigger in many organisations at once. Organisations the user may
 * not act in are not touched and reported; the others change in one transaction, each organisation
 * without a copy, or whose copy cannot take the state, reported with its reason.
 */
export async function bulkEditCopies(
  db: Db,
  actor: Actor,
  id: string,
  input: LibraryBulkEditRequest,
): Promise<LibraryBulkEditResult> {
  const { access } = actor;
  await assertProviderStaff(db, access, 'TRIGGER_EDIT');
  const changes = input.changes;
  if (Object.values(changes).every((value) => value === undefined)) {
    throw validationFailed('TRIGGER_BULK_EDIT_NO_CHANGES', 'Choose at least one change', {
      field: 'changes',
    });
  }
  const { row: library } = await libraryView(db, access, id);
  if (library.state === 'DELETED') throw triggerNotFound();
  const mine = await myOrgs(db, access);
  const orgIds = [...new Set(input.orgIds)];
  const notAuthorisedOrgIds = orgIds.filter((orgId) => !mine.has(orgId));
  const allowed = orgIds.filter((orgId) => mine.has(orgId));
  return db.transaction(async (tx) => {
    const copies = await findCopiesInOrgs(tx, id, allowed);
    const changed: LibraryBulkEditResult['changed'] = [];
    const failed: LibraryBulkEditResult['failed'] = [];
    for (const orgId of allowed) {
      const copy = copies.get(orgId);
      if (!copy) {
        failed.push({ orgId, key: 'TRIGGER_BULK_EDIT_NO_COPY' });
        continue;
      }
      const values: Partial<NewTrigger> = {};
      if (changes.severity) values.severity = changes.severity;
      if (changes.labels) values.labels = [...new Set(changes.labels)];
      if (changes.notifyOnly !== undefined) values.notifyOnly = changes.notifyOnly;
      if (changes.managedBy) values.managedBy = changes.managedBy;
      if (changes.state && changes.state !== copy.state) {
        const action = (
          {
            ACTIVE: copy.state === 'DISABLED' ? 'enable' : 'resume',
            PAUSED: 'pause',
            DISABLED: 'disable',
          } as const
        )[changes.state];
        if (!TRANSITIONS[action].from.includes(copy.state as TriggerState)) {
          const refusal = invalidStateChange(copy.state, changes.state);
          failed.push({ orgId, key: refusal.key, params: { from: copy.state, to: changes.state } });
          continue;
        }
        Object.assign(values, {
          state: changes.state,
          disabledReason: changes.state === 'DISABLED' ? 'INDEFINITE' : null,
          disabledUntil: null,
          nextRunAt: null,
          ...(changes.state === 'ACTIVE' ? schedulingFrom(copy.intervalSeconds) : {}),
        });
      }
      const row = await updateTrigger(tx, copy.id, values);
      await audit(
        tx,
        actor,
        orgId,
        'trigger.bulk-edited',
        { type: 'trigger', id: copy.id },
        {
          libraryTriggerId: id,
          changes,
          before: snapshot(copy),
          after: snapshot(row),
        },
      );
      changed.push({ orgId, triggerId: copy.id });
    }
    await audit(
      tx,
      actor,
      access.org.id,
      'trigger-library.bulk-edited',
      { type: 'trigger', id },
      {
        changes,
        changed: changed.map((entry) => entry.orgId),
        failed,
        notAuthorisedOrgIds,
      },
    );
    const key =
      notAuthorisedOrgIds.length > 0
        ? 'TRIGGER_BULK_EDIT_NOT_AUTHORISED_SOME_ORGS'
        : failed.length > 0
          ? 'TRIGGER_BULK_EDIT_PARTIAL_FAILURE'
          : null;
    return { changed, failed, notAuthorisedOrgIds, key };
  });
}
