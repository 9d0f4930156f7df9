import { asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { insertTaskSchedule } from '../modules/schedules/repo';
import { runTimeOf } from '../modules/schedules/timing';
import { savedQueries } from '../modules/saved-queries/tables';

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
