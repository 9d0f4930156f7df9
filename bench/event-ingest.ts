import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { generator } from '../apps/server/src/demo/random';
import { ensurePartitions } from '../apps/server/src/modules/events/partitions';
import { eventRow, type NewEventRow } from '../apps/server/src/modules/events/store';
import { createInputToken } from '../apps/server/src/modules/tokens/service';
import { benchEvent } from './event-data';
import { benchApp, scratchDatabase, type BenchResult, type Scratch } from './support';

const EVENT_COUNT = 200_000;
const BATCH_SIZE = 5_000;
const CLIENTS = 4;
const HOUR_MS = 3_600_000;

const COPY_COLUMNS =
  'org_id, ts, received_at, host, src_ip, dst_ip, user_name, data_source, message, fields, flags';

/** A value in COPY's text format: `\N` for NULL, backslash and control characters escaped. */
const copyValue = (value: string | null | undefined) =>
  value == null
    ? '\\N'
    : value.replace(/[\\\t\n\r]/g, (c) => ({ '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' })[c]!);

const copyLine = (row: NewEventRow) =>
  [
    row.orgId,
    row.ts.toISOString(),
    row.receivedAt!.toISOString(),
    row.host,
    row.srcIp,
    row.dstIp,
    row.userName,
    row.dataSource,
    row.message,
    JSON.stringify(row.fields),
    '{}',
  ]
    .map(copyValue)
    .join('\t') + '\n';

/** One COPY … FROM STDIN of the rows (the server's driver streams them; PGlite reads a blob). */
async function copyRows(scratch: Scratch, chunks: string[]) {
  const statement = `COPY events (${COPY_COLUMNS}) FROM`;
  if (!scratch.pool) {
    await scratch.database.pglite!.query(`${statement} '/dev/blob'`, [], { blob: new Blob(chunks) });
    return;
  }
  const client = await scratch.pool.connect();
  try {
    await pipeline(Readable.from(chunks), client.query(copyFrom(`${statement} STDIN`)));
  } finally {
    client.release();
  }
}

const perSecond = (count: number, ms: number) => Math.round((count / ms) * 1000);

/**
 * Event ingest through the HTTP API (API token, NDJSON batches of 5,000 from 4 concurrent clients,
 * validation, custom parsers, classifiers, the write and asset detection) against a bare COPY of the
 * same rows into the same empty table.
 */
export async function eventIngestBenchmark(): Promise<BenchResult> {
  const scratch = await scratchDatabase();
  const { database, query, orgId, userId } = scratch;
  try {
    await ensurePartitions(database.db);
    const random = generator(7007);
    const start = Date.now() - HOUR_MS;
    const inputs = Array.from({ length: EVENT_COUNT }, (_, n) =>
      benchEvent(random, new Date(start + (n * HOUR_MS) / EVENT_COUNT)),
    );

    const receivedAt = new Date();
    const lines = inputs.map((input) => copyLine(eventRow(orgId, input, receivedAt)));
    const copyChunks = Array.from({ length: Math.ceil(lines.length / BATCH_SIZE) }, (_, i) =>
      lines.slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE).join(''),
    );
    const copyStart = performance.now();
    await copyRows(scratch, copyChunks);
    const copyMs = performance.now() - copyStart;
    await query('TRUNCATE events');

    const token = (await createInputToken(database.db, { orgId, userId }, 'API', { description: 'bench' }))
      .secret;
    const bodies = Array.from({ length: Math.ceil(inputs.length / BATCH_SIZE) }, (_, i) =>
      inputs
        .slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE)
        .map((input) => JSON.stringify(input))
        .join('\n'),
    );
    const app = await benchApp(database);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    let next = 0;
    const client = async () => {
      while (next < bodies.length) {
        const body = bodies[next++]!;
        const response = await fetch(`${address}/api/ingest/events`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/x-ndjson' },
          body,
        });
        const answer = (await response.json()) as { accepted?: number; rejectedCount?: number };
        if (response.status !== 200 || answer.rejectedCount !== 0) {
          throw new Error(`ingest answered ${response.status}: ${JSON.stringify(answer).slice(0, 500)}`);
        }
      }
    };
    const apiStart = performance.now();
    await Promise.all(Array.from({ length: CLIENTS }, client));
    const apiMs = performance.now() - apiStart;
    await app.close();

    const [stored] = (await query('SELECT count(*)::int AS n FROM events')).rows as { n: number }[];
    if (stored?.n !== EVENT_COUNT) throw new Error(`stored ${stored?.n} events of ${EVENT_COUNT}`);
    const api = perSecond(EVENT_COUNT, apiMs);
    const copy = perSecond(EVENT_COUNT, copyMs);
    return {
      name: `event ingest: ${EVENT_COUNT} events, HTTP API against COPY, ${scratch.where}`,
      lines: [
        `API   ${api} events/s (${(apiMs / 1000).toFixed(1)} s; ${CLIENTS} clients, NDJSON batches of ${BATCH_SIZE})`,
        `COPY  ${copy} events/s (${(copyMs / 1000).toFixed(1)} s; one COPY FROM STDIN)`,
        `ratio API/COPY  ${(api / copy).toFixed(2)}`,
      ],
    };
  } finally {
    await scratch.close();
  }
}
