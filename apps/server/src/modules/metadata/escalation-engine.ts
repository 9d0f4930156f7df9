import { ESCALATION_STEP_INTERVAL_MINUTES } from '@vigil/contracts';
import { and, asc, eq, gt, lte, sql, type SQL } from 'drizzle-orm';
import type { SendOptions } from 'pg-boss';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import type { JobRunner } from '../../platform/jobs';
import { MAIL_JOB, type MailMessage } from '../../platform/mail';
import { findOrg } from '../orgs/repo';
import { ticketView } from '../tickets/service';
import { userEmails, users } from '../users/tables';
import { escalationNotifications } from './escalation-tables';
import { isBusinessTime } from './escalation-hours';
import { listOutOfOfficeRows, listStepRows, readSettings } from './escalation';

/**
 * Escalation notices (spec 3). When alerts are escalated to an incident that nobody has taken yet,
 * `startEscalation` writes one row per contact step: the steps that run are due 10 minutes apart from
 * then on; outside business hours and during out of office the steps marked BUSINESS_HOURS are
 * passed over (SKIPPED), as are people no longer active. Every minute the `escalation.tick` job sends
 * what is due, earliest first and never a step before the earlier steps of its incident, until the
 * incident is acknowledged: it has an owner or has left Triage. Then the remaining steps are
 * CANCELLED. A server that was down catches up one step at a time, each next step again 10 minutes
 * after the one before.
 */

export const ESCALATION_TICK_JOB = 'escalation.tick';
const INTERVAL_MS = ESCALATION_STEP_INTERVAL_MINUTES * 60_000;
/** Notices one tick sends at most; the rest stay due for the next tick. */
const MAX_PER_TICK = 500;

/** Queues an e-mail in the caller's transaction, with `id` as its job id (so never twice). */
export type QueueMail = (tx: Db, message: MailMessage, id: string) => Promise<void>;

type NotificationRow = typeof escalationNotifications.$inferSelect;

const acknowledged = (ticket: { ownerId: string | null; state: string }) =>
  ticket.ownerId !== null || ticket.state !== 'TRIAGE';

/**
 * Called in the transaction that escalates alerts to an incident. Does nothing when the incident is
 * already acknowledged or its steps were started before (an incident's steps run once).
 */
export async function startEscalation(tx: Db, orgId: string, ticketId: string, now = new Date()) {
  const { row: ticket } = await ticketView(tx, orgId, 'incident', ticketId);
  if (acknowledged(ticket)) return;
  const [settings, periods, steps] = await Promise.all([
    readSettings(tx, orgId),
    listOutOfOfficeRows(tx, orgId),
    listStepRows(tx, orgId),
  ]);
  if (steps.length === 0) return;
  const businessTime = isBusinessTime(settings, periods, now);
  let slot = 0;
  const rows = steps.map(({ step, userActive }, index) => {
    const base = {
      orgId,
      ticketId,
      position: index + 1,
      stepName: step.name,
      userId: step.userId,
      email: step.email,
    };
    const reason =
      step.hours === 'BUSINESS_HOURS' && !businessTime
        ? 'OUTSIDE_BUSINESS_HOURS'
        : step.userId && !userActive
          ? 'INACTIVE_PERSON'
          : null;
    if (reason) return { ...base, dueAt: now, status: 'SKIPPED', reason, closedAt: now };
    return { ...base, dueAt: new Date(now.getTime() + INTERVAL_MS * slot++), status: 'PENDING' };
  });
  await tx.insert(escalationNotifications).values(rows).onConflictDoNothing();
}

async function primaryAddress(tx: Db, userId: string): Promise<string | null> {
  const [row] = await tx
    .select({ email: userEmails.email })
    .from(userEmails)
    .innerJoin(users, eq(users.id, userEmails.userId))
    .where(
      and(
        eq(userEmails.userId, userId),
        eq(userEmails.primary, true),
        eq(users.active, true),
        sql`${users.deletedAt} IS NULL`,
      ),
    );
  return row?.email ?? null;
}

const close = (tx: Db, where: SQL | undefined, status: string, reason: string | null, now: Date) =>
  tx
    .update(escalationNotifications)
    .set({ status, reason, closedAt: now })
    .where(and(eq(escalationNotifications.status, 'PENDING'), where));

/** Keeps the incident's later steps at least 10 minutes apart from `now` on. */
async function spaceLaterSteps(tx: Db, row: NotificationRow, now: Date) {
  const later = await tx
    .select()
    .from(escalationNotifications)
    .where(
      and(
        eq(escalationNotifications.ticketId, row.ticketId),
        eq(escalationNotifications.status, 'PENDING'),
        gt(escalationNotifications.position, row.position),
      ),
    )
    .orderBy(asc(escalationNotifications.position));
  for (const [index, next] of later.entries()) {
    const earliest = new Date(now.getTime() + INTERVAL_MS * (index + 1));
    if (next.dueAt < earliest) {
      await tx
        .update(escalationNotifications)
        .set({ dueAt: earliest })
        .where(eq(escalationNotifications.id, next.id));
    }
  }
}

export interface TickDeps {
  queueMail: QueueMail;
  /** Base of the link to the incident in the e-mail. */
  publicUrl?: string;
}

function messageOf(
  row: NotificationRow,
  to: string,
  ticket: { slug: string; title: string },
  orgName: string,
  steps: number,
  publicUrl?: string,
): MailMessage {
  const link = publicUrl
    ? `\n\nOpen the incident: ${publicUrl}/tickets/incident/${encodeURIComponent(ticket.slug)}?orgId=${row.orgId}`
    : '';
  return {
    to,
    subject: `[Vigil] Escalation ${ticket.slug} ${ticket.title}: contact step ${row.position}`,
    text:
      `${ticket.slug} ${ticket.title}\nOrganisation: ${orgName}\n\n` +
      `Alerts were escalated to this incident and nobody has taken it yet. You are contact step ` +
      `${row.position} (${row.stepName}) of ${steps}. The next step is contacted in ` +
      `${ESCALATION_STEP_INTERVAL_MINUTES} minutes unless someone takes the incident or moves it out of ` +
      `Triage.${link}`,
  };
}

/** Handles the earliest due notice, in its own transaction; false when nothing is due. */
async function handleOne(db: Db, now: Date, deps: TickDeps): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(escalationNotifications)
      .where(
        and(
          eq(escalationNotifications.status, 'PENDING'),
          lte(escalationNotifications.dueAt, now),
          sql`NOT EXISTS (SELECT 1 FROM ${escalationNotifications} earlier
                WHERE earlier.ticket_id = ${escalationNotifications.ticketId}
                  AND earlier.status = 'PENDING'
                  AND earlier.position < ${escalationNotifications.position})`,
        ),
      )
      .orderBy(asc(escalationNotifications.dueAt), asc(escalationNotifications.position))
      .limit(1)
      .for('update', { skipLocked: true });
    if (!row) return false;
    const { row: ticket } = await ticketView(tx, row.orgId, 'incident', row.ticketId);
    if (acknowledged(ticket)) {
      await close(tx, eq(escalationNotifications.ticketId, row.ticketId), 'CANCELLED', 'ACKNOWLEDGED', now);
      return true;
    }
    const to = row.userId ? await primaryAddress(tx, row.userId) : row.email;
    if (!to) {
      await close(tx, eq(escalationNotifications.id, row.id), 'SKIPPED', 'NO_ADDRESS', now);
      return true;
    }
    const [org, [{ steps } = { steps: 0 }]] = await Promise.all([
      findOrg(tx, row.orgId),
      tx
        .select({ steps: sql<number>`count(*)::int` })
        .from(escalationNotifications)
        .where(eq(escalationNotifications.ticketId, row.ticketId)),
    ]);
    await deps.queueMail(tx, messageOf(row, to, ticket, org?.name ?? '', steps, deps.publicUrl), row.id);
    await tx
      .update(escalationNotifications)
      .set({ status: 'SENT', sentTo: to, closedAt: now })
      .where(eq(escalationNotifications.id, row.id));
    await spaceLaterSteps(tx, row, now);
    await recordActivity(tx, {
      orgId: row.orgId,
      action: 'escalation.notified',
      targetType: 'incident',
      targetId: row.ticketId,
      details: { slug: ticket.slug, position: row.position, step: row.stepName, to },
    });
    return true;
  });
}

/** Sends every notice due at `now` (the `escalation.tick` job; tests call it with their own clock). */
export async function runEscalationTick(db: Db, now: Date, deps: TickDeps): Promise<number> {
  let handled = 0;
  while (handled < MAX_PER_TICK && (await handleOne(db, now, deps))) handled++;
  return handled;
}

/** pg-boss statements run on the caller's drizzle transaction. */
function transactionExecutor(tx: Db): NonNullable<SendOptions['db']> {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const chunks: SQL[] = text
        .split(/\$(\d+)/)
        .map((part, index) => (index % 2 === 0 ? sql.raw(part) : sql`${values[Number(part) - 1]}`));
      const result = await tx.execute(sql.join(chunks));
      return { rows: (result as unknown as { rows: unknown[] }).rows };
    },
  };
}

/** The mail job queued inside the notice's transaction: both commit together or neither does. */
export const queueMailWith =
  (jobs: JobRunner): QueueMail =>
  async (tx, message, id) =>
    void (await jobs.send(MAIL_JOB, message, { id, db: transactionExecutor(tx) }));

/** The `escalation.tick` job, every minute. */
export function defineEscalationJobs(jobs: JobRunner, db: Db, publicUrl?: string) {
  const deps = { queueMail: queueMailWith(jobs), publicUrl };
  jobs.define({
    name: ESCALATION_TICK_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 600,
    handler: async () => void (await runEscalationTick(db, new Date(), deps)),
  });
}
