import type { escalationScheduleInputSchema, escalationStepInputSchema } from '@vigil/contracts';
import {
  ESCALATION_MAX_CONTACT_STEPS,
  ESCALATION_MAX_OUT_OF_OFFICE,
  type EscalationOutOfOffice,
  type EscalationOutOfOfficeInput,
  type EscalationSchedule,
  type EscalationStep,
  type EscalationStepHours,
  type EscalationHoursMode,
} from '@vigil/contracts';
import { and, asc, count, eq, exists, isNull, or, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { userEmails, userOrgs, users } from '../users/tables';
import { escalationOutOfOffice, escalationSettings, escalationSteps } from './escalation-tables';
import { isBusinessTime, isTimeZone, scheduleProblem, windowsOf } from './escalation-hours';

export interface EscalationActor {
  access: AccessContext;
  ip?: string;
}

type StepInput = z.output<typeof escalationStepInputSchema>;
type ScheduleInput = z.output<typeof escalationScheduleInputSchema>;
type SettingsRow = typeof escalationSettings.$inferSelect;
type OutOfOfficeRow = typeof escalationOutOfOffice.$inferSelect;

export const stepNotFound = () =>
  new AppError('NotFoundException', 'ESCALATION_STEP_NOT_FOUND', 'Contact step not found');
const outOfOfficeNotFound = () =>
  new AppError('NotFoundException', 'ESCALATION_OUT_OF_OFFICE_NOT_FOUND', 'Out-of-office period not found');

async function audit(
  tx: Db,
  actor: EscalationActor,
  action: string,
  targetId: string,
  details: Record<string, unknown>,
) {
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `escalation.${action}`,
    targetType: 'escalation',
    targetId,
    details,
    ip: actor.ip,
  });
}

// ---------------------------------------------------------------------------------------------------
// Settings: business hours, and the row every change of the steps locks first

const DEFAULT_SETTINGS = { mode: 'WEEKDAYS', timezone: 'UTC', days: [], updatedAt: null };

export async function readSettings(db: Db, orgId: string): Promise<Omit<SettingsRow, 'orgId'>> {
  const [row] = await db.select().from(escalationSettings).where(eq(escalationSettings.orgId, orgId));
  return row ?? DEFAULT_SETTINGS;
}

/** The organisation's settings row, created when missing, locked until the transaction ends. */
async function lockSettings(tx: Db, orgId: string): Promise<SettingsRow> {
  await tx.insert(escalationSettings).values({ orgId }).onConflictDoNothing();
  const [row] = await tx
    .select()
    .from(escalationSettings)
    .where(eq(escalationSettings.orgId, orgId))
    .for('update');
  return row!;
}

/** Out-of-office periods of the organisation, earliest first. */
export const listOutOfOfficeRows = (db: Db, orgId: string) =>
  db
    .select()
    .from(escalationOutOfOffice)
    .where(eq(escalationOutOfOffice.orgId, orgId))
    .orderBy(asc(escalationOutOfOffice.startsAt), asc(escalationOutOfOffice.id));

export async function getSchedule(db: Db, orgId: string, now = new Date()): Promise<EscalationSchedule> {
  const [settings, periods] = await Promise.all([readSettings(db, orgId), listOutOfOfficeRows(db, orgId)]);
  return {
    mode: settings.mode as EscalationHoursMode,
    timezone: settings.timezone,
    days: windowsOf(settings),
    businessHoursNow: isBusinessTime(settings, periods, now),
    updatedAt: settings.updatedAt?.toISOString() ?? null,
  };
}

export async function saveSchedule(db: Db, actor: EscalationActor, input: ScheduleInput) {
  if (!isTimeZone(input.timezone)) {
    throw validationFailed('ESCALATION_INVALID_TIMEZONE', `Unknown time zone ${input.timezone}`, {
      field: 'timezone',
      params: { timezone: input.timezone },
    });
  }
  const days = input.mode === 'CUSTOM' ? [...input.days].sort((a, b) => a.day - b.day) : [];
  const problem = input.mode === 'CUSTOM' ? scheduleProblem(days) : null;
  if (problem) throw validationFailed(problem, 'Invalid business hours', { field: 'days' });
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const before = await lockSettings(tx, orgId);
    await tx
      .update(escalationSettings)
      .set({ mode: input.mode, timezone: input.timezone, days, updatedAt: new Date() })
      .where(eq(escalationSettings.orgId, orgId));
    await audit(tx, actor, 'schedule.updated', orgId, {
      before: { mode: before.mode, timezone: before.timezone, days: before.days },
      after: { mode: input.mode, timezone: input.timezone, days },
    });
  });
  return getSchedule(db, orgId);
}

// ---------------------------------------------------------------------------------------------------
// Contact steps

/** A user of the organisation (home or authorised), with their name, primary e-mail and standing. */
const personOfOrg = (orgId: string) =>
  or(
    eq(users.homeOrgId, orgId),
    exists(
      sql`(SELECT 1 FROM ${userOrgs} WHERE ${userOrgs.userId} = ${users.id} AND ${userOrgs.orgId} = ${orgId})`,
    ),
  );

const stepColumns = {
  step: escalationSteps,
  userName: sql<string | null>`${users.firstName} || ' ' || ${users.lastName}`,
  userEmail: userEmails.email,
  userActive: sql<boolean>`coalesce(${users.active} AND ${users.deletedAt} IS NULL, false)`,
};

/** The organisation's steps, first step first, with the people they name. */
export async function listStepRows(db: Db, orgId: string) {
  return db
    .select(stepColumns)
    .from(escalationSteps)
    .leftJoin(users, eq(users.id, escalationSteps.userId))
    .leftJoin(userEmails, and(eq(userEmails.userId, users.id), eq(userEmails.primary, true)))
    .where(eq(escalationSteps.orgId, orgId))
    .orderBy(asc(escalationSteps.position), asc(escalationSteps.createdAt));
}

type StepView = Awaited<ReturnType<typeof listStepRows>>[number];

export const toStep = ({ step, userName, userEmail, userActive }: StepView): EscalationStep => ({
  id: step.id,
  position: step.position,
  name: step.name,
  userId: step.userId,
  userName: step.userId ? userName : null,
  email: step.userId ? userEmail : step.email,
  hours: step.hours as EscalationStepHours,
  active: step.userId ? userActive : true,
  updatedAt: step.updatedAt.toISOString(),
});

const snapshot = (step: typeof escalationSteps.$inferSelect) => ({
  position: step.position,
  name: step.name,
  userId: step.userId,
  email: step.email,
  hours: step.hours,
});

export async function listSteps(db: Db, orgId: string): Promise<EscalationStep[]> {
  return (await listStepRows(db, orgId)).map(toStep);
}

/** The contact of a step: a person of the organisation who is active, or an e-mail address. */
async function contactOf(db: Db, orgId: string, input: StepInput) {
  const userId = input.userId ?? null;
  const email = input.email ?? null;
  if ((userId === null) === (email === null)) {
    throw validationFailed('ESCALATION_STEP_CONTACT_REQUIRED', 'Give a person or an e-mail address', {
      field: 'userId',
    });
  }
  if (userId) {
    const [person] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.active, true), isNull(users.deletedAt), personOfOrg(orgId)));
    if (!person) {
      throw validationFailed('ESCALATION_STEP_INVALID_PERSON', `Not an active user of the organisation`, {
        field: 'userId',
      });
    }
  }
  return { userId, email };
}

function assertNewContact(
  steps: (typeof escalationSteps.$inferSelect)[],
  contact: { userId: string | null; email: string | null },
  self?: string,
) {
  const taken = steps.some(
    (step) =>
      step.id !== self &&
      ((contact.userId && step.userId === contact.userId) || (contact.email && step.email === contact.email)),
  );
  if (taken) {
    throw conflict('ESCALATION_STEP_DUPLICATE_CONTACT', 'Another step notifies this contact', {
      field: contact.userId ? 'userId' : 'email',
    });
  }
}

const stepsOf = (tx: Db, orgId: string) =>
  tx
    .select()
    .from(escalationSteps)
    .where(eq(escalationSteps.orgId, orgId))
    .orderBy(asc(escalationSteps.position), asc(escalationSteps.createdAt));

async function stepAnswer(db: Db, orgId: string, id: string): Promise<EscalationStep> {
  const found = (await listStepRows(db, orgId)).find((view) => view.step.id === id);
  if (!found) throw stepNotFound();
  return toStep(found);
}

/** Adds a step after the last one; at most ESCALATION_MAX_CONTACT_STEPS. */
export async function createStep(db: Db, actor: EscalationActor, input: StepInput): Promise<EscalationStep> {
  const orgId = actor.access.org.id;
  const contact = await contactOf(db, orgId, input);
  const id = await db.transaction(async (tx) => {
    await lockSettings(tx, orgId);
    const steps = await stepsOf(tx, orgId);
    if (steps.length >= ESCALATION_MAX_CONTACT_STEPS) {
      throw conflict('ESCALATION_MAX_CONTACT_STEPS', 'Maximum contact steps reached', {
        params: { max: ESCALATION_MAX_CONTACT_STEPS },
      });
    }
    assertNewContact(steps, contact);
    const [created] = await tx
      .insert(escalationSteps)
      .values({ orgId, position: steps.length + 1, name: input.name, hours: input.hours, ...contact })
      .returning();
    await audit(tx, actor, 'step.created', created!.id, { after: snapshot(created!) });
    return created!.id;
  });
  return stepAnswer(db, orgId, id);
}

export async function updateStep(
  db: Db,
  actor: EscalationActor,
  id: string,
  input: StepInput,
): Promise<EscalationStep> {
  const orgId = actor.access.org.id;
  const contact = await contactOf(db, orgId, input);
  await db.transaction(async (tx) => {
    await lockSettings(tx, orgId);
    const steps = await stepsOf(tx, orgId);
    const before = steps.find((step) => step.id === id);
    if (!before) throw stepNotFound();
    assertNewContact(steps, contact, id);
    const [after] = await tx
      .update(escalationSteps)
      .set({ name: input.name, hours: input.hours, ...contact, updatedAt: new Date() })
      .where(and(eq(escalationSteps.orgId, orgId), eq(escalationSteps.id, id)))
      .returning();
    await audit(tx, actor, 'step.updated', id, { before: snapshot(before), after: snapshot(after!) });
  });
  return stepAnswer(db, orgId, id);
}

/** Writes positions 1..n in the order given. */
async function renumber(tx: Db, orgId: string, ids: string[]) {
  for (const [index, id] of ids.entries()) {
    await tx
      .update(escalationSteps)
      .set({ position: index + 1 })
      .where(and(eq(escalationSteps.orgId, orgId), eq(escalationSteps.id, id)));
  }
}

export async function deleteStep(db: Db, actor: EscalationActor, id: string): Promise<void> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await lockSettings(tx, orgId);
    const steps = await stepsOf(tx, orgId);
    const doomed = steps.find((step) => step.id === id);
    if (!doomed) throw stepNotFound();
    await tx.delete(escalationSteps).where(and(eq(escalationSteps.orgId, orgId), eq(escalationSteps.id, id)));
    await renumber(
      tx,
      orgId,
      steps.filter((step) => step.id !== id).map((step) => step.id),
    );
    await audit(tx, actor, 'step.deleted', id, { before: snapshot(doomed) });
  });
}

/** A new order: every step of the organisation exactly once (409 otherwise: someone changed them). */
export async function reorderSteps(db: Db, actor: EscalationActor, ids: string[]): Promise<EscalationStep[]> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    await lockSettings(tx, orgId);
    const before = (await stepsOf(tx, orgId)).map((step) => step.id);
    const known = new Set(before);
    if (
      new Set(ids).size !== ids.length ||
      ids.length !== before.length ||
      ids.some((id) => !known.has(id))
    ) {
      throw conflict('ESCALATION_STEP_ORDER_MISMATCH', 'The order must list every step once', {
        field: 'ids',
      });
    }
    await renumber(tx, orgId, ids);
    await audit(tx, actor, 'steps.reordered', orgId, { before, after: ids });
  });
  return listSteps(db, orgId);
}

// ---------------------------------------------------------------------------------------------------
// Out of office

export const toOutOfOffice = (row: OutOfOfficeRow): EscalationOutOfOffice => ({
  id: row.id,
  startsAt: row.startsAt.toISOString(),
  endsAt: row.endsAt.toISOString(),
  note: row.note,
  createdAt: row.createdAt.toISOString(),
});

export async function createOutOfOffice(
  db: Db,
  actor: EscalationActor,
  input: Required<EscalationOutOfOfficeInput>,
  now = new Date(),
): Promise<EscalationOutOfOffice> {
  const startsAt = new Date(input.startsAt);
  const endsAt = new Date(input.endsAt);
  if (endsAt <= startsAt) {
    throw validationFailed('ESCALATION_OUT_OF_OFFICE_INVALID_RANGE', 'The period ends before it starts', {
      field: 'endsAt',
    });
  }
  if (endsAt <= now) {
    throw validationFailed('ESCALATION_OUT_OF_OFFICE_IN_PAST', 'The period has ended', { field: 'endsAt' });
  }
  const orgId = actor.access.org.id;
  return db.transaction(async (tx) => {
    await lockSettings(tx, orgId);
    const [held] = await tx
      .select({ total: count() })
      .from(escalationOutOfOffice)
      .where(eq(escalationOutOfOffice.orgId, orgId));
    if ((held?.total ?? 0) >= ESCALATION_MAX_OUT_OF_OFFICE) {
      throw conflict('ESCALATION_MAX_OUT_OF_OFFICE', 'Too many out-of-office periods', {
        params: { max: ESCALATION_MAX_OUT_OF_OFFICE },
      });
    }
    const [row] = await tx
      .insert(escalationOutOfOffice)
      .values({ orgId, startsAt, endsAt, note: input.note, createdBy: actor.access.user.id })
      .returning();
    const period = toOutOfOffice(row!);
    await audit(tx, actor, 'out-of-office.created', row!.id, {
      after: { startsAt: period.startsAt, endsAt: period.endsAt, note: period.note },
    });
    return period;
  });
}

export async function deleteOutOfOffice(db: Db, actor: EscalationActor, id: string): Promise<void> {
  const orgId = actor.access.org.id;
  await db.transaction(async (tx) => {
    const [row] = await tx
      .delete(escalationOutOfOffice)
      .where(and(eq(escalationOutOfOffice.orgId, orgId), eq(escalationOutOfOffice.id, id)))
      .returning();
    if (!row) throw outOfOfficeNotFound();
    const period = toOutOfOffice(row);
    await audit(tx, actor, 'out-of-office.deleted', id, {
      before: { startsAt: period.startsAt, endsAt: period.endsAt, note: period.note },
    });
  });
}
