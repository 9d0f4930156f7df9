import { isIP } from 'node:net';
import { CUSTOM_PARSER_COLUMN_TARGETS, type CustomParserMapping } from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { NewEventRow } from '../events/store';
import { customParserMappings } from './repo';

type Fields = Record<string, unknown>;
type ColumnTarget = (typeof CUSTOM_PARSER_COLUMN_TARGETS)[number];

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Sets an own property, whatever its name (`__proto__` included). */
function setOwn(target: Fields, key: string, value: unknown) {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}

/**
 * Where `from` points in `fields`: a top-level key spelled exactly like it wins (a vendor key with a
 * literal period such as `event.id`); otherwise it is a path, one object key per period-separated
 * part. Only own keys of plain objects are followed (arrays are not indexed).
 */
function locate(fields: Fields, from: string): { path: string[]; value: unknown } | null {
  if (Object.hasOwn(fields, from)) return { path: [from], value: fields[from] };
  const path = from.split('.');
  let value: unknown = fields;
  for (const key of path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return null;
    value = value[key];
  }
  return { path, value };
}

/** Removes the value at `path`, copying the objects on the way so that no caller's object changes. */
function withoutPath(fields: Fields, path: string[]): Fields {
  const [key, ...rest] = path;
  const copy: Fields = { ...fields };
  if (rest.length === 0) delete copy[key!];
  else setOwn(copy, key!, withoutPath(copy[key!] as Fields, rest));
  return copy;
}

const scalarText = (value: unknown): string | null =>
  typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value).trim() || null
    : null;

/** The column value of `value`, or null when the column cannot hold it (it then stays in fields). */
function columnValue(column: ColumnTarget, value: unknown): string | null {
  const text = scalarText(value);
  if (text === null) return null;
  if ((column === 'src_ip' || column === 'dst_ip') && isIP(text) === 0) return null;
  return text;
}

const COLUMN_KEYS = {
  host: 'host',
  src_ip: 'srcIp',
  dst_ip: 'dstIp',
  user_name: 'userName',
  message: 'message',
} as const satisfies Record<ColumnTarget, keyof NewEventRow>;

const isColumnTarget = (name: string): name is ColumnTarget =>
  (CUSTOM_PARSER_COLUMN_TARGETS as readonly string[]).includes(name);

/**
 * One row through one parser's mappings, in order. The value at `from` moves to `to`: to the event
 * column when `to` names one (host, src_ip, dst_ip, user_name, message: text trimmed, IPs only when
 * they are addresses), else to the top-level field `to`, replacing what was there. A from-field that
 * is missing or null does nothing; a value a column cannot hold (an object, an empty text, an IP
 * column's non-address) stays where it was. Later mappings see earlier ones' results.
 */
export function applyMappings(row: NewEventRow, mappings: readonly CustomParserMapping[]): NewEventRow {
  let fields: Fields = isObject(row.fields) ? row.fields : {};
  const result: NewEventRow = { ...row };
  for (const { from, to } of mappings) {
    const found = locate(fields, from);
    if (!found || found.value === null || found.value === undefined) continue;
    if (isColumnTarget(to)) {
      const value = columnValue(to, found.value);
      if (value === null) continue;
      result[COLUMN_KEYS[to]] = value;
      fields = withoutPath(fields, found.path);
    } else {
      fields = withoutPath(fields, found.path);
      setOwn(fields, to, found.value);
    }
  }
  result.fields = fields;
  return result;
}

/**
 * The organisation's custom parsers applied to a batch at ingest: each row whose data source is a
 * parser's (any case) has its fields remapped by `applyMappings`. The parsers are read once per
 * batch, and only when some row has a data source.
 */
export async function applyCustomParsers(db: Db, orgId: string, rows: NewEventRow[]): Promise<NewEventRow[]> {
  if (!rows.some((row) => row.dataSource)) return rows;
  const parsers = await customParserMappings(db, orgId);
  if (parsers.length === 0) return rows;
  const bySource = new Map(parsers.map((parser) => [parser.dataSource.toLowerCase(), parser.mappings]));
  return rows.map((row) => {
    const mappings = row.dataSource ? bySource.get(row.dataSource.toLowerCase()) : undefined;
    return mappings ? applyMappings(row, mappings) : row;
  });
}
