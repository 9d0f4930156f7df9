import { z } from 'zod';
import {
  EVENT_RETENTION_DEFAULT_DAYS,
  EVENT_RETENTION_MAX_DAYS,
  EVENT_RETENTION_MIN_DAYS,
  FEATURE_FLAGS,
  MANAGEMENT_MODES,
  ORG_NAME_MAX_LENGTH,
  PRODUCT_SKUS,
  TIMEZONES,
} from './orgs';

/** Interface preferences, stored per user and organisation (spec 1 section 3). */
export const preferencesSchema = z.object({
  leftBarVisible: z.boolean(),
  /** Unset until the user chooses; then the defaultRevealDashboards feature decides. */
  newDashboardsEnabled: z.boolean().nullable(),
  adBlockNotified: z.boolean(),
  darkMode: z.boolean(),
  shortcutKeys: z.boolean(),
  inactivityTimeout: z.boolean(),
  pageSize: z.number().int().min(5).max(500),
  defaultTimezone: z.enum(TIMEZONES),
  recentSearches: z
    .array(z.object({ query: z.string().max(4000), filters: z.record(z.string(), z.string()) }))
    .max(5),
  recentTickets: z.array(z.object({ slugName: z.string().max(200), slugId: z.string().max(100) })).max(5),
});
export type Preferences = z.infer<typeof preferencesSchema>;
export const DEFAULT_PREFERENCES: Preferences = {
  leftBarVisible: true,
  newDashboardsEnabled: null,
  adBlockNotified: false,
  darkMode: false,
  shortcutKeys: true,
  inactivityTimeout: true,
  pageSize: 25,
  defaultTimezone: 'America/New_York',
  recentSearches: [],
  recentTickets: [],
};
/** PATCH body: any subset of the preferences. */
export const preferencesPatchSchema = preferencesSchema.partial();

/** Spec 1 section 4.5: stored choice, else on when the organisation has defaultRevealDashboards. */
export const newDashboardsEnabled = (preferences: Preferences, defaultRevealDashboards: boolean) =>
  preferences.newDashboardsEnabled ?? defaultRevealDashboards;

/** Recent searches and tickets keep 5 entries, newest first, without duplicates. */
export const RECENT_ITEMS_LIMIT = 5;
export function pushRecent<T>(items: readonly T[], item: T, sameAs: (a: T, b: T) => boolean): T[] {
  return [item, ...items.filter((existing) => !sameAs(existing, item))].slice(0, RECENT_ITEMS_LIMIT);
}

/** GET /api/org/:orgId/context: what the shell needs to know about the current organisation. */
export const orgContextSchema = z.object({
  org: z.object({
    id: z.string(),
    name: z.string(),
    isProvider: z.boolean(),
    productSkus: z.array(z.enum(PRODUCT_SKUS)),
    managementMode: z.enum(MANAGEMENT_MODES),
  }),
  /** Effective flags: defaults, then the organisation's, then the request's `feature` parameter. */
  features: z.record(z.string(), z.boolean()),
  permissions: z.array(z.string()),
  /** Whether the user's role (before read-only mode) may switch read-only mode. */
  canToggleReadOnly: z.boolean(),
  readOnlyMode: z.boolean(),
  settings: z.object({ emailTimezone: z.enum(TIMEZONES) }),
  csm: z.object({ csmName: z.string(), csmEmailAddress: z.string() }).nullable(),
});
export type OrgContext = z.infer<typeof orgContextSchema>;

export const BANNER_TYPES = ['success', 'info', 'warning', 'alert'] as const;
export const bannerSchema = z.object({
  id: z.string(),
  type: z.enum(BANNER_TYPES),
  title: z.string(),
  message: z.string(),
  hyperlink: z.string().nullable(),
});
export type Banner = z.infer<typeof bannerSchema>;
export const bannerInputSchema = z.object({
  type: z.enum(BANNER_TYPES),
  title: z.string().trim().min(1).max(200),
  message: z.string().trim().min(1).max(2000),
  hyperlink: z
    .url({ protocol: /^https?$/ })
    .nullable()
    .default(null),
  /** Without it the banner shows until ended. */
  endsAt: z.iso.datetime().nullable().default(null),
});

/** Info threat levels by position; the labels are what users see. */
export const THREAT_LEVELS = ['ONE', 'TWO', 'THREE', 'FOUR'] as const;
export type ThreatLevel = (typeof THREAT_LEVELS)[number];
export const THREAT_LEVEL_LABELS: Record<ThreatLevel, string> = {
  ONE: 'Active Incident',
  TWO: 'Suspected Activity',
  THREE: 'Added Information',
  FOUR: 'All Clear',
};

export const orgInfoMetadataSchema = z.object({
  orgId: z.string(),
  title: z.string(),
  threatLevel: z.enum(THREAT_LEVELS),
});
export type OrgInfoMetadata = z.infer<typeof orgInfoMetadataSchema>;
export const orgInfoMetadataInputSchema = z.object({
  title: z.string().trim().min(1).max(ORG_NAME_MAX_LENGTH),
  threatLevel: z.enum(THREAT_LEVELS),
});

export const INFO_NOTE_MAX_LENGTH = 4000;
export const infoNoteSchema = z.object({
  id: z.string(),
  noteText: z.string(),
  pinned: z.boolean(),
  createdBy: z.string(),
  createdByName: z.string(),
  modifiedOn: z.string(),
});
export type InfoNote = z.infer<typeof infoNoteSchema>;
export const infoNoteInputSchema = z.object({
  noteText: z.string().trim().min(1).max(INFO_NOTE_MAX_LENGTH),
  pinned: z.boolean().default(false),
});

/** Pinned notes first; within each group, the most recently modified first. */
export function sortInfoNotes<T extends Pick<InfoNote, 'pinned' | 'modifiedOn'>>(notes: readonly T[]): T[] {
  return [...notes].sort(
    (a, b) => Number(b.pinned) - Number(a.pinned) || b.modifiedOn.localeCompare(a.modifiedOn),
  );
}

/** Provider administrators: an organisation's product set-up. */
export const managedOrgSchema = z.object({
  id: z.string(),
  name: z.string(),
  isProvider: z.boolean(),
  productSkus: z.array(z.enum(PRODUCT_SKUS)),
  managementMode: z.enum(MANAGEMENT_MODES),
  featureFlags: z.record(z.string(), z.boolean()),
  requireTwoFactor: z.boolean(),
  csmName: z.string().nullable(),
  csmEmailAddress: z.string().nullable(),
  eventRetentionDays: z.number().int(),
  createdAt: z.string(),
});
export type ManagedOrg = z.infer<typeof managedOrgSchema>;
export const managedOrgInputSchema = z.object({
  name: z.string().trim().min(1).max(ORG_NAME_MAX_LENGTH),
  productSkus: z.array(z.enum(PRODUCT_SKUS)).default([]),
  managementMode: z.enum(MANAGEMENT_MODES).default('ONBOARDING'),
  /** Only the flags that differ from the defaults need be given. */
  featureFlags: z.partialRecord(z.enum(FEATURE_FLAGS as [string, ...string[]]), z.boolean()).default({}),
  requireTwoFactor: z.boolean().default(false),
  csmName: z.string().trim().max(200).nullable().default(null),
  csmEmailAddress: z.email().nullable().default(null),
  eventRetentionDays: z
    .number()
    .int()
    .min(EVENT_RETENTION_MIN_DAYS)
    .max(EVENT_RETENTION_MAX_DAYS)
    .default(EVENT_RETENTION_DEFAULT_DAYS),
});

/** GET/PUT /api/org/:orgId/global-settings */
export const orgSettingsResponseSchema = z.object({
  emailTimezone: z.enum(TIMEZONES),
  requireTwoFactor: z.boolean(),
});
export const orgSettingsInputSchema = z.object({ emailTimezone: z.enum(TIMEZONES) });

/** POST /api/client-errors: what the web app reports of a failed call (status 400 to 599 but 401). */
export const clientErrorReportSchema = z.object({
  method: z.string().max(10),
  /** Parameterised path, e.g. /api/org/:orgId/asset/:id */
  url: z.string().max(500),
  status: z.number().int().min(400).max(599),
  key: z.string().max(100).optional(),
  errorId: z.string().max(100).optional(),
});
export const CLIENT_ERROR_REPORTS_PER_MINUTE = 10;
