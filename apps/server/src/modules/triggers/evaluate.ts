import { and, eq, isNull, or, sql, type SQL } from 'drizzle-orm';
import { AGGREGATION_MAX_TERMS } from '@vigil/contracts';
import { compileQuery, DEFAULT_EVENT_SCHEMA } from '@vigil/query';
import type { Db } from '../../db/client';
import {
  compiledToSql,
  countDistinct,
  countEvents,
  countUniqueTerms,
  fieldText,
  numericAggregate,
  resolveField,
  rowsOf,
  scopeWhere,
  selectHistogram,
  type EventField,
  type OrgScope,
} from '../events/repo';
import { savedQueries } from '../saved-queries/tables';
import type { triggers } from './tables';

/**
 * Evaluation of one trigger window (spec 3). System evaluation: the organisation's events matching
 * the saved query, without any user's data restrictions. Windows are half-open on `ts`: [start, end).
 */

export type TriggerRow = typeof triggers.$inferSelect;

/** Alerts a run raises at most (EVERY_EVENT: the rest go into one summary alert). */
export const MAX_ALERTS_PER_RUN = 100;
/** Matched events kept on an alert. */
export const MAX_ALERT_EVENTS = 100;
/** Grouped triggers refuse fields with more unique values than aggregations allow (spec 9). */
export const MAX_GROUP_VALUES = AGGREGATION_MAX_TERMS;
/** DYNAMIC_THRESHOLD and TEMPORAL_ANOMALY work on 30-minute periods (spec 9). */
export const PERIOD_SECONDS = 1800;
/** DYNAMIC_THRESHOLD compares a period with the previous 100 (spec 9). */
export const DYNAMIC_HISTORY_PERIODS = 100;
/** TEMPORAL_ANOMALY compares a period with the same half hour of the week in the previous 8 weeks. */
export const TEMPORAL_HISTORY_WEEKS = 8;
/** TEMPORAL_ANOMALY fires from this many events in a period unless min match asks for more. */
export const TEMPORAL_MIN_COUNT = 5;
/** Events of one sequence step read per window. */
const SEQUENCE_STEP_LIMIT = 10_000;
const PERIODS_PER_WEEK = (7 * 86_400) / PERIOD_SECONDS;

export interface AlertEvent {
  id: string;
  ts: string;
}

export interface RaisedAlert {
  /** The group value (term, correlation value) or null for the whole window. */
  group: string | null;
  matchCount: number;
  events: AlertEvent[];
  windowStart: Date;
  windowEnd: Date;
  /** Set on the EVERY_EVENT summary of events beyond MAX_ALERTS_PER_RUN. */
  summary?: boolean;
}

export interface Evaluation {
  matched: number;
  alerts: RaisedAlert[];
}

/** A failure the run records as its error; `disable` also disables the trigger (high cardinality). */
export class EvaluationError extends Error {
  constructor(
    message: string,
    readonly disable?: 'CARDINALITY',
  ) {
    super(message);
  }
}

export interface Window {
  start: Date;
  end: Date;
}

const TS_TEXT = sql.raw(`to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`);

async function savedQueryCondition(db: Db, trigger: TriggerRow, savedQueryId: string | null) {
  if (!savedQueryId) throw new EvaluationError('Missing saved query');
  const [saved] = await db
    .select()
    .from(savedQueries)
    .where(
      and(
        eq(savedQueries.id, savedQueryId),
        or(
          eq(savedQueries.orgId, trigger.orgId!),
          and(isNull(savedQueries.orgId), eq(savedQueries.library, true)),
        ),
      ),
    );
  if (!saved) throw new EvaluationError('Missing saved query');
  const condition = compiledToSql(compileQuery(saved.query, DEFAULT_EVENT_SCHEMA));
  // A library copy also needs its group's base query.
  if (!trigger.baseQuery) return { saved, condition };
  const base = compiledToSql(compileQuery(trigger.baseQuery, DEFAULT_EVENT_SCHEMA));
  return { saved, condition: sql`(${base}) AND (${condition})` };
}

/** The scope of [start, end): the store's ranges include their end, so the end is cut off here. */
function windowScope(orgId: string, condition: SQL, start: Date, end: Date): OrgScope {
  return {
    orgId,
    begin: start,
    end,
    condition: sql`(${condition}) AND ts < ${end.toISOString()}::timestamptz`,
  };
}

function groupField(name: string | undefined, fallback?: string): EventField | null {
  const fieldName = name ?? fallback;
  if (!fieldName) return null;
  const field = resolveField(fieldName);
  if (!field) throw new EvaluationError(`Cannot group by ${fieldName}`);
  return field;
}

async function guardCardinality(db: Db, scope: OrgScope, field: EventField) {
  const unique = await countUniqueTerms(db, scope, field, MAX_GROUP_VALUES);
  if (unique > MAX_GROUP_VALUES) {
    throw new EvaluationError(
      `Cardinality too high: ${field.name} has about ${unique} unique values, the maximum is ${MAX_GROUP_VALUES}`,
      'CARDINALITY',
    );
  }
}

const inRange = (value: number, min: number | null, max: number | null) =>
  (min === null || value >= min) && (max === null || value <= max);

/**
 * Groups (by `key`, or the whole window without one) whose event count lies within [min, max], the
 * largest first, each with its first events: one statement.
 */
async function countGroups(
  db: Db,
  scope: OrgScope,
  key: EventField | null,
  min: number,
  max: number | null,
): Promise<{ group: string | null; count: number; events: AlertEvent[] }[]> {
  const keyText = key ? fieldText(key) : sql.raw('NULL::text');
  const rows = rowsOf<{ key: string | null; count: number; events: AlertEvent[] }>(
    await db.execute(sql`WITH m AS (
        SELECT ${keyText} AS key, id::text AS id, ${TS_TEXT} AS ts,
          count(*) OVER (PARTITION BY ${keyText}) AS c,
          row_number() OVER (PARTITION BY ${keyText} ORDER BY ts, id) AS rn
        FROM events WHERE ${scopeWhere(scope)}${key ? sql` AND ${keyText} IS NOT NULL` : sql``}
      )
      SELECT key, max(c)::int AS count,
        jsonb_agg(jsonb_build_object('id', id, 'ts', ts) ORDER BY rn) FILTER (WHERE rn <= ${MAX_ALERT_EVENTS}) AS events
      FROM m WHERE c >= ${min}${max === null ? sql`` : sql` AND c <= ${max}`}
      GROUP BY key ORDER BY max(c) DESC, key LIMIT ${MAX_ALERTS_PER_RUN}`),
  );
  return rows.map((row) => ({ group: row.key, count: Number(row.count), events: row.events ?? [] }));
}

/** The first events of a scope in time order. */
async function firstEvents(db: Db, scope: OrgScope, limit: number, offset = 0): Promise<AlertEvent[]> {
  return rowsOf<AlertEvent>(
    await db.execute(sql`SELECT id::text AS id, ${TS_TEXT} AS ts FROM events WHERE ${scopeWhere(scope)}
      ORDER BY ts, id LIMIT ${limit} OFFSET ${offset}`),
  );
}

async function everyEvent(db: Db, scope: OrgScope, window: Window): Promise<Evaluation> {
  const matched = await countEvents(db, scope, Number.MAX_SAFE_INTEGER - 1);
  const single = await firstEvents(db, scope, MAX_ALERTS_PER_RUN);
  const alerts: RaisedAlert[] = single.map((event) => ({
    group: null,
    matchCount: 1,
    events: [event],
    windowStart: window.start,
    windowEnd: window.end,
  }));
  if (matched > MAX_ALERTS_PER_RUN) {
    alerts.push({
      group: null,
      matchCount: matched - MAX_ALERTS_PER_RUN,
      events: await firstEvents(db, scope, MAX_ALERT_EVENTS, MAX_ALERTS_PER_RUN),
      windowStart: window.start,
      windowEnd: window.end,
      summary: true,
    });
  }
  return { matched, alerts };
}

async function threshold(db: Db, trigger: TriggerRow, scope: OrgScope, window: Window): Promise<Evaluation> {
  const key = groupField(trigger.aggregation?.field);
  if (key) await guardCardinality(db, scope, key);
  const groups = await countGroups(db, scope, key, Math.max(1, trigger.minMatch ?? 1), trigger.maxMatch);
  const matched = await countEvents(db, scope, Number.MAX_SAFE_INTEGER - 1);
  return {
    matched,
    alerts: groups.map((group) => ({
      group: group.group,
      matchCount: group.count,
      events: group.events,
      windowStart: window.start,
      windowEnd: window.end,
    })),
  };
}

async function aggregation(
  db: Db,
  trigger: TriggerRow,
  saved: typeof savedQueries.$inferSelect,
  scope: OrgScope,
  window: Window,
): Promise<Evaluation> {
  const spec = trigger.aggregation ?? saved.aggregation;
  if (!spec?.type) throw new EvaluationError('Missing aggregation');
  const min = trigger.minMatch;
  const max = trigger.maxMatch;
  const matched = await countEvents(db, scope, Number.MAX_SAFE_INTEGER - 1);
  const whole = async (value: number | null): Promise<Evaluation> => {
    if (value === null || !inRange(value, min, max)) return { matched, alerts: [] };
    return {
      matched,
      alerts: [
        {
          group: null,
          matchCount: matched,
          events: await firstEvents(db, scope, MAX_ALERT_EVENTS),
          windowStart: window.start,
          windowEnd: window.end,
        },
      ],
    };
  };
  if (spec.type === 'count') return whole(matched === 0 ? null : matched);
  const field = groupField(spec.field);
  if (!field) throw new EvaluationError('Missing aggregation');
  switch (spec.type) {
    case 'terms': {
      await guardCardinality(db, scope, field);
      const groups = await countGroups(db, scope, field, Math.max(1, min ?? 1), max);
      return {
        matched,
        alerts: groups.map((group) => ({
          group: group.group,
          matchCount: group.count,
          events: group.events,
          windowStart: window.start,
          windowEnd: window.end,
        })),
      };
    }
    case 'count_distinct':
      return whole(matched === 0 ? null : await countDistinct(db, scope, field));
    case 'sum':
    case 'avg':
    case 'min':
    case 'max': {
      if (field.kind === 'column') throw new EvaluationError(`${field.name} is not numeric`);
      const result = await numericAggregate(db, scope, field.path, spec.type);
      if (result.nonNumeric > 0) throw new EvaluationError(`${field.name} is not numeric`);
      return whole(result.value);
    }
    default:
      throw new EvaluationError(`Unsupported aggregation ${spec.type}`);
  }
}

interface StepEvent {
  key: string;
  id: string;
  ts: string;
  /** `ts` in microseconds since the epoch, for ordering and the interval. */
  us: number;
}

/**
 * SEQUENCE: per correlation value, the steps' events in order (each step strictly after the one
 * before), the last within `intervalSeconds` of the first. A sequence belongs to the window its last
 * step falls in, so earlier steps are read from `intervalSeconds` before the window.
 */
async function sequence(db: Db, trigger: TriggerRow, window: Window): Promise<Evaluation> {
  const steps = trigger.sequence ?? [];
  if (steps.length < 2) throw new EvaluationError('A sequence needs at least two steps');
  const key = groupField(trigger.aggregation?.field, 'host')!;
  const keyText = fieldText(key);
  const spanUs = trigger.intervalSeconds * 1_000_000;
  const lookBack = new Date(window.start.getTime() - trigger.intervalSeconds * 1000);
  const stepEvents: Map<string, StepEvent[]>[] = [];
  for (const step of steps) {
    const { condition } = await savedQueryCondition(db, trigger, step.savedQueryId);
    const scope = windowScope(trigger.orgId!, condition, lookBack, window.end);
    const rows = rowsOf<StepEvent>(
      await db.execute(sql`SELECT ${keyText} AS key, id::text AS id, ${TS_TEXT} AS ts,
          (extract(epoch FROM ts) * 1000000)::float8 AS us
        FROM events WHERE ${scopeWhere(scope)} AND ${keyText} IS NOT NULL ORDER BY ts, id LIMIT ${SEQUENCE_STEP_LIMIT}`),
    );
    const byKey = new Map<string, StepEvent[]>();
    for (const row of rows) {
      const list = byKey.get(row.key) ?? [];
      list.push({ ...row, us: Number(row.us) });
      byKey.set(row.key, list);
    }
    stepEvents.push(byKey);
  }
  const windowStartUs = window.start.getTime() * 1000;
  const alerts: RaisedAlert[] = [];
  let matched = 0;
  for (const [value, firsts] of stepEvents[0]!) {
    let count = 0;
    const events: AlertEvent[] = [];
    let after = -Infinity;
    for (const first of firsts) {
      if (first.us <= after) continue;
      const chain = [first];
      for (let index = 1; index < steps.length; index++) {
        const previous = chain[index - 1]!;
        const next = stepEvents[index]!.get(value)?.find((event) => event.us > previous.us);
        if (!next || next.us - first.us > spanUs) break;
        chain.push(next);
      }
      const last = chain.at(-1)!;
      if (chain.length < steps.length || last.us < windowStartUs) continue;
      count++;
      after = last.us;
      for (const event of chain) {
        if (events.length < MAX_ALERT_EVENTS) events.push({ id: event.id, ts: event.ts });
      }
    }
    if (count === 0) continue;
    matched += count;
    alerts.push({
      group: value,
      matchCount: count,
      events,
      windowStart: window.start,
      windowEnd: window.end,
    });
  }
  alerts.sort((a, b) => b.matchCount - a.matchCount || String(a.group).localeCompare(String(b.group)));
  return { matched, alerts: alerts.slice(0, MAX_ALERTS_PER_RUN) };
}

const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
const deviation = (values: number[], average: number) =>
  Math.sqrt(values.reduce((sum, value) => sum + (value - average) ** 2, 0) / values.length);

/**
 * DYNAMIC_THRESHOLD and TEMPORAL_ANOMALY: each 30-minute period ending in the window fires when its
 * count exceeds mean + 3 standard deviations of its history (and reaches the minimum count). History:
 * the previous 100 periods (dynamic), or the same half hour of the week in the previous 8 weeks
 * (temporal). Counts come from one grouped statement over the window and its history.
 */
async function periodic(
  db: Db,
  trigger: TriggerRow,
  condition: SQL,
  window: Window,
  temporal: boolean,
): Promise<Evaluation> {
  const periodMs = PERIOD_SECONDS * 1000;
  const firstPeriod = Math.floor(window.start.getTime() / periodMs);
  const lastPeriod = Math.floor(window.end.getTime() / periodMs) - 1;
  const history = temporal ? TEMPORAL_HISTORY_WEEKS * PERIODS_PER_WEEK : DYNAMIC_HISTORY_PERIODS;
  let counted = condition;
  if (temporal) {
    // Only the window's half hours and the same half hours of past weeks are compared: reading just
    // those (one range a week), not the eight weeks between, is what keeps a temporal trigger cheap.
    const ranges: SQL[] = [];
    for (let week = 0; week <= TEMPORAL_HISTORY_WEEKS; week++) {
      const from = (firstPeriod - week * PERIODS_PER_WEEK) * periodMs;
      const to = (lastPeriod + 1 - week * PERIODS_PER_WEEK) * periodMs;
      ranges.push(
        sql`(ts >= ${new Date(from).toISOString()}::timestamptz AND ts < ${new Date(to).toISOString()}::timestamptz)`,
      );
    }
    counted = sql`(${condition}) AND (${sql.join(ranges, sql.raw(' OR '))})`;
  }
  const scope = windowScope(
    trigger.orgId!,
    counted,
    new Date((firstPeriod - history) * periodMs),
    new Date((lastPeriod + 1) * periodMs),
  );
  const counts = new Map((await selectHistogram(db, scope, periodMs)).map((row) => [row.bucket, row.count]));
  const countOf = (period: number) => counts.get(period) ?? 0;
  const minimum = Math.max(1, trigger.minMatch ?? (temporal ? TEMPORAL_MIN_COUNT : 1));
  const alerts: RaisedAlert[] = [];
  let matched = 0;
  for (let period = firstPeriod; period <= lastPeriod; period++) {
    const count = countOf(period);
    matched += count;
    const past = temporal
      ? Array.from({ length: TEMPORAL_HISTORY_WEEKS }, (_, week) =>
          countOf(period - (week + 1) * PERIODS_PER_WEEK),
        )
      : Array.from({ length: DYNAMIC_HISTORY_PERIODS }, (_, back) => countOf(period - back - 1));
    const average = mean(past);
    if (count < minimum || count <= average + 3 * deviation(past, average)) continue;
    if (trigger.maxMatch !== null && count > trigger.maxMatch) continue;
    const start = new Date(period * periodMs);
    const end = new Date((period + 1) * periodMs);
    alerts.push({
      group: null,
      matchCount: count,
      events: await firstEvents(db, windowScope(trigger.orgId!, condition, start, end), MAX_ALERT_EVENTS),
      windowStart: start,
      windowEnd: end,
    });
  }
  return { matched, alerts };
}

/** Evaluates a trigger over [window.start, window.end); throws EvaluationError for what the run records. */
export async function evaluateTrigger(db: Db, trigger: TriggerRow, window: Window): Promise<Evaluation> {
  if (trigger.type === 'SEQUENCE') return sequence(db, trigger, window);
  const { saved, condition } = await savedQueryCondition(db, trigger, trigger.savedQueryId);
  const scope = windowScope(trigger.orgId!, condition, window.start, window.end);
  switch (trigger.type) {
    case 'EVERY_EVENT':
      return everyEvent(db, scope, window);
    case 'THRESHOLD':
      return threshold(db, trigger, scope, window);
    case 'AGGREGATION':
      return aggregation(db, trigger, saved, scope, window);
    case 'DYNAMIC_THRESHOLD':
      return periodic(db, trigger, condition, window, false);
    case 'TEMPORAL_ANOMALY':
      return periodic(db, trigger, condition, window, true);
    default:
      throw new EvaluationError(`Unknown trigger type ${trigger.type}`);
  }
}
