import { fork } from 'node:child_process';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { EventInput } from '@vigil/contracts';
import { pipeline } from 'node:stream/promises';
import { from as copyFrom } from 'pg-copy-streams';
import { generator } from '../apps/server/src/demo/random';
import { ensurePartitions } from '../apps/server/src/modules/events/partitions';
import { eventRow, type NewEventRow } from '../apps/server/src/modules/events/store';
import { createInputToken } from '../apps/server/src/modules/tokens/service';
import { benchEvent } from './event-data';
import type { IngestClientsInput, IngestClientsOutput } from './ingest-clients';
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

/** NDJSON bodies of BATCH_SIZE events each. */
export const ndjsonBatches = (inputs: readonly EventInput[]) =>
  Array.from({ length: Math.ceil(inputs.length / BATCH_SIZE) }, (_, i) =>
    inputs
      .slice(i * BATCH_SIZE, (i + 1) * BATCH_SIZE)
      .map((input) => JSON.stringify(input))
      .join('\n'),
  );

/**
 * Sends the events to `POST /api/ingest/events` of a server over the scratch database, from CLIENTS
 * concurrent clients in a child process (the server keeps its own process), with a new API token.
 * Answers the time from the first request to the last answer, in ms.
 */
export async function ingestOverHttp(scratch: Scratch, inputs: readonly EventInput[]): Promise<number> {
  const { database, orgId, userId } = scratch;
  const token = (await createInputToken(database.db, { orgId, userId }, 'API', { description: 'bench' }))
    .secret;
  const app = await benchApp(database);
  try {
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const input: IngestClientsInput = {
      url: `${address}/api/ingest/events`,
      token,
      bodies: ndjsonBatches(inputs),
      clients: CLIENTS,
    };
    // The clients load TypeScript through the same loader as this process.
    const clients = fork(fileURLToPath(new URL('./ingest-clients.ts', import.meta.url)), {
      execArgv: ['--import', 'tsx'],
    });
    try {
      const output = await new Promise<IngestClientsOutput>((resolve, reject) => {
        clients.once('message', (message) => resolve(message as IngestClientsOutput));
        clients.once('error', reject);
        clients.once('exit', (code) => reject(new Error(`the ingest clients exited with ${code}`)));
        clients.send(input);
      });
      if ('error' in output) throw new Error(output.error);
      return output.ms;
    } finally {
      clients.kill();
    }
  } finally {
    await app.close();
  }
}

/**
 * Event ingest through the HTTP API (API token, NDJSON batches of 5,000 from 4 concurrent clients in
 * a child process, * validation, custom parsers, classifiers, the write and asset detection) against a bare COPY of the
 * same rows into the same empty table.
 */
export async function eventIngestBenchmark(): Promise<BenchResult> {
  const scratch = await scratchDatabase();
  const { database, query, orgId } = scratch;
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

    const apiMs = await ingestOverHttp(scratch, inputs);

    const [stored] = (await query('SELECT count(*)::int AS n FROM events')).rows as { n: number }[];
    if (stored?.n !== EVENT_COUNT) throw new Error(`stored ${stored?.n} events of ${EVENT_COUNT}`);
    const api = perSecond(EVENT_COUNT, apiMs);
    const copy = perSecond(EVENT_COUNT, copyMs);
    return {
      name: `event ingest: ${EVENT_COUNT} events, HTTP API against COPY, ${scratch.where}`,
      lines: [
        `API   ${api} events/s (${(apiMs / 1000).toFixed(1)} s; ${CLIENTS} clients in a child process, NDJSON batches of ${BATCH_SIZE})`,
        `COPY  ${copy} events/s (${(copyMs / 1000).toFixed(1)} s; one COPY FROM STDIN)`,
        `ratio API/COPY  ${(api / copy).toFixed(2)}`,
      ],
    };
  } finally {
    await scratch.close();
  }
}
