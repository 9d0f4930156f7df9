import { z } from 'zod';
import { pageParams, queryFlag } from './query-params';

/** Spec 3 section 9: the units a task schedule repeats by. */
export const TASK_SCHEDULE_UNITS = ['minute', 'hour', 'day', 'week', 'month_begin', 'month_15'] as const;
export type TaskScheduleUnit = (typeof TASK_SCHEDULE_UNITS)[number];

/** The due-in units: the schedule's units without the monthly ones, plus month and year. */
export const TASK_DUE_UNITS = ['minute', 'hour', 'day', 'week', 'month', 'year'] as const;
export type TaskDueUnit = (typeof TASK_DUE_UNITS)[number];

/** Active schedules create tasks, paused ones do not; deleted ones can be restored. */
export const TASK_SCHEDULE_STATES = ['ACTIVE', 'PAUSED', 'DELETED'] as const;
export type TaskScheduleState = (typeof TASK_SCHEDULE_STATES)[number];

/**
 * The spec names a maximum number of levels without its value: a chain of parent and child schedules
 * holds at most this many.
 */
export const TASK_SCHEDULE_MAX_LEVELS = 5;
/** A task schedule creates its task within this long after its time (spec 3 section 9). */
export const TASK_SCHEDULE_RUN_WINDOW_MS = 3_600_000;
export const TASK_SCHEDULE_NAME_MAX_LENGTH = 200;
export const TASK_SCHEDULE_TEXT_MAX_LENGTH = 4000;
export const TASK_SCHEDULE_MAX_QUERIES = 20;
export const TASK_SCHEDULE_MAX_WATCHERS = 50;
export const TASK_SCHEDULE_MAX_COUNT = 1000;

const count = z.number().int().min(1).max(TASK_SCHEDULE_MAX_COUNT);

export const taskScheduleIntervalSchema = z.object({ count, unit: z.enum(TASK_SCHEDULE_UNITS) });
export type TaskScheduleInterval = z.infer<typeof taskScheduleIntervalSchema>;
export const taskDueIntervalSchema = z.object({ count, unit: z.enum(TASK_DUE_UNITS) });
export type TaskDueInterval = z.infer<typeof taskDueIntervalSchema>;

const base = {
  name: z.string().trim().min(1).max(TASK_SCHEDULE_NAME_MAX_LENGTH),
  description: z.string().trim().max(TASK_SCHEDULE_TEXT_MAX_LENGTH).default(''),
  interval: taskScheduleIntervalSchema,
  /** ISO date-time of the next run; it must be in the future. */
  nextRunAt: z.iso.datetime({ offset: true }),
  skipWeekends: z.boolean().default(false),
  dueIn: taskDueIntervalSchema.nullable().default(null),
  taskTitle: z.string().trim().min(1).max(TASK_SCHEDULE_NAME_MAX_LENGTH),
  taskDescription: z.string().trim().max(TASK_SCHEDULE_TEXT_MAX_LENGTH).default(''),
};

/** POST /task-schedule and PUT /task-schedule/:id. */
export const taskScheduleInputSchema = z.object({
  ...base,
  /** Saved queries of the organisation, listed on every task created. */
  queryIds: z.array(z.uuid()).max(TASK_SCHEDULE_MAX_QUERIES).default([]),
  parentId: z.uuid().nullable().default(null),
  ownerId: z.uuid().nullable().default(null),
  watcherIds: z.array(z.uuid()).max(TASK_SCHEDULE_MAX_WATCHERS).default([]),
});
export type TaskScheduleInput = z.input<typeof taskScheduleInputSchema>;

/** POST /library-task-schedule and PUT /library-task-schedule/:id: no queries, people or parent. */
export const libraryTaskScheduleInputSchema = z.object(base);
export type LibraryTaskScheduleInput = z.input<typeof libraryTaskScheduleInputSchema>;

export const taskScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  interval: taskScheduleIntervalSchema,
  nextRunAt: z.string(),
  /** When the next task is created: nextRunAt, moved to Monday when it falls on a weekend and those are skipped. */
  runAt: z.string(),
  lastRanAt: z.string().nullable(),
  skipWeekends: z.boolean(),
  dueIn: taskDueIntervalSchema.nullable(),
  queries: z.array(z.object({ id: z.string(), name: z.string() })),
  parent: z.object({ id: z.string(), name: z.string() }).nullable(),
  children: z.array(z.object({ id: z.string(), name: z.string() })),
  taskTitle: z.string(),
  taskDescription: z.string(),
  ownerId: z.string().nullable(),
  watcherIds: z.array(z.string()),
  state: z.enum(TASK_SCHEDULE_STATES),
  copiedFromId: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type TaskSchedule = z.infer<typeof taskScheduleSchema>;

export const TASK_SCHEDULE_SORT_FIELDS = ['name', 'nextRunAt', 'lastRanAt', 'modifiedOn'] as const;
export type TaskScheduleSortField = (typeof TASK_SCHEDULE_SORT_FIELDS)[number];

export const taskScheduleListQuerySchema = z.object({
  search: z.string().trim().max(TASK_SCHEDULE_NAME_MAX_LENGTH).optional(),
  /** Deleted schedules are listed only when asked for. */
  state: z.enum(TASK_SCHEDULE_STATES).optional(),
  sortBy: z.enum(TASK_SCHEDULE_SORT_FIELDS).default('name'),
  desc: queryFlag.default(false),
  ...pageParams,
});
export type TaskScheduleListQuery = z.input<typeof taskScheduleListQuerySchema>;

export const taskScheduleListSchema = z.object({ items: z.array(taskScheduleSchema), total: z.number() });
export type TaskScheduleList = z.infer<typeof taskScheduleListSchema>;

/** PUT /task-schedule/:id/state: pause or resume. */
export const taskScheduleStateInputSchema = z.object({ state: z.enum(['ACTIVE', 'PAUSED']) });

/** POST /library-task-schedule/:id/copy. */
export const taskScheduleCopyInputSchema = z.object({ orgIds: z.array(z.string()).min(1).max(1000) });
export const taskScheduleCopyResultSchema = z.object({
  copied: z.array(z.object({ orgId: z.string(), orgName: z.string(), scheduleId: z.string() })),
  /** Organisations that already hold a copy. */
  skipped: z.array(z.object({ orgId: z.string(), orgName: z.string(), scheduleId: z.string() })),
});
export type TaskScheduleCopyResult = z.infer<typeof taskScheduleCopyResultSchema>;

/** Spec 3 section 9: the timeframes of the task-schedule dashboard. */
export const TASK_SCHEDULE_TIMEFRAMES = [
  'SINCE_LAST_RUN',
  'LAST_24_HOURS',
  'LAST_7_DAYS',
  'LAST_30_DAYS',
  'LAST_90_DAYS',
  'PREVIOUS_MONTH',
  'PREVIOUS_QUARTER',
] as const;
export type TaskScheduleTimeframe = (typeof TASK_SCHEDULE_TIMEFRAMES)[number];

/**
 * The span of a timeframe, from inclusive to `to` exclusive, in UTC; null for SINCE_LAST_RUN, which
 * starts at each schedule's own last run.
 */
export function taskScheduleTimeframeRange(
  timeframe: TaskScheduleTimeframe,
  now: Date,
): { from: Date; to: Date } | null {
  const days = { LAST_24_HOURS: 1, LAST_7_DAYS: 7, LAST_30_DAYS: 30, LAST_90_DAYS: 90 } as const;
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth();
  switch (timeframe) {
    case 'SINCE_LAST_RUN':
      return null;
    case 'PREVIOUS_MONTH':
      return { from: new Date(Date.UTC(year, month - 1, 1)), to: new Date(Date.UTC(year, month, 1)) };
    case 'PREVIOUS_QUARTER': {
      const quarterStart = month - (month % 3);
      return {
        from: new Date(Date.UTC(year, quarterStart - 3, 1)),
        to: new Date(Date.UTC(year, quarterStart, 1)),
      };
    }
    default:
      return { from: new Date(now.getTime() - days[timeframe] * 86_400_000), to: now };
  }
}

export const taskScheduleTaskCountsQuerySchema = z.object({
  timeframe: z.enum(TASK_SCHEDULE_TIMEFRAMES).default('LAST_7_DAYS'),
});

/** The tasks each schedule created in a timeframe, and what became of them. */
export const taskScheduleTaskCountsSchema = z.object({
  timeframe: z.enum(TASK_SCHEDULE_TIMEFRAMES),
  /** The span read; null for SINCE_LAST_RUN (each schedule's own last run). */
  from: z.string().nullable(),
  to: z.string(),
  items: z.array(
    z.object({
      scheduleId: z.string(),
      name: z.string(),
      lastRanAt: z.string().nullable(),
      created: z.number(),
      open: z.number(),
      closed: z.number(),
      /** Open with a due date passed. */
      overdue: z.number(),
    }),
  ),
});
export type TaskScheduleTaskCounts = z.infer<typeof taskScheduleTaskCountsSchema>;
