import { randomUUID } from 'node:crypto';
import type { ApiError, ErrorType } from '@vigil/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError, invalidField } from './errors';

/** SQLSTATE classes that mean the input, not the server, was wrong. */
const CONFLICT_STATES = new Set(['23505', '23503', '23P01']);

/** The SQLSTATE of a database error, however deep drivers and drizzle wrap it. */
export function findSqlState(error: unknown): string | undefined {
  for (let current = error; current && typeof current === 'object'; current = (current as Error).cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
  }
  return undefined;
}

/**
 * Runs a write and answers a unique-index violation with `refusal()` (the error of the case a check
 * before the write catches, so that a race ends the same way).
 */
export async function onUniqueViolation<T>(write: () => Promise<T>, refusal: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') throw refusal();
    throw error;
  }
}

function valueAt(source: unknown, path: string[]): unknown {
  let current = source;
  for (const segment of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}

const TYPE_BY_STATUS: Record<number, { type: ErrorType; key: string }> = {
  400: { type: 'ValidatorException', key: 'GENERIC_INVALID_FIELD_VALUE' },
  401: { type: 'AuthenticationException', key: 'NOT_AUTHENTICATED' },
  403: { type: 'AccessDeniedException', key: 'NOT_AUTHORISED' },
  404: { type: 'NotFoundException', key: 'GENERIC_NOT_FOUND' },
  409: { type: 'ConflictException', key: 'GENERIC_CONFLICT' },
  413: { type: 'PayloadTooLargeException', key: 'GENERIC_PAYLOAD_TOO_LARGE' },
  429: { type: 'RateLimitException', key: 'GENERIC_RATE_LIMITED' },
};

/** Turns whatever a handler threw into the AppError the client sees. */
export function toAppError(error: unknown, request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;

  if (hasZodFastifySchemaValidationErrors(error)) {
    const issue = error.validation[0]!;
    const path = issue.instancePath.split('/').filter(Boolean);
    const context = (error as { validationContext?: string }).validationContext ?? 'body';
    const source = {
      body: request.body,
      querystring: request.query,
      params: request.params,
      headers: request.headers,
    }[context];
    const values = (issue.params as { values?: unknown[] }).values;
    return invalidField(
      path.length > 0 ? path.join('.') : context,
      path.length > 0 ? valueAt(source, path) : undefined,
      Array.isArray(values) ? values.map(String) : undefined,
      issue.message,
    );
  }

  const sqlState = findSqlState(error);
  if (sqlState && CONFLICT_STATES.has(sqlState)) {
    return new AppError('ConflictException', 'GENERIC_CONFLICT', 'The change conflicts with existing data');
  }
  if (sqlState?.startsWith('22')) {
    return new AppError('ValidatorException', 'GENERIC_INVALID_FIELD_VALUE', 'A value has the wrong form');
  }

  const statusCode = (error as FastifyError).statusCode;
  if (!sqlState && typeof statusCode === 'number' && statusCode >= 400 && statusCode < 500) {
    const mapped = TYPE_BY_STATUS[statusCode] ?? TYPE_BY_STATUS[400]!;
    return new AppError(mapped.type, mapped.key, (error as Error).message);
  }

  return new AppError('ServerException', 'GENERIC_SERVER_ERROR', 'Unexpected server error', { cause: error });
}

export function sendError(reply: FastifyReply, error: AppError, errorId: string = randomUUID()) {
  const body: ApiError = {
    type: error.type,
    key: error.key,
    message: error.status >= 500 ? 'Unexpected server error' : error.message,
    errorId,
    ...(error.params && { params: error.params }),
    ...(error.field && { field: error.field }),
    ...(error.validValues && { validValues: error.validValues }),
  };
  return reply.status(error.status).type('application/json').send(body);
}

/** One handler for every route: catalogue keys out, internals never. */
export function registerErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error, request);
    const errorId = randomUUID();
    if (appError.status >= 500) {
      request.log.error({ err: error, errorId }, 'request failed');
    } else {
      request.log.info({ errorId, key: appError.key, status: appError.status }, appError.message);
    }
    return sendError(reply, appError, errorId);
  });
}
