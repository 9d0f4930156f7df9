import { apiErrorSchema, type ApiError } from '@vigil/contracts';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** The base path of an organisation's calls. */
export const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

/** Anything with a zod-style `parse`, so the schemas of `@vigil/contracts` can be passed as they are. */
export interface ResponseSchema<T> {
  parse(data: unknown): T;
}

export interface ApiFetchOptions<T> {
  method?: HttpMethod;
  /** Sent as JSON. */
  body?: unknown;
  /** Sent as text/plain instead of a JSON body, for example a one-time code. */
  text?: string;
  /** Sent as multipart/form-data instead of a JSON body, for example uploaded files. */
  formData?: FormData;
  /** Extra request headers, for example `Authorization`. */
  headers?: Record<string, string>;
  /** Validates the success body; without it the body is returned unchecked. */
  schema?: ResponseSchema<T>;
  signal?: AbortSignal;
}

/** A failed API call. `error` is the server's error body, or a GENERIC_SERVER_ERROR made up here. */
export class ApiRequestError extends Error {
  override readonly name = 'ApiRequestError';
  readonly status: number;
  readonly error: ApiError;

  constructor(status: number, error: ApiError, options?: ErrorOptions) {
    super(error.message, options);
    this.status = status;
    this.error = error;
  }
}

function serverError(message: string): ApiError {
  return { type: 'ServerException', key: 'GENERIC_SERVER_ERROR', message, errorId: '' };
}

/**
 * Calls whose 401 answer is part of signing in or out: a refused password, an expired second factor or
 * the "who am I" probe. Any other 401 means the session has ended.
 */
export function endsSessionOn401(path: string): boolean {
  const pathname = path.replace(/[?#].*$/s, '');
  return !(
    pathname === '/api/user' ||
    pathname === '/api/user/logout' ||
    pathname === '/api/user/login' ||
    pathname.startsWith('/api/user/login/')
  );
}

type UnauthorizedListener = (path: string) => void;
let unauthorizedListener: UnauthorizedListener | null = null;

/** Registers the one listener told about a 401 answer that ends the session (see `endsSessionOn401`). */
export function setUnauthorizedListener(listener: UnauthorizedListener | null): void {
  unauthorizedListener = listener;
}

/** A call the server refused or failed. */
export interface FailedCall {
  method: HttpMethod;
  path: string;
  status: number;
  error: ApiError;
}

type FailureListener = (failure: FailedCall) => void;
let failureListener: FailureListener | null = null;

/** Registers the one listener told about every error answer, for example to report it. */
export function setFailureListener(listener: FailureListener | null): void {
  failureListener = listener;
}

const NO_BODY = Symbol('no body');
const NOT_JSON = Symbol('not JSON');

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return NO_BODY;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return NOT_JSON;
  }
}

type RequestOptions = Omit<ApiFetchOptions<unknown>, 'schema'> & { accept: string };

/**
 * Sends one request with `X-Requested-With`, which the server's CSRF guard requires on state-changing
 * requests. Answers the response when it is a success; throws `ApiRequestError` for every failure
 * except cancellation.
 */
async function send(path: string, options: RequestOptions): Promise<Response> {
  const { method = 'GET', body, text, formData, signal } = options;
  const headers: Record<string, string> = {
    Accept: options.accept,
    ...options.headers,
    'X-Requested-With': 'XMLHttpRequest',
  };
  // The browser sets multipart/form-data with its boundary itself.
  if (text !== undefined) headers['Content-Type'] = 'text/plain; charset=utf-8';
  else if (formData === undefined && body !== undefined) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: 'same-origin',
      body: text ?? formData ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiRequestError(0, serverError('The server could not be reached.'), { cause });
  }
  if (response.ok) return response;

  let payload: unknown;
  try {
    payload = await readBody(response);
  } catch (cause) {
    if (signal?.aborted) throw cause;
    payload = NOT_JSON;
  }
  if (response.status === 401 && endsSessionOn401(path)) unauthorizedListener?.(path);
  const parsed = apiErrorSchema.safeParse(payload);
  const error = parsed.success ? parsed.data : serverError(`The server answered ${response.status}.`);
  failureListener?.({ method, path, status: response.status, error });
  throw new ApiRequestError(response.status, error);
}

/**
 * Calls the API and reads its JSON answer. Every request carries `X-Requested-With`, which the
 * server's CSRF guard requires on state-changing requests. Throws `ApiRequestError` for every failure
 * except cancellation.
 */
export async function apiFetch<T = unknown>(path: string, options: ApiFetchOptions<T> = {}): Promise<T> {
  const { schema, signal } = options;
  const response = await send(path, { ...options, accept: 'application/json' });
  let payload: unknown;
  try {
    payload = await readBody(response);
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new ApiRequestError(0, serverError('The server could not be reached.'), { cause });
  }
  if (payload === NOT_JSON) {
    throw new ApiRequestError(response.status, serverError('The server answer is not JSON.'));
  }
  const data = payload === NO_BODY ? undefined : payload;
  if (!schema) return data as T;
  try {
    return schema.parse(data);
  } catch (cause) {
    throw new ApiRequestError(response.status, serverError('The server answer has an unexpected shape.'), {
      cause,
    });
  }
}

/**
 * Calls the API for a file, such as a CSV export, and answers it as a Blob. Failures are the JSON
 * errors of `apiFetch`.
 */
export async function apiFetchFile(
  path: string,
  options: Omit<ApiFetchOptions<Blob>, 'schema'> & { accept?: string } = {},
): Promise<Blob> {
  const response = await send(path, { ...options, accept: options.accept ?? 'text/csv, application/json' });
  try {
    return await response.blob();
  } catch (cause) {
    if (options.signal?.aborted) throw cause;
    throw new ApiRequestError(0, serverError('The server could not be reached.'), { cause });
  }
}
