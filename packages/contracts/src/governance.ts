import { z } from 'zod';
import { queryList } from './query-params';
import { TRIGGER_DOMAINS } from './triggers';

/** How a control stands in an evaluation period (spec 3: implemented, partially, not implemented, N/A). */
export const CONTROL_ANSWER_STATUSES = [
  'IMPLEMENTED',
  'PARTIALLY_IMPLEMENTED',
  'NOT_IMPLEMENTED',
  'NOT_APPLICABLE',
] as const;
export type ControlAnswerStatus = (typeof CONTROL_ANSWER_STATUSES)[number];

/** Spec 3 section 4: an evaluation period is in progress, then finalized for good. */
export const EVALUATION_PERIOD_STATES = ['IN_PROGRESS', 'FINALIZED'] as const;
export type EvaluationPeriodState = (typeof EVALUATION_PERIOD_STATES)[number];

/** Spec 3 section 9: evaluation periods are extended by +12 or +18 months. */
export const EVALUATION_PERIOD_EXTENSIONS = [12, 18] as const;

/** Where an organisation's framework came from. */
export const FRAMEWORK_SOURCES = ['library', 'oscal'] as const;
export type FrameworkSource = (typeof FRAMEWORK_SOURCES)[number];

/** An uploaded OSCAL catalog is at most this large (CSF 2.0's is 175 kB). */
export const OSCAL_CATALOG_MAX_BYTES = 5 * 1024 * 1024;
/** An imported catalog holds at most this many sections and controls together. */
export const OSCAL_CATALOG_MAX_ITEMS = 5000;
/** Evidence files of one control in one period: as a ticket's files, fewer than 50 of 32 MiB each. */
export const EVIDENCE_FILES_LIMIT = 50;
export const GOVERNANCE_TEXT_MAX_LENGTH = 4000;
export const GOVERNANCE_NAME_MAX_LENGTH = 200;
export const EVIDENCE_URL_MAX_LENGTH = 2000;

const date = z.iso.date();

export const frameworkSectionSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  /** The catalog's identifier, e.g. GV or GV.OC. */
  ref: z.string(),
  title: z.string(),
  description: z.string(),
  /** The maturity tier the organisation aims for in this section, one of the framework's tiers. */
  targetTier: z.string().nullable(),
});
export type FrameworkSection = z.infer<typeof frameworkSectionSchema>;

export const frameworkControlSchema = z.object({
  id: z.string(),
  sectionId: z.string(),
  ref: z.string(),
  title: z.string(),
  statement: z.string(),
  /** Implementation examples or guidance kept from the catalog. */
  examples: z.array(z.string()),
  /** A mandatory control cannot be answered N/A. */
  mandatory: z.boolean(),
  /** An alertable control names the trigger that watches it. */
  alertable: z.boolean(),
  triggerId: z.string().nullable(),
  triggerName: z.string().nullable(),
  /** The trigger's domain, whose triggers page lists it. */
  triggerDomain: z.enum(TRIGGER_DOMAINS).nullable(),
});
export type FrameworkControl = z.infer<typeof frameworkControlSchema>;

/** The optional inherent risk profile of a framework (FFIEC CAT): categories each rated on one scale. */
export const riskProfileSchema = z.object({
  levels: z.array(z.string()),
  categories: z.array(z.object({ ref: z.string(), title: z.string() })),
});
export type RiskProfile = z.infer<typeof riskProfileSchema>;

export const frameworkSummarySchema = z.object({
  id: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  source: z.enum(FRAMEWORK_SOURCES),
  libraryKey: z.string().nullable(),
  /** Maturity tiers from lowest to highest. */
  tiers: z.array(z.string()),
  /** A target tier for the framework as a whole. */
  targetTier: z.string().nullable(),
  sectionCount: z.number(),
  controlCount: z.number(),
  /** The newest period in progress, with how many controls it has answered. */
  currentPeriod: z
    .object({ id: z.string(), name: z.string(), endsOn: z.string(), answered: z.number() })
    .nullable(),
  createdOn: z.string(),
});
export type FrameworkSummary = z.infer<typeof frameworkSummarySchema>;

export const frameworkDetailSchema = frameworkSummarySchema.extend({
  /** Sections in catalog order; nesting by parentId. */
  sections: z.array(frameworkSectionSchema),
  controls: z.array(frameworkControlSchema),
  riskProfile: riskProfileSchema.nullable(),
});
export type FrameworkDetail = z.infer<typeof frameworkDetailSchema>;

export const libraryFrameworkSchema = z.object({
  key: z.string(),
  name: z.string(),
  version: z.string(),
  description: z.string(),
  publisher: z.string(),
  sectionCount: z.number(),
  controlCount: z.number(),
  /** The organisation's framework adopted from it, if any. */
  adoptedId: z.string().nullable(),
});
export type LibraryFramework = z.infer<typeof libraryFrameworkSchema>;

/** PUT /framework/:id/target and /framework/:id/section/:sectionId/target. */
export const tierTargetInputSchema = z.object({ targetTier: z.string().trim().min(1).max(100).nullable() });

/** A framework keeps at most this many maturity tiers, each named in at most FRAMEWORK_TIER_MAX_LENGTH. */
export const FRAMEWORK_TIERS_MAX = 20;
export const FRAMEWORK_TIER_MAX_LENGTH = 100;

/** PATCH /framework/:id: the framework's own name and description. */
export const frameworkUpdateSchema = z
  .object({
    name: z.string().trim().min(1).max(GOVERNANCE_NAME_MAX_LENGTH),
    description: z.string().trim().max(GOVERNANCE_TEXT_MAX_LENGTH),
  })
  .partial();
export type FrameworkUpdate = z.infer<typeof frameworkUpdateSchema>;

/** PUT /framework/:id/tiers: the maturity tiers, lowest first, each name once in any case. */
export const frameworkTiersInputSchema = z.object({
  tiers: z.array(z.string().trim().min(1).max(FRAMEWORK_TIER_MAX_LENGTH)).max(FRAMEWORK_TIERS_MAX),
});

/** PATCH /framework/:id/control/:controlId. */
export const frameworkControlUpdateSchema = z.object({
  mandatory: z.boolean().optional(),
  alertable: z.boolean().optional(),
  triggerId: z.uuid().nullable().optional(),
});
export type FrameworkControlUpdate = z.infer<typeof frameworkControlUpdateSchema>;

export const evaluationPeriodInputSchema = z.object({
  name: z.string().trim().min(1).max(GOVERNANCE_NAME_MAX_LENGTH),
  startsOn: date,
  endsOn: date,
});
export type EvaluationPeriodInput = z.infer<typeof evaluationPeriodInputSchema>;

export const evaluationPeriodSchema = z.object({
  id: z.string(),
  frameworkId: z.string(),
  name: z.string(),
  startsOn: z.string(),
  /** The end with every extension added. */
  endsOn: z.string(),
  state: z.enum(EVALUATION_PERIOD_STATES),
  extensions: z.array(z.object({ months: z.number(), at: z.string(), byName: z.string().nullable() })),
  finalizedOn: z.string().nullable(),
  finalizedByName: z.string().nullable(),
  /** Assessed maturity tier per section id, and under "framework" for the whole. */
  tiers: z.record(z.string(), z.string()),
  /** Inherent risk level per risk-profile category ref. */
  riskProfile: z.record(z.string(), z.string()),
  answered: z.number(),
  controlCount: z.number(),
  createdOn: z.string(),
});
export type EvaluationPeriod = z.infer<typeof evaluationPeriodSchema>;

export const periodExtensionInputSchema = z.object({
  months: z.union([z.literal(EVALUATION_PERIOD_EXTENSIONS[0]), z.literal(EVALUATION_PERIOD_EXTENSIONS[1])]),
});

/** PUT /evaluation-period/:id/tier: `sectionId` null is the framework as a whole; `tier` null clears it. */
export const periodTierInputSchema = z.object({
  sectionId: z.uuid().nullable(),
  tier: z.string().trim().min(1).max(100).nullable(),
});

/** PUT /evaluation-period/:id/risk-profile: a level per category ref; a missing category is unrated. */
export const periodRiskProfileInputSchema = z.object({
  levels: z.record(z.string().max(100), z.string().max(100)),
});

/** A report: a completed report of the reports area, its PDF copied into the evidence. */
export const EVIDENCE_KINDS = ['file', 'link', 'ticket', 'report'] as const;
export type EvidenceKind = (typeof EVIDENCE_KINDS)[number];

export const evidenceSchema = z.object({
  id: z.string(),
  kind: z.enum(EVIDENCE_KINDS),
  /** The file's name, the link's label, the ticket's title or the report's name and range. */
  name: z.string(),
  url: z.string().nullable(),
  ticket: z.object({ id: z.string(), kind: z.string(), slug: z.string() }).nullable(),
  contentType: z.string().nullable(),
  size: z.number().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
});
export type Evidence = z.infer<typeof evidenceSchema>;

/** POST /evaluation-period/:id/control/:controlId/evidence: a link, a ticket or a report (files are uploaded). */
export const evidenceInputSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('link'),
    name: z.string().trim().min(1).max(GOVERNANCE_NAME_MAX_LENGTH),
    url: z.url({ protocol: /^https?$/ }).max(EVIDENCE_URL_MAX_LENGTH),
  }),
  z.object({ kind: z.literal('ticket'), slug: z.string().trim().min(1).max(64) }),
  z.object({ kind: z.literal('report'), reportId: z.uuid() }),
]);
export type EvidenceInput = z.infer<typeof evidenceInputSchema>;

export const controlAnswerSchema = z.object({
  controlId: z.string(),
  status: z.enum(CONTROL_ANSWER_STATUSES).nullable(),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  notes: z.string(),
  /** Carried over from another framework's answer (crosswalk); shown for review until saved. */
  suggestion: z.object({ status: z.enum(CONTROL_ANSWER_STATUSES), from: z.string() }).nullable(),
  evidence: z.array(evidenceSchema),
  modifiedByName: z.string().nullable(),
  modifiedOn: z.string().nullable(),
});
export type ControlAnswer = z.infer<typeof controlAnswerSchema>;

/** PUT /evaluation-period/:id/control/:controlId. */
export const controlAnswerInputSchema = z.object({
  status: z.enum(CONTROL_ANSWER_STATUSES).nullable(),
  ownerId: z.uuid().nullable().default(null),
  notes: z.string().trim().max(GOVERNANCE_TEXT_MAX_LENGTH).default(''),
});
export type ControlAnswerInput = z.input<typeof controlAnswerInputSchema>;

export const periodComparisonSchema = z.object({
  from: evaluationPeriodSchema,
  to: evaluationPeriodSchema,
  rows: z.array(
    z.object({
      controlId: z.string(),
      ref: z.string(),
      title: z.string(),
      from: z.enum(CONTROL_ANSWER_STATUSES).nullable(),
      to: z.enum(CONTROL_ANSWER_STATUSES).nullable(),
    }),
  ),
});
export type PeriodComparison = z.infer<typeof periodComparisonSchema>;

/** Answers carry over to periods of this library framework, from periods of the sources (a crosswalk). */
export const CROSSWALK_TARGET = 'nist-csf-2.0';
export const CROSSWALK_SOURCES = ['ffiec-cat', 'cisa-cpg', 'cisa-cpg-2.0'] as const;

/** POST /evaluation-period/:id/carry-over: suggestions from a period of a framework with a crosswalk. */
export const carryOverInputSchema = z.object({ fromPeriodId: z.uuid() });
export const carryOverResultSchema = z.object({
  /** Controls that now hold a suggestion to review. */
  suggested: z.number(),
  /** Controls with a suggestion that were answered already and kept their answer. */
  alreadyAnswered: z.number(),
});
export type CarryOverResult = z.infer<typeof carryOverResultSchema>;

/** The parts an evidence report can hold; a report holds at least one (spec 3 section 5). */
export const EVIDENCE_REPORT_ELEMENTS = [
  'FRAMEWORK_STATUS',
  'AUTO_EVIDENCE',
  'RISK_REGISTER',
  'INCIDENT_STATISTICS',
  'POLICY_REVIEWS',
] as const;
export type EvidenceReportElement = (typeof EVIDENCE_REPORT_ELEMENTS)[number];

/** GET /period/:id/evidence-report: the elements to include, comma-separated or repeated. */
export const evidenceReportQuerySchema = z.object({
  elements: queryList
    .pipe(z.array(z.enum(EVIDENCE_REPORT_ELEMENTS)).max(EVIDENCE_REPORT_ELEMENTS.length))
    .default([]),
});

/**
 * The elements a requester may include: the framework's status and automatic evidence with the
 * framework, the risk register with RISK_VIEW and a risk module, incidents with INCIDENT_VIEW and
 * policy reviews with either policy view permission.
 */
export function evidenceReportElementsFor(
  permissions: ReadonlySet<string>,
  holdsRiskModule: boolean,
): EvidenceReportElement[] {
  return EVIDENCE_REPORT_ELEMENTS.filter((element) => {
    switch (element) {
      case 'RISK_REGISTER':
        return holdsRiskModule && permissions.has('RISK_VIEW');
      case 'INCIDENT_STATISTICS':
        return permissions.has('INCIDENT_VIEW');
      case 'POLICY_REVIEWS':
        return permissions.has('CUSTOM_POLICY_VIEW') || permissions.has('CAT_POLICY_VIEW');
      default:
        return true;
    }
  });
}
