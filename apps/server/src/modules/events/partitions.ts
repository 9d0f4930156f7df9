import { sql, type SQL } from 'drizzle-orm';
import { EVENT_RETENTION_DEFAULT_DAYS } from '@vigil/contracts';
import type { Db } from '../../db/client';
import { forgetRollupsBefore } from './rollups';

/** Daily partitions created ahead of today. */
export const PARTITION_DAYS_AHEAD = 7;
/** Key of the advisory lock that keeps two servers from changing partitions at once. */
const PARTITION_LOCK_KEY = 742_007;
const DAY_MS = 86_400_000;
const PARTITION_NAME = /^events_p(\d{4})(\d{2})(\d{2})$/;

/** Columns written when rows move between partitions (`search` is generated). */
const COLUMNS =
  'org_id, ts, id, received_at, host, src_ip, dst_ip, user_name, data_source, message, fields, flags';

const startOfUtcDay = (at: Date) => Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate());
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** `events_p20240501` for the UTC day starting at `dayMs`: digits only, safe as an identifier. */
export const partitionName = (dayMs: number) => `events_p${isoDay(dayMs).replace(/-/g, '')}`;

function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}

/** Runs a DELETE and answers how many rows it removed (the same way on both drivers). */
async function countDeleted(db: Db, statement: SQL): Promise<number> {
  const [row] = rowsOf<{ n: number }>(
    await db.execute(sql`WITH deleted AS (${statement} RETURNING 1) SELECT count(*)::int AS n FROM deleted`),
  );
  return row?.n ?? 0;
}

/** The daily partitions of `events`, with the start of their day. */
export async function listPartitions(db: Db): Promise<{ name: string; dayMs: number }[]> {
  const rows = rowsOf<{ name: string }>(
    await db.execute(sql`
      SELECT c.relname AS name FROM pg_inherits i
      JOIN pg_class c ON c.oid = i.inhrelid
      JOIN pg_class p ON p.oid = i.inhparent
      WHERE p.relname = 'events' AND p.relnamespace = current_schema()::regnamespace
      ORDER BY c.relname`),
  );
  return rows.flatMap(({ name }) => {
    const match = PARTITION_NAME.exec(name);
    return match ? [{ name, dayMs: Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) }] : [];
  });
}

/**
 * Creates the daily partitions `events_pYYYYMMDD` (UTC days) from yesterday to `daysAhead` days
 * ahead that do not exist yet. Rows of such a day already in the default partition move into the new
 * table in the same transaction: the table is created standalone, the rows are moved with
 * DELETE … RETURNING, then it is attached (which the default partition would otherwise refuse).
 * Answers the names created.
 */
export async function ensurePartitions(
  db: Db,
  options: { daysAhead?: number; now?: Date } = {},
): Promise<string[]> {
  const today = startOfUtcDay(options.now ?? new Date());
  const daysAhead = options.daysAhead ?? PARTITION_DAYS_AHEAD;
  const existing = new Set((await listPartitions(db)).map((partition) => partition.name));
  const created: string[] = [];
  for (let day = today - DAY_MS; day <= today + daysAhead * DAY_MS; day += DAY_MS) {
    const name = partitionName(day);
    if (existing.has(name)) continue;
    const from = `${isoDay(day)} 00:00:00+00`;
    const to = `${isoDay(day + DAY_MS)} 00:00:00+00`;
    const made = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`);
      const [found] = rowsOf<{ found: boolean }>(
        await tx.execute(sql`SELECT to_regclass(${name}) IS NOT NULL AS found`),
      );
      if (found?.found) return false;
      // Inserters lock the parent, then the default partition: locking the default first cannot deadlock.
      await tx.execute(sql.raw('LOCK TABLE events_default IN ACCESS EXCLUSIVE MODE'));
      await tx.execute(
        sql.raw(
          `CREATE TABLE ${name} (LIKE events INCLUDING DEFAULTS INCLUDING GENERATED INCLUDING CONSTRAINTS)`,
        ),
      );
      await tx.execute(
        sql.raw(
          `WITH moved AS (DELETE FROM events_default WHERE ts >= '${from}' AND ts < '${to}' RETURNING ${COLUMNS}) ` +
            `INSERT INTO ${name} (${COLUMNS}) SELECT ${COLUMNS} FROM moved`,
        ),
      );
      await tx.execute(
        sql.raw(`ALTER TABLE events ATTACH PARTITION ${name} FOR VALUES FROM ('${from}') TO ('${to}')`),
      );
      return true;
    });
    if (made) created.push(name);
  }
  return created;
}

/**
 * The retention of every organisation: the default, and the organisations whose setting differs
 * (the provider sets `eventRetentionDays` per organisation).
 */
export async function retentionPolicy(db: Db): Promise<RetentionPolicy> {
  const rows = rowsOf<{ id: string; days: number }>(
    await db.execute(sql`
      SELECT id, (settings->>'eventRetentionDays')::int AS days FROM orgs
      WHERE jsonb_typeof(settings->'eventRetentionDays') = 'number'
        AND (settings->>'eventRetentionDays')::int <> ${EVENT_RETENTION_DEFAULT_DAYS}`),
  );
  return {
    defaultDays: EVENT_RETENTION_DEFAULT_DAYS,
    byOrg: Object.fromEntries(rows.map((row) => [row.id, row.days])),
  };
}

export interface RetentionPolicy {
  /** Days kept by organisations without their own value. */
  defaultDays: number;
  /** Organisations keeping a different number of days. */
  byOrg?: Readonly<Record<string, number>>;
}

/**
 * Retention: drops whole daily partitions older than the longest retention of any organisation,
 * deletes older rows from the default partition, and deletes the rows of organisations keeping
 * fewer days than that. A day is dropped once all of it is older than the cut-off. Answers the
 * partitions dropped and the rows deleted.
 */
export async function dropExpiredPartitions(
  db: Db,
  retention: number | RetentionPolicy,
  now: Date = new Date(),
): Promise<{ dropped: string[]; deletedRows: number }> {
  const policy = typeof retention === 'number' ? { defaultDays: retention } : retention;
  const overrides = Object.entries(policy.byOrg ?? {});
  const longest = Math.max(policy.defaultDays, ...overrides.map(([, days]) => days));
  const cutoff = (days: number) => new Date(now.getTime() - days * DAY_MS);
  const longestCutoff = cutoff(longest);

  const dropped: string[] = [];
  for (const partition of await listPartitions(db)) {
    if (partition.dayMs + DAY_MS > longestCutoff.getTime()) continue;
    await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${PARTITION_LOCK_KEY})`);
      await tx.execute(sql.raw(`DROP TABLE IF EXISTS ${partition.name}`));
    });
    dropped.push(partition.name);
  }

  let deletedRows = await countDeleted(
    db,
    sql`DELETE FROM events_default WHERE ts < ${longestCutoff.toISOString()}::timestamptz`,
  );
  // Organisations with the default retention when an override keeps longer, and shorter overrides.
  const shorter = overrides.filter(([, days]) => days < longest);
  for (const [orgId, days] of shorter) {
    deletedRows += await countDeleted(
      db,
      sql`DELETE FROM events WHERE org_id = ${orgId}::uuid AND ts < ${cutoff(days).toISOString()}::timestamptz`,
    );
  }
  if (policy.defaultDays < longest) {
    const others = overrides.map(([orgId]) => orgId);
    deletedRows += await countDeleted(
      db,
      sql`DELETE FROM events WHERE ts < ${cutoff(policy.defaultDays).toISOString()}::timestamptz
          AND NOT (org_id = ANY(${sql.param(others)}::uuid[]))`,
    );
  }
  // Roll-ups of the hours deleted from are out of date (for organisations keeping longer than the
  // default, the default's cut-off forgets more than needed: they are computed again).
  await forgetRollupsBefore(db, longestCutoff);
  for (const [orgId, days] of shorter) await forgetRollupsBefore(db, cutoff(days), orgId);
  if (policy.defaultDays < longest) await forgetRollupsBefore(db, cutoff(policy.defaultDays));
  return { dropped, deletedRows };
}
