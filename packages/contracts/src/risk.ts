import { z } from 'zod';
import { hasSkuGate, type SkuGate } from './orgs';
import { pageParams, queryFlag, queryList } from './query-params';

/**
 * Operational risk (spec 3): risks, their scores, internal controls and the organisation's custom
 * lists. The score rules are pure functions here so that the server and the browser recommend the
 * same scores.
 */

/** Risk modules, each opened by its product SKU. */
export const RISK_MODULES = ['INFORMATION_SECURITY', 'SYSTEMS_AND_APPLICATIONS', 'THIRD_PARTY_RISK'] as const;
export type RiskModule = (typeof RISK_MODULES)[number];
export const RISK_MODULE_GATES: Record<RiskModule, SkuGate> = {
  INFORMATION_SECURITY: 'riskInformationSecurity',
  SYSTEMS_AND_APPLICATIONS: 'riskSystemsAndApplications',
  THIRD_PARTY_RISK: 'riskThirdParty',
};
export const RISK_MODULE_LABELS: Record<RiskModule, string> = {
  INFORMATION_SECURITY: 'Information Security',
  SYSTEMS_AND_APPLICATIONS: 'Systems & Applications',
  THIRD_PARTY_RISK: 'Third-Party Risk',
};

/** The modules an organisation holds the SKU of. */
export function entitledRiskModules(productSkus: readonly string[]): RiskModule[] {
  return RISK_MODULES.filter((module) => hasSkuGate(productSkus, RISK_MODULE_GATES[module]));
}

/** The five-level scale of impact, likelihood, inherent and residual risk and system scores. */
export const RISK_LEVELS = ['INSIGNIFICANT', 'LOW', 'MODERATE', 'HIGH', 'EXTREME'] as const;
export type RiskLevel = (typeof RISK_LEVELS)[number];
export const RISK_LEVEL_LABELS: Record<RiskLevel, string> = {
  INSIGNIFICANT: 'Insignificant',
  LOW: 'Low',
  MODERATE: 'Moderate',
  HIGH: 'High',
  EXTREME: 'Very High',
};

/** Control strength, weakest first (also a control's effectiveness and overall score). */
export const CONTROL_STRENGTHS = ['INEFFECTIVE', 'WEAK', 'MODERATE', 'STRONG', 'COMPLETE'] as const;
export type ControlStrength = (typeof CONTROL_STRENGTHS)[number];
export const CONTROL_STRENGTH_LABELS: Record<ControlStrength, string> = {
  INEFFECTIVE: 'Ineffective',
  WEAK: 'Weak',
  MODERATE: 'Moderate',
  STRONG: 'Strong',
  COMPLETE: 'Very Strong',
};

export const RISK_DIRECTIONS = [
  'DECREASING_RAPIDLY',
  'DECREASING',
  'STABLE',
  'INCREASING',
  'INCREASING_RAPIDLY',
] as const;
export type RiskDirection = (typeof RISK_DIRECTIONS)[number];
export const RISK_DIRECTION_LABELS: Record<RiskDirection, string> = {
  DECREASING_RAPIDLY: 'Decreasing rapidly',
  DECREASING: 'Decreasing',
  STABLE: 'Stable',
  INCREASING: 'Increasing',
  INCREASING_RAPIDLY: 'Increasing rapidly',
};

export const RISK_RESPONSES = ['ACCEPT', 'AVOID', 'TRANSFER', 'MITIGATE'] as const;
export type RiskResponse = (typeof RISK_RESPONSES)[number];

export const ERM_CONNECTIONS = [
  'STRATEGIC',
  'REPUTATIONAL',
  'COMPLIANCE',
  'FINANCIAL',
  'CREDIT',
  'TRANSACTIONAL',
  'OPERATIONAL',
] as const;
export type ErmConnection = (typeof ERM_CONNECTIONS)[number];

/**
 * The threat type of a risk: its event type, cause and consequence (the risk factor kinds), each
 * from a catalogue (event types are the Basel operational-loss event types) with free sub-types.
 */
export const RISK_FACTOR_KINDS = ['EVENT_TYPE', 'CAUSE', 'CONSEQUENCE'] as const;
export const RISK_EVENT_TYPES = [
  'INTERNAL_FRAUD',
  'EXTERNAL_FRAUD',
  'EMPLOYMENT_PRACTICES',
  'CLIENTS_PRODUCTS_PRACTICES',
  'DAMAGE_TO_ASSETS',
  'BUSINESS_DISRUPTION',
  'EXECUTION_DELIVERY',
] as const;
export const RISK_CAUSES = ['PEOPLE', 'PROCESS', 'SYSTEMS', 'EXTERNAL_EVENTS'] as const;
export const RISK_CONSEQUENCES = [
  'FINANCIAL_LOSS',
  'REGULATORY_ACTION',
  'REPUTATIONAL_DAMAGE',
  'SERVICE_DISRUPTION',
  'DATA_LOSS',
] as const;

export const RISK_STATES = ['ACTIVE', 'INACTIVE'] as const;
export type RiskState = (typeof RISK_STATES)[number];

export const RISK_EXCEPTION_FILTERS = [
  'ALL',
  'ONLY_EXCEPTIONS',
  'EXCLUDE_EXCEPTIONS',
  'INCLUDE_EXCEPTIONS',
] as const;
export type RiskExceptionFilter = (typeof RISK_EXCEPTION_FILTERS)[number];

/** Where a review schedule, or a risk's due date, stands: the spec's review timing and due-date status. */
export const REVIEW_STATUSES = ['EARLY', 'ALMOST_DUE', 'LATE'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Kinds of the audit history of a risk or control. */
export const RISK_HISTORY_KINDS = [
  'CREATED',
  'COPIED',
  'STATE',
  'NAME',
  'DEFINITION',
  'SCORE',
  'RESPONSE',
  'FIELDS',
  'LINKS',
  'EVIDENCE',
  'REVIEW',
  'REVISIT',
] as const;
export type RiskHistoryKind = (typeof RISK_HISTORY_KINDS)[number];

export const CONTROL_TYPES = ['PREVENTATIVE', 'CORRECTIVE', 'DETECTIVE'] as const;
export const CONTROL_CATEGORIES = [
  'SECURITY_AND_AUTHENTICATION',
  'STANDARDS_AND_DOCUMENTATION',
  'GOVERNANCE',
  'ROLES_AND_RESPONSIBILITIES',
  'CULTURE_AND_TRAINING',
  'ASSURANCE_AND_REMEDIATION',
  'REDUNDANCY',
] as const;
export const CONTROL_CONFIGURATIONS = ['MANUAL', 'AUTOMATED'] as const;

/** The organisation's custom lists; tags are the organisation's tags (Settings > Tags). */
export const RISK_LIST_KINDS = [
  'AUDIT',
  'ASSET_TYPE',
  'POLICY',
  'BUSINESS_UNIT',
  'RISK_OWNER',
  'VENDOR',
] as const;
export type RiskListKind = (typeof RISK_LIST_KINDS)[number];

export const RISK_NAME_MAX_LENGTH = 200;
export const RISK_TEXT_MAX_LENGTH = 10_000;
export const RISK_LIST_NAME_MAX_LENGTH = 100;
export const RISK_MAX_REFS = 100;
/** Public ids: R-0042, C-0007, S-0003 (inventory), A-0001 (library items LR-, LC-, LS-). */
export const RISK_PUBLIC_ID_PREFIX = { risk: 'R', control: 'C', system: 'S', assessment: 'A' } as const;
export function publicIdOf(kind: keyof typeof RISK_PUBLIC_ID_PREFIX, number: number, library = false) {
  return `${library ? 'L' : ''}${RISK_PUBLIC_ID_PREFIX[kind]}-${String(number).padStart(4, '0')}`;
}

// ---------------------------------------------------------------------------------------------------
// Score rules

const levelIndex = (level: RiskLevel) => RISK_LEVELS.indexOf(level);

/**
 * The 5x5 inherent-risk matrix: row = likelihood, column = potential impact (both Insignificant
 * first). Each cell is the level of likelihood x impact (1 to 25): up to 2 Insignificant, 3-4 Low,
 * 5-9 Moderate, 10-16 High, 20-25 Very High.
 */
export const INHERENT_RISK_MATRIX: readonly (readonly RiskLevel[])[] = RISK_LEVELS.map((_, row) =>
  RISK_LEVELS.map((__, column) => {
    const product = (row + 1) * (column + 1);
    if (product <= 2) return 'INSIGNIFICANT';
    if (product <= 4) return 'LOW';
    if (product <= 9) return 'MODERATE';
    if (product <= 16) return 'HIGH';
    return 'EXTREME';
  }),
);

/** Levels by which each control strength lowers inherent risk to residual risk. */
export const CONTROL_STRENGTH_REDUCTION: Record<ControlStrength, number> = {
  INEFFECTIVE: 0,
  WEAK: 1,
  MODERATE: 1,
  STRONG: 2,
  COMPLETE: 3,
};

export function recommendedInherentRisk(
  potentialImpact: RiskLevel | null,
  likelihood: RiskLevel | null,
): RiskLevel | null {
  if (!potentialImpact || !likelihood) return null;
  return INHERENT_RISK_MATRIX[levelIndex(likelihood)]![levelIndex(potentialImpact)]!;
}

export function recommendedResidualRisk(
  inherentRisk: RiskLevel | null,
  controlStrength: ControlStrength | null,
): RiskLevel | null {
  if (!inherentRisk || !controlStrength) return null;
  return RISK_LEVELS[Math.max(0, levelIndex(inherentRisk) - CONTROL_STRENGTH_REDUCTION[controlStrength])]!;
}

/** Control strength from the overall scores of the linked controls: their average, rounded down. */
export function recommendedControlStrength(
  overallScores: readonly (ControlStrength | null)[],
): ControlStrength | null {
  const scored = overallScores.filter((score): score is ControlStrength => score !== null);
  if (scored.length === 0) return null;
  const sum = scored.reduce((total, score) => total + CONTROL_STRENGTHS.indexOf(score), 0);
  return CONTROL_STRENGTHS[Math.floor(sum / scored.length)]!;
}

/** A system's scores make the impact of its risks: the higher of data sensitivity and criticality. */
export function recommendedPotentialImpact(
  dataSensitivity: RiskLevel | null,
  businessCriticality: RiskLevel | null,
): RiskLevel | null {
  if (!dataSensitivity || !businessCriticality) return null;
  return RISK_LEVELS[Math.max(levelIndex(dataSensitivity), levelIndex(businessCriticality))]!;
}

/** The scores of a linked system, application or vendor a risk's potential impact is recommended from. */
export interface SystemImpactScores {
  dataSensitivity: RiskLevel | null;
  businessCriticality: RiskLevel | null;
}

/**
 * A risk's potential impact from its linked systems, applications and vendors (our rule): the highest of
 * their impacts, each the higher of its data sensitivity and business criticality. Items not yet scored
 * on both are left out; null when none is.
 */
export function recommendedRiskImpact(systems: readonly SystemImpactScores[]): RiskLevel | null {
  const impacts = systems
    .map((system) => recommendedPotentialImpact(system.dataSensitivity, system.businessCriticality))
    .filter((impact): impact is RiskLevel => impact !== null);
  if (impacts.length === 0) return null;
  return RISK_LEVELS[Math.max(...impacts.map(levelIndex))]!;
}

/** A control's overall score: the weaker of its design and operating effectiveness. */
export function recommendedOverallScore(
  designEffectiveness: ControlStrength | null,
  operatingEffectiveness: ControlStrength | null,
): ControlStrength | null {
  if (!designEffectiveness || !operatingEffectiveness) return null;
  return CONTROL_STRENGTHS[
    Math.min(
      CONTROL_STRENGTHS.indexOf(designEffectiveness),
      CONTROL_STRENGTHS.indexOf(operatingEffectiveness),
    )
  ]!;
}

/** The scores of a risk that are recommended, and what each recommendation needs. */
export const RECOMMENDED_RISK_SCORES = [
  'potentialImpact',
  'inherentRisk',
  'controlStrength',
  'residualRisk',
] as const;
export type RecommendedRiskScore = (typeof RECOMMENDED_RISK_SCORES)[number];
export const RECOMMENDATION_NEEDS: Record<RecommendedRiskScore, string> = {
  potentialImpact: 'linked systems with data sensitivity and business criticality',
  inherentRisk: 'likelihood and potential impact',
  controlStrength: 'linked controls with overall scores',
  residualRisk: 'inherent risk and control strength',
};

export interface RiskScoreValues {
  potentialImpact: RiskLevel | null;
  likelihood: RiskLevel | null;
  inherentRisk: RiskLevel | null;
  controlStrength: ControlStrength | null;
  residualRisk: RiskLevel | null;
}

/**
 * The recommendation of each recommended score given the other scores, the linked controls' overall
 * scores and the linked systems' scores.
 */
export function riskRecommendations(
  scores: RiskScoreValues,
  linkedControlScores: readonly (ControlStrength | null)[],
  linkedSystems: readonly SystemImpactScores[],
): {
  potentialImpact: RiskLevel | null;
  inherentRisk: RiskLevel | null;
  controlStrength: ControlStrength | null;
  residualRisk: RiskLevel | null;
} {
  return {
    potentialImpact: recommendedRiskImpact(linkedSystems),
    inherentRisk: recommendedInherentRisk(scores.potentialImpact, scores.likelihood),
    controlStrength: recommendedControlStrength(linkedControlScores),
    residualRisk: recommendedResidualRisk(scores.inherentRisk, scores.controlStrength),
  };
}

// ---------------------------------------------------------------------------------------------------
// HTTP shapes

const name = z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH);
const text = z.string().trim().max(RISK_TEXT_MAX_LENGTH);
const ids = z.array(z.uuid()).max(RISK_MAX_REFS);
const level = z.enum(RISK_LEVELS);
const strength = z.enum(CONTROL_STRENGTHS);
const subType = z.string().trim().max(200).nullable();

/**
 * A recommended score as sent: a level (null clears it) with the reason for differing from the
 * recommendation, or `recommended: true` to take the recommendation.
 */
const scoreInput = <T extends z.ZodType>(value: T) =>
  z.object({
    value: value.nullable().optional(),
    recommended: z.boolean().default(false),
    overrideReason: z.string().trim().max(2000).nullable().optional(),
  });

export const riskScoresInputSchema = z.object({
  potentialImpact: scoreInput(level).optional(),
  likelihood: level.nullable().optional(),
  inherentRisk: scoreInput(level).optional(),
  controlStrength: scoreInput(strength).optional(),
  residualRisk: scoreInput(level).optional(),
  riskDirection: z.enum(RISK_DIRECTIONS).nullable().optional(),
});
export type RiskScoresInput = z.input<typeof riskScoresInputSchema>;

const riskFields = {
  definition: text.optional(),
  keyRisk: z.boolean().optional(),
  showInPreview: z.boolean().optional(),
  riskEventType: z.enum(RISK_EVENT_TYPES).nullable().optional(),
  riskEventSubType: subType.optional(),
  causeCategory: z.enum(RISK_CAUSES).nullable().optional(),
  causeSubType: subType.optional(),
  consequence: z.enum(RISK_CONSEQUENCES).nullable().optional(),
  consequenceSubType: subType.optional(),
  ermConnections: z.array(z.enum(ERM_CONNECTIONS)).max(ERM_CONNECTIONS.length).optional(),
  response: z.enum(RISK_RESPONSES).nullable().optional(),
  mitigationPlan: text.optional(),
  businessOwnerId: z.uuid().nullable().optional(),
  businessUnitIds: ids.optional(),
  watcherIds: ids.optional(),
  auditIds: ids.optional(),
  policyIds: ids.optional(),
  tagIds: ids.optional(),
  controlIds: ids.optional(),
  relatedRiskIds: ids.optional(),
  /** Systems, applications and vendors of the inventory. */
  systemIds: ids.optional(),
  /** Line items of inventory items. */
  lineItemIds: ids.optional(),
  exception: z.boolean().optional(),
  /** yyyy-mm-dd, the day it is due in `timeZoneId`. */
  dueDate: z.iso.date().nullable().optional(),
  timeZoneId: z.string().trim().min(1).max(64).nullable().optional(),
  scores: riskScoresInputSchema.optional(),
};

export const riskCreateSchema = z.object({
  name,
  modules: z.array(z.enum(RISK_MODULES)).min(1).max(RISK_MODULES.length),
  ...riskFields,
});
export type RiskCreateInput = z.input<typeof riskCreateSchema>;

export const riskUpdateSchema = z.object({
  version: z.number().int().min(1),
  name: name.optional(),
  modules: z.array(z.enum(RISK_MODULES)).min(1).max(RISK_MODULES.length).optional(),
  ...riskFields,
});
export type RiskUpdateInput = z.input<typeof riskUpdateSchema>;

export const riskStateInputSchema = z.object({
  version: z.number().int().min(1),
  state: z.enum(RISK_STATES),
  /** Deactivating a risk linked to others removes those links only once confirmed. */
  confirmRemoveLinks: z.boolean().default(false),
});

export const RISK_SORT_FIELDS = [
  'number',
  'name',
  'inherentRisk',
  'residualRisk',
  'dueDate',
  'modifiedOn',
] as const;

/** GET /risks (the register) and /risks/library. */
export const riskListQuerySchema = z.object({
  /** Modules to show (comma-separated); default every module the organisation holds. */
  modules: queryList.pipe(z.array(z.enum(RISK_MODULES))).optional(),
  q: z.string().trim().max(200).optional(),
  state: z.enum([...RISK_STATES, 'ALL']).default('ACTIVE'),
  /** INCLUDE_EXCEPTIONS and ALL both include exceptions. */
  exceptions: z.enum(RISK_EXCEPTION_FILTERS).default('ALL'),
  keyRisk: queryFlag.optional(),
  residualRisk: queryList.pipe(z.array(level)).optional(),
  businessOwnerId: z.uuid().optional(),
  tagId: z.uuid().optional(),
  /** true: only risks whose scores are to revisit (a linked incident was closed with a root cause). */
  revisit: queryFlag.optional(),
  sortBy: z.enum(RISK_SORT_FIELDS).default('number'),
  desc: queryFlag.default(false),
  ...pageParams,
});
export type RiskListQuery = z.input<typeof riskListQuerySchema>;

export const riskRefSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  name: z.string(),
  state: z.enum(RISK_STATES),
});
export type RiskRef = z.infer<typeof riskRefSchema>;

const named = z.object({ id: z.string(), name: z.string() });

const scoreOut = <T extends z.ZodType>(value: T) =>
  z.object({ value: value.nullable(), recommended: value.nullable(), overrideReason: z.string().nullable() });

export const riskSchema = riskRefSchema.extend({
  library: z.boolean(),
  copiedFromId: z.string().nullable(),
  definition: z.string(),
  keyRisk: z.boolean(),
  showInPreview: z.boolean(),
  riskEventType: z.enum(RISK_EVENT_TYPES).nullable(),
  riskEventSubType: z.string().nullable(),
  causeCategory: z.enum(RISK_CAUSES).nullable(),
  causeSubType: z.string().nullable(),
  consequence: z.enum(RISK_CONSEQUENCES).nullable(),
  consequenceSubType: z.string().nullable(),
  ermConnections: z.array(z.enum(ERM_CONNECTIONS)),
  response: z.enum(RISK_RESPONSES).nullable(),
  mitigationPlan: z.string(),
  businessOwner: named.nullable(),
  modules: z.array(z.enum(RISK_MODULES)),
  exception: z.boolean(),
  dueDate: z.string().nullable(),
  timeZoneId: z.string().nullable(),
  /** Where the due date stands today in the risk's time zone (EARLY, ALMOST_DUE, LATE); null without one. */
  dueDateStatus: z.enum(REVIEW_STATUSES).nullable(),
  potentialImpact: scoreOut(level),
  likelihood: level.nullable(),
  inherentRisk: scoreOut(level),
  controlStrength: scoreOut(strength),
  residualRisk: scoreOut(level),
  riskDirection: z.enum(RISK_DIRECTIONS).nullable(),
  /**
   * Scores to revisit: set when a linked incident was closed with a resolution (its root cause), with
   * since when and those incidents; cleared when the scores are next saved. Null otherwise.
   */
  revisitScores: z
    .object({ since: z.string(), incidents: z.array(z.object({ id: z.string(), slug: z.string() })) })
    .nullable(),
  version: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Risk = z.infer<typeof riskSchema>;

export const riskListSchema = z.object({ items: z.array(riskSchema), total: z.number() });
export type RiskList = z.infer<typeof riskListSchema>;

export const riskHistoryEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(RISK_HISTORY_KINDS),
  actorName: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
  at: z.string(),
});
export type RiskHistoryEntry = z.infer<typeof riskHistoryEntrySchema>;

export const controlRefSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  name: z.string(),
  overallScore: strength.nullable(),
});

/** A trigger (triggers module) related to a control: its state and when it last raised alerts. */
export const controlTriggerSchema = z.object({
  id: z.string(),
  name: z.string(),
  domain: z.string(),
  state: z.string(),
  /** Whether the trigger runs (state ACTIVE). */
  active: z.boolean(),
  lastFiredOn: z.string().nullable(),
});
export type ControlTrigger = z.infer<typeof controlTriggerSchema>;

/** A control linked to a risk, with the triggers related to it. */
export const riskControlSchema = controlRefSchema.extend({ triggers: z.array(controlTriggerSchema) });

/** A system, application or vendor linked to a risk, and a line item of one. */
export const riskSystemRefSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  name: z.string(),
  kind: z.enum(['SYSTEM', 'APPLICATION', 'VENDOR']),
  dataSensitivity: level.nullable(),
  businessCriticality: level.nullable(),
});
export const riskLineItemRefSchema = z.object({
  id: z.string(),
  name: z.string(),
  itemId: z.string(),
  itemPublicId: z.string(),
  itemName: z.string(),
});

/** An incident (tickets) that realised a risk. */
export const riskIncidentSchema = z.object({
  id: z.string(),
  slug: z.string(),
  title: z.string(),
  state: z.string(),
});
export type RiskIncident = z.infer<typeof riskIncidentSchema>;
export const riskIncidentsInputSchema = z.object({
  slugs: z.array(z.string().trim().min(1).max(32)).max(RISK_MAX_REFS),
});

/** A register risk linked to an incident, as the incident page shows it. */
export const incidentRiskSchema = riskRefSchema.extend({
  residualRisk: level.nullable(),
  revisitScores: riskSchema.shape.revisitScores,
});
export type IncidentRisk = z.infer<typeof incidentRiskSchema>;
export const incidentRisksInputSchema = z.object({ riskIds: ids });

export const riskDetailSchema = riskSchema.extend({
  businessUnits: z.array(named),
  watchers: z.array(named),
  audits: z.array(named),
  policies: z.array(named),
  tags: z.array(named),
  controls: z.array(riskControlSchema),
  relatedRisks: z.array(riskRefSchema),
  systems: z.array(riskSystemRefSchema),
  lineItems: z.array(riskLineItemRefSchema),
  incidents: z.array(riskIncidentSchema),
  /** Whether the register already holds a copy (library items only). */
  inRegister: z.boolean(),
  history: z.array(riskHistoryEntrySchema),
});
export type RiskDetail = z.infer<typeof riskDetailSchema>;

export const riskCopyInputSchema = z.object({ ids: z.array(z.uuid()).min(1).max(500) });
export const riskCopyResultSchema = z.object({
  copied: z.array(riskRefSchema.omit({ state: true })),
  /** Items already in the register, skipped. */
  alreadyInRegister: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type RiskCopyResult = z.infer<typeof riskCopyResultSchema>;

// Controls

export const controlFields = {
  definition: text.optional(),
  keyControl: z.boolean().optional(),
  ownerId: z.uuid().nullable().optional(),
  type: z.enum(CONTROL_TYPES).nullable().optional(),
  category: z.enum(CONTROL_CATEGORIES).nullable().optional(),
  configuration: z.enum(CONTROL_CONFIGURATIONS).nullable().optional(),
  designEffectiveness: strength.nullable().optional(),
  operatingEffectiveness: strength.nullable().optional(),
  overallScore: scoreInput(strength).optional(),
  riskIds: ids.optional(),
  /** Triggers of the organisation related to the control (library controls have none). */
  triggerIds: ids.optional(),
};

export const controlCreateSchema = z.object({ name, ...controlFields });
export type ControlCreateInput = z.input<typeof controlCreateSchema>;
export const controlUpdateSchema = z.object({
  version: z.number().int().min(1),
  name: name.optional(),
  ...controlFields,
});
export type ControlUpdateInput = z.input<typeof controlUpdateSchema>;

export const CONTROL_SORT_FIELDS = ['number', 'name', 'overallScore', 'modifiedOn'] as const;
export const controlListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  type: z.enum(CONTROL_TYPES).optional(),
  category: z.enum(CONTROL_CATEGORIES).optional(),
  sortBy: z.enum(CONTROL_SORT_FIELDS).default('number'),
  desc: queryFlag.default(false),
  ...pageParams,
});
export type ControlListQuery = z.input<typeof controlListQuerySchema>;

export const controlSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  name: z.string(),
  library: z.boolean(),
  copiedFromId: z.string().nullable(),
  definition: z.string(),
  keyControl: z.boolean(),
  owner: named.nullable(),
  type: z.enum(CONTROL_TYPES).nullable(),
  category: z.enum(CONTROL_CATEGORIES).nullable(),
  configuration: z.enum(CONTROL_CONFIGURATIONS).nullable(),
  designEffectiveness: strength.nullable(),
  operatingEffectiveness: strength.nullable(),
  overallScore: scoreOut(strength),
  riskCount: z.number(),
  version: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Control = z.infer<typeof controlSchema>;
export const controlListSchema = z.object({ items: z.array(controlSchema), total: z.number() });

export const controlDetailSchema = controlSchema.extend({
  risks: z.array(riskRefSchema),
  triggers: z.array(controlTriggerSchema),
  evidence: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      contentType: z.string(),
      size: z.number(),
      createdByName: z.string().nullable(),
      createdOn: z.string(),
    }),
  ),
  inRegister: z.boolean(),
  history: z.array(riskHistoryEntrySchema),
});
export type ControlDetail = z.infer<typeof controlDetailSchema>;

export const CONTROL_EVIDENCE_MAX_BYTES = 32 * 1024 * 1024;
export const CONTROL_EVIDENCE_LIMIT = 50;

// Custom lists

export const riskListItemInputSchema = z.object({
  name: z.string().trim().min(1).max(RISK_LIST_NAME_MAX_LENGTH),
});
export const riskListItemSchema = z.object({
  id: z.string(),
  kind: z.enum(RISK_LIST_KINDS),
  name: z.string(),
  createdOn: z.string(),
});
export type RiskListItem = z.infer<typeof riskListItemSchema>;

// ---------------------------------------------------------------------------------------------------
// Review schedules

export const REVIEW_UNITS = ['day', 'month', 'year'] as const;
export type ReviewUnit = (typeof REVIEW_UNITS)[number];
export const REVIEW_CHANGE_KINDS = ['ADDED', 'EDITED', 'DELETED', 'MARKED_REVIEWED'] as const;
export const REVIEW_EVERY_MAX = 366;
/** A review becomes almost due in the last quarter of its interval, at most this many days before. */
export const REVIEW_ALMOST_DUE_MAX_DAYS = 30;

const DAY_MS = 86_400_000;
const dayNumber = (date: string) => Date.parse(`${date}T00:00:00Z`) / DAY_MS;
const dateOf = (year: number, monthIndex: number, day: number) =>
  new Date(Date.UTC(year, monthIndex, day)).toISOString().slice(0, 10);

/**
 * `date` (yyyy-mm-dd) moved on by `every` units. A month or year that lacks the day takes its last
 * day: 31 January plus one month is 28 (or 29) February, 29 February plus one year is 28 February.
 */
export function addReviewInterval(date: string, every: number, unit: ReviewUnit): string {
  const [year, month, day] = date.split('-').map(Number) as [number, number, number];
  if (unit === 'day') return dateOf(year, month - 1, day + every);
  const months = unit === 'month' ? every : every * 12;
  const targetMonth = month - 1 + months;
  const lastDay = new Date(Date.UTC(year, targetMonth + 1, 0)).getUTCDate();
  return dateOf(year, targetMonth, Math.min(day, lastDay));
}

/** Days in one interval ending at `nextReview`. */
function intervalDays(nextReview: string, every: number, unit: ReviewUnit): number {
  const [year, month, day] = nextReview.split('-').map(Number) as [number, number, number];
  const start =
    unit === 'day'
      ? dateOf(year, month - 1, day - every)
      : addReviewInterval(nextReview, -(unit === 'month' ? every : every * 12), 'month');
  return dayNumber(nextReview) - dayNumber(start);
}

/**
 * Where a review stands on `today`: LATE after its next review date, ALMOST_DUE in the last quarter of
 * its interval (at most 30 days) up to that date, EARLY before. Marking reviewed is open from
 * ALMOST_DUE on.
 */
export function reviewStatus(
  nextReview: string,
  today: string,
  every: number,
  unit: ReviewUnit,
): ReviewStatus {
  const window = Math.min(
    REVIEW_ALMOST_DUE_MAX_DAYS,
    Math.max(1, Math.ceil(intervalDays(nextReview, every, unit) / 4)),
  );
  return statusBefore(nextReview, today, window);
}

/** LATE after `date`, ALMOST_DUE from `window` days before it up to it, EARLY before that. */
function statusBefore(date: string, today: string, window: number): ReviewStatus {
  const left = dayNumber(date) - dayNumber(today);
  if (left < 0) return 'LATE';
  return left <= window ? 'ALMOST_DUE' : 'EARLY';
}

/**
 * The due-date status of a risk on `today` (in the risk's time zone), by the review rule with no
 * interval to take a quarter of: LATE after the due date, ALMOST_DUE in the 30 days up to it, EARLY
 * before.
 */
export function dueDateStatus(dueDate: string, today: string): ReviewStatus {
  return statusBefore(dueDate, today, REVIEW_ALMOST_DUE_MAX_DAYS);
}

/** Today's date (yyyy-mm-dd) on the wall clock of `timeZone`. */
export function todayIn(timeZone: string, now = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

export const reviewScheduleInputSchema = z.object({
  every: z.number().int().min(1).max(REVIEW_EVERY_MAX),
  unit: z.enum(REVIEW_UNITS),
  /** yyyy-mm-dd. */
  nextReview: z.iso.date(),
  watcherIds: z.array(z.uuid()).max(RISK_MAX_REFS),
});
export type ReviewScheduleInput = z.input<typeof reviewScheduleInputSchema>;

/**
 * The last reminder of a review schedule: the stage it was sent at (ALMOST_DUE, LATE), for which next
 * review date (`cycle`), when, to how many watchers, and the cycle's reminder task while it is open.
 */
export const reviewReminderSchema = z.object({
  stage: z.enum(['ALMOST_DUE', 'LATE']),
  cycle: z.string(),
  sentOn: z.string(),
  recipients: z.number(),
  openTask: z.object({ id: z.string(), slug: z.string(), title: z.string() }).nullable(),
});
export type ReviewReminder = z.infer<typeof reviewReminderSchema>;

export const reviewScheduleSchema = z.object({
  id: z.string(),
  every: z.number(),
  unit: z.enum(REVIEW_UNITS),
  nextReview: z.string(),
  lastReviewed: z.string().nullable(),
  watchers: z.array(named),
  status: z.enum(REVIEW_STATUSES),
  /** null before the first reminder. */
  lastReminder: reviewReminderSchema.nullable(),
});
export type ReviewSchedule = z.infer<typeof reviewScheduleSchema>;
