import { hasSkuGate, type EventFlag } from '@vigil/contracts';
import { compileQuery, DEFAULT_EVENT_SCHEMA } from '@vigil/query';
import { sql, type SQL } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import { compiledToSql, rowsOf } from '../events/repo';
import type { NewEventRow } from '../events/store';
import { activeClassifiersFor, type ClassifierRow } from './repo';

interface Compiled {
  classifier: ClassifierRow;
  condition: SQL;
  flags: EventFlag[];
}

/**
 * The batch as a recordset named `e` with the events table's columns, `search` built as the table
 * builds it: a classifier's query compiled for the events table then matches here exactly as a search
 * would match the stored event.
 */
function batchSource(rows: readonly NewEventRow[]): SQL {
  const records = rows.map((row, i) => ({
    i,
    ts: row.ts,
    received_at: row.receivedAt ?? null,
    id: row.id ?? null,
    host: row.host ?? null,
    src_ip: row.srcIp ?? null,
    dst_ip: row.dstIp ?? null,
    user_name: row.userName ?? null,
    data_source: row.dataSource ?? null,
    message: row.message ?? '',
    fields: row.fields ?? {},
  }));
  return sql`WITH x AS (
      SELECT * FROM jsonb_to_recordset(${JSON.stringify(records)}::jsonb) AS x(
        i int, ts timestamptz, received_at timestamptz, id uuid, host text, src_ip inet, dst_ip inet,
        user_name text, data_source text, message text, fields jsonb)
    ), e AS (
      SELECT x.*, to_tsvector('simple'::regconfig, message)
        || jsonb_to_tsvector('simple'::regconfig, fields, '["string", "numeric"]'::jsonb) AS search
      FROM x
    )`;
}

/** For each classifier, the indexes (into `rows`) of the rows its query matches. */
async function matches(db: Db, rows: readonly NewEventRow[], compiled: readonly Compiled[]) {
  const columns = sql.join(
    compiled.map(
      ({ condition }, n) =>
        sql`coalesce(array_agg(i) FILTER (WHERE ${condition}), '{}') AS ${sql.raw(`m${n}`)}`,
    ),
    sql.raw(', '),
  );
  const [found] = rowsOf<Record<string, number[]>>(
    await db.execute(sql`${batchSource(rows)} SELECT ${columns} FROM e`),
  );
  return compiled.map((_, n) => new Set(found?.[`m${n}`] ?? []));
}

function compile(classifier: ClassifierRow, productSkus: string[], log?: FastifyBaseLogger): Compiled | null {
  let condition: SQL;
  try {
    condition = compiledToSql(compileQuery(classifier.query, DEFAULT_EVENT_SCHEMA));
  } catch (error) {
    // A stored query the language no longer accepts must not hold up the organisation's events.
    log?.warn({ err: error, classifierId: classifier.id }, 'classifier query does not compile; skipped');
    return null;
  }
  const flags: EventFlag[] = [];
  if (classifier.skipThreatMatch) flags.push('skipThreatMatch');
  if (classifier.skipAnomalyDetection) flags.push('skipAnomalyDetection');
  if (classifier.skipAssetDetection) flags.push('skipAssetDetection');
  if (classifier.acceleratedArchive && hasSkuGate(productSkus, 'acceleratedArchive')) {
    flags.push('acceleratedArchive');
  }
  return { classifier, condition, flags };
}

const addsMetadata = ({ classifier }: Compiled) =>
  !classifier.dropEvent && Object.keys(classifier.metadata).length > 0;

/**
 * Classifiers of the organisation (library ones first, then its own, each in position order; paused
 * ones skipped) applied to a batch at ingest: a match adds the classifier's metadata to the fields
 * (a later classifier's value for the same key wins), adds its flags, or drops the event. Each
 * classifier sees the events as the earlier ones left them, so one query answers a run of classifiers
 * that ends with one adding metadata, and the next run reads the changed batch.
 */
export async function applyClassifiers(
  db: Db,
  orgId: string,
  rows: NewEventRow[],
  log?: FastifyBaseLogger,
): Promise<NewEventRow[]> {
  if (rows.length === 0) return rows;
  const { classifiers, productSkus } = await activeClassifiersFor(db, orgId);
  const pending = classifiers
    .map((classifier) => compile(classifier, productSkus, log))
    .filter((entry) => entry !== null);
  if (pending.length === 0) return rows;
  let live = rows.map((row) => ({ ...row, fields: { ...(row.fields ?? {}) } }));
  let start = 0;
  while (start < pending.length && live.length > 0) {
    const end = pending.findIndex((entry, index) => index >= start && addsMetadata(entry));
    const run = pending.slice(start, end === -1 ? pending.length : end + 1);
    const hits = await matches(db, live, run);
    const dropped = new Set<number>();
    for (const [offset, { classifier, flags }] of run.entries()) {
      for (const index of hits[offset]!) {
        if (dropped.has(index)) continue;
        if (classifier.dropEvent) {
          dropped.add(index);
          continue;
        }
        const row = live[index]!;
        // Defined, not assigned: a key such as `__proto__` is data like any other.
        for (const [key, value] of Object.entries(classifier.metadata)) {
          Object.defineProperty(row.fields, key, {
            value,
            enumerable: true,
            writable: true,
            configurable: true,
          });
        }
        if (flags.length > 0) row.flags = [...new Set([...(row.flags ?? []), ...flags])];
      }
    }
    live = live.filter((_, index) => !dropped.has(index));
    start += run.length;
  }
  return live;
}
