import { randomUUID } from 'node:crypto';
import {
  DEFAULT_ORG_SETTINGS,
  REVIEW_ALMOST_DUE_MAX_DAYS,
  reviewStatus,
  todayIn,
  type ReviewReminder,
  type ReviewUnit,
} from '@vigil/contracts';
import { and, desc, eq, isNotNull, lte, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import type { JobRunner } from '../../platform/jobs';
import type { MailMessage } from '../../platform/mail';
import { queueMailWith, type QueueMail } from '../metadata/escalation-engine';
import { findOrg } from '../orgs/repo';
import { findRef, primaryEmails } from '../tickets/repo';
import { closeOpenTask, mayHoldTickets, openSystemTask, type Actor } from '../tickets/service';
import { reviewReminders, reviewSchedules, riskControls, risks } from './tables';

/**
 * Review reminders (spec 3 Review schedule): once a day the `risk.review-reminders` job looks at every
 * review schedule of a register risk or control. A schedule that has entered ALMOST_DUE, and again one
 * that is LATE, e-mails each watcher who is still an active user of the organisation and opens one
 * task for the due cycle (owner: the control's owner, else the first such watcher), due on the next
 * review date and pointing back at the risk or control. The reminder row (unique per schedule, cycle
 * and stage), the task and the queued e-mails are written in one transaction with the schedule row
 * locked, so across runs, retries, restarts and servers each stage of a cycle is sent exactly once;
 * marking reviewed starts a new cycle, which reminds again, and closes the cycle's open task.
 * Inactive risks get no reminders.
 */

export const REVIEW_REMINDER_JOB = 'risk.review-reminders';
/** Daily, early in the European morning (UTC); dates are each organisation's e-mail time zone. */
export const REVIEW_REMINDER_CRON = '0 6 * * *';

export interface ReminderDeps {
  queueMail: QueueMail;
  /** Base of the link back to the risk or control in the e-mail and the task. */
  publicUrl?: string;
  log?: FastifyBaseLogger;
}

type ScheduleRow = typeof reviewSchedules.$inferSelect;
type Stage = 'ALMOST_DUE' | 'LATE';

interface ReviewObject {
  kind: 'risk' | 'control';
  id: string;
  publicId: string;
  name: string;
  ownerId: string | null;
  path: string;
}

/** The register object of the schedule, when it still is one that should be reviewed. */
async function objectOf(tx: Db, row: ScheduleRow): Promise<ReviewObject | null> {
  if (row.riskId) {
    const [risk] = await tx
      .select()
      .from(risks)
      .where(and(eq(risks.id, row.riskId), eq(risks.orgId, row.orgId), eq(risks.library, false)));
    if (!risk || risk.state !== 'ACTIVE') return null;
    return {
      kind: 'risk',
      id: risk.id,
      publicId: risk.publicId,
      name: risk.name,
      ownerId: null,
      path: `/risk/risks/register/${encodeURIComponent(risk.publicId)}`,
    };
  }
  const [control] = await tx
    .select()
    .from(riskControls)
    .where(
      and(
        eq(riskControls.id, row.controlId!),
        eq(riskControls.orgId, row.orgId),
        eq(riskControls.library, false),
      ),
    );
  if (!control) return null;
  return {
    kind: 'control',
    id: control.id,
    publicId: control.publicId,
    name: control.name,
    ownerId: control.ownerId,
    path: '/risk/controls/register',
  };
}

const STAGE_TEXT: Record<Stage, string> = { ALMOST_DUE: 'is almost due', LATE: 'is late' };

function linkOf(object: ReviewObject, orgId: string, publicUrl?: string) {
  return publicUrl ? `${publicUrl}${object.path}?orgId=${orgId}` : null;
}

function messageOf(
  to: string,
  object: ReviewObject,
  row: ScheduleRow,
  stage: Stage,
  orgName: string,
  task: { slug: string },
  link: string | null,
): MailMessage {
  const what = object.kind === 'risk' ? 'risk' : 'control';
  return {
    to,
    subject: `[Vigil] Review of ${what} ${object.publicId} ${object.name} ${STAGE_TEXT[stage]} (${row.nextReview})`,
    text:
      `${object.publicId} ${object.name}\nOrganisation: ${orgName}\n\n` +
      `The review of this ${what} ${STAGE_TEXT[stage]}: the next review is on ${row.nextReview} ` +
      `(every ${row.every} ${row.unit}${row.every === 1 ? '' : 's'}). You are a watcher of its review ` +
      `schedule. Task ${task.slug} tracks it and closes when the ${what} is marked as reviewed.` +
      (link ? `\n\nOpen the ${what}: ${link}` : ''),
  };
}

/** The cycle's task: opened by its first reminder. */
async function cycleTask(tx: Db, row: ScheduleRow): Promise<string | null> {
  const [found] = await tx
    .select({ taskId: reviewReminders.taskId })
    .from(reviewReminders)
    .where(
      and(
        eq(reviewReminders.scheduleId, row.id),
        eq(reviewReminders.cycle, row.nextReview),
        isNotNull(reviewReminders.taskId),
      ),
    )
    .limit(1);
  return found?.taskId ?? null;
}

/**
 * Sends the reminder of one schedule when one is due at `today` (its organisation's date) and was not
 * sent yet; in its own transaction. Answers whether one was sent.
 */
async function remindOne(db: Db, scheduleId: string, now: Date, deps: ReminderDeps): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(reviewSchedules)
      .where(eq(reviewSchedules.id, scheduleId))
      .for('update', { skipLocked: true });
    if (!row) return false;
    const org = await findOrg(tx, row.orgId);
    if (!org) return false;
    const today = todayIn(org.settings.emailTimezone ?? DEFAULT_ORG_SETTINGS.emailTimezone, now);
    const stage = reviewStatus(row.nextReview, today, row.every, row.unit as ReviewUnit);
    if (stage === 'EARLY') return false;
    const object = await objectOf(tx, row);
    if (!object) return false;
    const [reminder] = await tx
      .insert(reviewReminders)
      .values({ orgId: row.orgId, scheduleId: row.id, cycle: row.nextReview, stage, sentTo: [], sentOn: now })
      .onConflictDoNothing()
      .returning({ id: reviewReminders.id });
    if (!reminder) return false;
    // Watchers who are still active users of the organisation, in the schedule's order.
    const watcherIds: string[] = [];
    for (const id of row.watcherIds) if (await mayHoldTickets(tx, row.orgId, id)) watcherIds.push(id);
    const ownerId =
      object.ownerId && (await mayHoldTickets(tx, row.orgId, object.ownerId))
        ? object.ownerId
        : (watcherIds[0] ?? null);
    const link = linkOf(object, row.orgId, deps.publicUrl);
    let taskId = await cycleTask(tx, row);
    if (!taskId) {
      const what = object.kind === 'risk' ? 'risk' : 'control';
      const task = await openSystemTask(
        tx,
        row.orgId,
        { reviewScheduleId: row.id, [`${object.kind}Id`]: object.id },
        {
          title: `Review ${what} ${object.publicId} ${object.name}`,
          description:
            `The review of ${what} ${object.publicId} ${object.name} is due on ${row.nextReview}. Mark the ` +
            `${what} as reviewed on its review schedule; that closes this task.` +
            (link
              ? `\n\n${link}`
              : `\n\nRisk > ${what === 'risk' ? 'Risks' : 'Controls'} > ${object.publicId}`),
          ownerId,
          watcherIds,
          dueDate: new Date(`${row.nextReview}T23:59:59Z`),
        },
      );
      taskId = task.id;
    }
    const task = (await findRef(tx, row.orgId, taskId))!;
    const addresses = await primaryEmails(tx, watcherIds);
    for (const to of addresses) {
      await deps.queueMail(tx, messageOf(to, object, row, stage, org.name, task, link), randomUUID());
    }
    await tx
      .update(reviewReminders)
      .set({ taskId, sentTo: addresses })
      .where(eq(reviewReminders.id, reminder.id));
    await recordActivity(tx, {
      orgId: row.orgId,
      action: 'risk.review-reminded',
      targetType: object.kind,
      targetId: object.id,
      details: {
        publicId: object.publicId,
        stage,
        nextReview: row.nextReview,
        task: task.slug,
        to: addresses,
      },
    });
    return true;
  });
}

/**
 * Sends every review reminder due at `now` (the `risk.review-reminders` job; tests call it with their
 * own clock). Only schedules whose next review is at most the almost-due window ahead (plus a day for
 * time zones), and whose cycle has not had its late reminder, are looked at. A schedule that fails is logged and tried again on the next run.
 */
export async function runReviewReminders(db: Db, now: Date, deps: ReminderDeps): Promise<number> {
  const horizon = new Date(now.getTime() + (REVIEW_ALMOST_DUE_MAX_DAYS + 1) * 86_400_000)
    .toISOString()
    .slice(0, 10);
  const candidates = await db
    .select({ id: reviewSchedules.id })
    .from(reviewSchedules)
    .where(
      and(
        lte(reviewSchedules.nextReview, horizon),
        // A cycle reminded of as late has nothing more to send.
        sql`NOT EXISTS (SELECT 1 FROM ${reviewReminders} sent
              WHERE sent.schedule_id = ${reviewSchedules.id}
                AND sent.cycle = ${reviewSchedules.nextReview} AND sent.stage = 'LATE')`,
      ),
    )
    .orderBy(reviewSchedules.nextReview);
  let sent = 0;
  for (const { id } of candidates) {
    try {
      if (await remindOne(db, id, now, deps)) sent++;
    } catch (error) {
      deps.log?.error({ err: error, reviewScheduleId: id }, 'review reminder not sent');
    }
  }
  return sent;
}

/**
 * Ends the reminders of the schedule's current cycle, in the caller's transaction: its open task is
 * closed by `actor` (the review was marked done, the date moved or the schedule deleted).
 */
export async function endReminderCycle(tx: Db, actor: Actor, schedule: ScheduleRow, reason: string) {
  const taskId = await cycleTask(tx, schedule);
  if (!taskId) return;
  await closeOpenTask(tx, actor, taskId, { reviewScheduleId: schedule.id, reason });
}

/** The last reminder of a schedule and its cycle's task while that is open. */
export async function reminderOf(db: Db, schedule: ScheduleRow): Promise<ReviewReminder | null> {
  const [last] = await db
    .select()
    .from(reviewReminders)
    .where(and(eq(reviewReminders.orgId, schedule.orgId), eq(reviewReminders.scheduleId, schedule.id)))
    .orderBy(desc(reviewReminders.sentOn), sql`${reviewReminders.stage} = 'LATE' DESC`)
    .limit(1);
  if (!last) return null;
  const taskId = last.cycle === schedule.nextReview ? await cycleTask(db, schedule) : null;
  const task = taskId ? await findRef(db, schedule.orgId, taskId) : undefined;
  return {
    stage: last.stage as Stage,
    cycle: last.cycle,
    sentOn: last.sentOn.toISOString(),
    recipients: last.sentTo.length,
    openTask: task && task.state === 'OPEN' ? { id: task.id, slug: task.slug, title: task.title } : null,
  };
}

/** The `risk.review-reminders` job, daily. */
export function defineReviewReminderJobs(jobs: JobRunner, db: Db, publicUrl?: string) {
  const queueMail = queueMailWith(jobs);
  jobs.define({
    name: REVIEW_REMINDER_JOB,
    cron: REVIEW_REMINDER_CRON,
    retry: { retryLimit: 0 },
    expireInSeconds: 1800,
    handler: async () =>
      void (await runReviewReminders(db, new Date(), { queueMail, publicUrl, log: jobs.logger })),
  });
}
