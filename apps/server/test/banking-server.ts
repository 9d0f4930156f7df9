import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  path: string;
  authorization?: string;
  body: unknown;
}

export interface LocalBankingServer {
  url: string;
  /** API requests received (token requests excluded). */
  requests: RecordedRequest[];
  /** Warning codes per account, as Symxchange holds them. */
  warningCodes: Map<string, number[]>;
  /** Online-banking users' states (Apiture) and disabled users (Q2). */
  userStates: Map<string, string>;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body?: object) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(body === undefined ? '' : JSON.stringify(body));
};

/**
 * A loopback stand-in for a banking platform's API that records what it receives: the
 * client-credentials token endpoint (`/oauth2/token`, client `vigil` / `provider-secret`), Symxchange's
 * warning codes of an account, Apiture's user state and Q2's user disable and enable calls.
 */
export async function startLocalBankingServer(): Promise<LocalBankingServer> {
  const requests: RecordedRequest[] = [];
  const warningCodes = new Map<string, number[]>();
  const userStates = new Map<string, string>();
  const token = 'provider-token-1';
  const server = createServer((request, response) => {
    void (async () => {
      let text = '';
      for await (const chunk of request) text += String(chunk);
      const url = new URL(request.url ?? '/', 'http://localhost');
      if (request.method === 'POST' && url.pathname === '/oauth2/token') {
        const form = new URLSearchParams(text);
        const ok = form.get('client_id') === 'vigil' && form.get('client_secret') === 'provider-secret';
        return ok
          ? json(response, 200, { access_token: token, token_type: 'Bearer', expires_in: 300 })
          : json(response, 401, { error: 'invalid_client' });
      }
      const body = text ? (JSON.parse(text) as unknown) : null;
      requests.push({
        method: request.method!,
        path: url.pathname,
        authorization: request.headers.authorization,
        body,
      });
      if (request.headers.authorization !== `Bearer ${token}`)
        return json(response, 401, { error: 'unauthorized' });
      const parts = url.pathname.split('/').slice(1).map(decodeURIComponent);
      if (parts[0] === 'accounts' && parts[2] === 'warning-codes') {
        const codes = warningCodes.get(parts[1]!) ?? [];
        if (request.method === 'GET') return json(response, 200, { codes });
        if (request.method === 'POST') {
          warningCodes.set(parts[1]!, [...new Set([...codes, (body as { code: number }).code])]);
          return json(response, 201, { account: parts[1], codes: warningCodes.get(parts[1]!) });
        }
        if (request.method === 'DELETE') {
          warningCodes.set(
            parts[1]!,
            codes.filter((code) => code !== Number(parts[3])),
          );
          return json(response, 204);
        }
      }
      if (parts[0] === 'users' && parts[1] === 'blocked-user')
        return json(response, 422, { error: 'locked' });
      if (parts[0] === 'users' && request.method === 'PUT' && parts[2] === 'state') {
        userStates.set(parts[1]!, (body as { state: string }).state);
        return json(response, 200, { user: parts[1], state: userStates.get(parts[1]!) });
      }
      if (
        parts[0] === 'users' &&
        request.method === 'POST' &&
        (parts[2] === 'disable' || parts[2] === 'enable')
      ) {
        userStates.set(parts[1]!, `${parts[2]}d`);
        return json(response, 200, { user: parts[1], state: userStates.get(parts[1]!) });
      }
      json(response, 404, { error: 'not_found' });
    })().catch(() => json(response, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    warningCodes,
    userStates,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
