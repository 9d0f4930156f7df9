import { z } from 'zod';
import { eventSchema, SEARCH_INTERVAL_TYPES, type SearchIntervalType } from './events';
import { pageParams } from './query-params';

/**
 * Charts and dashboards (spec 3): a chart draws one data source over a time range; a dashboard lays
 * charts out as tiles and gives them one time range. Library charts and dashboards (no organisation)
 * are the provider's, copied into customer organisations.
 */

export const CHART_TYPES = ['bar', 'line', 'area', 'pie', 'table', 'badge', 'events_table', 'map'] as const;
export type ChartType = (typeof CHART_TYPES)[number];

/**
 * Data-source families (spec 3 "Dashboard data source families") that exist today. Each one says
 * which chart types can draw it; families still to come (assessments) are added here and in the
 * server's source registry.
 */
export const CHART_FAMILIES = [
  'SAVED_QUERIES',
  'ALERT_LIST',
  'ALERT_COUNTS',
  'ALERT_FLAGGED',
  'ALERT_TRENDS',
  'DISMISSED_TRIGGER_ACTIVITY',
  'ESCALATIONS',
  'INCIDENT_LIST',
  'INCIDENT_STATE_COUNTS',
  'INCIDENT_OWNER_COUNTS',
  'INCIDENT_TRENDS',
  'TASK_LIST',
  'TASK_STATE_COUNTS',
  'TASK_OWNER_COUNTS',
  'TASK_EVENTS',
  'ACTIVITY_FUNNEL',
  'RISKS',
  'CONTROLS',
  'INVENTORIES',
  'INVENTORY_CONTEXTUAL_SCORING',
  'FRAMEWORKS',
  'CAT_SUMMARY',
  'CAT_RISK_PROFILE',
  'ASSESSMENTS',
] as const;
export type ChartFamily = (typeof CHART_FAMILIES)[number];

export const CHART_FAMILY_TYPES: Record<ChartFamily, readonly ChartType[]> = {
  SAVED_QUERIES: CHART_TYPES,
  ALERT_LIST: ['table'],
  ALERT_COUNTS: ['bar', 'pie', 'table', 'badge'],
  ALERT_FLAGGED: ['bar', 'pie', 'table', 'badge'],
  ALERT_TRENDS: ['line', 'area', 'bar', 'table'],
  DISMISSED_TRIGGER_ACTIVITY: ['bar', 'pie', 'table'],
  ESCALATIONS: ['bar', 'line', 'area', 'table'],
  INCIDENT_LIST: ['table'],
  INCIDENT_STATE_COUNTS: ['bar', 'pie', 'table', 'badge'],
  INCIDENT_OWNER_COUNTS: ['bar', 'pie', 'table', 'badge'],
  INCIDENT_TRENDS: ['line', 'area', 'bar', 'table'],
  TASK_LIST: ['table'],
  TASK_STATE_COUNTS: ['bar', 'pie', 'table', 'badge'],
  TASK_OWNER_COUNTS: ['bar', 'pie', 'table', 'badge'],
  TASK_EVENTS: ['bar', 'pie', 'table', 'badge'],
  ACTIVITY_FUNNEL: ['bar', 'table'],
  RISKS: ['bar', 'pie', 'table', 'badge'],
  CONTROLS: ['bar', 'pie', 'table', 'badge'],
  INVENTORIES: ['bar', 'pie', 'table', 'badge'],
  INVENTORY_CONTEXTUAL_SCORING: ['table'],
  FRAMEWORKS: ['bar', 'table'],
  CAT_SUMMARY: ['bar', 'table'],
  CAT_RISK_PROFILE: ['bar', 'pie', 'table'],
  ASSESSMENTS: ['bar', 'pie', 'table', 'badge'],
};

/** Families of alert records, drawn for the security or the fraud domain. */
export const CHART_ALERT_FAMILIES: readonly ChartFamily[] = [
  'ALERT_LIST',
  'ALERT_COUNTS',
  'ALERT_FLAGGED',
  'ALERT_TRENDS',
  'DISMISSED_TRIGGER_ACTIVITY',
  'ESCALATIONS',
  'ACTIVITY_FUNNEL',
];

/**
 * Premium-only data sources (spec 3: "Some are premium-SKU only"), for organisations with
 * REPORTING_PREMIUM: the analytics of how the team works its alerts and tasks, that is the activity
 * funnel (alerts to escalations to incidents), the escalation chart and task events. Lists, counts
 * and trends of records, dismissed trigger activity, saved-query charts (realtime ones included)
 * and the risk and governance families stay in every reporting product; fraud-domain alert sources
 * need a fraud product (CYBERFRAUD_STANDARD or CYBERFRAUD_PREMIUM) instead.
 */
export const CHART_PREMIUM_FAMILIES: readonly ChartFamily[] = [
  'ACTIVITY_FUNNEL',
  'ESCALATIONS',
  'TASK_EVENTS',
];

/** Alert families that need the fraud product in the fraud domain. */
export const CHART_DOMAINS = ['security', 'fraud'] as const;
export type ChartDomain = (typeof CHART_DOMAINS)[number];

export const CHART_NAME_MAX_LENGTH = 200;
export const CHART_DESCRIPTION_MAX_LENGTH = 1000;
/** Non-aggregate queries one chart may draw side by side ("a limited number"). */
export const CHART_MAX_QUERIES = 5;
/** Top values in a chart (spec 3 section 9). */
export const CHART_TOP_VALUES = 10;
/** Map: events per country of their source IP; at most this many distinct source IPs are located. */
export const CHART_MAP_FIELD = 'src_ip';
/** Events table: 1 to 100 events. */
export const CHART_EVENTS_TABLE_MIN = 1;
export const CHART_EVENTS_TABLE_MAX = 100;
export const CHART_EVENTS_TABLE_DEFAULT = 10;
/** Security and fraud alert list sources: at most 10,000 rows. */
export const CHART_ALERT_LIST_MAX_ROWS = 10_000;
export const CHART_ALERT_LIST_DEFAULT_ROWS = 10;
/** Task or incident list sources: at most 1000 rows (spec 3 section 9). */
export const CHART_TICKET_LIST_MAX_ROWS = 1000;
/** The most rows a list family shows, for the editor's row count. */
export const CHART_LIST_MAX_ROWS: Partial<Record<ChartFamily, number>> = {
  ALERT_LIST: CHART_ALERT_LIST_MAX_ROWS,
  INCIDENT_LIST: CHART_TICKET_LIST_MAX_ROWS,
  TASK_LIST: CHART_TICKET_LIST_MAX_ROWS,
  INVENTORY_CONTEXTUAL_SCORING: CHART_TICKET_LIST_MAX_ROWS,
};
/** Realtime saved or library query sources: 1000 events over at most 45 days. */
export const CHART_REALTIME_MAX_EVENTS = 1000;
export const CHART_REALTIME_MAX_DAYS = 45;
/** Incident and alert trends: the past year, excluding the last hour. */
export const CHART_TREND_DAYS = 365;
export const CHART_TREND_EXCLUDED_MS = 3_600_000;

export const CHART_STATES = ['ACTIVE', 'DELETED'] as const;
export type ChartState = (typeof CHART_STATES)[number];

/** POST /chart and PUT /chart/:id. The rules between fields are the server's, each with its key. */
export const chartInputSchema = z.object({
  name: z.string().trim().min(1).max(CHART_NAME_MAX_LENGTH),
  description: z.string().trim().max(CHART_DESCRIPTION_MAX_LENGTH).default(''),
  type: z.enum(CHART_TYPES),
  family: z.enum(CHART_FAMILIES),
  /** SAVED_QUERIES: the saved or library queries drawn, in order. */
  savedQueryIds: z.array(z.uuid()).max(50).default([]),
  /** Alert families: security (default) or fraud. */
  domain: z.enum(CHART_DOMAINS).default('security'),
  /** Events table: events shown (1 to 100); alert list: rows (1 to 10,000); task or incident list: 1 to 1000. */
  rowLimit: z.number().int().nullish(),
  /** Provider administrators only: a library chart, visible to every organisation. */
  library: z.boolean().default(false),
});
export type ChartInput = z.input<typeof chartInputSchema>;

export const chartSchema = z.object({
  id: z.string(),
  orgId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  type: z.enum(CHART_TYPES),
  family: z.enum(CHART_FAMILIES),
  savedQueryIds: z.array(z.string()),
  domain: z.enum(CHART_DOMAINS),
  rowLimit: z.number().nullable(),
  library: z.boolean(),
  copiedFromId: z.string().nullable(),
  state: z.enum(CHART_STATES),
  editable: z.boolean(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type Chart = z.infer<typeof chartSchema>;

export const chartListQuerySchema = z.object({
  search: z.string().trim().max(CHART_NAME_MAX_LENGTH).optional(),
  /** ACTIVE (default) or DELETED, to restore. */
  state: z.enum(CHART_STATES).default('ACTIVE'),
  /** true: the library's charts instead of the organisation's. */
  library: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .default(false),
  ...pageParams,
});
export type ChartListQuery = z.input<typeof chartListQuerySchema>;

export const chartListSchema = z.object({ items: z.array(chartSchema), total: z.number() });
export type ChartList = z.infer<typeof chartListSchema>;

/** Bulk deletes name the version each chart or dashboard was seen at (`modifiedOn`). */
export const bulkDeleteSchema = z.object({
  items: z
    .array(z.object({ id: z.uuid(), modifiedOn: z.string().max(64) }))
    .min(1)
    .max(500),
});
export type BulkDelete = z.infer<typeof bulkDeleteSchema>;

/** 'Deleting {0} chart(s) succeeded, but another {1} chart(s) failed.' when `failed` > 0. */
export const bulkDeleteResultSchema = z.object({
  deleted: z.number(),
  failed: z.number(),
  failedIds: z.array(z.string()),
});
export type BulkDeleteResult = z.infer<typeof bulkDeleteResultSchema>;

/** The range a chart is drawn over: `intervalType` or begin and end, as in the event search. */
export const chartRangeSchema = z.object({
  intervalType: z.enum(SEARCH_INTERVAL_TYPES).optional(),
  begin: z.union([z.string().max(64), z.number()]).optional(),
  end: z.union([z.string().max(64), z.number()]).optional(),
});
export type ChartRange = z.input<typeof chartRangeSchema>;

export const chartPreviewSchema = z.object({ chart: chartInputSchema, range: chartRangeSchema.default({}) });

/**
 * What a chart draws, one shape for every type: `categories` with one or more `series` (bar, line,
 * area, pie, table), a single `value` (badge), `events` (events table) or `rows` under `columns`
 * (alert lists). `timeAxis` says the categories are ISO times. A map's categories are ISO 3166-1 alpha-2
 * country codes, most events first; its `total` counts every event with a source IP, located or not.
 */
export const chartDataSchema = z.object({
  begin: z.string(),
  end: z.string(),
  timeAxis: z.boolean().default(false),
  categories: z.array(z.string()).optional(),
  series: z.array(z.object({ name: z.string(), values: z.array(z.number()) })).optional(),
  value: z.number().nullable().optional(),
  events: z.array(eventSchema).optional(),
  columns: z.array(z.string()).optional(),
  rows: z.array(z.array(z.union([z.string(), z.number(), z.null()]))).optional(),
  /** How many matched in all, when more than shown. */
  total: z.number().optional(),
});
export type ChartData = z.infer<typeof chartDataSchema>;

// ---------------------------------------------------------------------------------------------------
// Dashboards

/** Not shown by the spec; a dashboard of more tiles becomes slow to read and to draw. */
export const DASHBOARD_MAX_CHARTS = 24;
export const DASHBOARD_NAME_MAX_LENGTH = 200;
/** Names are shown up to 50 characters (spec 1 and 3). */
export const DASHBOARD_NAME_DISPLAY_LENGTH = 50;
export const DASHBOARD_DESCRIPTION_MAX_LENGTH = 1000;
export const DASHBOARD_MAX_CHARTS_PER_ROW = 4;
/** A tile is one row high or a tall tile of two. */
export const DASHBOARD_MAX_TILE_HEIGHT = 2;
/** Preview range of a dashboard (spec 3 section 9). */
export const DASHBOARD_PREVIEW_INTERVAL: SearchIntervalType = '30D';
export const DASHBOARD_REFRESH_SECONDS = [0, 60, 300, 900] as const;
export const DASHBOARD_STATES = CHART_STATES;
export type DashboardState = ChartState;

export const dashboardTileSchema = z.object({
  chartId: z.uuid(),
  /** Columns the tile spans, 1 up to the dashboard's charts per row. */
  width: z.number().int().min(1).max(DASHBOARD_MAX_CHARTS_PER_ROW).default(1),
  /** Rows the tile spans. */
  height: z.number().int().min(1).max(DASHBOARD_MAX_TILE_HEIGHT).default(1),
});
export type DashboardTile = z.infer<typeof dashboardTileSchema>;

export const dashboardInputSchema = z.object({
  name: z.string().trim().min(1).max(DASHBOARD_NAME_MAX_LENGTH),
  description: z.string().trim().max(DASHBOARD_DESCRIPTION_MAX_LENGTH).default(''),
  chartsPerRow: z.number().int().min(1).max(DASHBOARD_MAX_CHARTS_PER_ROW).default(3),
  /** Tiles in reading order: left to right, row by row. */
  tiles: z.array(dashboardTileSchema).max(200).default([]),
  intervalType: z.enum(SEARCH_INTERVAL_TYPES).default('7D'),
  /** Auto-refresh: 0 (off), 60, 300 or 900 seconds. */
  refreshSeconds: z
    .number()
    .int()
    .refine((value) => (DASHBOARD_REFRESH_SECONDS as readonly number[]).includes(value))
    .default(0),
  library: z.boolean().default(false),
});
export type DashboardInput = z.input<typeof dashboardInputSchema>;

export const dashboardSchema = z.object({
  id: z.string(),
  orgId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  chartsPerRow: z.number(),
  tiles: z.array(
    dashboardTileSchema.extend({
      chart: chartSchema.nullable(),
    }),
  ),
  intervalType: z.enum(SEARCH_INTERVAL_TYPES),
  refreshSeconds: z.number(),
  /** NORMAL or LIBRARY (spec 3). */
  type: z.enum(['NORMAL', 'LIBRARY']),
  copiedFromId: z.string().nullable(),
  state: z.enum(CHART_STATES),
  editable: z.boolean(),
  /** The caller's default dashboard in this organisation. */
  isDefault: z.boolean(),
  createdByName: z.string().nullable(),
  lastModifiedOn: z.string(),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

export const dashboardListQuerySchema = chartListQuerySchema;
export const dashboardSummarySchema = dashboardSchema
  .omit({ tiles: true })
  .extend({ chartCount: z.number() });
export type DashboardSummary = z.infer<typeof dashboardSummarySchema>;
export const dashboardListSchema = z.object({ items: z.array(dashboardSummarySchema), total: z.number() });
export type DashboardList = z.infer<typeof dashboardListSchema>;

/** GET /dashboards/default: the caller's chosen default, else the organisation's first; null when none. */
export const defaultDashboardSchema = z.object({ dashboard: dashboardSchema.nullable() });

/** POST /dashboards/library/copy-to-customers. */
export const dashboardLibraryCopyResultSchema = z.object({
  copied: z.number(),
  skipped: z.number(),
  orgs: z.number(),
});
export type DashboardLibraryCopyResult = z.infer<typeof dashboardLibraryCopyResultSchema>;

/** A name cut to the display limit with an ellipsis. */
export function displayName(name: string, limit = DASHBOARD_NAME_DISPLAY_LENGTH): string {
  return name.length > limit ? `${name.slice(0, limit - 1)}…` : name;
}
