import { z } from 'zod';

/**
 * Escalation (spec 3): the organisation's contact steps, notified one after another by e-mail when
 * alerts are escalated to an incident, and the business hours that decide which steps run.
 */

/** Minutes between two contact steps (spec 3 section 9). */
export const ESCALATION_STEP_INTERVAL_MINUTES = 10;
/** Contact steps an organisation keeps at most (the spec names no number). */
export const ESCALATION_MAX_CONTACT_STEPS = 10;
export const ESCALATION_STEP_NAME_MAX_LENGTH = 100;
export const ESCALATION_NOTE_MAX_LENGTH = 500;
/** Out-of-office periods an organisation keeps at most. */
export const ESCALATION_MAX_OUT_OF_OFFICE = 100;

/**
 * When a step is contacted: ALWAYS (the default: a bank's SOC answers around the clock), or only
 * during business hours (outside them and during out of office the step is passed over).
 */
export const ESCALATION_STEP_HOURS = ['ALWAYS', 'BUSINESS_HOURS'] as const;
export type EscalationStepHours = (typeof ESCALATION_STEP_HOURS)[number];

/** Exactly one of userId (a person of the organisation) and email. */
export const escalationStepInputSchema = z.object({
  name: z.string().trim().min(1).max(ESCALATION_STEP_NAME_MAX_LENGTH),
  userId: z.uuid().nullish(),
  email: z.email().trim().toLowerCase().max(320).nullish(),
  hours: z.enum(ESCALATION_STEP_HOURS).default('ALWAYS'),
});
export type EscalationStepInput = z.input<typeof escalationStepInputSchema>;

export const escalationStepSchema = z.object({
  id: z.string(),
  /** 1 for the first step contacted. */
  position: z.number(),
  name: z.string(),
  userId: z.string().nullable(),
  /** The person's name, for a person step. */
  userName: z.string().nullable(),
  /** The address the step is e-mailed at: the person's primary address or the one given. */
  email: z.string().nullable(),
  hours: z.enum(ESCALATION_STEP_HOURS),
  /** False when the person has been deactivated or removed: the step is passed over. */
  active: z.boolean(),
  updatedAt: z.string(),
});
export type EscalationStep = z.infer<typeof escalationStepSchema>;

export const escalationStepListSchema = z.object({
  items: z.array(escalationStepSchema),
  max: z.number(),
  intervalMinutes: z.number(),
});
export type EscalationStepList = z.infer<typeof escalationStepListSchema>;

/** PUT /escalation/steps/order: every step id once, first step first. */
export const escalationStepOrderSchema = z.object({
  ids: z.array(z.uuid()).max(ESCALATION_MAX_CONTACT_STEPS * 2),
});

export const ESCALATION_HOURS_MODES = ['WEEKDAYS', 'CUSTOM'] as const;
export type EscalationHoursMode = (typeof ESCALATION_HOURS_MODES)[number];

/** HH:MM on a 24-hour clock; 24:00 ends a window at midnight. */
export const TIME_OF_DAY_PATTERN = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

export const escalationDayWindowSchema = z.object({
  /** ISO weekday, 1 = Monday. */
  day: z.number().int().min(1).max(7),
  start: z.string().regex(TIME_OF_DAY_PATTERN),
  end: z.string().regex(TIME_OF_DAY_PATTERN),
});
export type EscalationDayWindow = z.infer<typeof escalationDayWindowSchema>;

/** Monday to Friday, 09:00 to 17:00: the WEEKDAYS schedule. */
export const WEEKDAY_BUSINESS_HOURS: EscalationDayWindow[] = [1, 2, 3, 4, 5].map((day) => ({
  day,
  start: '09:00',
  end: '17:00',
}));

/** PUT /escalation/schedule. CUSTOM lists one window per business day; WEEKDAYS ignores `days`. */
export const escalationScheduleInputSchema = z.object({
  mode: z.enum(ESCALATION_HOURS_MODES),
  timezone: z.string().trim().min(1).max(100),
  days: z.array(escalationDayWindowSchema).max(7).default([]),
});
export type EscalationScheduleInput = z.input<typeof escalationScheduleInputSchema>;

export const escalationScheduleSchema = z.object({
  mode: z.enum(ESCALATION_HOURS_MODES),
  timezone: z.string(),
  /** The business days in effect (for WEEKDAYS, Monday to Friday 09:00 to 17:00). */
  days: z.array(escalationDayWindowSchema),
  /** Whether it is business hours now (inside a window and not out of office). */
  businessHoursNow: z.boolean(),
  updatedAt: z.string().nullable(),
});
export type EscalationSchedule = z.infer<typeof escalationScheduleSchema>;

export const escalationOutOfOfficeInputSchema = z.object({
  startsAt: z.iso.datetime({ offset: true }),
  endsAt: z.iso.datetime({ offset: true }),
  note: z.string().trim().max(ESCALATION_NOTE_MAX_LENGTH).default(''),
});
export type EscalationOutOfOfficeInput = z.input<typeof escalationOutOfOfficeInputSchema>;

export const escalationOutOfOfficeSchema = z.object({
  id: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  note: z.string(),
  createdAt: z.string(),
});
export type EscalationOutOfOffice = z.infer<typeof escalationOutOfOfficeSchema>;

export const escalationOutOfOfficeListSchema = z.object({ items: z.array(escalationOutOfOfficeSchema) });
