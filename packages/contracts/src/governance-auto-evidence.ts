import { z } from 'zod';
import { pageParams } from './query-params';

/** Automatic evidence (issue 12): Vigil's own data measured as living evidence of a control. */
export const AUTO_EVIDENCE_KINDS = [
  'TRIGGER_ACTIVE',
  'INCIDENTS_WITHIN_SLA',
  'ASSETS_INVENTORIED',
  'REVIEWS_DONE',
] as const;
export type AutoEvidenceKind = (typeof AUTO_EVIDENCE_KINDS)[number];

export const AUTO_EVIDENCE_STATES = ['PASSING', 'FAILING', 'UNKNOWN'] as const;
export type AutoEvidenceState = (typeof AUTO_EVIDENCE_STATES)[number];

/** TRIGGER_ACTIVE looks back 1 hour to 30 days; the other kinds 1 to 365 days. */
export const AUTO_EVIDENCE_LIMITS = {
  windowHours: { min: 1, max: 720 },
  windowDays: { min: 1, max: 365 },
  threshold: { min: 1, max: 100 },
} as const;
/** Sources one control holds in one period. */
export const AUTO_EVIDENCE_SOURCES_LIMIT = 10;
/** Evaluations listed with each source, newest first. */
export const AUTO_EVIDENCE_HISTORY_LENGTH = 10;

/**
 * `window`: hours for TRIGGER_ACTIVE, days for the others. `threshold`: percent for
 * INCIDENTS_WITHIN_SLA and ASSETS_INVENTORIED, unused otherwise. REVIEWS_DONE passes with no review late.
 */
export const autoEvidenceInputSchema = z.object({
  kind: z.enum(AUTO_EVIDENCE_KINDS),
  triggerId: z.uuid().nullable().default(null),
  window: z.number().int(),
  threshold: z.number().int().nullable().default(null),
});
export type AutoEvidenceInput = z.infer<typeof autoEvidenceInputSchema>;

export const autoEvidenceEvaluationSchema = z.object({
  state: z.enum(AUTO_EVIDENCE_STATES),
  reason: z.string(),
  figures: z.record(z.string(), z.union([z.number(), z.string(), z.null()])),
  evaluatedOn: z.string(),
});
export type AutoEvidenceEvaluation = z.infer<typeof autoEvidenceEvaluationSchema>;

export const autoEvidenceSourceSchema = z.object({
  id: z.string(),
  controlId: z.string(),
  kind: z.enum(AUTO_EVIDENCE_KINDS),
  triggerId: z.string().nullable(),
  triggerName: z.string().nullable(),
  window: z.number(),
  threshold: z.number().nullable(),
  /** The latest evaluations (at most AUTO_EVIDENCE_HISTORY_LENGTH), newest first; empty until evaluated. */
  history: z.array(autoEvidenceEvaluationSchema),
  /** How many evaluations the source holds in all: older ones are read a page at a time. */
  historyTotal: z.number(),
});
export type AutoEvidenceSource = z.infer<typeof autoEvidenceSourceSchema>;

/** GET /period/:id/auto-evidence/:sourceId/history: one page of a source's evaluations, newest first. */
export const autoEvidenceHistoryQuerySchema = z.object(pageParams);
export const autoEvidenceHistorySchema = z.object({
  items: z.array(autoEvidenceEvaluationSchema),
  total: z.number(),
});
export type AutoEvidenceHistory = z.infer<typeof autoEvidenceHistorySchema>;
