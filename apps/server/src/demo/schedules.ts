import { and, asc, eq, inArray, lte, min } from 'drizzle-orm';
import type { Db } from '../db/client';
import { runDueSchedules } from '../modules/schedules/engine';
import { insertTaskSchedule } from '../modules/schedules/repo';
import { taskScheduleRuns, taskSchedules } from '../modules/schedules/tables';
import { runTimeOf } from '../modules/schedules/timing';
import { savedQueries } from '../modules/saved-queries/tables';
import { insertHistory, updateTicketRow } from '../modules/tickets/repo';
import { tickets } from '../modules/tickets/tables';

/** The next Monday (never today) at 09:00 UTC, and the 1st of next month at 09:00 UTC. */
function nextMonday(now: Date): Date {
  const date = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate(), 9));
  date.setUTCDate(date.getUTCDate() + ((8 - date.getUTCDay()) % 7 || 7));
  return date;
}
const nextFirst = (now: Date) => new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 9));

/**
 * First Harbor's weekly review of privileged accounts (owned by its analyst, watched by its
 * administrator, listing one of its saved queries) and a library schedule for quarterly access
 * recertification that provider administrators can copy to customers.
 */
export async function seedTaskSchedulesDemo(
  db: Db,
  harbor: { orgId: string; analystId: string; adminId: string },
  providerAdminId: string,
  now = new Date(),
) {
  const [query] = await db
    .select({ id: savedQueries.id, name: savedQueries.name })
    .from(savedQueries)
    .where(eq(savedQueries.orgId, harbor.orgId))
    .orderBy(asc(savedQueries.name))
    .limit(1);
  const monday = nextMonday(now);
  await insertTaskSchedule(db, {
    orgId: harbor.orgId,
    name: 'Weekly review of privileged accounts',
    description: 'Every Monday the SOC reviews administrator and service accounts for unexpected changes.',
    intervalCount: 1,
    intervalUnit: 'week',
    nextRunAt: monday,
    runAt: runTimeOf(monday, true),
    skipWeekends: true,
    dueCount: 2,
    dueUnit: 'day',
    queries: query ? [query] : [],
    taskTitle: 'Review privileged accounts',
    taskDescription: 'Confirm each new or changed privileged account has an approved request.',
    ownerId: harbor.analystId,
    watcherIds: [harbor.adminId],
    createdBy: harbor.adminId,
  });
  const first = nextFirst(now);
  await insertTaskSchedule(db, {
    orgId: null,
    name: 'Quarterly access recertification',
    description: 'Managers confirm the access of their staff every quarter (FFIEC, SOX).',
    intervalCount: 3,
    intervalUnit: 'month_begin',
    nextRunAt: first,
    runAt: first,
    dueCount: 1,
    dueUnit: 'month',
    taskTitle: 'Recertify user access',
    taskDescription: 'Export the user list, send it to each manager and record their confirmation.',
    createdBy: providerAdminId,
  });
}

const DAY_MS = 86_400_000;
/** A minute after a run time: when the every-minute tick would have run it. */
const TICK_MS = 60_000;

/** The 1st of the month `back` months before `now`'s, at 09:00 UTC. */
const firstOfMonthsAgo = (now: Date, back: number) =>
  new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1, 9));

/**
 * A compliance calendar for each organisation, run by the task-schedule engine: a weekly backup check,
 * a monthly check of critical vendors, a quarterly access review and an annual policy review. The
 * schedules start in the past and the engine is stepped through their past run times, so each holds
 * the tasks it would have created; tasks past their due date were closed on time, except last month's
 * vendor check, still open and overdue. The governance tasks page counts them per timeframe.
 */
export async function seedGovernanceCalendarDemo(
  db: Db,
  orgs: { orgId: string; analystId: string; adminId: string }[],
  now = new Date(),
) {
  const ids: string[] = [];
  let vendorCheckId: string | null = null;
  for (const { orgId, analystId, adminId } of orgs) {
    const weekly = new Date(nextMonday(now).getTime() - 35 * DAY_MS);
    const calendar = [
      {
        name: 'Weekly backup check',
        description:
          "Every Monday IT confirms that last week's backups completed and one restore was tested.",
        intervalCount: 1,
        intervalUnit: 'week',
        start: weekly,
        dueCount: 2,
        dueUnit: 'day',
        taskTitle: 'Check backups and a test restore',
        taskDescription: 'Record failed backup jobs and the system restored this week.',
        ownerId: analystId,
        watcherIds: [adminId],
      },
      {
        name: 'Monthly vendor check',
        description: 'Critical vendors are checked every month (third-party risk, FFIEC CAT D4).',
        intervalCount: 1,
        intervalUnit: 'month_begin',
        start: firstOfMonthsAgo(now, 3),
        dueCount: 10,
        dueUnit: 'day',
        taskTitle: 'Check critical vendors',
        taskDescription:
          "Confirm each critical vendor's SOC report, insurance and contract are current, and note any incident it reported.",
        ownerId: analystId,
        watcherIds: [adminId],
      },
      {
        name: 'Quarterly access review',
        description: 'Managers confirm the access of their staff every quarter.',
        intervalCount: 3,
        intervalUnit: 'month_begin',
        start: firstOfMonthsAgo(now, 3),
        dueCount: 1,
        dueUnit: 'month',
        taskTitle: 'Review user access',
        taskDescription:
          'Send each manager the access list of their staff and record every change asked for.',
        ownerId: adminId,
        watcherIds: [analystId],
      },
      {
        name: 'Annual policy review',
        description: 'The board approves the information security program and its policies once a year.',
        intervalCount: 12,
        intervalUnit: 'month_begin',
        start: firstOfMonthsAgo(now, 2),
        dueCount: 1,
        dueUnit: 'month',
        taskTitle: 'Review the security policies',
        taskDescription:
          'Review every policy under Governance > Policies, mark it reviewed and take changes to the board.',
        ownerId: adminId,
        watcherIds: [analystId],
      },
    ];
    for (const { start, ...schedule } of calendar) {
      const row = await insertTaskSchedule(db, {
        orgId,
        ...schedule,
        nextRunAt: start,
        runAt: runTimeOf(start, true),
        skipWeekends: true,
        createdBy: adminId,
      });
      ids.push(row.id);
      if (schedule.name === 'Monthly vendor check') vendorCheckId ??= row.id;
    }
  }
  // The engine, at each past run time in turn.
  for (;;) {
    const [next] = await db
      .select({ at: min(taskSchedules.runAt) })
      .from(taskSchedules)
      .where(and(inArray(taskSchedules.id, ids), lte(taskSchedules.runAt, now)));
    if (!next?.at) break;
    await runDueSchedules(db, new Date(Math.min(next.at.getTime() + TICK_MS, now.getTime())));
  }
  const tasks = await db
    .select({ id: tickets.id, dueDate: tickets.dueDate, scheduleId: taskScheduleRuns.scheduleId })
    .from(taskScheduleRuns)
    .innerJoin(tickets, eq(tickets.id, taskScheduleRuns.ticketId))
    .where(inArray(taskScheduleRuns.scheduleId, ids))
    .orderBy(asc(taskScheduleRuns.scheduledFor));
  const vendorChecks = tasks.filter((task) => task.scheduleId === vendorCheckId);
  const leftOpen = vendorChecks.at(-2)?.id;
  for (const task of tasks) {
    if (!task.dueDate || task.dueDate >= now || task.id === leftOpen) continue;
    await updateTicketRow(db, task.id, { state: 'CLOSED' });
    await insertHistory(db, {
      ticketId: task.id,
      actorId: null,
      action: 'state-changed',
      details: { from: 'OPEN', to: 'CLOSED', resolution: null },
      at: new Date(task.dueDate.getTime() - DAY_MS),
    });
  }
}
