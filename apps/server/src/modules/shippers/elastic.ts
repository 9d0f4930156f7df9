import { randomBytes, randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Db } from '../../db/client';
import { AppError } from '../../platform/errors';
import { authenticateInputToken, type AuthenticatedToken } from '../tokens/service';
import {
  decodedBody,
  INGEST_MAX_BATCH_BYTES,
  INGEST_RATE_LIMIT,
  payloadTooLarge,
  readLines,
  streamFailure,
} from '../events/ingest';
import { ingestEventRows } from '../events/pipeline';
import { EventInputError, eventRow, type NewEventRow } from '../events/store';
import { documentEvent } from './documents';

/** The Elasticsearch version announced: shippers pick their protocol by its major number. */
export const ELASTIC_VERSION = '8.11.0';
const CLUSTER_NAME = 'vigil';

export interface ElasticListenerOptions {
  db: Db;
  port: number;
  host?: string;
  log?: FastifyBaseLogger;
  /** Bytes a bulk body may hold, compressed and decompressed; INGEST_MAX_BATCH_BYTES by default. */
  maxBatchBytes?: number;
  /** Per-token rate limit, the ingest API's (INGEST_RATE_LIMIT) by default. */
  rateLimit?: { max: number; timeWindow: number | string };
}

export interface ElasticListener {
  /** The bound port (the one chosen by the system when asked for port 0). */
  port: number;
  close(): Promise<void>;
}

/** An error answered in Elasticsearch's shape: `{ error: { root_cause, type, reason }, status }`. */
class ElasticError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    reason: string,
  ) {
    super(reason);
  }
}

const ERROR_TYPE_BY_STATUS: Record<number, string> = {
  401: 'security_exception',
  404: 'resource_not_found_exception',
  413: 'content_too_long_exception',
};

const errorBody = (status: number, type: string, reason: string) => ({
  error: { root_cause: [{ type, reason }], type, reason },
  status,
});

/** The API token of `Authorization`: the Basic-auth password (any user name) or the Bearer token. */
export function presentedToken(header: string | undefined): string | null {
  const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (bearer) return bearer[1]!;
  const basic = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header ?? '');
  if (!basic) return null;
  const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  return colon === -1 ? null : decoded.slice(colon + 1);
}

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

const BULK_ACTIONS = ['index', 'create', 'update', 'delete'] as const;
type BulkAction = (typeof BULK_ACTIONS)[number];
type BulkItem = Partial<Record<BulkAction, Json>>;

/** The items of one bulk request, in request order, and the rows of the documents accepted. */
class BulkBatch {
  readonly items: BulkItem[] = [];
  readonly rows: NewEventRow[] = [];
  errors = false;
  private readonly receivedAt = new Date();

  constructor(
    private readonly orgId: string,
    private readonly pathIndex: string | undefined,
  ) {}

  private target(meta: Json) {
    const index = typeof meta._index === 'string' && meta._index !== '' ? meta._index : this.pathIndex;
    // Elasticsearch generates 20-character ids; an id the shipper chose is echoed.
    const id =
      typeof meta._id === 'string' && meta._id !== '' ? meta._id : randomBytes(15).toString('base64url');
    return { _index: index ?? null, _id: id };
  }

  refuse(action: BulkAction, meta: Json, type: string, reason: string) {
    this.errors = true;
    this.items.push({ [action]: { ...this.target(meta), status: 400, error: { type, reason } } });
  }

  /** An index or create action and its source line. */
  add(action: BulkAction, meta: Json, line: number, text: string) {
    const target = this.target(meta);
    if (target._index === null) {
      return this.refuse(
        action,
        meta,
        'action_request_validation_exception',
        'Validation Failed: 1: index is missing;',
      );
    }
    let source: unknown;
    try {
      source = JSON.parse(text);
    } catch (error) {
      return this.refuse(
        action,
        meta,
        'mapper_parsing_exception',
        `failed to parse: ${(error as Error).message}`,
      );
    }
    if (!isObject(source)) {
      return this.refuse(
        action,
        meta,
        'mapper_parsing_exception',
        'failed to parse: the document is not a JSON object',
      );
    }
    try {
      this.rows.push(eventRow(this.orgId, documentEvent(source, target._index), this.receivedAt, line));
    } catch (error) {
      if (!(error instanceof EventInputError)) throw error;
      return this.refuse(action, meta, 'mapper_parsing_exception', `failed to parse: ${error.message}`);
    }
    this.items.push({
      [action]: {
        ...target,
        _version: 1,
        result: 'created',
        _shards: { total: 1, successful: 1, failed: 0 },
        _seq_no: this.items.length,
        _primary_term: 1,
        status: 201,
      },
    });
  }
}

const NOT_STORED = 'Vigil stores events append-only: update and delete are not supported';

/** Reads a bulk NDJSON body: an action line, then a source line for index, create and update. */
async function readBulk(lines: AsyncIterable<string>, batch: BulkBatch) {
  let pending: { action: BulkAction; meta: Json; line: number } | null = null;
  let line = 0;
  for await (const raw of lines) {
    line += 1;
    const text = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (text.trim() === '') continue;
    if (pending) {
      if (pending.action === 'update')
        batch.refuse('update', pending.meta, 'illegal_argument_exception', NOT_STORED);
      else batch.add(pending.action, pending.meta, line, text);
      pending = null;
      continue;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw new ElasticError(400, 'x_content_parse_exception', `Malformed action/metadata line [${line}]`);
    }
    const [action, ...others] = isObject(value) ? Object.keys(value) : [];
    if (!action || others.length > 0 || !BULK_ACTIONS.includes(action as BulkAction)) {
      throw new ElasticError(
        400,
        'illegal_argument_exception',
        `Malformed action/metadata line [${line}], expected one of ${BULK_ACTIONS.join(', ')}`,
      );
    }
    const meta = (value as Json)[action];
    if (!isObject(meta)) {
      throw new ElasticError(400, 'illegal_argument_exception', `Malformed action/metadata line [${line}]`);
    }
    if (action === 'delete') batch.refuse('delete', meta, 'illegal_argument_exception', NOT_STORED);
    else pending = { action: action as BulkAction, meta, line };
  }
  if (pending) {
    throw new ElasticError(
      400,
      'illegal_argument_exception',
      `The action on line ${pending.line} has no source line`,
    );
  }
  if (batch.items.length === 0) {
    throw new ElasticError(
      400,
      'action_request_validation_exception',
      'Validation Failed: 1: no requests added;',
    );
  }
}

function clusterInfo(clusterUuid: string) {
  return {
    name: 'vigil',
    cluster_name: CLUSTER_NAME,
    cluster_uuid: clusterUuid,
    version: {
      number: ELASTIC_VERSION,
      build_flavor: 'default',
      build_type: 'docker',
      build_hash: '0000000000000000000000000000000000000000',
      build_date: '2023-11-04T10:04:57.184859352Z',
      build_snapshot: false,
      lucene_version: '9.8.0',
      minimum_wire_compatibility_version: '7.17.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'You Know, for Search',
  };
}

/**
 * Answers for the set-up calls shippers make before sending (templates, ILM policies, ingest
 * pipelines): each exists and a PUT is acknowledged, so they start; nothing is kept.
 */
const PROBES: Record<string, (name: string) => unknown> = {
  '/_index_template/:name': (name) => ({
    index_templates: [{ name, index_template: { index_patterns: [`${name}*`], composed_of: [] } }],
  }),
  '/_template/:name': (name) => ({
    [name]: { order: 0, index_patterns: [`${name}*`], settings: {}, mappings: {}, aliases: {} },
  }),
  '/_component_template/:name': (name) => ({
    component_templates: [{ name, component_template: { template: {} } }],
  }),
  '/_ilm/policy/:name': (name) => ({
    [name]: {
      version: 1,
      modified_date: '2023-11-04T00:00:00.000Z',
      policy: { phases: { hot: { min_age: '0ms', actions: {} } } },
    },
  }),
  '/_ingest/pipeline/:name': (name) => ({
    [name]: { description: 'accepted, not run by Vigil', processors: [] },
  }),
};

/** The Elasticsearch-compatible listener's routes, on an instance of its own. */
async function buildElastic(
  app: FastifyInstance,
  db: Db,
  limit: number,
  rateLimit: { max: number; timeWindow: number | string },
) {
  const tokens = new WeakMap<FastifyRequest, AuthenticatedToken>();
  const clusterUuid = randomUUID();

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { bodyLimit: limit }, (_request, payload, done) => done(null, payload));

  // Clients refuse a server that does not say it is Elasticsearch, errors included.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-elastic-product', 'Elasticsearch');
  });
  app.addHook('onRequest', async (request) => {
    const presented = presentedToken(request.headers.authorization);
    const token = presented ? await authenticateInputToken(db, presented, ['API']) : null;
    if (!token) {
      throw new ElasticError(
        401,
        'security_exception',
        `missing or invalid API token for REST request [${request.url}]`,
      );
    }
    tokens.set(request, token);
  });
  // After authentication (pre-handler), so that each token has its own budget, as on the ingest API.
  // Shippers back off and retry on 429.
  await app.register(fastifyRateLimit, {
    hook: 'preHandler',
    max: rateLimit.max,
    timeWindow: rateLimit.timeWindow,
    keyGenerator: (request) => `elastic:${tokens.get(request)?.tokenId ?? request.ip}`,
    errorResponseBuilder: (_request, context) =>
      new ElasticError(
        429,
        'es_rejected_execution_exception',
        `rejected: more than ${context.max} requests per ${context.after} for this token`,
      ),
  });

  app.setErrorHandler((error: unknown, request, reply) => {
    let status = 500;
    let reason = 'internal error';
    let type = 'exception';
    if (error instanceof ElasticError) {
      ({ status, type } = error);
      reason = error.message;
    } else if (
      error instanceof AppError ||
      typeof (error as { statusCode?: unknown }).statusCode === 'number'
    ) {
      status = error instanceof AppError ? error.status : (error as { statusCode: number }).statusCode;
      reason = (error as Error).message;
      type = ERROR_TYPE_BY_STATUS[status] ?? 'illegal_argument_exception';
    }
    if (status >= 500) request.log.error({ err: error }, 'elasticsearch listener request failed');
    if (status === 401) reply.header('www-authenticate', 'Basic realm="vigil"');
    return reply.code(status).send(errorBody(status, type, reason));
  });
  app.setNotFoundHandler((request, reply) => {
    const reason = `no handler found for uri [${request.url}] and method [${request.method}]`;
    return reply.code(404).send(errorBody(404, ERROR_TYPE_BY_STATUS[404]!, reason));
  });

  const info = clusterInfo(clusterUuid);
  app.get('/', async () => info);
  app.get('/_cat/health', async (request, reply) => {
    const now = new Date();
    const row = {
      epoch: String(Math.floor(now.getTime() / 1000)),
      timestamp: now.toISOString().slice(11, 19),
      cluster: CLUSTER_NAME,
      status: 'green',
    };
    if ((request.query as { format?: string }).format === 'json') return [row];
    return reply.type('text/plain; charset=UTF-8').send(`${Object.values(row).join(' ')}\n`);
  });
  app.get('/_cluster/health', async () => ({
    cluster_name: CLUSTER_NAME,
    status: 'green',
    timed_out: false,
    number_of_nodes: 1,
    number_of_data_nodes: 1,
  }));
  const license = { uid: clusterUuid, type: 'basic', mode: 'basic', status: 'active' };
  app.get('/_license', async () => ({
    license: {
      ...license,
      issued_to: CLUSTER_NAME,
      issuer: 'elasticsearch',
      max_nodes: 1000,
      start_date_in_millis: -1,
    },
  }));
  app.get('/_xpack', async () => ({
    build: { hash: info.version.build_hash, date: info.version.build_date },
    license,
    features: { ilm: { available: true, enabled: true }, security: { available: true, enabled: true } },
  }));
  for (const [url, answer] of Object.entries(PROBES)) {
    app.get(url, async (request) => answer((request.params as { name: string }).name));
    app.put(url, async () => ({ acknowledged: true }));
  }

  const bulk = async (request: FastifyRequest) => {
    const started = Date.now();
    const token = tokens.get(request)!;
    const contentLength = Number(request.headers['content-length']);
    if (Number.isFinite(contentLength) && contentLength > limit) throw payloadTooLarge(limit);
    const body = request.body as Readable | undefined;
    if (!body) throw new ElasticError(400, 'parse_exception', 'request body is required');
    const batch = new BulkBatch(token.orgId, (request.params as { index?: string }).index);
    try {
      await readBulk(readLines(decodedBody(request, body, limit)), batch);
    } catch (error) {
      throw error instanceof ElasticError ? error : streamFailure(error);
    }
    await ingestEventRows(db, token.orgId, batch.rows, request.log);
    return { took: Date.now() - started, errors: batch.errors, items: batch.items };
  };
  for (const url of ['/_bulk', '/:index/_bulk']) {
    app.post(url, bulk);
    app.put(url, bulk);
  }
}

/** Starts the Elasticsearch-compatible listener; events enter through the one ingest pipeline. */
export async function startElasticListener(options: ElasticListenerOptions): Promise<ElasticListener> {
  const limit = options.maxBatchBytes ?? INGEST_MAX_BATCH_BYTES;
  const app = (
    options.log
      ? Fastify({ loggerInstance: options.log, bodyLimit: limit })
      : Fastify({ logger: false, bodyLimit: limit })
  ) as FastifyInstance;
  await buildElastic(app, options.db, limit, options.rateLimit ?? INGEST_RATE_LIMIT);
  await app.listen({ port: options.port, host: options.host ?? '0.0.0.0' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}
