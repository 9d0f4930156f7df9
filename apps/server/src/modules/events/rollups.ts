import { createHash } from 'node:crypto';
import { sql, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { Db } from '../../db/client';
import { fieldText, rowsOf, scopeWhere, type EventField, type OrgScope } from './repo';
import type { NewEventRow } from './store';

/*
 * Hourly roll-ups of chart aggregations (counts, date histograms of whole hours, top terms). A roll-up
 * is one organisation's counts of one condition (the compiled query with the viewer's data
 * restrictions, so viewers with other restrictions never share one) per hour, per term of a field
 * or in total. Answers stay exact:
 * - only whole hours of a range come from roll-ups; the rest (the partial first and last hours, and
 *   any hour not rolled up) is counted from the events in the same snapshot;
 * - every write of events raises the version of the hours it writes, in its own transaction, and a
 *   rolled-up hour counts only while its version is the hour's current one (late events included);
 * - retention forgets the roll-ups of the hours it deletes from (`forgetRollupsBefore`).
 * Roll-ups are computed ahead by the dashboards' prefill job (`dashboards/prefill.ts`), or else when a
 * chart first needs an hour, and then read by every later view.
 */

export const HOUR_MS = 3_600_000;

/** What a roll-up counts: events, or events per value of a field. */
export type RollupShape = { kind: 'count' } | { kind: 'terms'; field: EventField };

/** The hour (start, epoch ms) of a timestamp, whatever the session's time zone. */
const hourOf = (column: string) =>
  sql.raw(`to_timestamp(floor(extract(epoch FROM ${column}) / 3600) * 3600)`);

/**
 * Raises the version of every hour the rows fall in, per organisation. Called last in the
 * transaction that writes the rows; the hours are locked in order, so concurrent writers cannot
 * deadlock on them.
 */
export async function raiseHourVersions(db: Db, rows: readonly Pick<NewEventRow, 'orgId' | 'ts'>[]) {
  // Per row only the hour's number: a batch holds a handful of hours, formatted once each.
  // Rows mostly come in time order: a row of the previous row's hour adds nothing.
  const hours = new Map<string, { org: string; hour: number }>();
  let last: { org: string; hour: number } | undefined;
  for (const row of rows) {
    const ms = row.ts instanceof Date ? row.ts.getTime() : Date.parse(String(row.ts));
    const hour = Math.floor(ms / HOUR_MS);
    if (last && last.hour === hour && last.org === row.orgId) continue;
    last = { org: row.orgId, hour };
    const key = `${row.orgId} ${hour}`;
    if (!hours.has(key)) hours.set(key, last);
  }
  const sorted = [...hours.values()]
    .sort((a, b) => (a.org < b.org ? -1 : a.org > b.org ? 1 : a.hour - b.hour))
    .map(({ org, hour }) => ({ org, hour: new Date(hour * HOUR_MS).toISOString() }));
  await db.execute(sql`INSERT INTO event_hour_versions (org_id, hour, version)
    SELECT org, hour, 1 FROM jsonb_to_recordset(${JSON.stringify(sorted)}::jsonb) AS r(org uuid, hour timestamptz)
    ORDER BY org, hour
    ON CONFLICT (org_id, hour) DO UPDATE SET version = event_hour_versions.version + 1`);
}

/** Forgets the roll-ups (and hour versions) of every hour that holds a moment before `cutoff`. */
export async function forgetRollupsBefore(db: Db, cutoff: Date, orgId?: string) {
  const hour = new Date(Math.floor(cutoff.getTime() / HOUR_MS) * HOUR_MS).toISOString();
  const org = orgId ? sql` AND org_id = ${orgId}::uuid` : sql``;
  for (const table of ['event_rollup_counts', 'event_rollup_hours', 'event_hour_versions']) {
    await db.execute(sql`DELETE FROM ${sql.raw(table)} WHERE hour <= ${hour}::timestamptz${org}`);
  }
}

const dialect = new PgDialect();

/** The roll-up of a scope's condition and a shape: a digest of their SQL and parameters. */
function rollupKey(scope: OrgScope, shape: RollupShape): string {
  const condition = dialect.sqlToQuery(scope.condition);
  const term = shape.kind === 'terms' ? dialect.sqlToQuery(fieldText(shape.field)) : null;
  return createHash('sha256')
    .update(JSON.stringify([condition.sql, condition.params, term?.sql ?? null, term?.params ?? null]))
    .digest('base64url');
}

/** The whole hours of a scope's range that have ended by `now` (epoch ms of their starts). */
function wholeHours(scope: OrgScope, now: Date): number[] {
  const first = Math.ceil(scope.begin.getTime() / HOUR_MS) * HOUR_MS;
  const until = Math.min(scope.end.getTime(), now.getTime());
  const hours: number[] = [];
  for (let hour = first; hour + HOUR_MS <= until; hour += HOUR_MS) hours.push(hour);
  return hours;
}

/** The condition of the moments of the range outside the given hours (sorted), or null if none. */
function outside(scope: OrgScope, hours: readonly number[]): SQL | null {
  const gaps: SQL[] = [];
  let from = scope.begin.getTime();
  const iso = (ms: number) => new Date(ms).toISOString();
  for (const hour of hours) {
    if (hour > from) gaps.push(sql`(ts >= ${iso(from)}::timestamptz AND ts < ${iso(hour)}::timestamptz)`);
    from = hour + HOUR_MS;
  }
  if (from <= scope.end.getTime()) gaps.push(sql`ts >= ${iso(from)}::timestamptz`);
  return gaps.length === 0 ? null : sql`(${sql.join(gaps, sql.raw(' OR '))})`;
}

const termOf = (shape: RollupShape) => (shape.kind === 'terms' ? fieldText(shape.field) : sql.raw(`''`));
const isoList = (hours: readonly number[]) => sql.param(hours.map((hour) => new Date(hour).toISOString()));

/** The whole hours of the range whose roll-up is current. */
async function currentHours(db: Db, orgId: string, key: string, hours: readonly number[]): Promise<number[]> {
  if (hours.length === 0) return [];
  const rows = rowsOf<{ hour: number }>(
    await db.execute(sql`SELECT (extract(epoch FROM h.hour) * 1000)::float8 AS hour FROM event_rollup_hours h
      LEFT JOIN event_hour_versions v ON v.org_id = h.org_id AND v.hour = h.hour
      WHERE h.org_id = ${orgId}::uuid AND h.rollup = ${key}
        AND h.hour = ANY(${isoList(hours)}::timestamptz[]) AND h.version = coalesce(v.version, 0)
      ORDER BY 1`),
  );
  return rows.map((row) => Number(row.hour));
}

/**
 * Computes the roll-up of the scope's whole, ended hours that have none current: one statement, so
 * that the versions it records and the counts it writes come from one snapshot. Run in a
 * transaction: concurrent computations of one roll-up wait for each other. More than `limitHours`
 * missing are left alone (`deferred`): the answer then counts them from the events.
 */
export async function fillRollups(
  db: Db,
  scope: OrgScope,
  shape: RollupShape,
  now: Date,
  limitHours = Number.POSITIVE_INFINITY,
): Promise<{ computed: number; deferred: number }> {
  const key = rollupKey(scope, shape);
  const hours = wholeHours(scope, now);
  const current = new Set(await currentHours(db, scope.orgId, key, hours));
  const missing = hours.filter((hour) => !current.has(hour));
  if (missing.length === 0) return { computed: 0, deferred: 0 };
  if (missing.length > limitHours) return { computed: 0, deferred: missing.length };
  const missingSet = new Set(missing);
  const inMissing = outside(
    scope,
    hours.filter((hour) => !missingSet.has(hour)),
  );
  const term = termOf(shape);
  await db.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`${scope.orgId} ${key}`}))`);
  await db.execute(sql`WITH marked AS (
        INSERT INTO event_rollup_hours (org_id, rollup, hour, version)
        SELECT ${scope.orgId}::uuid, ${key}, h, coalesce(v.version, 0)
          FROM unnest(${isoList(missing)}::timestamptz[]) h
          LEFT JOIN event_hour_versions v ON v.org_id = ${scope.orgId}::uuid AND v.hour = h
        ON CONFLICT (org_id, rollup, hour) DO UPDATE SET version = EXCLUDED.version
        RETURNING 1
      )
      INSERT INTO event_rollup_counts (org_id, rollup, hour, term, count)
      SELECT ${scope.orgId}::uuid, ${key}, hour, term, count(*) FROM (
        SELECT ${hourOf('ts')} AS hour, ${term} AS term FROM events
         WHERE ${scopeWhere(scope)} AND ${inMissing ?? sql.raw('TRUE')}
           AND ts >= ${new Date(missing[0]!).toISOString()}::timestamptz
           AND ts < ${new Date(missing.at(-1)! + HOUR_MS).toISOString()}::timestamptz
      ) e WHERE term IS NOT NULL AND hour = ANY(${isoList(missing)}::timestamptz[]) GROUP BY hour, term
      ON CONFLICT (org_id, rollup, hour, term) DO UPDATE SET count = EXCLUDED.count`);
  return { computed: missing.length, deferred: 0 };
}

/**
 * The counts of a scope as one union: the current roll-up hours' counts and the events of the rest
 * of the range, as rows of (hour or moment, term, count). Run in a repeatable-read transaction, so
 * that the hours found current and the events counted beside them come from one snapshot.
 */
async function countsUnion(
  db: Db,
  scope: OrgScope,
  shape: RollupShape,
  now: Date,
  bucket: (time: string) => SQL,
): Promise<SQL> {
  const key = rollupKey(scope, shape);
  const current = await currentHours(db, scope.orgId, key, wholeHours(scope, now));
  const rest = outside(scope, current);
  const term = termOf(shape);
  const parts: SQL[] = [];
  if (current.length > 0) {
    parts.push(sql`SELECT ${bucket('hour')} AS bucket, term, count AS c FROM event_rollup_counts
      WHERE org_id = ${scope.orgId}::uuid AND rollup = ${key} AND hour = ANY(${isoList(current)}::timestamptz[])`);
  }
  if (rest) {
    parts.push(sql`SELECT ${bucket('ts')} AS bucket, ${term} AS term, count(*) AS c FROM events
      WHERE ${scopeWhere(scope)} AND ${rest} AND ${term} IS NOT NULL GROUP BY 1, 2`);
  }
  if (parts.length === 0)
    return sql`SELECT 0::float8 AS bucket, ''::text AS term, 0::bigint AS c WHERE FALSE`;
  return sql.join(parts, sql.raw(' UNION ALL '));
}

/** How many events a scope holds, from the roll-up and the events beside it. */
export async function rolledUpCount(db: Db, scope: OrgScope, now: Date): Promise<number> {
  const union = await countsUnion(db, scope, { kind: 'count' }, now, () => sql.raw('0'));
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT coalesce(sum(c), 0)::float8 AS n FROM (${union}) u`),
  );
  return Number(row?.n ?? 0);
}

/** Counts per bucket of `intervalMs` (a whole number of hours), as `selectHistogram` answers them. */
export async function rolledUpHistogram(
  db: Db,
  scope: OrgScope,
  intervalMs: number,
  now: Date,
): Promise<{ bucket: number; count: number }[]> {
  const union = await countsUnion(db, scope, { kind: 'count' }, now, (time) =>
    sql.raw(`floor(extract(epoch FROM ${time}) * 1000 / ${intervalMs})`),
  );
  const rows = rowsOf<{ bucket: number; count: number }>(
    await db.execute(sql`SELECT bucket::float8 AS bucket, sum(c)::float8 AS count FROM (${union}) u
      GROUP BY 1 ORDER BY 1`),
  );
  return rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
}

/** Top terms of a field, as `selectTerms` answers them. */
export async function rolledUpTerms(
  db: Db,
  scope: OrgScope,
  field: EventField,
  size: number,
  now: Date,
): Promise<{ buckets: { key: string; count: number }[]; uniqueTerms: number; total: number }> {
  const union = await countsUnion(db, scope, { kind: 'terms', field }, now, () => sql.raw('0'));
  const rows = rowsOf<{ key: string; count: number; unique_terms: number; total: number }>(
    await db.execute(sql`WITH g AS (SELECT term AS key, sum(c) AS c FROM (${union}) u GROUP BY 1)
      SELECT key, c::float8 AS count, (count(*) OVER ())::int AS unique_terms, (sum(c) OVER ())::float8 AS total
      FROM g ORDER BY c DESC, key LIMIT ${size}`),
  );
  return {
    buckets: rows.map((row) => ({ key: row.key, count: Number(row.count) })),
    uniqueTerms: rows[0]?.unique_terms ?? 0,
    total: Number(rows[0]?.total ?? 0),
  };
}
