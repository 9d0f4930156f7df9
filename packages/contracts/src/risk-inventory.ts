import { z } from 'zod';
import { pageParams, queryFlag } from './query-params';
import {
  CONTROL_STRENGTHS,
  RISK_LEVELS,
  RISK_MAX_REFS,
  RISK_NAME_MAX_LENGTH,
  RISK_TEXT_MAX_LENGTH,
  recommendedPotentialImpact,
  recommendedResidualRisk,
  type ControlStrength,
  type RiskLevel,
  type RiskModule,
} from './risk';

/**
 * The risk inventory (spec 3 System/App): systems, applications and third-party vendors with their
 * yes/no question sets. Data sensitivity and business criticality are derived from the answers; a
 * vendor's due-diligence answers make its due-diligence strength and, with those two, its residual
 * risk. The rules are pure functions so the server and the browser derive the same scores.
 */

export const INVENTORY_KINDS = ['SYSTEM', 'APPLICATION', 'VENDOR'] as const;
export type InventoryKind = (typeof INVENTORY_KINDS)[number];
/**
 * The module each kind belongs to: systems and applications to Systems & Applications, vendors to
 * Third-Party Risk. An organisation adds, edits and assesses only the kinds of the modules it holds.
 */
export const INVENTORY_KIND_MODULES: Record<InventoryKind, RiskModule> = {
  SYSTEM: 'SYSTEMS_AND_APPLICATIONS',
  APPLICATION: 'SYSTEMS_AND_APPLICATIONS',
  VENDOR: 'THIRD_PARTY_RISK',
};

/** The inventory kinds of the given modules. */
export function inventoryKindsOf(modules: readonly RiskModule[]): InventoryKind[] {
  return INVENTORY_KINDS.filter((kind) => modules.includes(INVENTORY_KIND_MODULES[kind]));
}

export const SYSTEM_TYPES = ['CLOUD', 'HYBRID', 'ON_PREM', 'SAAS', 'OUTSOURCED', 'OTHER'] as const;
export type SystemType = (typeof SYSTEM_TYPES)[number];

export const QUESTION_SETS = [
  'SENSITIVITY',
  'CRITICALITY',
  'PARAMETER',
  'ACCESS',
  'SECURITY_MANAGEMENT',
  'DUE_DILIGENCE',
] as const;
export type QuestionSet = (typeof QUESTION_SETS)[number];

/** The questions of each set by id; the text is in the web catalogue (`risk.inventory.questions.<id>`). */
export const INVENTORY_QUESTIONS: Record<QuestionSet, readonly string[]> = {
  SENSITIVITY: ['S1', 'S2', 'S3', 'S4'],
  CRITICALITY: ['C1', 'C2', 'C3', 'C4'],
  PARAMETER: ['P1', 'P2', 'P3'],
  ACCESS: ['A1', 'A2', 'A3'],
  SECURITY_MANAGEMENT: ['M1', 'M2', 'M3'],
  DUE_DILIGENCE: ['D1', 'D2', 'D3', 'D4', 'D5', 'D6', 'D7', 'D8'],
};

/** Every kind answers the system sets; vendors also answer the due-diligence questionnaire. */
export function questionSetsOf(kind: InventoryKind): QuestionSet[] {
  return QUESTION_SETS.filter((set) => set !== 'DUE_DILIGENCE' || kind === 'VENDOR');
}

export function questionsOf(kind: InventoryKind): string[] {
  return questionSetsOf(kind).flatMap((set) => INVENTORY_QUESTIONS[set]);
}

/**
 * The sets an item's scores derive from (ours: spec 3 names the error "mandatory item invalid" but not
 * the rule): data sensitivity and business criticality, and for vendors the due-diligence questionnaire
 * behind residual risk. An inventory assessment is completed only once its items answer them all.
 */
export const MANDATORY_QUESTION_SETS: readonly QuestionSet[] = [
  'SENSITIVITY',
  'CRITICALITY',
  'DUE_DILIGENCE',
];

/** The mandatory questions of the item's kind it has not answered. */
export function unansweredMandatoryQuestions(kind: InventoryKind, answers: InventoryAnswers): string[] {
  return questionSetsOf(kind)
    .filter((set) => MANDATORY_QUESTION_SETS.includes(set))
    .flatMap((set) => INVENTORY_QUESTIONS[set])
    .filter((question) => answers[question] === undefined);
}

export const INVENTORY_ANSWERS = ['YES', 'NO'] as const;
export type InventoryAnswer = (typeof INVENTORY_ANSWERS)[number];
export type InventoryAnswers = Partial<Record<string, InventoryAnswer>>;

/** The number of YES answers of a set, or null while any of its questions is unanswered. */
function yesCount(answers: InventoryAnswers, set: QuestionSet): number | null {
  const questions = INVENTORY_QUESTIONS[set];
  if (questions.some((question) => answers[question] === undefined)) return null;
  return questions.filter((question) => answers[question] === 'YES').length;
}

/**
 * Data sensitivity from the four sensitivity questions (a YES means more sensitive data): no YES is
 * Insignificant, each YES one level more, four YES Very High. Null until all four are answered.
 */
export function derivedDataSensitivity(answers: InventoryAnswers): RiskLevel | null {
  const count = yesCount(answers, 'SENSITIVITY');
  return count === null ? null : RISK_LEVELS[count]!;
}

/** Business criticality from the four criticality questions, as for data sensitivity. */
export function derivedBusinessCriticality(answers: InventoryAnswers): RiskLevel | null {
  const count = yesCount(answers, 'CRITICALITY');
  return count === null ? null : RISK_LEVELS[count]!;
}

/**
 * A vendor's due-diligence strength from its eight answers (a YES is a safeguard in place): every two
 * YES make one level, 0-1 Ineffective up to 8 Very Strong. Null until all eight are answered.
 */
export function derivedDueDiligenceStrength(answers: InventoryAnswers): ControlStrength | null {
  const count = yesCount(answers, 'DUE_DILIGENCE');
  return count === null ? null : CONTROL_STRENGTHS[Math.floor(count / 2)]!;
}

export interface InventoryScores {
  dataSensitivity: RiskLevel | null;
  businessCriticality: RiskLevel | null;
  /** The higher of data sensitivity and business criticality. */
  inherentRisk: RiskLevel | null;
  /** Vendors only. */
  dueDiligenceStrength: ControlStrength | null;
  /** Vendors only: inherent risk lowered by due-diligence strength as residual risk is by controls. */
  residualRisk: RiskLevel | null;
}

export function inventoryScores(kind: InventoryKind, answers: InventoryAnswers): InventoryScores {
  const dataSensitivity = derivedDataSensitivity(answers);
  const businessCriticality = derivedBusinessCriticality(answers);
  const inherentRisk = recommendedPotentialImpact(dataSensitivity, businessCriticality);
  const dueDiligenceStrength = kind === 'VENDOR' ? derivedDueDiligenceStrength(answers) : null;
  return {
    dataSensitivity,
    businessCriticality,
    inherentRisk,
    dueDiligenceStrength,
    residualRisk: kind === 'VENDOR' ? recommendedResidualRisk(inherentRisk, dueDiligenceStrength) : null,
  };
}

// ---------------------------------------------------------------------------------------------------
// HTTP shapes

const ids = z.array(z.uuid()).max(RISK_MAX_REFS);
export const INVENTORY_LINE_ITEMS_MAX = 50;

const inventoryFields = {
  definition: z.string().trim().max(RISK_TEXT_MAX_LENGTH).optional(),
  /** An item of the VENDOR custom list. */
  vendorId: z.uuid().nullable().optional(),
  /** yyyy-mm-dd. */
  goLiveDate: z.iso.date().nullable().optional(),
  versionNumber: z.string().trim().max(100).optional(),
  /** Where the institution's data is kept. */
  dataLocation: z.string().trim().max(500).optional(),
  systemType: z.enum(SYSTEM_TYPES).nullable().optional(),
  businessOwnerId: z.uuid().nullable().optional(),
  systemAdminId: z.uuid().nullable().optional(),
  /** An item of the ASSET_TYPE custom list. */
  assetTypeId: z.uuid().nullable().optional(),
  authorizedPeopleIds: ids.optional(),
  userAdministratorIds: ids.optional(),
  /**
   * Answers by question id: YES, NO or null to clear. Checked on the server (400
   * RISK_ANSWER_TYPE_UNRECOGNISED, RISK_QUESTION_UNANSWERABLE) so that each gets its own message.
   */
  answers: z.record(z.string().max(10), z.unknown()).optional(),
  /** The line items (for example services or modules) risks can be linked to; `id` keeps one. */
  lineItems: z
    .array(z.object({ id: z.uuid().optional(), name: z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH) }))
    .max(INVENTORY_LINE_ITEMS_MAX)
    .optional(),
};

export const inventoryCreateSchema = z.object({
  kind: z.enum(INVENTORY_KINDS),
  name: z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH),
  ...inventoryFields,
});
export type InventoryCreateInput = z.input<typeof inventoryCreateSchema>;
export const inventoryUpdateSchema = z.object({
  version: z.number().int().min(1),
  name: z.string().trim().min(1).max(RISK_NAME_MAX_LENGTH).optional(),
  ...inventoryFields,
});
export type InventoryUpdateInput = z.input<typeof inventoryUpdateSchema>;

export const INVENTORY_SORT_FIELDS = [
  'number',
  'name',
  'dataSensitivity',
  'businessCriticality',
  'modifiedOn',
] as const;
export const inventoryListQuerySchema = z.object({
  kind: z.enum(INVENTORY_KINDS).optional(),
  q: z.string().trim().max(200).optional(),
  systemType: z.enum(SYSTEM_TYPES).optional(),
  /** Only items with a question left unanswered. */
  incomplete: queryFlag.optional(),
  sortBy: z.enum(INVENTORY_SORT_FIELDS).default('number'),
  desc: queryFlag.default(false),
  ...pageParams,
});
export type InventoryListQuery = z.input<typeof inventoryListQuerySchema>;

const named = z.object({ id: z.string(), name: z.string() });
const level = z.enum(RISK_LEVELS);

export const inventoryItemSchema = z.object({
  id: z.string(),
  publicId: z.string(),
  kind: z.enum(INVENTORY_KINDS),
  name: z.string(),
  library: z.boolean(),
  copiedFromId: z.string().nullable(),
  definition: z.string(),
  vendor: named.nullable(),
  goLiveDate: z.string().nullable(),
  versionNumber: z.string(),
  dataLocation: z.string(),
  systemType: z.enum(SYSTEM_TYPES).nullable(),
  businessOwner: named.nullable(),
  systemAdmin: named.nullable(),
  assetType: named.nullable(),
  dataSensitivity: level.nullable(),
  businessCriticality: level.nullable(),
  inherentRisk: level.nullable(),
  dueDiligenceStrength: z.enum(CONTROL_STRENGTHS).nullable(),
  residualRisk: level.nullable(),
  /** Questions of the item's sets not answered yet. */
  unanswered: z.number(),
  riskCount: z.number(),
  version: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type InventoryItem = z.infer<typeof inventoryItemSchema>;
export const inventoryListSchema = z.object({ items: z.array(inventoryItemSchema), total: z.number() });
export type InventoryList = z.infer<typeof inventoryListSchema>;

export const inventoryDetailSchema = inventoryItemSchema.extend({
  answers: z.record(z.string(), z.enum(INVENTORY_ANSWERS)),
  authorizedPeople: z.array(named),
  userAdministrators: z.array(named),
  lineItems: z.array(named),
  risks: z.array(z.object({ id: z.string(), publicId: z.string(), name: z.string(), state: z.string() })),
  inRegister: z.boolean(),
});
export type InventoryDetail = z.infer<typeof inventoryDetailSchema>;
