import { vi } from 'vitest';

/** Replaces the browser's fetch with one that answers every call with `body` as JSON. */
export function stubFetchJson(body: unknown, status = 200) {
  const fetchMock = vi.fn(async (_input: RequestInfo | URL, _init?: RequestInit) =>
    Response.json(body, { status }),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

export interface StubAnswer {
  status?: number;
  /** Sent as JSON; none for an empty answer (204). */
  body?: unknown;
}

/** An answer, or a function of the request that gives one. */
export type StubRoute = StubAnswer | ((request: { url: string; init?: RequestInit }) => StubAnswer);

/**
 * Replaces the browser's fetch with a small fake API. Routes are keyed "METHOD /path" or "/path" (any
 * method), without the query string; anything else answers 404.
 */
export function stubApi(routes: Record<string, StubRoute>) {
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const path = url.replace(/\?.*$/s, '');
    const route = routes[`${init?.method ?? 'GET'} ${path}`] ?? routes[path];
    if (!route) {
      const error = { type: 'NotFoundException', key: 'GENERIC_NOT_FOUND', message: url, errorId: 'stub' };
      return Response.json(error, { status: 404 });
    }
    const { status = 200, body } = typeof route === 'function' ? route({ url, init }) : route;
    return body === undefined ? new Response(null, { status }) : Response.json(body, { status });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

/** The error body the server sends with `key`. */
export function apiError(key: string, type = 'ValidatorException') {
  return { type, key, message: key, errorId: 'stub' };
}
