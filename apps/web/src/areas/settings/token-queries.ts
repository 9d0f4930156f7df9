import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { externalTokenAnswerSchema, inputTokenListSchema, type TokenKind } from '@vigil/contracts';
import { apiFetch } from '../../lib/api';

const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

/** Where an installer or API token is created (spec 2 section 7 names them so). */
export const createTokenPath = (orgId: string, kind: 'INSTALLER' | 'API') =>
  `${orgPath(orgId)}${kind === 'INSTALLER' ? '/tokens/installer' : '/token/api'}`;

export const revokeTokenPath = (orgId: string, id: string) =>
  `${orgPath(orgId)}/token/${encodeURIComponent(id)}/revoke`;

export const externalTokenPath = (orgId: string) => `${orgPath(orgId)}/tokens/external`;

export const tokensKey = (orgId: string) => ['settings', orgId, 'input-tokens'] as const;

/** GET /api/org/:orgId/tokens (AUTH_TOKEN_VIEW), newest first. */
export const tokensQuery = (
  orgId: string,
  params: { kind: TokenKind; pageSize: number; pageNumber: number },
) =>
  queryOptions({
    queryKey: [...tokensKey(orgId), 'list', params] as const,
    queryFn: ({ signal }) =>
      apiFetch(
        `${orgPath(orgId)}/tokens?${new URLSearchParams({
          kind: params.kind,
          pageSize: String(params.pageSize),
          pageNumber: String(params.pageNumber),
        }).toString()}`,
        { schema: inputTokenListSchema, signal },
      ),
    placeholderData: keepPreviousData,
  });

/** GET /api/org/:orgId/tokens/external (AUTH_TOKEN_VIEW). */
export const externalTokenQuery = (orgId: string) =>
  queryOptions({
    queryKey: [...tokensKey(orgId), 'external'] as const,
    queryFn: ({ signal }) =>
      apiFetch(externalTokenPath(orgId), { schema: externalTokenAnswerSchema, signal }),
  });
