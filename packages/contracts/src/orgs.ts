import { z } from 'zod';

/** Entitlement codes (product SKUs), spec 1 section 3. */
export const PRODUCT_SKUS = [
  'REPORTING_PREMIUM',
  'CYBERFRAUD_STANDARD',
  'CYBERFRAUD_PREMIUM',
  'RISK_INFORMATION_SECURITY',
  'RISK_SYSTEMS_AND_APPLICATIONS',
  'RISK_THIRD_PARTY_RISK',
  'ACCELERATED_ARCHIVE_DATA_TIER',
  'CUSTOM_PARSERS',
] as const;
export type ProductSku = (typeof PRODUCT_SKUS)[number];

/** Product families a route or a navigation entry can be gated on; any one listed SKU opens it. */
export const SKU_GATES = {
  fraud: ['CYBERFRAUD_STANDARD', 'CYBERFRAUD_PREMIUM'],
  risk: ['RISK_INFORMATION_SECURITY', 'RISK_SYSTEMS_AND_APPLICATIONS', 'RISK_THIRD_PARTY_RISK'],
  riskInformationSecurity: ['RISK_INFORMATION_SECURITY'],
  riskSystemsAndApplications: ['RISK_SYSTEMS_AND_APPLICATIONS'],
  riskThirdParty: ['RISK_THIRD_PARTY_RISK'],
  /** The inventory holds systems and applications, and the vendors of third-party risk. */
  riskInventory: ['RISK_SYSTEMS_AND_APPLICATIONS', 'RISK_THIRD_PARTY_RISK'],
  customParsers: ['CUSTOM_PARSERS'],
  reportingPremium: ['REPORTING_PREMIUM'],
  acceleratedArchive: ['ACCELERATED_ARCHIVE_DATA_TIER'],
} as const satisfies Record<string, readonly ProductSku[]>;
export type SkuGate = keyof typeof SKU_GATES;

export function hasSkuGate(skus: readonly string[], gate: SkuGate): boolean {
  return SKU_GATES[gate].some((sku) => skus.includes(sku));
}

export const MANAGEMENT_MODES = ['ONBOARDING', 'CTS_OPS_MANAGED', 'CLIENT_MANAGED', 'DEPARTING'] as const;
export type ManagementMode = (typeof MANAGEMENT_MODES)[number];

/**
 * Per-organisation feature flags with their defaults (spec 1 section 6: infoPanel, escalationPage,
 * classifierLibrary, jobDescriptors and bulkTicketCsv are on; the rest are off unless enabled).
 */
export const FEATURE_FLAG_DEFAULTS = {
  cyberRiskReadinessBanner: false,
  cyberRiskReadinessDashboard: false,
  defaultRevealDashboards: false,
  infoPanel: true,
  adblockDetector: false,
  universalTicketInbox: false,
  classifierLibrary: true,
  automatedIntervention: false,
  escalationPage: true,
  jobDescriptors: true,
  readonlyToggle: false,
  csmInformation: false,
  bulkTicketCsv: true,
  dsQueryAssistant: false,
  entraId: false,
} as const satisfies Record<string, boolean>;
export type FeatureFlag = keyof typeof FEATURE_FLAG_DEFAULTS;
export const FEATURE_FLAGS = Object.keys(FEATURE_FLAG_DEFAULTS) as FeatureFlag[];
export type FeatureFlags = Record<FeatureFlag, boolean>;

export function isFeatureFlag(name: string): name is FeatureFlag {
  return Object.hasOwn(FEATURE_FLAG_DEFAULTS, name);
}

/**
 * Effective flags: defaults, then the organisation's stored values, then the names switched on by the
 * `feature` query parameter (comma-separated; unknown names are ignored).
 */
export function resolveFeatureFlags(
  stored: Partial<Record<string, boolean>>,
  queryFeature?: string | readonly string[],
): FeatureFlags {
  const flags: FeatureFlags = { ...FEATURE_FLAG_DEFAULTS };
  for (const name of FEATURE_FLAGS) {
    const value = stored[name];
    if (typeof value === 'boolean') flags[name] = value;
  }
  const requested = typeof queryFeature === 'string' ? [queryFeature] : (queryFeature ?? []);
  for (const name of requested.flatMap((entry) => entry.split(','))) {
    const trimmed = name.trim();
    if (isFeatureFlag(trimmed)) flags[trimmed] = true;
  }
  return flags;
}

/** The default-timezone choices of spec 1 section 3. */
export const TIMEZONES = [
  'America/Los_Angeles',
  'America/Denver',
  'America/Phoenix',
  'America/Chicago',
  'America/New_York',
  'America/Anchorage',
  'Pacific/Honolulu',
  'UTC',
] as const;
export type Timezone = (typeof TIMEZONES)[number];

/** Days of events an organisation keeps: the provider sets it per organisation (issue 7). */
export const EVENT_RETENTION_DEFAULT_DAYS = 90;
export const EVENT_RETENTION_MIN_DAYS = 7;
export const EVENT_RETENTION_MAX_DAYS = 3650;

export const orgSettingsSchema = z.object({
  emailTimezone: z.enum(TIMEZONES),
  requireTwoFactor: z.boolean(),
  /** The organisation's customer-success contact. */
  csmName: z.string().nullable(),
  csmEmailAddress: z.string().nullable(),
  /** Events older than this many days are deleted by the daily retention job. */
  eventRetentionDays: z.number().int().min(EVENT_RETENTION_MIN_DAYS).max(EVENT_RETENTION_MAX_DAYS),
});
export type OrgSettings = z.infer<typeof orgSettingsSchema>;
export const DEFAULT_ORG_SETTINGS: OrgSettings = {
  emailTimezone: 'America/New_York',
  requireTwoFactor: false,
  csmName: null,
  csmEmailAddress: null,
  eventRetentionDays: EVENT_RETENTION_DEFAULT_DAYS,
};

export const ORG_NAME_MAX_LENGTH = 100;

export const orgSchema = z.object({
  id: z.string(),
  name: z.string(),
  productSkus: z.array(z.enum(PRODUCT_SKUS)),
  isProvider: z.boolean(),
  managementMode: z.enum(MANAGEMENT_MODES),
});
export type Org = z.infer<typeof orgSchema>;

/** GET /api/orgs: the organisations the signed-in user may act in, sorted by name. */
export const userOrgsResponseSchema = z.object({
  homeOrgId: z.string(),
  orgs: z.array(
    z.object({
      id: z.string(),
      name: z.string(),
      productSkus: z.array(z.enum(PRODUCT_SKUS)),
      isHome: z.boolean(),
    }),
  ),
});
export type UserOrgsResponse = z.infer<typeof userOrgsResponseSchema>;
