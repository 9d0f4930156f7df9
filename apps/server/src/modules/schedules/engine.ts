import { TASK_SCHEDULE_RUN_WINDOW_MS, type TaskDueUnit, type TaskScheduleUnit } from '@vigil/contracts';
import { and, asc, eq, isNotNull, lte } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { openScheduledTask } from '../tickets/service';
import { latestTaskOf, type TaskScheduleRow } from './repo';
import { taskScheduleRuns, taskSchedules } from './tables';
import { dueDateOf, firstOccurrenceAfter, nextOccurrence, runTimeOf } from './timing';

/**
 * The task schedule engine (spec 3): every minute it creates the task of each schedule whose run time
 * has come, so a task appears within the hour of its time. Each schedule is claimed with FOR UPDATE
 * SKIP LOCKED, and its run row (unique per scheduled time), its task and its moved next run are written
 * in that one transaction: a crash rolls all of it back and the next tick repeats it, a second server
 * skips the locked row, and no run is stored twice. Runs missed while the server was down are made up
 * by one run, for the latest of them, counting the others as missed.
 */

export const TASK_SCHEDULE_TICK_JOB = 'schedules.tick';
/** Schedules one tick runs at most; the rest stay due for the next tick. */
const MAX_SCHEDULES_PER_TICK = 1000;

export interface ScheduleEngineDeps {
  log?: FastifyBaseLogger;
}

const interval = (row: TaskScheduleRow) => ({
  count: row.intervalCount,
  unit: row.intervalUnit as TaskScheduleUnit,
});

/** The task's text: the schedule's description and the saved queries to look at. */
function taskDescription(row: TaskScheduleRow): string {
  if (row.queries.length === 0) return row.taskDescription;
  const lines = row.queries.map((query) => `- ${query.name}`);
  return [row.taskDescription, `Saved queries:\n${lines.join('\n')}`].filter(Boolean).join('\n\n');
}

async function runSchedule(tx: Db, row: TaskScheduleRow, now: Date): Promise<void> {
  // The latest time at or before now, and how many before it were passed over.
  let occurrence = row.nextRunAt;
  let scheduledFor = row.runAt;
  let missed = 0;
  for (;;) {
    const next = nextOccurrence(occurrence, interval(row));
    const nextRun = runTimeOf(next, row.skipWeekends);
    if (nextRun > now) break;
    // Two times moved to the same Monday are one run.
    if (nextRun.getTime() !== scheduledFor.getTime()) missed++;
    occurrence = next;
    scheduledFor = nextRun;
  }
  const following = nextOccurrence(occurrence, interval(row));
  await tx
    .update(taskSchedules)
    .set({ nextRunAt: following, runAt: runTimeOf(following, row.skipWeekends), lastRanAt: now })
    .where(eq(taskSchedules.id, row.id));
  const [run] = await tx
    .insert(taskScheduleRuns)
    .values({ scheduleId: row.id, scheduledFor, ranAt: now, missed })
    .onConflictDoNothing()
    .returning({ id: taskScheduleRuns.id });
  // The time was run before (a retry after a commit): no second task.
  if (!run) return;
  const parentId = row.parentId ? await latestTaskOf(tx, row.parentId) : null;
  const task = await openScheduledTask(tx, row.orgId!, row.id, {
    title: row.taskTitle,
    description: taskDescription(row),
    ownerId: row.ownerId,
    watcherIds: row.watcherIds,
    dueDate:
      row.dueUnit && row.dueCount
        ? dueDateOf(scheduledFor, { count: row.dueCount, unit: row.dueUnit as TaskDueUnit })
        : null,
    parentId,
  });
  await tx.update(taskScheduleRuns).set({ ticketId: task.id }).where(eq(taskScheduleRuns.id, run.id));
}

/** Creates the task of every schedule due at `now` (the `schedules.tick` job; tests call it directly). */
export async function runDueSchedules(db: Db, now: Date, deps: ScheduleEngineDeps = {}): Promise<number> {
  let ran = 0;
  while (ran < MAX_SCHEDULES_PER_TICK) {
    const claimed = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(taskSchedules)
        .where(
          and(
            eq(taskSchedules.state, 'ACTIVE'),
            isNotNull(taskSchedules.orgId),
            lte(taskSchedules.runAt, now),
          ),
        )
        .orderBy(asc(taskSchedules.runAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!row) return null;
      try {
        // A savepoint, so that a failing run leaves the claiming transaction usable.
        await tx.transaction(async (inner) => runSchedule(inner as unknown as Db, row, now));
      } catch (error) {
        deps.log?.error({ err: error, scheduleId: row.id }, 'task schedule run failed');
        const following = firstOccurrenceAfter(row.nextRunAt, interval(row), now);
        await tx
          .update(taskSchedules)
          .set({ nextRunAt: following, runAt: runTimeOf(following, row.skipWeekends) })
          .where(eq(taskSchedules.id, row.id));
      }
      return row;
    });
    if (!claimed) break;
    ran++;
    if (now.getTime() - claimed.runAt.getTime() > TASK_SCHEDULE_RUN_WINDOW_MS) {
      deps.log?.info({ scheduleId: claimed.id }, 'task schedule caught up after downtime');
    }
  }
  return ran;
}

/** The `schedules.tick` job, every minute. */
export function defineScheduleJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: TASK_SCHEDULE_TICK_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 900,
    handler: async () => void (await runDueSchedules(db, new Date(), { log: jobs.logger })),
  });
}
