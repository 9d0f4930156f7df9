import { z } from 'zod';

/** Results of a search page at most (spec 3 section 9: events table, API). */
export const SEARCH_MAX_PAGE_SIZE = 1000;
export const SEARCH_DEFAULT_PAGE_SIZE = 50;
/** A search counts its matches exactly up to this number; beyond it `totalIsLowerBound` is set. */
export const SEARCH_TOTAL_CAP = 100_000;
/** Deepest result a search page may reach (page number × page size); deeper is "response too large". */
export const SEARCH_MAX_RESULT_WINDOW = 100_000;
/** CSV download: the first 50,000 results (spec 3 section 9). */
export const SEARCH_CSV_MAX_ROWS = 50_000;
/** Longest explicit begin…end range of one search. */
export const SEARCH_MAX_RANGE_DAYS = 400;
/** Aggregations: at most 10,000 unique terms (spec 3 section 9). */
export const AGGREGATION_MAX_TERMS = 10_000;
export const AGGREGATION_DEFAULT_SIZE = 10;
/** Most buckets a date histogram answers. */
export const HISTOGRAM_MAX_BUCKETS = 2_000;
/** Extra field columns a CSV download may ask for. */
export const SEARCH_CSV_MAX_EXTRA_COLUMNS = 50;
/** Longest field name accepted for sorts, aggregations and CSV columns. */
export const EVENT_FIELD_NAME_MAX_LENGTH = 200;

/**
 * What classifiers decided for an event at ingest (spec 3: skip threat match, skip anomaly detection,
 * skip asset detection, accelerated archive); later stages read them from the event.
 */
export const EVENT_FLAGS = [
  'skipThreatMatch',
  'skipAnomalyDetection',
  'skipAssetDetection',
  'acceleratedArchive',
] as const;
export type EventFlag = (typeof EVENT_FLAGS)[number];

/** Report ranges (spec 3 section 9); old names such as LAST_MONTH are mapped by `resolveSearchRange`. */
export const SEARCH_INTERVAL_TYPES = [
  '1H',
  '3H',
  '12H',
  '24H',
  '7D',
  '30D',
  '90D',
  'THIS_WEEK',
  'LAST_WEEK',
  'THIS_MONTH',
  'LAST_MONTH',
  'ALL_TIME',
] as const;
export type SearchIntervalType = (typeof SEARCH_INTERVAL_TYPES)[number];

export const HISTOGRAM_INTERVALS = ['1m', '5m', '15m', '30m', '1h', '3h', '12h', '1d', '7d'] as const;
export type HistogramInterval = (typeof HISTOGRAM_INTERVALS)[number];
export const HISTOGRAM_INTERVAL_MS: Record<HistogramInterval, number> = {
  '1m': 60_000,
  '5m': 5 * 60_000,
  '15m': 15 * 60_000,
  '30m': 30 * 60_000,
  '1h': 3_600_000,
  '3h': 3 * 3_600_000,
  '12h': 12 * 3_600_000,
  '1d': 86_400_000,
  '7d': 7 * 86_400_000,
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A range begin: an ISO date-time (offset or Z), epoch milliseconds, or a date (`2024-05-01`, the
 * start of that UTC day).
 */
export function parseRangeBegin(value: string | number): Date | null {
  if (typeof value === 'number') return Number.isFinite(value) ? new Date(value) : null;
  const text = value.trim();
  const date = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00.000Z` : text);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** A range end: as a begin, but a date alone ends at the last millisecond of that day (spec 3 section 5). */
export function parseRangeEnd(value: string | number): Date | null {
  if (typeof value === 'string' && DATE_ONLY.test(value.trim())) {
    const start = parseRangeBegin(value);
    return start && new Date(start.getTime() + DAY_MS - 1);
  }
  return parseRangeBegin(value);
}

/** The begin and end of a report range at `now` (UTC; weeks start on Monday); ends are inclusive. */
export function resolveSearchRange(intervalType: SearchIntervalType, now: Date): { begin: Date; end: Date } {
  const at = now.getTime();
  const hours = /^(\d+)H$/.exec(intervalType);
  if (hours) return { begin: new Date(at - Number(hours[1]) * HOUR_MS), end: now };
  const days = /^(\d+)D$/.exec(intervalType);
  if (days) return { begin: new Date(at - Number(days[1]) * DAY_MS), end: now };
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  const monday = today - ((now.getUTCDay() + 6) % 7) * DAY_MS;
  const monthStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1);
  switch (intervalType) {
    case 'THIS_WEEK':
      return { begin: new Date(monday), end: now };
    case 'LAST_WEEK':
      return { begin: new Date(monday - 7 * DAY_MS), end: new Date(monday - 1) };
    case 'THIS_MONTH':
      return { begin: new Date(monthStart), end: now };
    case 'LAST_MONTH':
      return {
        begin: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1)),
        end: new Date(monthStart - 1),
      };
    default:
      return { begin: new Date(0), end: now };
  }
}

const optionalText = (max: number) => z.string().max(max).nullish();

/**
 * One event as a producer sends it (ingest API, syslog, demo generator). `timestamp` defaults to the
 * receive time; IPs that are not addresses are kept under `fields` instead of being refused.
 */
export const eventInputSchema = z.object({
  timestamp: z.union([z.string().max(64), z.number()]).nullish(),
  host: optionalText(1024),
  srcIp: optionalText(256),
  dstIp: optionalText(256),
  userName: optionalText(1024),
  dataSource: optionalText(256),
  message: z
    .string()
    .max(1024 * 1024)
    .nullish(),
  fields: z.record(z.string(), z.unknown()).nullish(),
});
export type EventInput = z.input<typeof eventInputSchema>;

export const searchFilterSchema = z.object({
  field: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH),
  values: z.array(z.string().max(2048)).min(1).max(100),
  exclude: z.boolean().optional(),
});
export type SearchFilter = z.infer<typeof searchFilterSchema>;

const rangeValue = z.union([z.string().max(64), z.number()]);

/** What every search, aggregation, export and sidebar call shares (spec 3 section 3). */
const searchScope = {
  /** Query language text; blank matches every event. */
  query: z.string().default(''),
  /** ISO date-time, epoch ms or date; with `end`, or `intervalType` instead. */
  begin: rangeValue.optional(),
  /** Inclusive; a date alone ends at the last millisecond of that day. */
  end: rangeValue.optional(),
  intervalType: z.enum(SEARCH_INTERVAL_TYPES).optional(),
  filters: z.array(searchFilterSchema).max(100).default([]),
};

export const searchScopeSchema = z.object(searchScope);
export type SearchScopeInput = z.input<typeof searchScopeSchema>;

const sort = {
  /** `timestamp` (default), a column (`host`, `src_ip`, …) or a field name. */
  sortField: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH).default('timestamp'),
  /** `desc` (default) or `asc`, any case. */
  sortOrder: z.string().max(10).default('desc'),
};

/** POST /api/org/:orgId/search */
export const searchRequestSchema = z.object({
  ...searchScope,
  ...sort,
  pageSize: z.number().int().min(1).max(SEARCH_MAX_PAGE_SIZE).default(SEARCH_DEFAULT_PAGE_SIZE),
  pageNumber: z.number().int().min(1).default(1),
});
export type SearchRequest = z.input<typeof searchRequestSchema>;
export type SearchRequestParsed = z.output<typeof searchRequestSchema>;

export const eventSchema = z.object({
  id: z.string(),
  timestamp: z.string(),
  receivedAt: z.string(),
  host: z.string().nullable(),
  srcIp: z.string().nullable(),
  dstIp: z.string().nullable(),
  userName: z.string().nullable(),
  dataSource: z.string().nullable(),
  message: z.string(),
  fields: z.record(z.string(), z.unknown()),
});
export type Event = z.infer<typeof eventSchema>;

export const searchResponseSchema = z.object({
  items: z.array(eventSchema),
  /** Exact up to SEARCH_TOTAL_CAP; when `totalIsLowerBound`, at least this many. */
  total: z.number(),
  totalIsLowerBound: z.boolean(),
  begin: z.string(),
  end: z.string(),
});
export type SearchResponse = z.infer<typeof searchResponseSchema>;

export const AGGREGATION_TYPES = [
  'count',
  'terms',
  'count_distinct',
  'sum',
  'avg',
  'min',
  'max',
  'date_histogram',
] as const;
export type AggregationType = (typeof AGGREGATION_TYPES)[number];

export const aggregationSchema = z.object({
  type: z.enum(AGGREGATION_TYPES),
  /** Required by every type but count and date_histogram. */
  field: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH).optional(),
  /** terms: how many top terms (default 10). */
  size: z.number().int().min(1).max(AGGREGATION_MAX_TERMS).optional(),
  /** date_histogram: bucket width; chosen from the range when omitted. */
  interval: z.enum(HISTOGRAM_INTERVALS).optional(),
});
export type Aggregation = z.infer<typeof aggregationSchema>;

/** POST /api/org/:orgId/search/aggregate */
export const aggregateRequestSchema = z.object({ ...searchScope, aggregation: aggregationSchema });
export type AggregateRequest = z.input<typeof aggregateRequestSchema>;

export const aggregationBucketSchema = z.object({
  /** The term, or the ISO start of a histogram bucket. */
  key: z.string(),
  count: z.number(),
});

/**
 * count, count_distinct: `value`; sum, avg, min, max: `value` (null without numeric values); terms:
 * `buckets` by count then term, `otherCount` (matches outside them) and `uniqueTerms`; date_histogram:
 * `buckets` from begin to end (empty ones included) and `interval`.
 */
export const aggregationResultSchema = z.object({
  type: z.enum(AGGREGATION_TYPES),
  field: z.string().nullable(),
  value: z.number().nullable().optional(),
  buckets: z.array(aggregationBucketSchema).optional(),
  otherCount: z.number().optional(),
  uniqueTerms: z.number().optional(),
  interval: z.enum(HISTOGRAM_INTERVALS).optional(),
  begin: z.string(),
  end: z.string(),
});
export type AggregationResult = z.infer<typeof aggregationResultSchema>;

/** POST /api/org/:orgId/search/csv */
export const searchCsvRequestSchema = z.object({
  ...searchScope,
  ...sort,
  /** Field names written as extra columns after the fixed ones. */
  columns: z
    .array(z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH))
    .max(SEARCH_CSV_MAX_EXTRA_COLUMNS)
    .default([]),
});
export type SearchCsvRequest = z.input<typeof searchCsvRequestSchema>;

export const SEARCH_CSV_COLUMNS = [
  'timestamp',
  'host',
  'srcIp',
  'dstIp',
  'userName',
  'dataSource',
  'message',
] as const;

/** GET /api/org/:orgId/search/fields */
export const searchFieldsQuerySchema = z.object({
  begin: z.string().max(64).optional(),
  end: z.string().max(64).optional(),
  intervalType: z.enum(SEARCH_INTERVAL_TYPES).optional(),
  query: z.string().default(''),
});

export const searchFieldsResponseSchema = z.object({
  fields: z.array(
    z.object({
      name: z.string(),
      /** `column`: a fixed column; `field`: a key of the free fields (top level). */
      kind: z.enum(['column', 'field']),
      /** Sampled events holding the field. */
      count: z.number(),
    }),
  ),
  /** Events sampled (the latest of the range). */
  sampleSize: z.number(),
});
export type SearchFieldsResponse = z.infer<typeof searchFieldsResponseSchema>;

/** POST /api/org/:orgId/search/field-values */
export const fieldValuesRequestSchema = z.object({
  ...searchScope,
  field: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH),
  size: z.number().int().min(1).max(100).default(AGGREGATION_DEFAULT_SIZE),
});

export const fieldValuesResponseSchema = z.object({
  field: z.string(),
  values: z.array(z.object({ value: z.string(), count: z.number() })),
  /** Matching events holding the field. */
  total: z.number(),
});
export type FieldValuesResponse = z.infer<typeof fieldValuesResponseSchema>;
