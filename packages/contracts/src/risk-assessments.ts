import { z } from 'zod';
import { pageParams, queryList } from './query-params';
import {
  RISK_LEVELS,
  RISK_MAX_REFS,
  RISK_MODULES,
  RISK_NAME_MAX_LENGTH,
  RISK_TEXT_MAX_LENGTH,
  type RiskLevel,
} from './risk';

/**
 * Risk assessments (spec 3): a risk or inventory assessment covers chosen risks or inventory items of
 * the register. Drafts are saved until completed; completing needs both aggregate scores and the
 * executive summary, and a completed assessment is published read-only.
 */

export const ASSESSMENT_KINDS = ['RISK', 'INVENTORY'] as const;
export type AssessmentKind = (typeof ASSESSMENT_KINDS)[number];
export const ASSESSMENT_STATES = ['DRAFT', 'SAVED', 'COMPLETED'] as const;
export type AssessmentState = (typeof ASSESSMENT_STATES)[number];
export const ASSESSMENT_STATE_LABELS: Record<AssessmentState, string> = {
  DRAFT: 'Draft',
  SAVED: 'Saved as draft',
  COMPLETED: 'Completed',
};
/** The aggregate risk scores an assessment needs before it is completed. */
export const ASSESSMENT_AGGREGATE_SCORES = ['inherentRisk', 'residualRisk'] as const;
export type AssessmentAggregateScore = (typeof ASSESSMENT_AGGREGATE_SCORES)[number];

const LEVEL_RANK = (level: RiskLevel) => RISK_LEVELS.indexOf(level);

/**
 * The recommended aggregate score: the most severe score among the covered items, null when none of
 * them is scored.
 */
export function recommendedAggregate(levels: readonly (RiskLevel | null)[]): RiskLevel | null {
  return levels.reduce<RiskLevel | null>(
    (worst, level) =>
      level !== null && (worst === null || LEVEL_RANK(level) > LEVEL_RANK(worst)) ? level : worst,
    null,
  );
}

const level = z.enum(RISK_LEVELS);
const itemIds = z.array(z.uuid()).max(RISK_MAX_REFS);

export const assessmentCreateSchema = z.object({
  kind: z.enum(ASSESSMENT_KINDS),
  /** The risk module assessed, one the organisation holds; default the first it holds. */
  module: z.enum(RISK_MODULES).optional(),
  name: z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH),
  executiveSummary: z.string().trim().max(RISK_TEXT_MAX_LENGTH).default(''),
  /** Risks (kind RISK) or inventory items (kind INVENTORY) of the register. */
  itemIds: itemIds.default([]),
  /** Overrides of the recommended aggregate scores; null takes the recommendation. */
  inherentRisk: level.nullable().default(null),
  residualRisk: level.nullable().default(null),
});
export type AssessmentCreateInput = z.input<typeof assessmentCreateSchema>;

export const assessmentUpdateSchema = z.object({
  name: z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH).optional(),
  executiveSummary: z.string().trim().max(RISK_TEXT_MAX_LENGTH).optional(),
  itemIds: itemIds.optional(),
  inherentRisk: level.nullable().optional(),
  residualRisk: level.nullable().optional(),
  /** The version read: 409 RISK_MODIFIED when it changed meanwhile. */
  version: z.number().int().positive(),
});
export type AssessmentUpdateInput = z.input<typeof assessmentUpdateSchema>;

export const assessmentCompleteSchema = z.object({ version: z.number().int().positive() });

export const assessmentListQuerySchema = z.object({
  kind: z.enum(ASSESSMENT_KINDS).optional(),
  /** Modules to show (comma-separated); default and upper bound: the modules the organisation holds. */
  modules: queryList.pipe(z.array(z.enum(RISK_MODULES))).optional(),
  state: z.enum(ASSESSMENT_STATES).optional(),
  ...pageParams,
});
export type AssessmentListQuery = z.input<typeof assessmentListQuerySchema>;

const aggregate = z.object({
  /** The score the assessment holds: the override, else the recommendation. */
  value: level.nullable(),
  recommended: level.nullable(),
  overridden: z.boolean(),
});

export const assessmentSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  kind: z.enum(ASSESSMENT_KINDS),
  module: z.enum(RISK_MODULES),
  name: z.string(),
  state: z.enum(ASSESSMENT_STATES),
  itemCount: z.number(),
  inherentRisk: aggregate,
  residualRisk: aggregate,
  completedOn: z.string().nullable(),
  completedBy: z.object({ id: z.string(), name: z.string() }).nullable(),
  version: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Assessment = z.infer<typeof assessmentSchema>;

export const assessmentItemSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  name: z.string(),
  inherentRisk: level.nullable(),
  residualRisk: level.nullable(),
});
export type AssessmentItem = z.infer<typeof assessmentItemSchema>;

export const assessmentDetailSchema = assessmentSchema.extend({
  executiveSummary: z.string(),
  /** The covered items with their scores; frozen as they stood when the assessment was completed. */
  items: z.array(assessmentItemSchema),
});
export type AssessmentDetail = z.infer<typeof assessmentDetailSchema>;

export const assessmentListSchema = z.object({ items: z.array(assessmentSchema), total: z.number() });
export type AssessmentList = z.infer<typeof assessmentListSchema>;
