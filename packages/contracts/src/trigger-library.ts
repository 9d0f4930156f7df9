import { z } from 'zod';
import { SAVED_QUERY_MAX_LENGTH } from './saved-queries';
import {
  TRIGGER_DESCRIPTION_MAX_LENGTH,
  TRIGGER_DOMAINS,
  TRIGGER_LABEL_MAX_LENGTH,
  TRIGGER_MANAGED_BY,
  TRIGGER_MAX_LABELS,
  TRIGGER_NAME_MAX_LENGTH,
  TRIGGER_SEVERITIES,
  triggerInputSchema,
  triggerSchema,
} from './triggers';

/**
 * The trigger library (spec 3): the provider's triggers, in groups whose base query is ANDed with
 * each trigger's saved query. Provider administrators copy them to customer organisations; a copy
 * remembers its library trigger and version, and changing its alert conditions decouples it.
 */

/** Organisations one copy, resync or bulk edit names at most. */
export const TRIGGER_LIBRARY_MAX_ORGS = 500;
/** Alerts of copies are counted over this many days in the library statistics. */
export const TRIGGER_LIBRARY_STATS_DAYS = 30;

export const triggerLibraryGroupInputSchema = z.object({
  domain: z.enum(TRIGGER_DOMAINS).default('security'),
  name: z.string().trim().min(1).max(TRIGGER_NAME_MAX_LENGTH),
  description: z.string().trim().max(TRIGGER_DESCRIPTION_MAX_LENGTH).default(''),
  /** A query of the search language, ANDed with the query of every trigger of the group; may be empty. */
  baseQuery: z.string().trim().max(SAVED_QUERY_MAX_LENGTH).default(''),
});
export type TriggerLibraryGroupInput = z.input<typeof triggerLibraryGroupInputSchema>;
export type TriggerLibraryGroupFields = z.output<typeof triggerLibraryGroupInputSchema>;

export const triggerLibraryGroupSchema = z.object({
  id: z.string(),
  domain: z.enum(TRIGGER_DOMAINS),
  name: z.string(),
  description: z.string(),
  baseQuery: z.string(),
  createdOn: z.string(),
});
export type TriggerLibraryGroup = z.infer<typeof triggerLibraryGroupSchema>;

/**
 * A library trigger: a trigger's fields without the organisation's people and schedule, in a group.
 * Its saved query and sequence steps are library queries, which every organisation sees.
 */
export const libraryTriggerInputSchema = triggerInputSchema
  .omit({
    ticketOwnerId: true,
    watcherIds: true,
    scheduleId: true,
    actionIds: true,
    managedBy: true,
    confirmArchive: true,
  })
  .extend({ groupId: z.uuid() });
export type LibraryTriggerInput = z.input<typeof libraryTriggerInputSchema>;
export type LibraryTriggerFields = z.output<typeof libraryTriggerInputSchema>;

export const libraryTriggerSchema = triggerSchema.extend({
  groupId: z.string(),
  groupName: z.string(),
  /** Copies in organisations (not deleted or archived). */
  copyCount: z.number(),
  /** The current organisation's copy, if it holds one. */
  copyHereId: z.string().nullable(),
  /** When the differences of the copies were last calculated (resync analysis). */
  resyncAnalysedAt: z.string().nullable(),
});
export type LibraryTrigger = z.infer<typeof libraryTriggerSchema>;

export const triggerLibraryQuerySchema = z.object({
  domain: z.enum(TRIGGER_DOMAINS).default('security'),
});

/** GET /trigger-library: the groups of a domain, each with its live library triggers, by name. */
export const triggerLibrarySchema = z.object({
  groups: z.array(triggerLibraryGroupSchema.extend({ triggers: z.array(libraryTriggerSchema) })),
});
export type TriggerLibrary = z.infer<typeof triggerLibrarySchema>;

const orgIdsSchema = z.array(z.uuid()).min(1).max(TRIGGER_LIBRARY_MAX_ORGS);

/** POST /trigger-library/trigger/:id/copy: one copy per organisation. */
export const libraryCopyRequestSchema = z.object({
  orgIds: orgIdsSchema,
  /** OPS (default): only provider staff may change the copies. */
  managedBy: z.enum(TRIGGER_MANAGED_BY).default('OPS'),
});
export type LibraryCopyRequest = z.input<typeof libraryCopyRequestSchema>;

export const LIBRARY_COPY_SKIP_REASONS = ['ALREADY_COPIED', 'PRODUCT_NOT_ENTITLED'] as const;
export type LibraryCopySkipReason = (typeof LIBRARY_COPY_SKIP_REASONS)[number];

export const libraryCopyResultSchema = z.object({
  copied: z.array(z.object({ orgId: z.string(), orgName: z.string(), triggerId: z.string() })),
  skipped: z.array(
    z.object({
      orgId: z.string(),
      orgName: z.string(),
      reason: z.enum(LIBRARY_COPY_SKIP_REASONS),
      triggerId: z.string().nullable(),
    }),
  ),
});
export type LibraryCopyResult = z.infer<typeof libraryCopyResultSchema>;

export const libraryCopySchema = z.object({
  orgId: z.string(),
  orgName: z.string(),
  triggerId: z.string(),
  name: z.string(),
  state: triggerSchema.shape.state,
  severity: z.enum(TRIGGER_SEVERITIES),
  labels: z.array(z.string()),
  managedBy: z.enum(TRIGGER_MANAGED_BY),
  libraryVersion: z.number().nullable(),
  /** Whether the copy holds the library trigger's current version. */
  upToDate: z.boolean(),
  /** The fields that differ from the library trigger at the last resync analysis; null before one. */
  differences: z.array(z.string()).nullable(),
  alertsLast30Days: z.number(),
});
export type LibraryCopy = z.infer<typeof libraryCopySchema>;

/** GET /trigger-library/trigger/:id/stats. */
export const libraryStatsSchema = z.object({
  trigger: libraryTriggerSchema,
  copies: z.array(libraryCopySchema),
  counts: z.object({ active: z.number(), paused: z.number(), disabled: z.number() }),
  alertsLast30Days: z.number(),
});
export type LibraryStats = z.infer<typeof libraryStatsSchema>;

/**
 * Fields a resync copies from the library trigger. `query` is the saved query, sequence steps and
 * base query; `matches` the minimum and maximum match.
 */
export const TRIGGER_RESYNC_FIELDS = [
  'name',
  'description',
  'severity',
  'query',
  'intervalSeconds',
  'aggregation',
  'matches',
  'labels',
  'importantFields',
  'notifyOnly',
  'customHeaders',
  'emailRecipients',
] as const;
export type TriggerResyncField = (typeof TRIGGER_RESYNC_FIELDS)[number];
/** Resync fields that belong to the alert conditions of the trigger's type. */
export const TRIGGER_RESYNC_CONDITION_FIELDS: readonly TriggerResyncField[] = [
  'query',
  'intervalSeconds',
  'aggregation',
  'matches',
];

/** POST /trigger-library/trigger/:id/resync. */
export const libraryResyncRequestSchema = z.object({
  /** Copies of the library trigger (ids of triggers in organisations). */
  triggerIds: z.array(z.uuid()).min(1).max(TRIGGER_LIBRARY_MAX_ORGS),
  fields: z.array(z.enum(TRIGGER_RESYNC_FIELDS)).max(TRIGGER_RESYNC_FIELDS.length),
});
export type LibraryResyncRequest = z.input<typeof libraryResyncRequestSchema>;

export const libraryResyncResultSchema = z.object({
  synced: z.array(z.object({ orgId: z.string(), triggerId: z.string() })),
});
export type LibraryResyncResult = z.infer<typeof libraryResyncResultSchema>;

/** POST /trigger-library/trigger/:id/bulk-edit: what changes in every named organisation's copy. */
export const libraryBulkEditRequestSchema = z.object({
  orgIds: orgIdsSchema,
  changes: z.object({
    state: z.enum(['ACTIVE', 'PAUSED', 'DISABLED']).optional(),
    severity: z.enum(TRIGGER_SEVERITIES).optional(),
    labels: z
      .array(z.string().trim().min(1).max(TRIGGER_LABEL_MAX_LENGTH))
      .max(TRIGGER_MAX_LABELS)
      .optional(),
    notifyOnly: z.boolean().optional(),
    managedBy: z.enum(TRIGGER_MANAGED_BY).optional(),
  }),
});
export type LibraryBulkEditRequest = z.input<typeof libraryBulkEditRequestSchema>;

export const libraryBulkEditResultSchema = z.object({
  changed: z.array(z.object({ orgId: z.string(), triggerId: z.string() })),
  /** Organisations whose copy could not change, each with the reason's catalogue key. */
  failed: z.array(
    z.object({
      orgId: z.string(),
      key: z.string(),
      params: z.record(z.string(), z.string()).optional(),
    }),
  ),
  /** Named organisations the user may not act in; nothing of them was read or changed. */
  notAuthorisedOrgIds: z.array(z.string()),
  /** TRIGGER_BULK_EDIT_NOT_AUTHORISED_SOME_ORGS or TRIGGER_BULK_EDIT_PARTIAL_FAILURE; null when all changed. */
  key: z.string().nullable(),
});
export type LibraryBulkEditResult = z.infer<typeof libraryBulkEditResultSchema>;
