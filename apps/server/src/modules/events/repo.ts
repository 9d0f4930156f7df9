import { sql, type SQL } from 'drizzle-orm';
import type { CompiledQuery, EventColumnType } from '@vigil/query';
import { DEFAULT_EVENT_SCHEMA } from '@vigil/query';
import type { Db } from '../../db/client';

/**
 * SQL of the event store (DESIGN section 5). Every statement reads `events` with a scope: the
 * organisation (or organisations), the time range and one condition (compiled query, filters and
 * data restrictions, built by the service). User text only ever travels as parameters.
 */

interface ScopeBase {
  begin: Date;
  end: Date;
  /** Trusted condition built from compiled queries. */
  condition: SQL;
}

/** The events of one organisation. */
export interface OrgScope extends ScopeBase {
  orgId: string;
}

/**
 * The events of several organisations (the cross-organisation search): each organisation's events
 * must also meet that organisation's own condition (the searching user's data restrictions there).
 */
export interface OrgsScope extends ScopeBase {
  orgs: readonly { orgId: string; condition: SQL }[];
}

export type EventScope = OrgScope | OrgsScope;

export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/**
 * A compiled query (SQL text with `$n` placeholders, trusted) as drizzle SQL: the text is copied, each
 * placeholder becomes a bound parameter, so drizzle numbers them wherever the condition ends up.
 */
export function compiledToSql(compiled: CompiledQuery, firstParam = 1): SQL {
  const chunks: SQL[] = [];
  const placeholder = /\$(\d+)/g;
  let last = 0;
  for (let match = placeholder.exec(compiled.sql); match; match = placeholder.exec(compiled.sql)) {
    chunks.push(sql.raw(compiled.sql.slice(last, match.index)));
    const index = Number(match[1]) - firstParam;
    if (index < 0 || index >= compiled.params.length) throw new Error(`No parameter for ${match[0]}`);
    chunks.push(sql`${sql.param(compiled.params[index])}`);
    last = placeholder.lastIndex;
  }
  chunks.push(sql.raw(compiled.sql.slice(last)));
  return sql.join(chunks, sql.raw(''));
}

/** The WHERE of a scope: organisation first, always. */
export function scopeWhere(scope: EventScope): SQL {
  const range = sql`ts >= ${scope.begin.toISOString()}::timestamptz AND ts <= ${scope.end.toISOString()}::timestamptz`;
  if ('orgId' in scope) return sql`org_id = ${scope.orgId}::uuid AND ${range} AND ${scope.condition}`;
  if (scope.orgs.length === 0) return sql.raw('FALSE');
  const ids = scope.orgs.map((org) => org.orgId);
  const perOrg = scope.orgs.map((org) => sql`(org_id = ${org.orgId}::uuid AND ${org.condition})`);
  return sql`org_id = ANY(${sql.param(ids)}::uuid[]) AND ${range} AND ${scope.condition} AND (${sql.join(perOrg, sql.raw(' OR '))})`;
}

/** A field as the store reads it: a column of the table or a path into `fields`. */
export type EventField =
  | { kind: 'column'; name: string; column: string; type: EventColumnType | 'message' }
  | { kind: 'field'; name: string; path: string[] };

/** API (camelCase) names of the columns, besides the query language's names. */
const COLUMN_NAMES: Record<string, string> = {
  timestamp: 'ts',
  '@timestamp': 'ts',
  ts: 'ts',
  receivedAt: 'received_at',
  srcIp: 'src_ip',
  dstIp: 'dst_ip',
  userName: 'user_name',
  user: 'user_name',
  dataSource: 'data_source',
};

/** Field names the query language writes bare (build.ts); others are not addressable here. */
const FIELD_NAME = /^[A-Za-z0-9_@][A-Za-z0-9_.@-]*$/;

/** The column or `fields` path a name stands for; null for names that are neither (`ip`, `a..b`). */
export function resolveField(name: string): EventField | null {
  const column = COLUMN_NAMES[name] ?? (name in DEFAULT_EVENT_SCHEMA.columns ? name : undefined);
  if (column) {
    const type = column === 'message' ? 'message' : DEFAULT_EVENT_SCHEMA.columns[column]!.type;
    return { kind: 'column', name, column, type };
  }
  if (name in DEFAULT_EVENT_SCHEMA.aliases || name === 'org_id' || name === 'search') return null;
  if (!FIELD_NAME.test(name)) return null;
  const path = name.split('.');
  if (path.some((segment) => segment === '')) return null;
  return { kind: 'field', name, path };
}

/** The value of a field as text (addresses without mask, times in ISO), NULL when absent. */
export function fieldText(field: EventField): SQL {
  if (field.kind === 'field') return sql`(fields #>> ${sql.param(field.path)}::text[])`;
  switch (field.type) {
    case 'inet':
      return sql.raw(`host(${field.column})`);
    case 'timestamp':
      return sql.raw(`to_char(${field.column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
    case 'number':
      return sql.raw(`(${field.column})::text`);
    default:
      return sql.raw(field.column === 'id' ? 'id::text' : field.column);
  }
}

/** The value of a field to sort by (jsonb order for free fields). */
export function fieldSortKey(field: EventField): SQL {
  return field.kind === 'field' ? sql`(fields #> ${sql.param(field.path)}::text[])` : sql.raw(field.column);
}

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** Columns of an event as the API answers it. */
export const EVENT_COLUMNS = sql.raw(
  `id::text AS id, org_id::text AS "orgId", ${ISO('ts')} AS timestamp, ${ISO('received_at')} AS "receivedAt", host, ` +
    `host(src_ip) AS "srcIp", host(dst_ip) AS "dstIp", user_name AS "userName", data_source AS "dataSource", ` +
    `message, fields, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor`,
);

export interface EventRow {
  id: string;
  orgId: string;
  timestamp: string;
  receivedAt: string;
  host: string | null;
  srcIp: string | null;
  dstIp: string | null;
  userName: string | null;
  dataSource: string | null;
  message: string;
  fields: Record<string, unknown>;
  /** `ts` to the microsecond, for keyset paging. */
  cursor: string;
}

export interface EventSort {
  field: EventField;
  desc: boolean;
}

function orderBy(sort: EventSort): SQL {
  const direction = sql.raw(sort.desc ? 'DESC' : 'ASC');
  const tie = sql.raw(sort.desc ? 'ts DESC, id DESC' : 'ts ASC, id ASC');
  if (sort.field.kind === 'column' && sort.field.column === 'ts') return tie;
  return sql`${fieldSortKey(sort.field)} ${direction} NULLS LAST, ${tie}`;
}

/** One page of events of a scope, in order. */
export async function selectEvents(
  db: Db,
  scope: EventScope,
  sort: EventSort,
  page: { limit: number; offset: number },
): Promise<EventRow[]> {
  return rowsOf<EventRow>(
    await db.execute(sql`SELECT ${EVENT_COLUMNS} FROM events WHERE ${scopeWhere(scope)}
      ORDER BY ${orderBy(sort)} LIMIT ${page.limit} OFFSET ${page.offset}`),
  );
}

/**
 * The next events in time order after a keyset position (`ts` to the microsecond and `id`), or the
 * first ones without it.
 */
export async function selectEventsAfter(
  db: Db,
  scope: EventScope,
  desc: boolean,
  after: { cursor: string; id: string } | null,
  limit: number,
): Promise<EventRow[]> {
  const position = after
    ? sql` AND (ts, id) ${sql.raw(desc ? '<' : '>')} (${after.cursor}::timestamptz, ${after.id}::uuid)`
    : sql``;
  return rowsOf<EventRow>(
    await db.execute(sql`SELECT ${EVENT_COLUMNS} FROM events WHERE ${scopeWhere(scope)}${position}
      ORDER BY ${sql.raw(desc ? 'ts DESC, id DESC' : 'ts ASC, id ASC')} LIMIT ${limit}`),
  );
}

/** Matches counted up to `cap` + 1, so that the caller knows whether there are more. */
export async function countEvents(db: Db, scope: EventScope, cap: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(*)::int AS n FROM (SELECT 1 FROM events WHERE ${scopeWhere(scope)} LIMIT ${cap + 1}) t`,
    ),
  );
  return row?.n ?? 0;
}

/** Terms of a field by count (then term), with the number of unique terms and of events holding one. */
export async function selectTerms(
  db: Db,
  scope: EventScope,
  field: EventField,
  size: number,
): Promise<{ buckets: { key: string; count: number }[]; uniqueTerms: number; total: number }> {
  const key = fieldText(field);
  const rows = rowsOf<{ key: string; count: number; unique_terms: number; total: number }>(
    await db.execute(sql`WITH g AS (
        SELECT ${key} AS key, count(*) AS c FROM events WHERE ${scopeWhere(scope)} AND ${key} IS NOT NULL GROUP BY 1
      )
      SELECT key, c::float8 AS count, (count(*) OVER ())::int AS unique_terms, (sum(c) OVER ())::float8 AS total
      FROM g ORDER BY c DESC, key LIMIT ${size}`),
  );
  return {
    buckets: rows.map((row) => ({ key: row.key, count: Number(row.count) })),
    uniqueTerms: rows[0]?.unique_terms ?? 0,
    total: Number(rows[0]?.total ?? 0),
  };
}

/** Unique terms of a field, counted up to `cap` + 1. */
export async function countUniqueTerms(db: Db, scope: EventScope, field: EventField, cap: number) {
  const key = fieldText(field);
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`SELECT count(*)::int AS n FROM (
        SELECT DISTINCT ${key} FROM events WHERE ${scopeWhere(scope)} AND ${key} IS NOT NULL LIMIT ${cap + 1}
      ) t`),
  );
  return row?.n ?? 0;
}

/** Exact count of distinct values of a field. */
export async function countDistinct(db: Db, scope: EventScope, field: EventField): Promise<number> {
  const key = fieldText(field);
  const [row] = rowsOf<{ n: number }>(
    await db.execute(
      sql`SELECT count(DISTINCT ${key})::float8 AS n FROM events WHERE ${scopeWhere(scope)} AND ${key} IS NOT NULL`,
    ),
  );
  return Number(row?.n ?? 0);
}

const DECIMAL = `'^-?[0-9]{1,100}([.][0-9]{1,100})?$'`;

/**
 * sum, avg, min or max of a free field: JSON numbers and strings holding plain decimals count;
 * `nonNumeric` is how many events hold another value (the caller refuses the aggregation then).
 */
export async function numericAggregate(
  db: Db,
  scope: EventScope,
  path: string[],
  fn: 'sum' | 'avg' | 'min' | 'max',
): Promise<{ value: number | null; nonNumeric: number }> {
  const numeric = sql.raw(
    `(jsonb_typeof(v) = 'number' OR (jsonb_typeof(v) = 'string' AND (v #>> '{}') ~ ${DECIMAL}))`,
  );
  const [row] = rowsOf<{ value: number | null; non_numeric: number }>(
    await db.execute(sql`SELECT ${sql.raw(fn)}(CASE WHEN ${numeric} THEN (v #>> '{}')::numeric END)::float8 AS value,
        (count(*) FILTER (WHERE NOT ${numeric}))::int AS non_numeric
      FROM (SELECT fields #> ${sql.param(path)}::text[] AS v FROM events WHERE ${scopeWhere(scope)}) s
      WHERE v IS NOT NULL AND jsonb_typeof(v) <> 'null'`),
  );
  return {
    value: row?.value === null || row?.value === undefined ? null : Number(row.value),
    nonNumeric: row?.non_numeric ?? 0,
  };
}

/** Counts per time bucket of `intervalMs` (buckets aligned on the epoch), only non-empty ones. */
export async function selectHistogram(
  db: Db,
  scope: EventScope,
  intervalMs: number,
): Promise<{ bucket: number; count: number }[]> {
  const rows = rowsOf<{ bucket: number; count: number }>(
    await db.execute(sql`SELECT floor(extract(epoch FROM ts) * 1000 / ${intervalMs})::float8 AS bucket,
        count(*)::float8 AS count
      FROM events WHERE ${scopeWhere(scope)} GROUP BY 1 ORDER BY 1`),
  );
  return rows.map((row) => ({ bucket: Number(row.bucket), count: Number(row.count) }));
}

/** Field names of the latest `sampleSize` events of a scope, with how many of them hold each. */
export async function sampleFields(
  db: Db,
  scope: EventScope,
  sampleSize: number,
): Promise<{ sampled: number; columns: Record<string, number>; fields: { name: string; count: number }[] }> {
  const sample = sql`SELECT host, src_ip, dst_ip, user_name, data_source, fields FROM events
    WHERE ${scopeWhere(scope)} ORDER BY ts DESC LIMIT ${sampleSize}`;
  const [columns] = rowsOf<Record<string, number>>(
    await db.execute(sql`SELECT count(*)::int AS sampled, count(host)::int AS host, count(src_ip)::int AS src_ip,
        count(dst_ip)::int AS dst_ip, count(user_name)::int AS user_name, count(data_source)::int AS data_source
      FROM (${sample}) s`),
  );
  const fields = rowsOf<{ name: string; count: number }>(
    await db.execute(sql`SELECT k AS name, count(*)::int AS count FROM (${sample}) s,
        jsonb_object_keys(CASE WHEN jsonb_typeof(s.fields) = 'object' THEN s.fields ELSE '{}'::jsonb END) k
      GROUP BY k ORDER BY count(*) DESC, k LIMIT 500`),
  );
  const { sampled = 0, ...rest } = columns ?? {};
  return { sampled, columns: rest, fields };
}
