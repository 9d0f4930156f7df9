import { healthSchema } from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { stubFetchJson } from '../test/fetch-stub';
import { ApiRequestError, apiFetch, apiFetchFile, endsSessionOn401, setUnauthorizedListener } from './api';

describe('apiFetch', () => {
  it('sends JSON with X-Requested-With and the session cookie', async () => {
    const fetchMock = stubFetchJson({ id: 7 }, 201);

    await expect(apiFetch('/api/things', { method: 'POST', body: { name: 'x' } })).resolves.toEqual({
      id: 7,
    });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/things');
    expect(init?.credentials).toBe('same-origin');
    expect(init?.body).toBe('{"name":"x"}');
    expect(new Headers(init?.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
    expect(new Headers(init?.headers).get('Content-Type')).toBe('application/json');
  });

  it('turns an error answer into ApiRequestError with the server key', async () => {
    stubFetchJson(
      {
        type: 'AccessDeniedException',
        key: 'PERMISSION_DENIED',
        message: 'Permission denied',
        errorId: 'abc123',
      },
      403,
    );

    const failure = await apiFetch('/api/org/1/assets').catch((err: unknown) => err);

    expect(failure).toBeInstanceOf(ApiRequestError);
    expect(failure).toMatchObject({ status: 403, error: { key: 'PERMISSION_DENIED', errorId: 'abc123' } });
  });

  it('reports an answer that is not an API error as GENERIC_SERVER_ERROR', async () => {
    vi.stubGlobal('fetch', async () => new Response('<html>Bad gateway</html>', { status: 502 }));

    await expect(apiFetch('/api/health')).rejects.toMatchObject({
      status: 502,
      error: { key: 'GENERIC_SERVER_ERROR' },
    });
  });

  it('reports an unreachable server as GENERIC_SERVER_ERROR', async () => {
    vi.stubGlobal('fetch', async () => {
      throw new TypeError('Failed to fetch');
    });

    await expect(apiFetch('/api/health')).rejects.toMatchObject({
      status: 0,
      error: { key: 'GENERIC_SERVER_ERROR' },
    });
  });

  it('validates the success body against the given schema', async () => {
    stubFetchJson({ status: 'ok', version: '6.55.2', database: 'pglite' });
    await expect(apiFetch('/api/health', { schema: healthSchema })).resolves.toEqual({
      status: 'ok',
      version: '6.55.2',
      database: 'pglite',
    });

    stubFetchJson({ status: 'ok', version: '6.55.2', database: 'oracle' });
    await expect(apiFetch('/api/health', { schema: healthSchema })).rejects.toMatchObject({
      error: { key: 'GENERIC_SERVER_ERROR' },
    });
  });

  it('sends extra headers and a text body as text/plain', async () => {
    const fetchMock = stubFetchJson({ ok: true });

    await apiFetch('/api/user/login/google2fa', {
      method: 'POST',
      text: '123456',
      headers: { Authorization: 'Basic abc' },
    });

    const [, init] = fetchMock.mock.calls[0] ?? [];
    const headers = new Headers(init?.headers);
    expect(init?.body).toBe('123456');
    expect(headers.get('Content-Type')).toBe('text/plain; charset=utf-8');
    expect(headers.get('Authorization')).toBe('Basic abc');
    expect(headers.get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('sends form data as it is, leaving the multipart content type to the browser', async () => {
    const fetchMock = stubFetchJson({ files: 1 });
    const form = new FormData();
    form.append('file', new File(['name\n'], 'assets.csv', { type: 'text/csv' }));

    await expect(apiFetch('/api/org/1/asset-upload', { method: 'POST', formData: form })).resolves.toEqual({
      files: 1,
    });

    const [, init] = fetchMock.mock.calls[0] ?? [];
    expect(init?.body).toBe(form);
    expect(new Headers(init?.headers).has('Content-Type')).toBe(false);
    expect(new Headers(init?.headers).get('X-Requested-With')).toBe('XMLHttpRequest');
  });

  it('answers a file as a Blob, and a JSON error as ApiRequestError', async () => {
    vi.stubGlobal('fetch', async () => new Response('name,ip\nmail,10.0.0.1\n', { status: 200 }));
    const blob = await apiFetchFile('/api/org/1/assets/search', {
      method: 'POST',
      body: { tracked: 'both' },
    });
    await expect(blob.text()).resolves.toBe('name,ip\nmail,10.0.0.1\n');

    stubFetchJson({ type: 'ServerException', key: 'ASSET_UPLOAD_FAILED', message: '', errorId: 'e' }, 500);
    await expect(apiFetchFile('/api/org/1/asset-upload?mode=errors-csv')).rejects.toMatchObject({
      status: 500,
      error: { key: 'ASSET_UPLOAD_FAILED' },
    });
  });

  it('tells the listener about a 401 that ends the session, and not about sign-in refusals', async () => {
    const listener = vi.fn();
    setUnauthorizedListener(listener);
    try {
      stubFetchJson(
        { type: 'AuthenticationException', key: 'NOT_AUTHENTICATED', message: '', errorId: 'e' },
        401,
      );

      await expect(apiFetch('/api/org/1/assets?page=2')).rejects.toMatchObject({ status: 401 });
      await expect(apiFetch('/api/user/login', { method: 'POST' })).rejects.toMatchObject({ status: 401 });
      await expect(apiFetch('/api/user')).rejects.toMatchObject({ status: 401 });

      expect(listener).toHaveBeenCalledTimes(1);
      expect(listener).toHaveBeenCalledWith('/api/org/1/assets?page=2');
    } finally {
      setUnauthorizedListener(null);
    }
  });
});

describe('endsSessionOn401', () => {
  it('excludes the login, logout and current-user calls only', () => {
    expect(endsSessionOn401('/api/user')).toBe(false);
    expect(endsSessionOn401('/api/user?x=1')).toBe(false);
    expect(endsSessionOn401('/api/user/logout')).toBe(false);
    expect(endsSessionOn401('/api/user/login')).toBe(false);
    expect(endsSessionOn401('/api/user/login/google2fa')).toBe(false);
    expect(endsSessionOn401('/api/user/login/webauthn/finish')).toBe(false);
    expect(endsSessionOn401('/api/heartbeat')).toBe(true);
    expect(endsSessionOn401('/api/user/google2fa/setup')).toBe(true);
    expect(endsSessionOn401('/api/user/loginx')).toBe(true);
    expect(endsSessionOn401('/api/orgs')).toBe(true);
  });
});
