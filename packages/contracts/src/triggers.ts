import { z } from 'zod';
import { aggregationSchema, EVENT_FIELD_NAME_MAX_LENGTH } from './events';
import { pageParams } from './query-params';

/**
 * Triggers (spec 3): a saved query run on an interval that raises alerts, in the security domain
 * or, with the fraud product, the fraud domain. Trigger schedules limit when triggers run.
 */
export const TRIGGER_DOMAINS = ['security', 'fraud'] as const;
export type TriggerDomain = (typeof TRIGGER_DOMAINS)[number];

export const TRIGGER_TYPES = [
  'EVERY_EVENT',
  'THRESHOLD',
  'AGGREGATION',
  'SEQUENCE',
  'DYNAMIC_THRESHOLD',
  'TEMPORAL_ANOMALY',
] as const;
export type TriggerType = (typeof TRIGGER_TYPES)[number];

export const TRIGGER_SEVERITIES = ['LOW', 'MEDIUM', 'HIGH', 'CRITICAL'] as const;
export type TriggerSeverity = (typeof TRIGGER_SEVERITIES)[number];

export const TRIGGER_STATES = ['ACTIVE', 'PAUSED', 'DISABLED', 'DELETED', 'ARCHIVED'] as const;
export type TriggerState = (typeof TRIGGER_STATES)[number];

/** Why a trigger is disabled: until a time, until enabled again, or automatically on high cardinality. */
export const TRIGGER_DISABLED_REASONS = ['TEMPORARY', 'INDEFINITE', 'CARDINALITY'] as const;
export type TriggerDisabledReason = (typeof TRIGGER_DISABLED_REASONS)[number];

export const TRIGGER_MANAGED_BY = ['CLIENT', 'OPS'] as const;
export type TriggerManagedBy = (typeof TRIGGER_MANAGED_BY)[number];

/** Where a trigger comes from: copied from the provider's library, or made in the organisation. */
export const TRIGGER_SOURCES = ['LIBRARY', 'CUSTOM'] as const;
export type TriggerSource = (typeof TRIGGER_SOURCES)[number];

export const TRIGGER_NAME_MAX_LENGTH = 200;
export const TRIGGER_DESCRIPTION_MAX_LENGTH = 2000;
/** Interval bounds of every trigger: one minute to seven days. */
export const TRIGGER_INTERVAL_MIN_SECONDS = 60;
export const TRIGGER_INTERVAL_MAX_SECONDS = 7 * 24 * 60 * 60;
/** A sequence's steps must all happen within this window: one minute to one day. */
export const TRIGGER_SEQUENCE_INTERVAL_MIN_SECONDS = 60;
export const TRIGGER_SEQUENCE_INTERVAL_MAX_SECONDS = 86_400;
export const TRIGGER_SEQUENCE_MIN_STEPS = 2;
export const TRIGGER_SEQUENCE_MAX_STEPS = 10;
/** Dynamic thresholds and temporal anomalies use 30-minute periods (spec 3 section 9). */
export const TRIGGER_PERIOD_SECONDS = 1800;
export const TRIGGER_MAX_RECIPIENTS = 50;
export const TRIGGER_MAX_HEADERS = 20;
export const TRIGGER_HEADER_VALUE_MAX_LENGTH = 998;
export const TRIGGER_MAX_LABELS = 20;
/** Actions (of the organisation's action integrations) a trigger runs for each alert it raises. */
export const TRIGGER_MAX_ACTIONS = 10;
export const TRIGGER_LABEL_MAX_LENGTH = 50;
export const TRIGGER_MAX_IMPORTANT_FIELDS = 20;
export const TRIGGER_MAX_WATCHERS = 50;

/** RFC 5322 header field names: printable ASCII but space and colon. */
export const TRIGGER_HEADER_NAME_PATTERN = /^[!-9;-~]+$/;
/** A field name a query can name bare: letters, digits, underscore, dot, @ and hyphen. */
export const TRIGGER_FIELD_NAME_PATTERN = /^[A-Za-z_@][A-Za-z0-9_.@-]*$/;

export const TRIGGER_SORT_FIELDS = ['name', 'type', 'severity', 'state', 'modifiedOn', 'nextRunAt'] as const;
export type TriggerSortField = (typeof TRIGGER_SORT_FIELDS)[number];

/**
 * POST /trigger and PUT /trigger/:id. Shapes only: the rules between fields (type needs, bounds,
 * addresses, headers) are checked by the server so that each gets its own error key.
 */
export const triggerInputSchema = z.object({
  name: z.string().trim().min(1).max(TRIGGER_NAME_MAX_LENGTH),
  description: z.string().trim().max(TRIGGER_DESCRIPTION_MAX_LENGTH).default(''),
  type: z.enum(TRIGGER_TYPES),
  savedQueryId: z.uuid().nullish(),
  intervalSeconds: z.number().int(),
  aggregation: aggregationSchema.nullish(),
  minMatch: z.number().int().nullish(),
  maxMatch: z.number().int().nullish(),
  sequence: z
    .array(z.object({ savedQueryId: z.uuid() }))
    .max(TRIGGER_SEQUENCE_MAX_STEPS)
    .nullish(),
  severity: z.enum(TRIGGER_SEVERITIES).default('MEDIUM'),
  notifyOnly: z.boolean().default(false),
  ticketOwnerId: z.uuid().nullish(),
  watcherIds: z.array(z.uuid()).max(TRIGGER_MAX_WATCHERS).default([]),
  importantFields: z
    .array(z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH))
    .max(TRIGGER_MAX_IMPORTANT_FIELDS)
    .default([]),
  customHeaders: z.record(z.string(), z.string()).default({}),
  emailRecipients: z.array(z.string().trim()).max(TRIGGER_MAX_RECIPIENTS).default([]),
  emailDigest: z.boolean().default(false),
  labels: z.array(z.string().trim().min(1).max(TRIGGER_LABEL_MAX_LENGTH)).max(TRIGGER_MAX_LABELS).default([]),
  scheduleId: z.uuid().nullish(),
  /**
   * Actions run for each alert (feature automatedIntervention); each value becomes a pending action.
   * Left out on a change, the trigger keeps its actions.
   */
  actionIds: z.array(z.uuid()).max(TRIGGER_MAX_ACTIONS).optional(),
  inTest: z.boolean().default(false),
  /** OPS: only provider staff may change the trigger (and set this). Unchanged when omitted. */
  managedBy: z.enum(TRIGGER_MANAGED_BY).optional(),
  /** Acknowledges that changing the alert conditions archives this version. */
  confirmArchive: z.boolean().optional(),
});
export type TriggerInput = z.input<typeof triggerInputSchema>;

/** POST /trigger also takes the domain, which stays. */
export const triggerCreateSchema = triggerInputSchema
  .omit({ confirmArchive: true })
  .extend({ domain: z.enum(TRIGGER_DOMAINS).default('security') });
export type TriggerCreate = z.input<typeof triggerCreateSchema>;

export const triggerSchema = z.object({
  id: z.string(),
  orgId: z.string().nullable(),
  domain: z.enum(TRIGGER_DOMAINS),
  name: z.string(),
  description: z.string(),
  type: z.enum(TRIGGER_TYPES),
  savedQueryId: z.string().nullable(),
  savedQueryName: z.string().nullable(),
  intervalSeconds: z.number(),
  aggregation: aggregationSchema.nullable(),
  minMatch: z.number().nullable(),
  maxMatch: z.number().nullable(),
  sequence: z.array(z.object({ savedQueryId: z.string() })).nullable(),
  severity: z.enum(TRIGGER_SEVERITIES),
  notifyOnly: z.boolean(),
  ticketOwnerId: z.string().nullable(),
  watcherIds: z.array(z.string()),
  importantFields: z.array(z.string()),
  customHeaders: z.record(z.string(), z.string()),
  emailRecipients: z.array(z.string()),
  emailDigest: z.boolean(),
  labels: z.array(z.string()),
  scheduleId: z.string().nullable(),
  actionIds: z.array(z.string()),
  state: z.enum(TRIGGER_STATES),
  disabledReason: z.enum(TRIGGER_DISABLED_REASONS).nullable(),
  disabledUntil: z.string().nullable(),
  managedBy: z.enum(TRIGGER_MANAGED_BY),
  /** LIBRARY: a copy of a library trigger (`copiedFromId`, at `libraryVersion`); CUSTOM otherwise. */
  source: z.enum(TRIGGER_SOURCES),
  copiedFromId: z.string().nullable(),
  libraryVersion: z.number().nullable(),
  /** A copy's library group base query, ANDed with its saved query. */
  baseQuery: z.string().nullable(),
  inTest: z.boolean(),
  version: z.number(),
  previousVersionId: z.string().nullable(),
  nextRunAt: z.string().nullable(),
  lastRunAt: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Trigger = z.infer<typeof triggerSchema>;

/** GET /triggers. Without `state` every trigger but deleted and archived ones is listed. */
export const triggerListQuerySchema = z.object({
  domain: z.enum(TRIGGER_DOMAINS).default('security'),
  search: z.string().trim().max(TRIGGER_NAME_MAX_LENGTH).optional(),
  state: z.enum(TRIGGER_STATES).optional(),
  type: z.enum(TRIGGER_TYPES).optional(),
  label: z.string().trim().min(1).max(TRIGGER_LABEL_MAX_LENGTH).optional(),
  sortField: z.enum(TRIGGER_SORT_FIELDS).default('name'),
  sortOrder: z.enum(['ASC', 'DESC']).default('ASC'),
  ...pageParams,
});
export type TriggerListQuery = z.input<typeof triggerListQuerySchema>;

export const triggerListSchema = z.object({ items: z.array(triggerSchema), total: z.number() });
export type TriggerList = z.infer<typeof triggerListSchema>;

/** POST /trigger/:id/disable: until a time in the future, or indefinitely without one. */
export const triggerDisableSchema = z.object({ until: z.iso.datetime({ offset: true }).nullish() });
export type TriggerDisable = z.input<typeof triggerDisableSchema>;

export const triggerRunSchema = z.object({
  id: z.string(),
  windowStart: z.string(),
  windowEnd: z.string(),
  ranAt: z.string(),
  durationMs: z.number(),
  matched: z.number(),
  alertsRaised: z.number(),
  error: z.string().nullable(),
});
export type TriggerRun = z.infer<typeof triggerRunSchema>;

export const triggerRunListQuerySchema = z.object({ ...pageParams });
export const triggerRunListSchema = z.object({ items: z.array(triggerRunSchema), total: z.number() });
export type TriggerRunList = z.infer<typeof triggerRunListSchema>;

export const TRIGGER_SCHEDULE_NAME_MAX_LENGTH = 200;
export const TRIGGER_SCHEDULE_MAX_WINDOWS = 20;
export const MINUTES_PER_DAY = 1440;

export const triggerScheduleWindowSchema = z.object({
  /** ISO weekdays, 1 = Monday. */
  days: z.array(z.number().int()).min(1).max(7),
  startMinute: z.number().int(),
  endMinute: z.number().int(),
});
export type TriggerScheduleWindow = z.infer<typeof triggerScheduleWindowSchema>;

/** POST /trigger-schedule and PUT /trigger-schedule/:id; window bounds are checked by the server. */
export const triggerScheduleInputSchema = z.object({
  name: z.string().trim().min(1).max(TRIGGER_SCHEDULE_NAME_MAX_LENGTH),
  description: z.string().trim().max(TRIGGER_DESCRIPTION_MAX_LENGTH).default(''),
  timezone: z.string().trim().min(1).max(100),
  windows: z.array(triggerScheduleWindowSchema).min(1).max(TRIGGER_SCHEDULE_MAX_WINDOWS),
});
export type TriggerScheduleInput = z.input<typeof triggerScheduleInputSchema>;

export const triggerScheduleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  timezone: z.string(),
  windows: z.array(triggerScheduleWindowSchema),
  /** Triggers (not deleted or archived) that use it. */
  triggerCount: z.number(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type TriggerSchedule = z.infer<typeof triggerScheduleSchema>;

export const triggerScheduleListQuerySchema = z.object({
  search: z.string().trim().max(TRIGGER_SCHEDULE_NAME_MAX_LENGTH).optional(),
  ...pageParams,
});
export type TriggerScheduleListQuery = z.input<typeof triggerScheduleListQuerySchema>;

export const triggerScheduleListSchema = z.object({
  items: z.array(triggerScheduleSchema),
  total: z.number(),
});
export type TriggerScheduleList = z.infer<typeof triggerScheduleListSchema>;
