import { sql, type SQL } from 'drizzle-orm';
import {
  AGGREGATION_DEFAULT_SIZE,
  AGGREGATION_MAX_TERMS,
  HISTOGRAM_INTERVAL_MS,
  HISTOGRAM_INTERVALS,
  HISTOGRAM_MAX_BUCKETS,
  SEARCH_MAX_RANGE_DAYS,
  SEARCH_MAX_RESULT_WINDOW,
  SEARCH_TOTAL_CAP,
  parseRangeBegin,
  parseRangeEnd,
  resolveSearchRange,
  type Aggregation,
  type AggregationResult,
  type Event,
  type HistogramInterval,
  type SearchFilter,
  type SearchIntervalType,
} from '@vigil/contracts';
import { buildQuery, compileQuery, DEFAULT_EVENT_SCHEMA, QueryParseError } from '@vigil/query';
import type { Db } from '../../db/client';
import { findSqlState } from '../../platform/error-handler';
import { AppError, validationFailed } from '../../platform/errors';
import { restrictionsForUser, type AppliedRestriction } from '../restrictions/repo';
import {
  compiledToSql,
  countDistinct,
  countEvents,
  numericAggregate,
  resolveField,
  sampleFields,
  selectEvents,
  selectHistogram,
  selectTerms,
  type EventField,
  type EventRow,
  type EventScope,
  type EventSort,
  type OrgScope,
} from './repo';
import {
  fillRollups,
  HOUR_MS,
  rolledUpCount,
  rolledUpHistogram,
  rolledUpTerms,
  type RollupShape,
} from './rollups';

/** Longest a search statement may run before the database cancels it (SQLSTATE 57014). */
export const SEARCH_STATEMENT_TIMEOUT_MS = 30_000;
/** Latest events the field sidebar samples. */
export const FIELD_SAMPLE_SIZE = 1000;
/** Buckets the automatic histogram interval aims to stay under. */
const AUTO_HISTOGRAM_BUCKETS = 200;
const DAY_MS = 86_400_000;

/** Who searches: the organisation and the user whose data restrictions apply. */
export interface SearchActor {
  orgId: string;
  userId: string;
}

export interface SearchOptions {
  /** Statement timeout of each search statement; PGlite ignores it (it has no timer to cancel with). */
  statementTimeoutMs?: number;
  now?: Date;
  /**
   * Counts, whole-hour histograms and terms of one organisation from hourly roll-ups (`rollups.ts`),
   * computing the hours missing first: for charts, which ask the same questions again and again.
   */
  rollups?: boolean;
  /**
   * With `rollups`: compute at most this many missing hours before answering; more are counted from
   * the events (as exact, about what the events query costs) and `onRollupsDeferred` is called, for
   * the caller to have them computed in the background.
   */
  rollupFillLimitHours?: number;
  onRollupsDeferred?: () => void;
}

/** The scope fields of every search request (spec 3 section 3). */
export interface SearchScopeRequest {
  query: string;
  begin?: string | number;
  end?: string | number;
  intervalType?: SearchIntervalType;
  filters: SearchFilter[];
}

// ---------------------------------------------------------------------------------------------------
// Errors

const invalidQuery = (error: QueryParseError, field = 'query') =>
  validationFailed('SEARCH_INVALID_QUERY', `Invalid query at ${error.position}: ${error.message}`, {
    field,
    params: { position: error.position, message: error.message },
  });

/** SQLSTATE 57014 (query_canceled: the statement timeout) as the retryable SEARCH_TIMEOUT. */
export function searchErrorOf(error: unknown): unknown {
  if (findSqlState(error) === '57014') {
    return new AppError('ServiceUnavailableException', 'SEARCH_TIMEOUT', 'The search took too long', {
      cause: error,
    });
  }
  return error;
}

/**
 * Runs search statements in one read-only transaction under the statement timeout, mapping a
 * cancelled statement to SEARCH_TIMEOUT (503) so that the web can offer a retry.
 */
export async function withSearchTimeout<T>(
  db: Db,
  options: SearchOptions,
  work: (tx: Db) => Promise<T>,
  characteristics = 'READ ONLY',
): Promise<T> {
  const timeout = Math.max(1, Math.floor(options.statementTimeoutMs ?? SEARCH_STATEMENT_TIMEOUT_MS));
  try {
    return await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`SET TRANSACTION ${characteristics}`));
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${timeout}`));
      // Compiling a plan to machine code costs more than it saves on these short, one-off statements.
      await tx.execute(sql.raw('SET LOCAL jit = off'));
      return work(tx as unknown as Db);
    });
  } catch (error) {
    throw searchErrorOf(error);
  }
}

// ---------------------------------------------------------------------------------------------------
// Scope: range, query, filters and data restrictions

/** The begin and end of a request: explicit, or from `intervalType`; both inclusive. */
export function resolveRange(
  request: Pick<SearchScopeRequest, 'begin' | 'end' | 'intervalType'>,
  now: Date,
): { begin: Date; end: Date } {
  let begin: Date | null;
  let end: Date | null;
  if (request.begin === undefined && request.end === undefined) {
    return resolveSearchRange(request.intervalType ?? '24H', now);
  }
  if (request.begin === undefined || request.end === undefined) {
    const preset = resolveSearchRange(request.intervalType ?? '24H', now);
    begin = request.begin === undefined ? preset.begin : parseRangeBegin(request.begin);
    end = request.end === undefined ? preset.end : parseRangeEnd(request.end);
  } else {
    begin = parseRangeBegin(request.begin);
    end = parseRangeEnd(request.end);
  }
  if (!begin) throw invalidValue('begin', request.begin);
  if (!end) throw invalidValue('end', request.end);
  if (begin.getTime() > end.getTime()) {
    throw validationFailed('SEARCH_INVALID_RANGE', 'begin is after end', { field: 'begin' });
  }
  if (
    end.getTime() - begin.getTime() > SEARCH_MAX_RANGE_DAYS * DAY_MS &&
    request.intervalType !== 'ALL_TIME'
  ) {
    throw validationFailed('SEARCH_RANGE_TOO_LONG', `A search covers at most ${SEARCH_MAX_RANGE_DAYS} days`, {
      field: 'end',
      params: { maxDays: SEARCH_MAX_RANGE_DAYS },
    });
  }
  return { begin, end };
}

const invalidValue = (field: string, value: unknown) =>
  validationFailed('GENERIC_INVALID_FIELD_VALUE', `Invalid value for ${field}`, {
    field,
    params: { field, value: value === undefined ? null : String(value) },
  });

const compile = (text: string) => compiledToSql(compileQuery(text, DEFAULT_EVENT_SCHEMA));

/**
 * The condition of data restrictions: each include query ANDed, each exclude query negated. A stored
 * query that no longer compiles makes its restriction match nothing (fail closed).
 */
export function restrictionCondition(restrictions: readonly AppliedRestriction[]): SQL {
  const parts: SQL[] = [];
  for (const restriction of restrictions) {
    try {
      if (restriction.includeQuery?.trim()) parts.push(sql`(${compile(restriction.includeQuery)})`);
      if (restriction.excludeQuery?.trim()) parts.push(sql`NOT (${compile(restriction.excludeQuery)})`);
    } catch {
      parts.push(sql.raw('FALSE'));
    }
  }
  return parts.length === 0 ? sql.raw('TRUE') : sql.join(parts, sql.raw(' AND '));
}

/** Column names of the API (camelCase) as the query language names them, for click-to-filters. */
const FILTER_FIELD_NAMES: Record<string, string> = {
  srcIp: 'src_ip',
  dstIp: 'dst_ip',
  userName: 'user_name',
  dataSource: 'data_source',
  receivedAt: 'received_at',
};

/** The condition of a query and click-to-filters; 400 SEARCH_INVALID_QUERY with the fault's position. */
export function queryCondition(query: string, filters: readonly SearchFilter[]): SQL {
  let main: SQL;
  try {
    main = compile(query);
  } catch (error) {
    if (error instanceof QueryParseError) throw invalidQuery(error);
    throw error;
  }
  const filterText = buildQuery(
    filters.map((filter) => ({ ...filter, field: FILTER_FIELD_NAMES[filter.field] ?? filter.field })),
  );
  if (!filterText) return main;
  try {
    return sql`${main} AND ${compile(filterText)}`;
  } catch (error) {
    if (error instanceof QueryParseError) throw invalidQuery(error, 'filters');
    throw error;
  }
}

/** The organisation, range and condition of a request for this actor, restrictions included. */
export async function searchScope(
  db: Db,
  actor: SearchActor,
  request: SearchScopeRequest,
  options: SearchOptions = {},
): Promise<EventScope> {
  const restrictions = await restrictionsForUser(db, actor.orgId, actor.userId);
  return restrictedScope(actor.orgId, restrictions, request, options.now ?? new Date());
}

/** The scope of a request in an organisation under a set of data restrictions (as `restrictionsForUser` answers them). */
function restrictedScope(
  orgId: string,
  restrictions: readonly AppliedRestriction[],
  request: SearchScopeRequest,
  now: Date,
): OrgScope {
  const { begin, end } = resolveRange(request, now);
  const condition = queryCondition(request.query, request.filters);
  return { orgId, begin, end, condition: sql`${condition} AND ${restrictionCondition(restrictions)}` };
}

// ---------------------------------------------------------------------------------------------------
// Search

/** A sort of a request: `timestamp` or another column or field, ASC or DESC in any case. */
export function resolveSort(sortField: string, sortOrder: string): EventSort {
  const order = sortOrder.trim().toLowerCase();
  if (order !== 'asc' && order !== 'desc') {
    throw validationFailed('SEARCH_INVALID_SORT_ORDER', `Not a sort order: ${sortOrder}`, {
      field: 'sortOrder',
      params: { value: sortOrder },
      validValues: ['ASC', 'DESC'],
    });
  }
  const field = resolveField(sortField);
  if (!field || (field.kind === 'column' && field.column === 'message')) {
    throw validationFailed('SEARCH_INVALID_SORT_FIELD', `Cannot sort by ${sortField}`, {
      field: 'sortField',
      params: { field: sortField },
    });
  }
  return { field, desc: order === 'desc' };
}

export const toEvent = (row: EventRow): Event => ({
  id: row.id,
  timestamp: row.timestamp,
  receivedAt: row.receivedAt,
  host: row.host,
  srcIp: row.srcIp,
  dstIp: row.dstIp,
  userName: row.userName,
  dataSource: row.dataSource,
  message: row.message,
  fields: row.fields ?? {},
});

export interface SearchEventsRequest extends SearchScopeRequest {
  sortField: string;
  sortOrder: string;
  pageSize: number;
  pageNumber: number;
}

export type SearchPaging = Pick<SearchEventsRequest, 'sortField' | 'sortOrder' | 'pageSize' | 'pageNumber'>;

/** The sort and window of a page; 400 SEARCH_RESPONSE_TOO_LARGE beyond SEARCH_MAX_RESULT_WINDOW. */
export function resolvePaging(request: SearchPaging) {
  const sort = resolveSort(request.sortField, request.sortOrder);
  const offset = (request.pageNumber - 1) * request.pageSize;
  if (offset + request.pageSize > SEARCH_MAX_RESULT_WINDOW) {
    throw validationFailed(
      'SEARCH_RESPONSE_TOO_LARGE',
      `Pages reach at most result ${SEARCH_MAX_RESULT_WINDOW}`,
      { field: 'pageNumber', params: { max: SEARCH_MAX_RESULT_WINDOW } },
    );
  }
  return { sort, limit: request.pageSize, offset };
}

/** One page of the events of a scope, with `total` exact up to SEARCH_TOTAL_CAP. */
export async function selectPage(
  db: Db,
  scope: EventScope,
  paging: ReturnType<typeof resolvePaging>,
  options: SearchOptions,
) {
  const { rows, counted } = await withSearchTimeout(db, options, async (tx) => ({
    rows: await selectEvents(tx, scope, paging.sort, { limit: paging.limit, offset: paging.offset }),
    counted: await countEvents(tx, scope, SEARCH_TOTAL_CAP),
  }));
  return {
    rows,
    total: Math.min(counted, SEARCH_TOTAL_CAP),
    totalIsLowerBound: counted > SEARCH_TOTAL_CAP,
    begin: scope.begin.toISOString(),
    end: scope.end.toISOString(),
  };
}

/**
 * One page of the events a user may see: the organisation's, in the range, matching the query and
 * filters and the user's data restrictions; `total` exact up to SEARCH_TOTAL_CAP.
 */
export async function searchEvents(
  db: Db,
  actor: SearchActor,
  request: SearchEventsRequest,
  options: SearchOptions = {},
) {
  const paging = resolvePaging(request);
  const scope = await searchScope(db, actor, request, options);
  const { rows, ...page } = await selectPage(db, scope, paging, options);
  return { items: rows.map(toEvent), ...page };
}

// ---------------------------------------------------------------------------------------------------
// Aggregations

function aggregationField(name: string | undefined): EventField {
  if (!name) {
    throw validationFailed('SEARCH_AGGREGATION_FIELD_REQUIRED', 'The aggregation needs a field', {
      field: 'aggregation.field',
    });
  }
  const field = resolveField(name);
  if (!field) {
    throw validationFailed('SEARCH_INVALID_FIELD', `Not a field: ${name}`, {
      field: 'aggregation.field',
      params: { field: name },
    });
  }
  return field;
}

const textField = (field: EventField) =>
  validationFailed('SEARCH_AGGREGATION_TEXT_FIELD', `${field.name} is a text field`, {
    field: 'aggregation.field',
    params: { field: field.name },
  });

const notNumeric = (field: EventField) =>
  validationFailed('SEARCH_AGGREGATION_NOT_NUMERIC', `${field.name} is not numeric`, {
    field: 'aggregation.field',
    params: { field: field.name },
  });

/** The interval of a histogram: the one asked for, or the narrowest keeping under 200 buckets. */
export function histogramInterval(begin: Date, end: Date, asked?: HistogramInterval): HistogramInterval {
  if (asked) return asked;
  const span = end.getTime() - begin.getTime() + 1;
  return (
    HISTOGRAM_INTERVALS.find(
      (interval) => span / HISTOGRAM_INTERVAL_MS[interval] <= AUTO_HISTOGRAM_BUCKETS,
    ) ?? '7d'
  );
}

/**
 * An aggregation over the events a user may see (same scope as the search): count, terms (top
 * `size`, refused above AGGREGATION_MAX_TERMS unique terms), exact count_distinct, sum/avg/min/max
 * (numeric values only) and a date histogram with empty buckets filled.
 */
export async function aggregateEvents(
  db: Db,
  actor: SearchActor,
  request: SearchScopeRequest & { aggregation: Aggregation },
  options: SearchOptions = {},
): Promise<AggregationResult> {
  const { aggregation } = request;
  const field =
    aggregation.type === 'count' || aggregation.type === 'date_histogram'
      ? null
      : aggregationField(aggregation.field);
  if (field?.kind === 'column' && field.type === 'message') throw textField(field);
  const numeric = ['sum', 'avg', 'min', 'max'].includes(aggregation.type);
  if (numeric && field?.kind === 'column' && field.type !== 'number') throw notNumeric(field);

  const scope = await searchScope(db, actor, request, options);
  const base = {
    type: aggregation.type,
    field: field?.name ?? null,
    begin: scope.begin.toISOString(),
    end: scope.end.toISOString(),
  };
  const now = options.now ?? new Date();
  const shape = options.rollups && 'orgId' in scope ? rollupShape(aggregation, field, scope) : null;
  if (shape && 'orgId' in scope) {
    const filled = await withSearchTimeout(
      db,
      options,
      (tx) => fillRollups(tx, scope, shape, now, options.rollupFillLimitHours),
      'READ WRITE',
    );
    if (filled.deferred > 0) options.onRollupsDeferred?.();
  }
  const rolled = shape && 'orgId' in scope ? scope : null;
  const characteristics = rolled ? 'ISOLATION LEVEL REPEATABLE READ, READ ONLY' : 'READ ONLY';
  return withSearchTimeout(
    db,
    options,
    async (tx): Promise<AggregationResult> => {
      switch (aggregation.type) {
        case 'count':
          return {
            ...base,
            value: rolled
              ? await rolledUpCount(tx, rolled, now)
              : await countEvents(tx, scope, Number.MAX_SAFE_INTEGER - 1),
          };
        case 'count_distinct':
          return { ...base, value: await countDistinct(tx, scope, field!) };
        case 'terms': {
          // One pass: the grouping that ranks the terms also counts them.
          const size = aggregation.size ?? AGGREGATION_DEFAULT_SIZE;
          const terms = rolled
            ? await rolledUpTerms(tx, rolled, field!, size, now)
            : await selectTerms(tx, scope, field!, size);
          if (terms.uniqueTerms > AGGREGATION_MAX_TERMS) {
            throw validationFailed(
              'SEARCH_TOO_MANY_TERMS',
              `More than ${AGGREGATION_MAX_TERMS} unique terms`,
              {
                field: 'aggregation.field',
                params: { max: AGGREGATION_MAX_TERMS, field: field!.name },
              },
            );
          }
          const shown = terms.buckets.reduce((sum, bucket) => sum + bucket.count, 0);
          return {
            ...base,
            buckets: terms.buckets,
            uniqueTerms: terms.uniqueTerms,
            otherCount: terms.total - shown,
          };
        }
        case 'date_histogram':
          return {
            ...base,
            ...(await histogram(scope, aggregation.interval, (ms) =>
              rolled ? rolledUpHistogram(tx, rolled, ms, now) : selectHistogram(tx, scope, ms),
            )),
          };
        default: {
          // sum, avg, min, max on a free field (columns were refused above).
          const type = aggregation.type as 'sum' | 'avg' | 'min' | 'max';
          const path = (field as Extract<EventField, { kind: 'field' }>).path;
          const result = await numericAggregate(tx, scope, path, type);
          if (result.nonNumeric > 0) throw notNumeric(field!);
          return { ...base, value: result.value };
        }
      }
    },
    characteristics,
  );
}

/**
 * The roll-up shape of an aggregation, or null when it has none: counts, terms, and histograms of
 * whole hours, over at most SEARCH_MAX_RANGE_DAYS.
 */
function rollupShape(
  aggregation: Aggregation,
  field: EventField | null,
  scope: EventScope,
): RollupShape | null {
  // All time reads every event anyway; roll-ups serve the ranges a search may ask for.
  if (scope.end.getTime() - scope.begin.getTime() > SEARCH_MAX_RANGE_DAYS * DAY_MS) return null;
  switch (aggregation.type) {
    case 'count':
      return { kind: 'count' };
    case 'terms':
      return { kind: 'terms', field: field! };
    case 'date_histogram': {
      const interval = histogramInterval(scope.begin, scope.end, aggregation.interval);
      return HISTOGRAM_INTERVAL_MS[interval] % HOUR_MS === 0 ? { kind: 'count' } : null;
    }
    default:
      return null;
  }
}

/** Hours of roll-ups one prefill transaction computes at most, so that no statement runs long. */
export const PREFILL_BATCH_HOURS = 24;

/**
 * Computes ahead the hourly roll-ups that `aggregateEvents` with `rollups` would read for a viewer
 * under `restrictions`: the same scope and shape, so the same roll-up, in transactions of at most
 * PREFILL_BATCH_HOURS hours. Hours already current are left alone (running it again computes
 * nothing). Answers the hours computed; aggregations without a roll-up compute none.
 */
export async function prefillAggregationRollups(
  db: Db,
  orgId: string,
  restrictions: readonly AppliedRestriction[],
  request: SearchScopeRequest & { aggregation: Aggregation },
  options: SearchOptions = {},
): Promise<number> {
  const { aggregation } = request;
  const now = options.now ?? new Date();
  const field =
    aggregation.type === 'count' || aggregation.type === 'date_histogram'
      ? null
      : aggregationField(aggregation.field);
  const scope = restrictedScope(orgId, restrictions, request, now);
  const shape = rollupShape(aggregation, field, scope);
  if (!shape) return 0;
  const last = Math.min(scope.end.getTime(), now.getTime());
  let computed = 0;
  // Newest hours first: the ones a viewer is likeliest to ask for.
  for (let until = last; until > scope.begin.getTime();) {
    const from = Math.max(
      scope.begin.getTime(),
      (Math.floor(until / HOUR_MS) - PREFILL_BATCH_HOURS) * HOUR_MS,
    );
    const batch = { ...scope, begin: new Date(from), end: new Date(until) };
    const filled = await withSearchTimeout(
      db,
      options,
      (tx) => fillRollups(tx, batch, shape, now),
      'READ WRITE',
    );
    computed += filled.computed;
    until = from;
  }
  return computed;
}

async function histogram(
  scope: EventScope,
  asked: HistogramInterval | undefined,
  select: (intervalMs: number) => Promise<{ bucket: number; count: number }[]>,
) {
  const interval = histogramInterval(scope.begin, scope.end, asked);
  const ms = HISTOGRAM_INTERVAL_MS[interval];
  let first = Math.floor(scope.begin.getTime() / ms);
  let last = Math.floor(scope.end.getTime() / ms);
  if (asked && last - first + 1 > HISTOGRAM_MAX_BUCKETS) {
    throw validationFailed('SEARCH_RESPONSE_TOO_LARGE', `More than ${HISTOGRAM_MAX_BUCKETS} buckets`, {
      field: 'aggregation.interval',
      params: { max: HISTOGRAM_MAX_BUCKETS },
    });
  }
  const counts = await select(ms);
  if (last - first + 1 > HISTOGRAM_MAX_BUCKETS) {
    // A range wider than any interval serves (all time): buckets from the first to the last event.
    first = counts[0]?.bucket ?? last;
    last = counts.at(-1)?.bucket ?? last;
  }
  const byBucket = new Map(counts.map((entry) => [entry.bucket, entry.count]));
  const buckets = [];
  for (let bucket = first; bucket <= last && buckets.length < HISTOGRAM_MAX_BUCKETS; bucket++) {
    buckets.push({ key: new Date(bucket * ms).toISOString(), count: byBucket.get(bucket) ?? 0 });
  }
  return { interval, buckets };
}

// ---------------------------------------------------------------------------------------------------
// Sidebar

/** Columns the sidebar lists, by their query-language names. */
const SIDEBAR_COLUMNS = ['host', 'src_ip', 'dst_ip', 'user_name', 'data_source'] as const;

/** Field names seen among the latest FIELD_SAMPLE_SIZE matching events, most common first. */
export async function searchFields(
  db: Db,
  actor: SearchActor,
  request: SearchScopeRequest,
  options: SearchOptions = {},
) {
  const scope = await searchScope(db, actor, request, options);
  const sample = await withSearchTimeout(db, options, (tx) => sampleFields(tx, scope, FIELD_SAMPLE_SIZE));
  const columns = SIDEBAR_COLUMNS.map((name) => ({
    name,
    kind: 'column' as const,
    count: Number(sample.columns[name] ?? 0),
  })).filter((column) => column.count > 0);
  const fields = sample.fields.map((entry) => ({
    name: entry.name,
    kind: 'field' as const,
    count: entry.count,
  }));
  return { fields: [...columns, ...fields], sampleSize: sample.sampled };
}

/** The top values of one field in the current search (no unique-term limit: the sidebar never fails). */
export async function fieldValues(
  db: Db,
  actor: SearchActor,
  request: SearchScopeRequest & { field: string; size: number },
  options: SearchOptions = {},
) {
  const field = resolveField(request.field);
  if (!field) {
    throw validationFailed('SEARCH_INVALID_FIELD', `Not a field: ${request.field}`, {
      field: 'field',
      params: { field: request.field },
    });
  }
  if (field.kind === 'column' && field.type === 'message') throw textField(field);
  const scope = await searchScope(db, actor, request, options);
  const terms = await withSearchTimeout(db, options, (tx) => selectTerms(tx, scope, field, request.size));
  return {
    field: request.field,
    values: terms.buckets.map((bucket) => ({ value: bucket.key, count: bucket.count })),
    total: terms.total,
  };
}
