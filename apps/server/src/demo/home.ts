import { and, asc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { taskScheduleRuns, taskSchedules } from '../modules/schedules/tables';
import { insertTicket } from '../modules/tickets/repo';
import { ticketHistory } from '../modules/tickets/tables';

const DAY = 86_400_000;

/**
 * History the cyber risk readiness dashboard judges: an incident closed in time and one past its SLA
 * date, and two past runs of the privileged-accounts review, one closed on time and one overdue, so
 * the demo bank has checks met and checks to put right.
 */
export async function seedReadinessDemo(
  db: Db,
  harbor: { orgId: string; analystId: string },
  now = new Date(),
) {
  const ago = (days: number) => new Date(now.getTime() - days * DAY);
  const closedOn = async (ticketId: string, from: string, to: string, days: number) => {
    await db.insert(ticketHistory).values({
      ticketId,
      actorId: harbor.analystId,
      action: 'state-changed',
      details: { from, to },
      at: ago(days),
    });
  };

  const resolved = await insertTicket(db, harbor.orgId, 'incident', {
    title: 'Credential phishing against treasury staff',
    description: 'Three treasury analysts entered credentials on a look-alike portal; passwords reset.',
    state: 'RESOLVED',
    resolution: 'Passwords reset and the look-alike domain taken down.',
    ownerId: harbor.analystId,
    slaDate: ago(20),
    createdOn: ago(24),
    modifiedOn: ago(21),
  });
  await closedOn(resolved.id, 'ANALYSIS', 'RESOLVED', 21);
  await insertTicket(db, harbor.orgId, 'incident', {
    title: 'Card-not-present fraud ring on debit BIN 431940',
    description: 'Merchant disputes point at a testing ring; waiting on the card processor logs.',
    state: 'ANALYSIS',
    ownerId: harbor.analystId,
    slaDate: ago(3),
    createdOn: ago(9),
    modifiedOn: ago(4),
  });

  const [schedule] = await db
    .select()
    .from(taskSchedules)
    .where(and(eq(taskSchedules.orgId, harbor.orgId), eq(taskSchedules.state, 'ACTIVE')))
    .orderBy(asc(taskSchedules.createdOn))
    .limit(1);
  if (!schedule) return;
  for (const { weeksAgo, closedDaysAgo } of [
    { weeksAgo: 2, closedDaysAgo: 13 },
    { weeksAgo: 1, closedDaysAgo: null },
  ]) {
    const ranAt = ago(weeksAgo * 7);
    const task = await insertTicket(db, harbor.orgId, 'task', {
      title: schedule.taskTitle,
      description: schedule.taskDescription,
      state: closedDaysAgo === null ? 'OPEN' : 'CLOSED',
      ownerId: schedule.ownerId,
      dueDate: new Date(ranAt.getTime() + 2 * DAY),
      createdOn: ranAt,
      modifiedOn: closedDaysAgo === null ? ranAt : ago(closedDaysAgo),
    });
    if (closedDaysAgo !== null) await closedOn(task.id, 'OPEN', 'CLOSED', closedDaysAgo);
    await db
      .insert(taskScheduleRuns)
      .values({ scheduleId: schedule.id, scheduledFor: ranAt, ranAt, ticketId: task.id });
  }
}
