import { z } from 'zod';
import { pageParams, queryList } from './query-params';
import { THREAT_DOMAINS } from './threat';

/** Alert inbox states (spec 3 section 3). */
export const ALERT_STATES = ['NEW', 'ACKED', 'ESCALATED', 'DISMISSED', 'FRAUD_FLAGGED'] as const;
export type AlertState = (typeof ALERT_STATES)[number];

/** NO_DATA: an integration set to alert on no data received none within its threshold. */
export const ALERT_KINDS = ['TRIGGER', 'THREAT_MATCH', 'NO_DATA'] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** Highest first: the severity sort follows this order. */
export const ALERT_SEVERITIES = ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'] as const;
export type AlertSeverity = (typeof ALERT_SEVERITIES)[number];

export const ALERT_VIEWS = ['alert', 'trigger', 'story'] as const;
export type AlertView = (typeof ALERT_VIEWS)[number];

/** Inbox sort options (spec 3 section 4). */
export const ALERT_SORTS = [
  'newest',
  'oldest',
  'severity',
  'lastEscalated',
  'dismissed',
  'fraudFlagged',
] as const;
export type AlertSort = (typeof ALERT_SORTS)[number];

/** Sorts that only make sense with one state filter: the time of that state. */
export const ALERT_SORT_STATE: Partial<Record<AlertSort, AlertState>> = {
  lastEscalated: 'ESCALATED',
  dismissed: 'DISMISSED',
  fraudFlagged: 'FRAUD_FLAGGED',
};

/** The sorts valid with a state selection. */
export function alertSortsFor(states: readonly AlertState[]): AlertSort[] {
  return ALERT_SORTS.filter((sort) => {
    const needs = ALERT_SORT_STATE[sort];
    return !needs || (states.length === 1 && states[0] === needs);
  });
}

/** Keys of the inbox's `field:value` filters. */
export const ALERT_FILTER_KEYS = ['severity', 'kind', 'trigger', 'title', 'group'] as const;
export type AlertFilterKey = (typeof ALERT_FILTER_KEYS)[number];

export const ALERT_DISMISSAL_REASONS = [
  'FALSE_POSITIVE',
  'TRUE_POSITIVE_BENIGN',
  'DUPLICATE',
  'TEST',
  'OTHER',
] as const;
export type AlertDismissalReason = (typeof ALERT_DISMISSAL_REASONS)[number];

export const FRAUD_TYPES = [
  'ACCOUNT_TAKEOVER',
  'WIRE_FRAUD',
  'CHECK_FRAUD',
  'CARD_FRAUD',
  'IDENTITY_THEFT',
  'ELDER_FINANCIAL_ABUSE',
  'UNKNOWN',
  'OTHER',
] as const;
export type FraudType = (typeof FRAUD_TYPES)[number];

export const FRAUD_CERTAINTIES = ['SUSPECTED', 'CONFIRMED'] as const;
export type FraudCertainty = (typeof FRAUD_CERTAINTIES)[number];

/** Spec 3 section 9: bulk actions reach alerts fired up to 30 days back. */
export const ALERT_BULK_MAX_AGE_DAYS = 30;
/** Alerts one bulk action changes at most. */
export const ALERT_BULK_MAX = 500;
/** Spec 3 section 9: an alert counts as viewed after 10 seconds on screen. */
export const ALERT_VIEWED_AFTER_MS = 10_000;
export const ALERT_NOTES_MAX_LENGTH = 2000;
export const ALERT_FILTERS_MAX = 10;
/** Threat-match alerts one ingest batch raises at most. */
export const THREAT_MATCH_ALERTS_PER_BATCH = 100;

/** GET /alerts. `filter` is repeated, each one `key:value`. */
export const alertListQuerySchema = z.object({
  domain: z.enum(THREAT_DOMAINS).default('security'),
  view: z.enum(ALERT_VIEWS).default('alert'),
  /** Comma-separated or repeated; NEW when absent. */
  state: queryList.pipe(z.array(z.enum(ALERT_STATES)).max(ALERT_STATES.length)).optional(),
  sort: z.enum(ALERT_SORTS).default('newest'),
  filter: z
    .union([z.string(), z.array(z.string())])
    .transform((value) => (Array.isArray(value) ? value : [value]))
    .pipe(z.array(z.string().max(300)).max(ALERT_FILTERS_MAX))
    .optional(),
  begin: z.iso.datetime({ offset: true }).optional(),
  end: z.iso.datetime({ offset: true }).optional(),
  ...pageParams,
});
export type AlertListQuery = z.input<typeof alertListQuerySchema>;

export const alertSchema = z.object({
  id: z.string(),
  domain: z.enum(THREAT_DOMAINS),
  kind: z.enum(ALERT_KINDS),
  triggerId: z.string().nullable(),
  triggerName: z.string().nullable(),
  title: z.string(),
  state: z.enum(ALERT_STATES),
  severity: z.string(),
  firedAt: z.string(),
  windowStart: z.string().nullable(),
  windowEnd: z.string().nullable(),
  matchCount: z.number(),
  groupKey: z.string().nullable(),
  eventCount: z.number(),
  details: z.record(z.string(), z.unknown()),
  fraudType: z.string().nullable(),
  fraudCertainty: z.string().nullable(),
  dismissalReason: z.string().nullable(),
  dismissalNotes: z.string().nullable(),
  ticketId: z.string().nullable(),
  /** The incident it was escalated to. */
  ticketSlug: z.string().nullable(),
  stateChangedAt: z.string().nullable(),
  escalatedAt: z.string().nullable(),
  dismissedAt: z.string().nullable(),
  flaggedAt: z.string().nullable(),
  /** Whether the caller has viewed it. */
  viewed: z.boolean(),
});
export type Alert = z.infer<typeof alertSchema>;

export const alertStateChangeSchema = z.object({
  fromState: z.enum(ALERT_STATES),
  toState: z.enum(ALERT_STATES),
  changedBy: z.string().nullable(),
  changedByName: z.string().nullable(),
  changedAt: z.string(),
  reason: z.string().nullable(),
  notes: z.string().nullable(),
});
export type AlertStateChange = z.infer<typeof alertStateChangeSchema>;

export const alertDetailSchema = alertSchema.extend({
  history: z.array(alertStateChangeSchema),
  viewers: z.array(z.object({ userId: z.string(), name: z.string().nullable(), viewedAt: z.string() })),
});
export type AlertDetail = z.infer<typeof alertDetailSchema>;

const stateCounts = z.object(
  Object.fromEntries(ALERT_STATES.map((state) => [state, z.number()])) as {
    [K in AlertState]: z.ZodNumber;
  },
);

export const alertTriggerRowSchema = z.object({
  triggerId: z.string().nullable(),
  kind: z.enum(ALERT_KINDS),
  name: z.string(),
  counts: stateCounts,
  total: z.number(),
  latestFiredAt: z.string(),
});
export type AlertTriggerRow = z.infer<typeof alertTriggerRowSchema>;

export const alertStorySchema = z.object({
  groupKey: z.string(),
  title: z.string(),
  severity: z.string(),
  count: z.number(),
  firstFiredAt: z.string(),
  lastFiredAt: z.string(),
  latestAlertId: z.string(),
});
export type AlertStory = z.infer<typeof alertStorySchema>;

export const alertListSchema = z.discriminatedUnion('view', [
  z.object({ view: z.literal('alert'), items: z.array(alertSchema), total: z.number() }),
  z.object({ view: z.literal('trigger'), items: z.array(alertTriggerRowSchema), total: z.number() }),
  z.object({ view: z.literal('story'), items: z.array(alertStorySchema), total: z.number() }),
]);
export type AlertList = z.infer<typeof alertListSchema>;

/** GET /alert/:id/similar. */
export const alertSimilarQuerySchema = z.object(pageParams);

export const alertPageSchema = z.object({ items: z.array(alertSchema), total: z.number() });
export type AlertPage = z.infer<typeof alertPageSchema>;

/** A state change. Rules (reason, notes, fraud) are checked by the server with their own errors. */
export const alertStateChangeInputSchema = z.object({
  state: z.string().trim(),
  reason: z.string().trim().max(64).optional(),
  notes: z.string().trim().max(ALERT_NOTES_MAX_LENGTH).optional(),
  fraudType: z.string().trim().max(64).optional(),
  fraudCertainty: z.enum(FRAUD_CERTAINTIES).optional(),
  /** ESCALATED: the slug of an incident of the organisation (INC-12). */
  ticketSlug: z.string().trim().max(40).optional(),
});
export type AlertStateChangeInput = z.infer<typeof alertStateChangeInputSchema>;

/** POST /alerts/bulk-state: listed alerts, or those an inbox selection finds. */
export const alertBulkStateInputSchema = alertStateChangeInputSchema.extend({
  ids: z.array(z.uuid()).min(1).max(ALERT_BULK_MAX).optional(),
  selection: z
    .object({
      domain: z.enum(THREAT_DOMAINS).default('security'),
      state: z.array(z.enum(ALERT_STATES)).min(1).optional(),
      filter: z.array(z.string().max(300)).max(ALERT_FILTERS_MAX).optional(),
      begin: z.iso.datetime({ offset: true }).optional(),
      end: z.iso.datetime({ offset: true }).optional(),
    })
    .optional(),
});
export type AlertBulkStateInput = z.input<typeof alertBulkStateInputSchema>;

export const alertBulkResultSchema = z.object({
  succeeded: z.number(),
  failed: z.number(),
  results: z.array(
    z.object({
      id: z.string(),
      ok: z.boolean(),
      key: z.string().optional(),
      message: z.string().optional(),
      params: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])).optional(),
    }),
  ),
});
export type AlertBulkResult = z.infer<typeof alertBulkResultSchema>;

export const alertEventsSchema = z.object({
  /** Matched events the caller may see, newest first. */
  items: z.array(
    z.object({
      id: z.string(),
      timestamp: z.string(),
      host: z.string().nullable(),
      srcIp: z.string().nullable(),
      dstIp: z.string().nullable(),
      userName: z.string().nullable(),
      dataSource: z.string().nullable(),
      message: z.string(),
      fields: z.record(z.string(), z.unknown()),
    }),
  ),
  /** Matched events kept with the alert; more than `items` when data restrictions hide some. */
  stored: z.number(),
});
export type AlertEvents = z.infer<typeof alertEventsSchema>;
