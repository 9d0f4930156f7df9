/**
 * Test support: the events table of DESIGN section 5 in an in-memory PGlite, or, when
 * TEST_DATABASE_URL names a PostgreSQL server, in a schema of its own on that server (dropped on
 * close), with a handful of varied events.
 */
import { PGlite } from '@electric-sql/pglite';

export interface EventsDatabase {
  readonly kind: 'pglite' | 'postgres';
  rows<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  close(): Promise<void>;
}

/** A test event; `id` is its label (`e1`), stored as a uuid ending in its number. */
export interface TestEvent {
  id: string;
  ts: string;
  received_at?: string;
  host: string | null;
  src_ip: string | null;
  dst_ip: string | null;
  user_name: string | null;
  data_source: string | null;
  message: string | null;
  fields: Record<string, unknown> | null;
}

export const EVENTS: TestEvent[] = [
  {
    id: 'e1',
    ts: '2024-05-01T08:00:00.000Z',
    host: 'web01',
    src_ip: '10.0.0.1',
    dst_ip: '192.168.1.10',
    user_name: 'alice',
    data_source: 'firewall',
    message: 'Failed login for alice from 10.0.0.1',
    fields: {
      action: 'deny',
      status: 401,
      bytes: 1500,
      http: { method: 'POST', status: '401' },
      tags: ['vpn', 'mfa'],
      'user agent': 'curl/8.0',
    },
  },
  {
    id: 'e2',
    ts: '2024-05-01T23:59:59.999Z',
    host: 'WEB01',
    src_ip: '10.1.2.3',
    dst_ip: '2001:db8::1',
    user_name: 'bob',
    data_source: 'proxy',
    message: 'wire transfer approved for bob',
    fields: { action: 'allow', status: 200, bytes: '250', path: '50%_off\\sale', http: { method: 'GET' } },
  },
  {
    id: 'e3',
    ts: '2024-05-02T00:00:00.000Z',
    host: 'db-01.bank.example',
    src_ip: '172.16.0.5',
    dst_ip: null,
    user_name: "O'Brien",
    data_source: 'core-banking',
    message: 'Transfer fee 50% waived: C:\\temp\\fee_waiver.txt',
    fields: { action: 'allow', amount: 12000.5, account: { id: 'ACC-1', type: 'savings' }, flagged: true },
  },
  {
    id: 'e4',
    ts: '2024-05-15T12:00:00.000Z',
    host: null,
    src_ip: null,
    dst_ip: null,
    user_name: null,
    data_source: null,
    message: null,
    fields: null,
  },
  {
    id: 'e5',
    ts: '2024-06-01T00:00:00.000Z',
    host: 'mail',
    src_ip: '2001:db8::5',
    dst_ip: '10.0.0.1',
    user_name: 'carol',
    data_source: 'mail',
    message: 'login succeeded for carol',
    fields: { status: 'ok', note: 'she said "hi"', gone: null, bytes: 99999, tags: 'vpn' },
  },
  {
    id: 'e6',
    ts: '2024-04-30T23:00:00.000Z',
    host: 'web_01',
    src_ip: '10.0.0.200',
    dst_ip: '10.200.0.1',
    user_name: 'Alice',
    data_source: 'firewall',
    message: 'Port scan detected 100% of ports',
    fields: { action: 'deny', status: '404', bytes: -5, http: { method: 'post' }, level: 'x%y_z' },
  },
];

export const eventUuid = (label: string): string =>
  `00000000-0000-4000-8000-${label.slice(1).padStart(12, '0')}`;
const labelOf = (uuid: string): string => `e${Number(uuid.slice(-12))}`;

const DDL = `
  CREATE TABLE events (
    org_id uuid NOT NULL,
    ts timestamptz NOT NULL,
    received_at timestamptz NOT NULL,
    id uuid PRIMARY KEY,
    host text,
    src_ip inet,
    dst_ip inet,
    user_name text,
    data_source text,
    message text,
    fields jsonb,
    search tsvector
  );
  CREATE INDEX events_fields ON events USING gin (fields jsonb_path_ops);
  CREATE INDEX events_search ON events USING gin (search);
`;

const INSERT = `
  INSERT INTO events (org_id, ts, received_at, id, host, src_ip, dst_ip, user_name, data_source, message, fields, search)
  SELECT '00000000-0000-4000-8000-0000000000aa', $1::timestamptz, $1::timestamptz, $2::uuid, $3, $4::inet, $5::inet,
         $6, $7, $8, $9::jsonb,
         CASE WHEN $8::text IS NULL AND $9::jsonb IS NULL THEN NULL
              ELSE to_tsvector('simple', coalesce($8::text, ''))
                   || jsonb_to_tsvector('simple', coalesce($9::jsonb, '{}'), '["string", "numeric", "boolean"]') END
`;

interface Backend {
  kind: 'pglite' | 'postgres';
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
  exec(sql: string): Promise<unknown>;
  close(): Promise<void>;
}

function environment(name: string): string | undefined {
  return (globalThis as { process?: { env: Record<string, string | undefined> } }).process?.env[name];
}

async function openBackend(): Promise<Backend> {
  const url = environment('TEST_DATABASE_URL');
  if (!url) {
    const db = new PGlite();
    return {
      kind: 'pglite',
      query: (sql, params) => db.query(sql, params),
      exec: (sql) => db.exec(sql),
      close: () => db.close(),
    };
  }
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const schema = `query_test_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  await client.query(`CREATE SCHEMA ${schema}; SET search_path TO ${schema}`);
  return {
    kind: 'postgres',
    query: (sql, params) => client.query(sql, params),
    exec: (sql) => client.query(sql),
    async close() {
      await client.query(`DROP SCHEMA ${schema} CASCADE`);
      await client.end();
    },
  };
}

/** The events table with `events` (default: EVENTS) inserted. */
export async function openEventsDatabase(events: readonly TestEvent[] = EVENTS): Promise<EventsDatabase> {
  const backend = await openBackend();
  await backend.exec(DDL);
  for (const event of events) {
    await backend.query(INSERT, [
      event.ts,
      eventUuid(event.id),
      event.host,
      event.src_ip,
      event.dst_ip,
      event.user_name,
      event.data_source,
      event.message,
      event.fields === null ? null : JSON.stringify(event.fields),
    ]);
  }
  return {
    kind: backend.kind,
    rows: async <T>(sql: string, params: unknown[] = []) => (await backend.query(sql, params)).rows as T[],
    close: () => backend.close(),
  };
}

/** Labels (`e1`…) of the events matching a compiled condition, sorted. */
export async function matching(db: EventsDatabase, sql: string, params: unknown[]): Promise<string[]> {
  const rows = await db.rows<{ id: string }>(`SELECT id::text AS id FROM events WHERE ${sql}`, params);
  return rows.map((row) => labelOf(row.id)).sort(byNumber);
}

/** The condition's value for each event: it must be TRUE or FALSE, never NULL. */
export async function evaluate(
  db: EventsDatabase,
  sql: string,
  params: unknown[],
): Promise<{ id: string; matched: boolean | null }[]> {
  const rows = await db.rows<{ id: string; matched: boolean | null }>(
    `SELECT id::text AS id, (${sql}) AS matched FROM events ORDER BY id`,
    params,
  );
  return rows.map((row) => ({ id: labelOf(row.id), matched: row.matched }));
}

function byNumber(a: string, b: string): number {
  return Number(a.slice(1)) - Number(b.slice(1));
}
