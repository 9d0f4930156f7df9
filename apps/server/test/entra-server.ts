import { randomBytes } from 'node:crypto';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TestApplication {
  tenantId: string;
  applicationId: string;
  secret: string;
  /** Whether the application was granted Organization.Read.All on Graph. */
  graphPermission: boolean;
}

export interface LocalEntraServer {
  /** Base of the token endpoint (`<url>/<tenant>/oauth2/v2.0/token`) and of Graph (`<url>/v1.0/...`). */
  url: string;
  register(application: TestApplication): void;
  close(): Promise<void>;
}

const json = (response: ServerResponse, status: number, body: object) => {
  response.writeHead(status, { 'content-type': 'application/json' });
  response.end(JSON.stringify(body));
};

/**
 * A small OAuth2 authorisation server with a Graph-like endpoint on loopback, as Entra ID answers:
 * the client-credentials grant at `/<tenant>/oauth2/v2.0/token` (AADSTS-style errors for unknown
 * tenants, applications or secrets) and `GET /v1.0/organization`, which needs a bearer token of an
 * application granted the permission (403 Authorization_RequestDenied otherwise).
 */
export async function startLocalEntraServer(): Promise<LocalEntraServer> {
  const applications: TestApplication[] = [];
  const tokens = new Map<string, TestApplication>();
  const server = createServer((request, response) => {
    void (async () => {
      const url = new URL(request.url ?? '/', 'http://localhost');
      const tokenPath = /^\/([^/]+)\/oauth2\/v2\.0\/token$/.exec(url.pathname);
      if (request.method === 'POST' && tokenPath) {
        let text = '';
        for await (const chunk of request) text += String(chunk);
        const form = new URLSearchParams(text);
        const tenant = decodeURIComponent(tokenPath[1]!);
        if (form.get('grant_type') !== 'client_credentials') {
          return json(response, 400, { error: 'unsupported_grant_type' });
        }
        if (!applications.some((app) => app.tenantId === tenant)) {
          return json(response, 400, {
            error: 'invalid_request',
            error_description: 'AADSTS90002: Tenant not found.',
          });
        }
        const app = applications.find(
          (candidate) => candidate.tenantId === tenant && candidate.applicationId === form.get('client_id'),
        );
        if (!app)
          return json(response, 400, { error: 'unauthorized_client', error_description: 'AADSTS700016' });
        if (app.secret !== form.get('client_secret')) {
          return json(response, 401, {
            error: 'invalid_client',
            error_description: 'AADSTS7000215: Invalid client secret.',
          });
        }
        const token = randomBytes(24).toString('base64url');
        tokens.set(token, app);
        return json(response, 200, { token_type: 'Bearer', expires_in: 3599, access_token: token });
      }
      if (request.method === 'GET' && url.pathname === '/v1.0/organization') {
        const app = tokens.get(String(request.headers.authorization ?? '').replace(/^Bearer /, ''));
        if (!app) return json(response, 401, { error: { code: 'InvalidAuthenticationToken' } });
        if (!app.graphPermission) {
          return json(response, 403, {
            error: { code: 'Authorization_RequestDenied', message: 'Insufficient privileges' },
          });
        }
        return json(response, 200, { value: [{ id: app.tenantId, displayName: 'Test Bank' }] });
      }
      json(response, 404, { error: 'not_found' });
    })().catch(() => json(response, 500, { error: 'server_error' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    register: (application) => void applications.push(application),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
