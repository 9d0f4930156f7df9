import {
  addReviewInterval,
  reviewStatus,
  todayIn,
  type ReviewSchedule,
  type ReviewScheduleInput,
  type ReviewUnit,
} from '@vigil/contracts';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { controlIn } from './controls';
import { endReminderCycle, reminderOf } from './reminders';
import { peopleByIds } from './repo';
import { assertActivePeople, orgScope, recordControl, recordRisk, riskIn, type Actor } from './service';
import { reviewSchedules } from './tables';

/** The object a review schedule belongs to. */
export type ReviewTarget = 'risk' | 'control';

type Row = typeof reviewSchedules.$inferSelect;

const notFound = () =>
  new AppError('NotFoundException', 'RISK_REVIEW_SCHEDULE_NOT_FOUND', 'No review schedule');

async function objectOf(db: Db, actor: Actor, target: ReviewTarget, ref: string) {
  const scope = orgScope(actor.access);
  if (target === 'risk') {
    const row = await riskIn(db, scope, ref);
    return {
      key: { riskId: row.id },
      where: eq(reviewSchedules.riskId, row.id),
      record: (tx: Db, details: Record<string, unknown>) => recordRisk(tx, actor, row, 'REVIEW', details),
    };
  }
  const row = await controlIn(db, scope, ref);
  return {
    key: { controlId: row.id },
    where: eq(reviewSchedules.controlId, row.id),
    record: (tx: Db, details: Record<string, unknown>) => recordControl(tx, actor, row, 'REVIEW', details),
  };
}

const today = (actor: Actor) => todayIn(actor.access.org.settings.emailTimezone);

async function toSchedule(db: Db, row: Row, on: string): Promise<ReviewSchedule> {
  const unit = row.unit as ReviewUnit;
  return {
    id: row.id,
    every: row.every,
    unit,
    nextReview: row.nextReview,
    lastReviewed: row.lastReviewed,
    watchers: await peopleByIds(db, row.watcherIds),
    status: reviewStatus(row.nextReview, on, row.every, unit),
    lastReminder: await reminderOf(db, row),
  };
}

async function findRow(db: Db, orgId: string, where: ReturnType<typeof eq>) {
  const [row] = await db
    .select()
    .from(reviewSchedules)
    .where(and(eq(reviewSchedules.orgId, orgId), where));
  return row;
}

/** At least one watcher, each an active person of the organisation. */
async function assertWatchers(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) {
    throw validationFailed('RISK_REVIEW_WATCHER_REQUIRED', 'A review schedule needs a watcher', {
      field: 'watcherIds',
    });
  }
  await assertActivePeople(db, orgId, 'watcherIds', 'watchers', ids);
}

export async function getReviewSchedule(db: Db, actor: Actor, target: ReviewTarget, ref: string) {
  const object = await objectOf(db, actor, target, ref);
  const row = await findRow(db, actor.access.org.id, object.where);
  return row ? toSchedule(db, row, today(actor)) : null;
}

/** Adds the schedule; 409 RISK_REVIEW_SCHEDULE_EXISTS when the object has one. */
export async function addReviewSchedule(
  db: Db,
  actor: Actor,
  target: ReviewTarget,
  ref: string,
  input: Required<ReviewScheduleInput>,
) {
  const orgId = actor.access.org.id;
  const object = await objectOf(db, actor, target, ref);
  const watcherIds = [...new Set(input.watcherIds)];
  await assertWatchers(db, orgId, watcherIds);
  const row = await db.transaction(async (tx) => {
    const [created] = await tx
      .insert(reviewSchedules)
      .values({ orgId, ...object.key, ...input, watcherIds })
      .onConflictDoNothing()
      .returning();
    if (!created) {
      throw conflict(
        'RISK_REVIEW_SCHEDULE_EXISTS',
        'Cannot create review schedule because this already has one',
      );
    }
    await object.record(tx, {
      change: 'ADDED',
      every: input.every,
      unit: input.unit,
      nextReview: input.nextReview,
    });
    return created;
  });
  return toSchedule(db, row, today(actor));
}

export async function editReviewSchedule(
  db: Db,
  actor: Actor,
  target: ReviewTarget,
  ref: string,
  input: Required<ReviewScheduleInput>,
) {
  const orgId = actor.access.org.id;
  const object = await objectOf(db, actor, target, ref);
  const watcherIds = [...new Set(input.watcherIds)];
  await assertWatchers(db, orgId, watcherIds);
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(reviewSchedules)
      .where(and(eq(reviewSchedules.orgId, orgId), object.where))
      .for('update');
    if (!current) throw notFound();
    // A new next review date starts a new reminder cycle: the old cycle's task is closed.
    if (current.nextReview !== input.nextReview) await endReminderCycle(tx, actor, current, 'RESCHEDULED');
    const [updated] = await tx
      .update(reviewSchedules)
      .set({ ...input, watcherIds })
      .where(eq(reviewSchedules.id, current.id))
      .returning();
    await object.record(tx, {
      change: 'EDITED',
      every: input.every,
      unit: input.unit,
      nextReview: input.nextReview,
    });
    return updated!;
  });
  return toSchedule(db, row, today(actor));
}

export async function deleteReviewSchedule(db: Db, actor: Actor, target: ReviewTarget, ref: string) {
  const object = await objectOf(db, actor, target, ref);
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(reviewSchedules)
      .where(and(eq(reviewSchedules.orgId, actor.access.org.id), object.where))
      .for('update');
    if (!current) throw notFound();
    await endReminderCycle(tx, actor, current, 'SCHEDULE_DELETED');
    await tx.delete(reviewSchedules).where(eq(reviewSchedules.id, current.id));
    await object.record(tx, { change: 'DELETED' });
  });
}

/**
 * Marks the object reviewed today and moves the next review one interval on from today, which starts
 * a new reminder cycle and closes the open reminder task of the one ending. Refused while the review
 * is early (400 RISK_REVIEW_TOO_EARLY): it opens in the almost-due window.
 */
export async function markReviewed(db: Db, actor: Actor, target: ReviewTarget, ref: string) {
  const orgId = actor.access.org.id;
  const object = await objectOf(db, actor, target, ref);
  const on = today(actor);
  const row = await db.transaction(async (tx) => {
    const [current] = await tx
      .select()
      .from(reviewSchedules)
      .where(and(eq(reviewSchedules.orgId, orgId), object.where))
      .for('update');
    if (!current) throw notFound();
    const unit = current.unit as ReviewUnit;
    if (reviewStatus(current.nextReview, on, current.every, unit) === 'EARLY') {
      throw validationFailed('RISK_REVIEW_TOO_EARLY', 'The review is not due yet', {
        params: { 0: current.nextReview },
      });
    }
    const nextReview = addReviewInterval(on, current.every, unit);
    await endReminderCycle(tx, actor, current, 'REVIEWED');
    const [updated] = await tx
      .update(reviewSchedules)
      .set({ lastReviewed: on, nextReview })
      .where(eq(reviewSchedules.id, current.id))
      .returning();
    await object.record(tx, { change: 'MARKED_REVIEWED', reviewed: on, nextReview });
    return updated!;
  });
  return toSchedule(db, row, on);
}

/**
 * The review schedules of an organisation's risks and controls, and how many are not late on `on`
 * (yyyy-mm-dd): late once the next review has passed, as `reviewStatus` says.
 */
export async function reviewSchedulesNotLate(db: Db, orgId: string, on: string) {
  const [row] = await db
    .select({
      onTime: sql<number>`count(*) FILTER (WHERE ${reviewSchedules.nextReview} >= ${on})::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(reviewSchedules)
    .where(eq(reviewSchedules.orgId, orgId));
  return { onTime: row?.onTime ?? 0, total: row?.total ?? 0 };
}
