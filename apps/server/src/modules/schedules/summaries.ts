import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { tickets } from '../tickets/tables';
import { ticketsDoneInTime } from '../tickets/summaries';
import { taskScheduleRuns, taskSchedules } from './tables';

/** Task schedule figures for other areas (the cyber risk readiness dashboard). */

/** The organisation's task schedules that are running (ACTIVE). */
export async function activeScheduleCount(db: Db, orgId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(taskSchedules)
    .where(and(eq(taskSchedules.orgId, orgId), eq(taskSchedules.state, 'ACTIVE')));
  return row?.count ?? 0;
}

/** Tasks the organisation's schedules created that fell due since `since`, and those closed by then. */
export function scheduledTasksDoneInTime(db: Db, orgId: string, since: Date, defaultDays: number) {
  return ticketsDoneInTime(
    db,
    { orgId, kind: 'task', since, defaultDays, doneStates: ['CLOSED'] },
    sql`EXISTS (SELECT 1 FROM ${taskScheduleRuns} WHERE ${taskScheduleRuns.ticketId} = ${tickets.id})`,
  );
}
