import { z } from 'zod';

/**
 * The cyber risk readiness dashboard (spec 1 /home, spec 3 "Cyber Risk Readiness dashboard with four
 * categories"). Each category is scored from checks of what the organisation has in place; a check is
 * met or not, with the figure it was judged on and the page where it is put right. The spec does not
 * give the thresholds ("Readiness thresholds ... are not shown"), so they are ours, here.
 */

export const READINESS_CATEGORIES = [
  'FRAUD_PREVENTION',
  'THREAT_SURVEILLANCE',
  'GOVERNANCE_PROGRAM',
  'RISK_ASSESSMENT',
] as const;
export type ReadinessCategory = (typeof READINESS_CATEGORIES)[number];

/** Alerts and tickets are judged over the last 90 days. */
export const READINESS_WINDOW_DAYS = 90;
/** An alert is worked in time when it leaves New within 24 hours of firing. */
export const READINESS_ALERT_SLA_HOURS = 24;
/** An incident without an SLA or due date is closed in time within 30 days of being opened. */
export const READINESS_INCIDENT_DEFAULT_DAYS = 30;
/** A task without a due date is completed on schedule within 7 days of being created. */
export const READINESS_TASK_DEFAULT_DAYS = 7;
/** Share (percent) of alerts, incidents or tasks that must be handled in time for the check to be met. */
export const READINESS_ON_TIME_PERCENT = 90;
/** A risk assessment counts when it was completed within the last 12 months. */
export const READINESS_ASSESSMENT_MONTHS = 12;

export const READINESS_CHECKS = [
  'FRAUD_PRODUCT',
  'FRAUD_TRIGGERS_ACTIVE',
  'FRAUD_SOURCES_IN_USE',
  'FRAUD_ALERTS_WORKED_IN_SLA',
  'THREAT_TRIGGERS_ACTIVE',
  'THREAT_SOURCES_IN_USE',
  'SECURITY_ALERTS_WORKED_IN_SLA',
  'INCIDENTS_CLOSED_IN_TIME',
  'TASK_SCHEDULES_ACTIVE',
  'SCHEDULED_TASKS_ON_TIME',
  'RISK_ASSESSMENT_COMPLETED',
  'RISK_REVIEWS_NOT_LATE',
] as const;
export type ReadinessCheckId = (typeof READINESS_CHECKS)[number];

export const readinessCheckSchema = z.object({
  id: z.enum(READINESS_CHECKS),
  met: z.boolean(),
  /** What was measured: a count, or `value` of `total` handled in time. */
  value: z.number(),
  /** The number of things judged, for shares; null for plain counts. */
  total: z.number().nullable(),
  /** The page where the check is put right. */
  fixPath: z.string(),
});
export type ReadinessCheck = z.infer<typeof readinessCheckSchema>;

export const readinessCategorySchema = z.object({
  category: z.enum(READINESS_CATEGORIES),
  /** Percent of its checks met, rounded. */
  score: z.number(),
  checks: z.array(readinessCheckSchema),
  /** Where the category's work is done. */
  path: z.string(),
});
export type ReadinessCategoryResult = z.infer<typeof readinessCategorySchema>;

/** GET /api/org/:orgId/home/readiness. */
export const readinessSchema = z.object({
  /** Mean of the categories' scores, rounded. */
  score: z.number(),
  categories: z.array(readinessCategorySchema),
  windowDays: z.number(),
  computedAt: z.string(),
});
export type Readiness = z.infer<typeof readinessSchema>;

/** A check's score share: met checks over all, in percent. */
export function readinessScore(checks: readonly Pick<ReadinessCheck, 'met'>[]): number {
  if (checks.length === 0) return 0;
  return Math.round((100 * checks.filter((check) => check.met).length) / checks.length);
}

/** The overall score: the mean of the categories. */
export function overallReadiness(categories: readonly Pick<ReadinessCategoryResult, 'score'>[]) {
  if (categories.length === 0) return 0;
  const total = categories.reduce((sum, category) => sum + category.score, 0);
  return Math.round(total / categories.length);
}

/** A share check is met when at least READINESS_ON_TIME_PERCENT of the total was on time (or none was due). */
export const onTimeMet = (onTime: number, total: number) =>
  total === 0 || onTime * 100 >= READINESS_ON_TIME_PERCENT * total;
