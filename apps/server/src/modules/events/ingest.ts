import { randomUUID } from 'node:crypto';
import { pipeline, Transform, type Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { createGunzip } from 'node:zlib';
import { apiErrorSchema, eventInputSchema, type EventInput } from '@vigil/contracts';
import type { FastifyReply, FastifyRequest, FastifySchemaCompiler } from 'fastify';
import { validatorCompiler, type FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { AppError, notAuthenticated, validationFailed } from '../../platform/errors';
import { authenticateInputToken, type AuthenticatedToken } from '../tokens/service';
import { ingestEventRows } from './pipeline';
import { EventInputError, eventRow, type NewEventRow } from './store';

/** Largest batch, before and after gzip decompression (issue 7: batches up to 32 MiB). */
export const INGEST_MAX_BATCH_BYTES = 32 * 1024 * 1024;
/** Requests a minute one API token may make. */
export const INGEST_RATE_LIMIT = { max: 600, timeWindow: '1 minute' } as const;
/** Rejected lines listed in an answer at most; `rejectedCount` always holds the full number. */
export const INGEST_MAX_REJECTED_LISTED = 1000;

export interface IngestOptions {
  /** Bytes a batch may hold, compressed and decompressed; INGEST_MAX_BATCH_BYTES by default. */
  maxBatchBytes?: number;
  /** Per-token rate limit; INGEST_RATE_LIMIT by default. */
  rateLimit?: { max: number; timeWindow: number | string };
}

export const ingestQuerySchema = z.object({
  /** All-or-nothing: one bad line refuses the whole batch and nothing is stored. */
  atomic: z
    .enum(['true', 'false', '1', '0'])
    .optional()
    .transform((value) => value === 'true' || value === '1'),
});

export const ingestRejectionSchema = z.object({
  /** 1-based line of an NDJSON body, or element index + 1 of a JSON array. */
  line: z.number().int(),
  error: z.string(),
});
export type IngestRejection = z.infer<typeof ingestRejectionSchema>;

export const ingestResponseSchema = z.object({
  accepted: z.number().int(),
  rejected: z.array(ingestRejectionSchema),
  /** Every rejected line, also those beyond the listed INGEST_MAX_REJECTED_LISTED. */
  rejectedCount: z.number().int(),
});
export type IngestResponse = z.infer<typeof ingestResponseSchema>;

/** 400 of an atomic batch with a bad line: the usual error plus the rejected list. */
const ingestRefusalSchema = apiErrorSchema.extend({
  accepted: z.literal(0),
  rejected: z.array(ingestRejectionSchema),
  rejectedCount: z.number().int(),
});

/** Documentation only: the body is read as a stream by the content-type parsers below. */
const ingestBodyDoc = z
  .union([z.array(eventInputSchema), eventInputSchema])
  .describe(
    'NDJSON (`application/x-ndjson`, one event object a line) or a JSON array of events ' +
      '(`application/json`), optionally gzip-compressed (`Content-Encoding: gzip`).',
  );

export const payloadTooLarge = (limit: number) =>
  new AppError(
    'PayloadTooLargeException',
    'GENERIC_PAYLOAD_TOO_LARGE',
    `The batch is larger than ${limit} bytes (after decompression)`,
    { params: { limit } },
  );

const badBody = (message: string) =>
  validationFailed('EVENT_INVALID', message, { field: 'body', params: { message } });

/** A pass-through stream failing with 413 once more than `limit` bytes went through it. */
function byteLimit(limit: number) {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      seen += chunk.length;
      if (seen > limit) callback(payloadTooLarge(limit));
      else callback(null, chunk);
    },
  });
}

/** The body stream, decompressed when gzip, failing with 413 beyond `limit` bytes either side. */
export function decodedBody(request: FastifyRequest, body: Readable, limit: number): Readable {
  const encoding = (request.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  if (encoding !== 'identity' && encoding !== 'gzip' && encoding !== 'x-gzip') {
    throw validationFailed('GENERIC_INVALID_FIELD_VALUE', `Unsupported Content-Encoding ${encoding}`, {
      field: 'content-encoding',
      params: { field: 'content-encoding', value: encoding },
      validValues: ['gzip', 'identity'],
    });
  }
  const stages: (Readable | Transform)[] = [body, byteLimit(limit)];
  if (encoding !== 'identity') stages.push(createGunzip(), byteLimit(limit));
  const noop = () => {};
  // Errors surface through the last stage, which pipeline destroys with the first failure.
  return (pipeline as unknown as (...streams: unknown[]) => Readable)(...stages, noop);
}

/** Re-throws a stream failure as the error the client sees. */
export function streamFailure(error: unknown): AppError {
  if (error instanceof AppError) return error;
  const code = (error as { code?: string }).code ?? '';
  if (code.startsWith('Z_') || code === 'ERR__ERROR' || code.startsWith('ERR_ZLIB')) {
    return badBody('The body is not valid gzip');
  }
  throw error;
}

/** Lines of a UTF-8 stream, without their `\n` or `\r\n`; the search is linear in the input. */
export async function* readLines(
  stream: AsyncIterable<Buffer | string> | Iterable<Buffer | string>,
): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let pending = '';
  for await (const chunk of stream) {
    const from = pending.length;
    pending += typeof chunk === 'string' ? chunk : decoder.write(chunk);
    let start = 0;
    let end = pending.indexOf('\n', from);
    while (end !== -1) {
      yield pending.slice(start, end);
      start = end + 1;
      end = pending.indexOf('\n', start);
    }
    pending = pending.slice(start);
  }
  pending += decoder.end();
  if (pending !== '') yield pending;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

class Batch {
  readonly rows: NewEventRow[] = [];
  readonly rejected: IngestRejection[] = [];
  rejectedCount = 0;

  constructor(
    private readonly orgId: string,
    private readonly receivedAt: Date,
  ) {}

  reject(line: number, error: string) {
    this.rejectedCount += 1;
    if (this.rejected.length < INGEST_MAX_REJECTED_LISTED) this.rejected.push({ line, error });
  }

  /** One event; the org is the token's, whatever the event says. */
  add(line: number, value: unknown) {
    if (!isObject(value)) return this.reject(line, 'event: not a JSON object');
    try {
      this.rows.push(eventRow(this.orgId, value as EventInput, this.receivedAt, line));
    } catch (error) {
      if (!(error instanceof EventInputError)) throw error;
      this.reject(line, error.message);
    }
  }

  addText(line: number, text: string) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      return this.reject(line, `invalid JSON: ${(error as Error).message}`);
    }
    this.add(line, value);
  }
}

async function readNdjson(stream: Readable, batch: Batch) {
  let line = 0;
  for await (const raw of readLines(stream)) {
    line += 1;
    let text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === 1 && text.startsWith('\uFEFF')) text = text.slice(1);
    if (text.trim() === '') continue;
    batch.addText(line, text);
  }
}

async function readJsonArray(stream: Readable, batch: Batch) {
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  for await (const chunk of stream) parts.push(decoder.write(chunk as Buffer));
  parts.push(decoder.end());
  const text = parts.join('').replace(/^\uFEFF/, '');
  if (text.trim() === '') return;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw badBody(`The body is not JSON: ${(error as Error).message}`);
  }
  if (Array.isArray(value)) value.forEach((item, index) => batch.add(index + 1, item));
  else if (isObject(value)) batch.add(1, value);
  else throw badBody('The body is neither a JSON array of events nor an event');
}

/** Bearer token of the request as an active API token, else 401. */
async function authenticate(db: Db, request: FastifyRequest, reply: FastifyReply) {
  const header = request.headers.authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  const token = match ? await authenticateInputToken(db, match[1]!, ['API']) : null;
  if (!token) {
    reply.header('www-authenticate', 'Bearer realm="vigil-ingest"');
    throw notAuthenticated();
  }
  return token;
}

/** Zod for the query string, nothing for the body: the handler reads the body stream itself. */
const ingestValidatorCompiler: FastifySchemaCompiler<unknown> = (route) =>
  route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as Parameters<typeof validatorCompiler>[0]);

/**
 * POST /api/ingest/events: machine-to-machine event ingest (issue 7). The organisation is the API
 * token's. Content-type parsers are scoped to this plugin and hand the raw stream to the handler.
 */
export const ingestRoutes =
  (db: Db, options: IngestOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    const limit = options.maxBatchBytes ?? INGEST_MAX_BATCH_BYTES;
    const rateLimit = options.rateLimit ?? INGEST_RATE_LIMIT;
    const tokens = new WeakMap<FastifyRequest, AuthenticatedToken>();

    app.removeAllContentTypeParsers();
    app.addContentTypeParser(
      ['application/x-ndjson', 'application/json'],
      { bodyLimit: limit },
      (_request, payload, done) => done(null, payload),
    );

    app.post(
      '/api/ingest/events',
      {
        config: {
          auth: 'public',
          csrf: false,
          rateLimit: {
            max: rateLimit.max,
            timeWindow: rateLimit.timeWindow,
            keyGenerator: (request) => `ingest:${tokens.get(request)?.tokenId ?? request.ip}`,
          },
        },
        bodyLimit: limit,
        // Runs before the rate-limit hook (added to this list after it), so the limit keys by token.
        onRequest: async (request, reply) => {
          tokens.set(request, await authenticate(db, request, reply));
        },
        validatorCompiler: ingestValidatorCompiler as never,
        schema: {
          tags: ['events'],
          summary: 'Ingest events',
          description:
            'Authenticated by an API input token: `Authorization: Bearer <key>.<secret>`; the organisation ' +
            'is the token’s, never the body’s. Body: NDJSON (`application/x-ndjson`, one event a line, ' +
            'blank lines skipped) or a JSON array of events (`application/json`), optionally ' +
            `\`Content-Encoding: gzip\`; at most ${limit} bytes before and after decompression (413 ` +
            'GENERIC_PAYLOAD_TOO_LARGE). Each event: timestamp (ISO date-time or epoch ms; default the ' +
            'receive time), host, srcIp, dstIp, userName, dataSource, message, fields. Answers `{ accepted, ' +
            'rejected: [{ line, error }], rejectedCount }` once the accepted events are committed; `line` is ' +
            'the 1-based line (element index + 1 for an array); at most ' +
            `${INGEST_MAX_REJECTED_LISTED} rejections are listed. With \`atomic=true\` one bad line refuses ` +
            'the batch: 400 EVENT_INVALID with the rejected list, nothing stored. 401 for a missing, ' +
            `unknown, revoked, expired or non-API token; 429 GENERIC_RATE_LIMITED beyond ${rateLimit.max} ` +
            `requests per ${String(rateLimit.timeWindow)} per token.`,
          consumes: ['application/x-ndjson', 'application/json'],
          security: [{ ingestToken: [] }],
          querystring: ingestQuerySchema,
          body: ingestBodyDoc,
          response: { 200: ingestResponseSchema, 400: z.union([ingestRefusalSchema, apiErrorSchema]) },
        },
      },
      async (request, reply) => {
        const token = tokens.get(request)!;
        const contentLength = Number(request.headers['content-length']);
        if (Number.isFinite(contentLength) && contentLength > limit) throw payloadTooLarge(limit);
        const batch = new Batch(token.orgId, new Date());
        const body = request.body as unknown as Readable | undefined;
        if (body) {
          const stream = decodedBody(request, body, limit);
          const ndjson = (request.headers['content-type'] ?? '').toLowerCase().includes('ndjson');
          try {
            await (ndjson ? readNdjson(stream, batch) : readJsonArray(stream, batch));
          } catch (error) {
            throw streamFailure(error);
          }
        }
        if (request.query.atomic && batch.rejectedCount > 0) {
          const message = `${batch.rejectedCount} event(s) refused; nothing was stored`;
          return reply.code(400).send({
            type: 'ValidatorException' as const,
            key: 'EVENT_INVALID',
            message,
            errorId: randomUUID(),
            params: { rejectedCount: batch.rejectedCount },
            accepted: 0,
            rejected: batch.rejected,
            rejectedCount: batch.rejectedCount,
          });
        }
        const accepted = await ingestEventRows(db, token.orgId, batch.rows, request.log);
        return { accepted, rejected: batch.rejected, rejectedCount: batch.rejectedCount };
      },
    );
  };
