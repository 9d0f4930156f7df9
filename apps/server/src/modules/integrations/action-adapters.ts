import { SYMXCHANGE_MAX_WARNING_CODES, type ActionProvider, type ActionType } from '@vigil/contracts';
import { AppError, validationFailed } from '../../platform/errors';

export interface ProviderConnection {
  provider: ActionProvider;
  apiBaseUrl: string;
  authBaseUrl: string;
  clientId: string;
  clientSecret: string;
}

export interface ProviderCall {
  type: ActionType;
  value: string;
  warningCode: number | null;
}

/** What was sent and answered, as the pending action records it (never the token or secret). */
export interface Exchange {
  request: Record<string, unknown>;
  response: Record<string, unknown>;
}

const TIMEOUT_MS = 15_000;
const trim = (url: string) => url.replace(/\/+$/, '');

export const providerFailed = (provider: ActionProvider, detail: string) =>
  new AppError('ServerException', 'ACTION_PROVIDER_FAILED', `${provider}: ${detail}`, {
    params: { provider, detail },
  });

/** A client-credentials token from the provider's authentication base URL. */
async function accessToken(connection: ProviderConnection): Promise<string> {
  let response: Response;
  try {
    response = await fetch(`${trim(connection.authBaseUrl)}/oauth2/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'client_credentials',
        client_id: connection.clientId,
        client_secret: connection.clientSecret,
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw providerFailed(connection.provider, `authentication unreachable: ${(error as Error).message}`);
  }
  const body = (await response.json().catch(() => ({}))) as { access_token?: unknown };
  if (!response.ok || typeof body.access_token !== 'string') {
    throw providerFailed(connection.provider, `authentication refused (status ${response.status})`);
  }
  return body.access_token;
}

async function send(
  connection: ProviderConnection,
  token: string,
  method: string,
  path: string,
  payload?: object,
): Promise<{ status: number; body: unknown; request: Record<string, unknown> }> {
  const request = { method, url: `${trim(connection.apiBaseUrl)}${path}`, ...(payload && { body: payload }) };
  let response: Response;
  try {
    response = await fetch(request.url, {
      method,
      headers: {
        authorization: `Bearer ${token}`,
        accept: 'application/json',
        ...(payload && { 'content-type': 'application/json' }),
      },
      ...(payload && { body: JSON.stringify(payload) }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw providerFailed(connection.provider, `unreachable: ${(error as Error).message}`);
  }
  const text = await response.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    // Kept as text.
  }
  if (!response.ok)
    throw providerFailed(connection.provider, `${method} ${path} answered ${response.status}`);
  return { status: response.status, body, request };
}

const path = (...parts: string[]) => parts.map((part) => `/${encodeURIComponent(part)}`).join('');

/**
 * The provider request of an action and of its undo. Symxchange: warning codes on an account (at most
 * 20: the account's codes are read first); Apiture (ADB): the online-banking user's state; Q2: the
 * user's disable and enable calls.
 */
export async function callProvider(
  connection: ProviderConnection,
  call: ProviderCall,
  undo: boolean,
): Promise<Exchange> {
  const token = await accessToken(connection);
  const done = async (method: string, route: string, payload?: object) => {
    const answer = await send(connection, token, method, route, payload);
    return { request: answer.request, response: { status: answer.status, body: answer.body } };
  };
  switch (connection.provider) {
    case 'SYMXCHANGE': {
      const codes = path('accounts', call.value, 'warning-codes');
      if (undo) return done('DELETE', `${codes}/${call.warningCode}`);
      const current = await send(connection, token, 'GET', codes);
      const list = (current.body as { codes?: unknown } | null)?.codes;
      if (
        Array.isArray(list) &&
        list.length >= SYMXCHANGE_MAX_WARNING_CODES &&
        !list.includes(call.warningCode)
      ) {
        throw validationFailed('SYMXCHANGE_TOO_MANY_WARNING_CODES', 'The account has 20 warning codes', {
          params: { account: call.value },
        });
      }
      return done('POST', codes, { code: call.warningCode });
    }
    case 'APITURE':
      return done('PUT', `${path('users', call.value)}/state`, { state: undo ? 'enabled' : 'disabled' });
    case 'Q2':
      return done('POST', `${path('users', call.value)}/${undo ? 'enable' : 'disable'}`);
  }
}
