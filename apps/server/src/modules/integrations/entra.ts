import { validationFailed } from '../../platform/errors';

/** Where Entra ID's token endpoint and Microsoft Graph live (configurable for tests and sovereign clouds). */
export interface EntraEndpoints {
  loginUrl: string;
  graphUrl: string;
}

export const DEFAULT_ENTRA_ENDPOINTS: EntraEndpoints = {
  loginUrl: 'https://login.microsoftonline.com',
  graphUrl: 'https://graph.microsoft.com',
};

const TIMEOUT_MS = 15_000;
const trim = (url: string) => url.replace(/\/+$/, '');

const loginFailed = (detail: string) =>
  validationFailed('ENTRA_LOGIN_VALIDATION_FAILED', `Login validation failed: ${detail}`, {
    field: 'secrets.secretValue',
  });
const graphFailed = (detail: string) =>
  validationFailed('ENTRA_GRAPH_VALIDATION_FAILED', `Graph validation failed: ${detail}`);

/**
 * Checks Entra ID credentials the way collection uses them: a client-credentials token request for
 * Graph (login validation; fails on wrong tenant, application or secret), then a Graph call reading
 * the organisation (graph validation; fails when the application lacks the permission).
 */
export async function validateEntraCredentials(
  endpoints: EntraEndpoints,
  credentials: { tenantId: string; applicationId: string; secretValue: string },
): Promise<void> {
  const graph = trim(endpoints.graphUrl);
  let token: string;
  try {
    const response = await fetch(
      `${trim(endpoints.loginUrl)}/${encodeURIComponent(credentials.tenantId)}/oauth2/v2.0/token`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          grant_type: 'client_credentials',
          client_id: credentials.applicationId,
          client_secret: credentials.secretValue,
          scope: `${graph}/.default`,
        }),
        signal: AbortSignal.timeout(TIMEOUT_MS),
      },
    );
    const body = (await response.json().catch(() => ({}))) as { access_token?: unknown; error?: unknown };
    if (!response.ok || typeof body.access_token !== 'string') {
      throw loginFailed(typeof body.error === 'string' ? body.error : `status ${response.status}`);
    }
    token = body.access_token;
  } catch (error) {
    if (error instanceof Error && error.name === 'AppError') throw error;
    throw loginFailed((error as Error).message);
  }
  let response: Response;
  try {
    response = await fetch(`${graph}/v1.0/organization?$select=id,displayName`, {
      headers: { authorization: `Bearer ${token}`, accept: 'application/json' },
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    throw graphFailed((error as Error).message);
  }
  if (!response.ok) throw graphFailed(`status ${response.status}`);
}
