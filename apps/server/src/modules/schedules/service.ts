import type { libraryTaskScheduleInputSchema, taskScheduleInputSchema } from '@vigil/contracts';
import {
  TASK_SCHEDULE_MAX_LEVELS,
  taskScheduleTimeframeRange,
  type TaskScheduleTaskCounts,
  type TaskScheduleTimeframe,
  type TaskSchedule,
  type TaskScheduleCopyResult,
  type TaskScheduleInterval,
  type TaskScheduleList,
  type TaskScheduleSortField,
  type TaskScheduleState,
  type TaskScheduleUnit,
  type TaskDueUnit,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import { listUserOrgs } from '../orgs/repo';
import { getSavedQuery } from '../saved-queries/service';
import { mayHoldTickets } from '../tickets/service';
import {
  ancestorsOf,
  childrenOf,
  copiesInOrgs,
  findTaskSchedule,
  insertTaskSchedule,
  levelsBelow,
  lockOrgFamilies,
  listTaskSchedules,
  scheduleNames,
  taskCountsOf,
  updateTaskSchedule,
  type NewTaskSchedule,
  type TaskScheduleRow,
} from './repo';
import { firstOccurrenceAfter, intervalLength, monthDayOf, runTimeOf } from './timing';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

type Input = z.output<typeof taskScheduleInputSchema>;
type LibraryInput = z.output<typeof libraryTaskScheduleInputSchema>;

export const taskScheduleNotFound = () =>
  new AppError('NotFoundException', 'TASK_SCHEDULE_NOT_FOUND', 'Task schedule not found');

const intervalOf = (row: Pick<TaskScheduleRow, 'intervalCount' | 'intervalUnit'>): TaskScheduleInterval => ({
  count: row.intervalCount,
  unit: row.intervalUnit as TaskScheduleUnit,
});

const iso = (date: Date | null) => (date ? date.toISOString() : null);

function toJson(
  row: TaskScheduleRow,
  parentName: string | null,
  children: { id: string; name: string }[],
): TaskSchedule {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    interval: intervalOf(row),
    nextRunAt: row.nextRunAt.toISOString(),
    runAt: row.runAt.toISOString(),
    lastRanAt: iso(row.lastRanAt),
    skipWeekends: row.skipWeekends,
    dueIn: row.dueUnit && row.dueCount ? { count: row.dueCount, unit: row.dueUnit as TaskDueUnit } : null,
    queries: row.queries,
    parent: row.parentId && parentName !== null ? { id: row.parentId, name: parentName } : null,
    children,
    taskTitle: row.taskTitle,
    taskDescription: row.taskDescription,
    ownerId: row.ownerId,
    watcherIds: row.watcherIds,
    state: row.state as TaskScheduleState,
    copiedFromId: row.copiedFromId,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

/** The JSON of schedules with their parents' and children's names. */
async function toJsonMany(db: Db, orgId: string | null, rows: TaskScheduleRow[]): Promise<TaskSchedule[]> {
  if (orgId === null) return rows.map((row) => toJson(row, null, []));
  const parentIds = [...new Set(rows.flatMap((row) => (row.parentId ? [row.parentId] : [])))];
  const [names, children] = await Promise.all([
    scheduleNames(db, orgId, parentIds),
    childrenOf(
      db,
      orgId,
      rows.map((row) => row.id),
    ),
  ]);
  return rows.map((row) =>
    toJson(
      row,
      row.parentId ? (names.get(row.parentId) ?? null) : null,
      children
        .filter((child) => child.parentId === row.id)
        .map((child) => ({ id: child.id, name: child.name })),
    ),
  );
}

const snapshot = (row: TaskScheduleRow) => ({
  name: row.name,
  description: row.description,
  interval: intervalOf(row),
  nextRunAt: row.nextRunAt.toISOString(),
  skipWeekends: row.skipWeekends,
  dueCount: row.dueCount,
  dueUnit: row.dueUnit,
  queries: row.queries.map((query) => query.id),
  parentId: row.parentId,
  taskTitle: row.taskTitle,
  ownerId: row.ownerId,
  watcherIds: row.watcherIds,
  state: row.state,
});

async function audit(
  db: Db,
  actor: Actor,
  orgId: string,
  action: string,
  id: string,
  details: Record<string, unknown>,
) {
  await recordActivity(db, {
    orgId,
    actorUserId: actor.access.user.id,
    action,
    targetType: 'task-schedule',
    targetId: id,
    details,
    ip: actor.ip,
  });
}

// ---------------------------------------------------------------------------------------------------
// Rules (spec 3, "Task schedule"): each refused with its own key, before anything is written

/** The next run is in the future, and a monthly schedule's is on its day of the month. */
function checkTiming(input: LibraryInput, now: Date): Date {
  const nextRunAt = new Date(input.nextRunAt);
  if (nextRunAt <= now) {
    throw validationFailed('TASK_SCHEDULE_NEXT_RUN_IN_PAST', 'The next run must be in the future', {
      field: 'nextRunAt',
    });
  }
  const day = monthDayOf(input.interval.unit);
  if (day !== null && nextRunAt.getUTCDate() !== day) {
    throw validationFailed(
      'TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY',
      `A ${input.interval.unit} schedule must next run on day ${day} of a month`,
      { field: 'nextRunAt', params: { day } },
    );
  }
  return nextRunAt;
}

async function checkQueries(db: Db, access: AccessContext, ids: string[]) {
  const queries: { id: string; name: string }[] = [];
  for (const id of new Set(ids)) {
    try {
      const query = await getSavedQuery(db, access, id);
      queries.push({ id: query.id, name: query.name });
    } catch {
      throw validationFailed('TASK_SCHEDULE_INVALID_QUERY', `No saved query ${id}`, {
        field: 'queryIds',
        params: { id },
      });
    }
  }
  return queries;
}

async function checkPeople(db: Db, orgId: string, input: Input) {
  if (input.ownerId && !(await mayHoldTickets(db, orgId, input.ownerId))) {
    throw validationFailed('TASK_SCHEDULE_INVALID_OWNER', 'The owner is not a user of the organisation', {
      field: 'ownerId',
    });
  }
  for (const id of new Set(input.watcherIds)) {
    if (!(await mayHoldTickets(db, orgId, id))) {
      throw validationFailed('TASK_SCHEDULE_INVALID_WATCHER', 'A watcher is not a user of the organisation', {
        field: 'watcherIds',
        params: { id },
      });
    }
  }
}

/** Parent and child rules: no queries on a parent, intervals, no cycles, at most the maximum levels. */
async function checkFamily(db: Db, orgId: string, input: Input, self?: TaskScheduleRow) {
  const length = intervalLength(input.interval);
  const children = self ? await childrenOf(db, orgId, [self.id]) : [];
  if (children.length > 0 && input.queryIds.length > 0) {
    throw validationFailed('TASK_SCHEDULE_PARENT_HAS_QUERIES', 'A parent schedule cannot have queries', {
      field: 'queryIds',
    });
  }
  if (children.some((child) => intervalLength(intervalOf(child)) > length)) {
    throw validationFailed(
      'TASK_SCHEDULE_CHILDREN_INTERVAL',
      "The interval must be at least each child schedule's interval",
      { field: 'interval' },
    );
  }
  if (!input.parentId) return;
  const parent = await findTaskSchedule(db, orgId, input.parentId);
  if (!parent || parent.state === 'DELETED' || parent.id === self?.id) {
    throw validationFailed(
      parent?.id === self?.id && parent ? 'TASK_SCHEDULE_PARENT_CYCLE' : 'TASK_SCHEDULE_INVALID_PARENT',
      'The parent is not a task schedule of the organisation',
      { field: 'parentId' },
    );
  }
  if (parent.queries.length > 0) {
    throw validationFailed('TASK_SCHEDULE_PARENT_HAS_QUERIES', 'A parent schedule cannot have queries', {
      field: 'parentId',
    });
  }
  if (intervalLength(intervalOf(parent)) < length) {
    throw validationFailed(
      'TASK_SCHEDULE_PARENT_INTERVAL',
      "The parent's interval must be at least this schedule's",
      { field: 'parentId' },
    );
  }
  const above = await ancestorsOf(db, orgId, parent.id);
  if (self && above.some((row) => row.id === self.id)) {
    throw validationFailed('TASK_SCHEDULE_PARENT_CYCLE', 'A schedule cannot be below itself', {
      field: 'parentId',
    });
  }
  const levels = above.length + 1 + (self ? await levelsBelow(db, orgId, self.id) : 1);
  if (levels > TASK_SCHEDULE_MAX_LEVELS) {
    throw validationFailed(
      'TASK_SCHEDULE_TOO_MANY_LEVELS',
      `Parent and child schedules can be at most ${TASK_SCHEDULE_MAX_LEVELS} levels deep`,
      { field: 'parentId', params: { max: TASK_SCHEDULE_MAX_LEVELS } },
    );
  }
}

function timingValues(input: LibraryInput, nextRunAt: Date) {
  return {
    name: input.name,
    description: input.description,
    intervalCount: input.interval.count,
    intervalUnit: input.interval.unit,
    nextRunAt,
    runAt: runTimeOf(nextRunAt, input.skipWeekends),
    skipWeekends: input.skipWeekends,
    dueCount: input.dueIn?.count ?? null,
    dueUnit: input.dueIn?.unit ?? null,
    taskTitle: input.taskTitle,
    taskDescription: input.taskDescription,
  };
}

async function checkedValues(db: Db, actor: Actor, input: Input, self?: TaskScheduleRow) {
  const orgId = actor.access.org.id;
  const nextRunAt = checkTiming(input, new Date());
  const queries = await checkQueries(db, actor.access, input.queryIds);
  await checkPeople(db, orgId, input);
  await checkFamily(db, orgId, input, self);
  return {
    ...timingValues(input, nextRunAt),
    queries,
    parentId: input.parentId,
    ownerId: input.ownerId,
    watcherIds: [...new Set(input.watcherIds)],
  };
}

// ---------------------------------------------------------------------------------------------------
// Organisation schedules

async function scheduleOf(db: Db, orgId: string | null, id: string) {
  const row = await findTaskSchedule(db, orgId, id);
  if (!row) throw taskScheduleNotFound();
  return row;
}

export async function listSchedules(
  db: Db,
  orgId: string | null,
  query: {
    search?: string;
    state?: TaskScheduleState;
    sortBy: TaskScheduleSortField;
    desc: boolean;
    pageSize: number;
    pageNumber: number;
  },
): Promise<TaskScheduleList> {
  const { items, total } = await listTaskSchedules(db, orgId, {
    ...query,
    limit: query.pageSize,
    offset: (query.pageNumber - 1) * query.pageSize,
  });
  return { items: await toJsonMany(db, orgId, items), total };
}

export async function getSchedule(db: Db, orgId: string | null, id: string): Promise<TaskSchedule> {
  const [json] = await toJsonMany(db, orgId, [await scheduleOf(db, orgId, id)]);
  return json!;
}

export async function createSchedule(db: Db, actor: Actor, input: Input): Promise<TaskSchedule> {
  const orgId = actor.access.org.id;
  const row = await db.transaction(async (tx) => {
    await lockOrgFamilies(tx, orgId);
    const values = await checkedValues(tx, actor, input);
    const row = await insertTaskSchedule(tx, { ...values, orgId, createdBy: actor.access.user.id });
    await audit(tx, actor, orgId, 'task-schedule.created', row.id, { after: snapshot(row) });
    return row;
  });
  return getSchedule(db, orgId, row.id);
}

export async function replaceSchedule(db: Db, actor: Actor, id: string, input: Input): Promise<TaskSchedule> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await lockOrgFamilies(tx, orgId);
    // Read under the lock: the family rules hold against what concurrent changes committed.
    const before = await scheduleOf(tx, orgId, id);
    if (before.state === 'DELETED') throw taskScheduleNotFound();
    const values = await checkedValues(tx, actor, input, before);
    const row = await updateTaskSchedule(tx, id, values);
    await audit(tx, actor, orgId, 'task-schedule.updated', id, {
      before: snapshot(before),
      after: snapshot(row),
    });
  });
  return getSchedule(db, orgId, id);
}

/**
 * Pause, resume, delete (restorable) and restore. A resumed or restored schedule whose time passed
 * meanwhile next runs at its first time after now: paused time is not made up.
 */
export async function changeScheduleState(
  db: Db,
  actor: Actor,
  orgId: string | null,
  id: string,
  state: TaskScheduleState | 'RESTORED',
): Promise<TaskSchedule> {
  const before = await scheduleOf(db, orgId, id);
  if (state === 'DELETED' && before.state === 'DELETED') {
    throw conflict('ALREADY_DELETED', 'The task schedule is already deleted');
  }
  if (state === 'RESTORED' && before.state !== 'DELETED') {
    throw conflict('NOT_DELETED', 'The task schedule is not deleted');
  }
  if (state !== 'DELETED' && state !== 'RESTORED' && before.state === 'DELETED') throw taskScheduleNotFound();
  const target: TaskScheduleState = state === 'RESTORED' ? 'PAUSED' : state;
  const now = new Date();
  const nextRunAt = firstOccurrenceAfter(before.nextRunAt, intervalOf(before), now);
  await db.transaction(async (tx) => {
    await updateTaskSchedule(tx, id, {
      state: target,
      ...(target === 'ACTIVE' && { nextRunAt, runAt: runTimeOf(nextRunAt, before.skipWeekends) }),
    });
    const action = { ACTIVE: 'resumed', PAUSED: 'paused', DELETED: 'deleted', RESTORED: 'restored' }[state];
    await audit(
      tx,
      actor,
      actor.access.org.id,
      `${orgId === null ? 'library-task-schedule' : 'task-schedule'}.${action}`,
      id,
      { before: { state: before.state }, after: { state: target } },
    );
  });
  return getSchedule(db, orgId, id);
}

// ---------------------------------------------------------------------------------------------------
// The library: kept by provider administrators in the provider organisation, copied to customers

function assertLibraryAdmin(access: AccessContext) {
  if (!access.org.isProvider || !access.permissions.has('TRAC_ADMIN')) {
    throw accessDenied(
      'TASK_SCHEDULE_LIBRARY_ADMIN_ONLY',
      'Only provider administrators may change library task schedules or copy them',
    );
  }
}

export async function createLibrarySchedule(
  db: Db,
  actor: Actor,
  input: LibraryInput,
): Promise<TaskSchedule> {
  assertLibraryAdmin(actor.access);
  const values = timingValues(input, checkTiming(input, new Date()));
  const row = await db.transaction(async (tx) => {
    const row = await insertTaskSchedule(tx, { ...values, orgId: null, createdBy: actor.access.user.id });
    await audit(tx, actor, actor.access.org.id, 'library-task-schedule.created', row.id, {
      after: snapshot(row),
    });
    return row;
  });
  return getSchedule(db, null, row.id);
}

export async function replaceLibrarySchedule(
  db: Db,
  actor: Actor,
  id: string,
  input: LibraryInput,
): Promise<TaskSchedule> {
  assertLibraryAdmin(actor.access);
  const before = await scheduleOf(db, null, id);
  if (before.state === 'DELETED') throw taskScheduleNotFound();
  const values = timingValues(input, checkTiming(input, new Date()));
  await db.transaction(async (tx) => {
    const row = await updateTaskSchedule(tx, id, values);
    await audit(tx, actor, actor.access.org.id, 'library-task-schedule.updated', id, {
      before: snapshot(before),
      after: snapshot(row),
    });
  });
  return getSchedule(db, null, id);
}

export async function changeLibraryScheduleState(
  db: Db,
  actor: Actor,
  id: string,
  state: 'DELETED' | 'RESTORED',
): Promise<TaskSchedule> {
  assertLibraryAdmin(actor.access);
  return changeScheduleState(db, actor, null, id, state);
}

/**
 * Copies a library schedule to organisations the user may act in (403 ORG_NOT_AUTHORISED, writing
 * nothing, when one is not). An organisation holding a copy already (even a deleted one) is skipped and
 * reported. A copy whose next run has passed starts at the schedule's first time after now.
 */
export async function copyLibrarySchedule(
  db: Db,
  actor: Actor,
  id: string,
  orgIds: string[],
): Promise<TaskScheduleCopyResult> {
  const { access } = actor;
  assertLibraryAdmin(access);
  const library = await scheduleOf(db, null, id);
  if (library.state === 'DELETED') throw taskScheduleNotFound();
  const mine = new Map((await listUserOrgs(db, access.user)).map((org) => [org.id, org]));
  const wanted = [...new Set(orgIds)];
  if (wanted.some((orgId) => !mine.has(orgId) || orgId === access.org.id)) {
    throw accessDenied('ORG_NOT_AUTHORISED', 'orgIds names an organisation the user may not copy to');
  }
  const nextRunAt = firstOccurrenceAfter(library.nextRunAt, intervalOf(library), new Date());
  return db.transaction(async (tx) => {
    const held = await copiesInOrgs(tx, id, wanted);
    const result: TaskScheduleCopyResult = { copied: [], skipped: [] };
    for (const orgId of wanted) {
      const orgName = mine.get(orgId)!.name;
      const existing = held.get(orgId);
      if (existing) {
        result.skipped.push({ orgId, orgName, scheduleId: existing });
        continue;
      }
      const { id: _id, createdOn: _created, modifiedOn: _modified, ...fields } = library;
      const copy: NewTaskSchedule = {
        ...fields,
        orgId,
        nextRunAt,
        runAt: runTimeOf(nextRunAt, library.skipWeekends),
        lastRanAt: null,
        state: 'ACTIVE',
        copiedFromId: library.id,
        createdBy: access.user.id,
      };
      const row = await insertTaskSchedule(tx, copy);
      await audit(tx, actor, orgId, 'task-schedule.copied-from-library', row.id, {
        libraryScheduleId: id,
        after: snapshot(row),
      });
      result.copied.push({ orgId, orgName, scheduleId: row.id });
    }
    await audit(tx, actor, access.org.id, 'library-task-schedule.copied', id, {
      copied: result.copied.map((entry) => entry.orgId),
      skipped: result.skipped.map((entry) => entry.orgId),
    });
    return result;
  });
}

/** The task-schedule dashboard: tasks each schedule created in the timeframe, and their states now. */
export async function scheduleTaskCounts(
  db: Db,
  orgId: string,
  timeframe: TaskScheduleTimeframe,
  now = new Date(),
): Promise<TaskScheduleTaskCounts> {
  const range = taskScheduleTimeframeRange(timeframe, now);
  const rows = await taskCountsOf(db, orgId, { from: range?.from ?? null, to: range?.to ?? now }, now);
  return {
    timeframe,
    from: range ? range.from.toISOString() : null,
    to: (range?.to ?? now).toISOString(),
    items: rows.map((row) => ({ ...row, lastRanAt: iso(row.lastRanAt) })),
  };
}
