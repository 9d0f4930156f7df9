/**
 * What the compiler knows of the events table. Every string here is trusted SQL written by the server
 * (never user input): column expressions are copied into the compiled SQL as they are.
 */

export type EventColumnType = 'text' | 'inet' | 'timestamp' | 'number';

export interface EventColumn {
  /** Trusted SQL expression of the column, e.g. `host` or `e.host` or `id::text`. */
  sql: string;
  type: EventColumnType;
}

export interface EventSchema {
  /** Query field names answered by a column (matched case-sensitively and in full: `src_ip`). */
  columns: Record<string, EventColumn>;
  /**
   * Query field names standing for several fields, each a column name or a jsonb path; a term on an
   * alias matches when it matches on any of them (`ip` → `src_ip`, `dst_ip`).
   */
  aliases: Record<string, string[]>;
  /** Trusted SQL expression of the jsonb column holding every other field, addressed by path. */
  fieldsColumn: string;
  textSearch: {
    /** Trusted SQL expression of the tsvector built from the message and field values. */
    vector: string;
    /** Trusted SQL expression of the message, searched by free-text wildcard terms. */
    message: string;
    /** Text search configuration the vector was built with, e.g. `simple`. */
    config: string;
  };
}

/**
 * The events table of DESIGN section 5:
 * `events(org_id uuid, ts timestamptz, received_at timestamptz, id uuid, host text, src_ip inet,
 * dst_ip inet, user_name text, data_source text, message text, fields jsonb, search tsvector)` with
 * `search = to_tsvector('simple', message || field values)`. `org_id` is not queryable: the server
 * restricts the organisation itself.
 */
export const DEFAULT_EVENT_SCHEMA: EventSchema = {
  columns: {
    ts: { sql: 'ts', type: 'timestamp' },
    received_at: { sql: 'received_at', type: 'timestamp' },
    id: { sql: 'id::text', type: 'text' },
    host: { sql: 'host', type: 'text' },
    src_ip: { sql: 'src_ip', type: 'inet' },
    dst_ip: { sql: 'dst_ip', type: 'inet' },
    user_name: { sql: 'user_name', type: 'text' },
    data_source: { sql: 'data_source', type: 'text' },
    message: { sql: 'message', type: 'text' },
  },
  aliases: {
    ip: ['src_ip', 'dst_ip'],
    '@timestamp': ['ts'],
    timestamp: ['ts'],
    user: ['user_name'],
  },
  fieldsColumn: 'fields',
  textSearch: { vector: 'search', message: 'message', config: 'simple' },
};

/**
 * The schema with every column expression qualified by a table alias (`host` → `e.host`), for
 * queries that join the events table. Expressions are qualified where they name a column: the
 * default schema's `id::text` becomes `e.id::text`.
 */
export function qualifyEventSchema(schema: EventSchema, alias: string): EventSchema {
  if (!/^[a-z_][a-z0-9_]*$/.test(alias)) throw new Error(`Not a plain table alias: ${alias}`);
  const qualify = (sql: string) => (/^[a-z_][a-z0-9_]*(::[a-z]+)?$/.test(sql) ? `${alias}.${sql}` : sql);
  return {
    columns: Object.fromEntries(
      Object.entries(schema.columns).map(([name, column]) => [name, { ...column, sql: qualify(column.sql) }]),
    ),
    aliases: schema.aliases,
    fieldsColumn: qualify(schema.fieldsColumn),
    textSearch: {
      vector: qualify(schema.textSearch.vector),
      message: qualify(schema.textSearch.message),
      config: schema.textSearch.config,
    },
  };
}
