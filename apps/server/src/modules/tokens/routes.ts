import {
  createdInputTokenSchema,
  externalTokenAnswerSchema,
  externalTokenInputSchema,
  inputTokenListSchema,
  inputTokenSchema,
  tokenCreateSchema,
  tokenListQuerySchema,
  vendorCredentialsSchema,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { notAuthenticated } from '../../platform/errors';
import type { SecretBox } from '../../platform/crypto';
import { orgParamsSchema } from '../../platform/http';
import { findExternalToken, listInputTokens } from './repo';
import {
  createInputToken,
  deleteExternalToken,
  replaceExternalToken,
  revokeToken,
  toJson,
  vendorCredentials,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const AUTH_TOKEN_VIEW = { access: { permission: 'AUTH_TOKEN_VIEW' as const } };
const AUTH_TOKEN_EDIT = { access: { permission: 'AUTH_TOKEN_EDIT' as const } };
const TAGS = ['input-tokens'];

const actorOf = (request: FastifyRequest): Actor => {
  const access = accessOf(request);
  return { orgId: access.org.id, userId: access.user.id, ip: request.ip };
};

const CREATE_NOTE =
  'Answers the token with `secret`, the full `<key>.<secret>` collectors present. The secret is shown ' +
  'this once and only its SHA-256 hash is stored. `expiresAt` (optional) must lie in the future (400 ' +
  'TOKEN_EXPIRY_IN_PAST).';

/** Input tokens (spec 2 sections 3, 4 and 7): installer, API and external data-vendor tokens. */
export const tokenRoutes =
  ({ db, secrets }: { db: Db; secrets: SecretBox }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/tokens',
      {
        config: AUTH_TOKEN_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's input tokens",
          description:
            'Newest first, revoked and expired ones included. Filters: kind (INSTALLER, API, EXTERNAL) and ' +
            'state (active, expired, revoked, computed from revokedAt and expiresAt). Paged by pageSize and ' +
            'pageNumber. Never carries a secret, its hash or a cloud secret.',
          params: orgParamsSchema,
          querystring: tokenListQuerySchema,
          response: { 200: inputTokenListSchema },
        },
      },
      async (request) => {
        const { kind, state, pageSize, pageNumber } = request.query;
        const now = new Date();
        const { items, total } = await listInputTokens(
          db,
          accessOf(request).org.id,
          { kind, state, now },
          { limit: pageSize, offset: (pageNumber - 1) * pageSize },
        );
        return { items: items.map((view) => toJson(view, now)), total };
      },
    );

    app.post(
      '/api/org/:orgId/tokens/installer',
      {
        config: AUTH_TOKEN_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a Windows agent installer token',
          description: CREATE_NOTE,
          params: orgParamsSchema,
          body: tokenCreateSchema,
          response: { 201: createdInputTokenSchema },
        },
      },
      async (request, reply) => {
        const token = await createInputToken(db, actorOf(request), 'INSTALLER', request.body);
        return reply.status(201).send(token);
      },
    );

    app.post(
      '/api/org/:orgId/token/api',
      {
        config: AUTH_TOKEN_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create an API (ingest) token',
          description: CREATE_NOTE,
          params: orgParamsSchema,
          body: tokenCreateSchema,
          response: { 201: createdInputTokenSchema },
        },
      },
      async (request, reply) => {
        const token = await createInputToken(db, actorOf(request), 'API', request.body);
        return reply.status(201).send(token);
      },
    );

    app.get(
      '/api/org/:orgId/tokens/external',
      {
        config: AUTH_TOKEN_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's external data-vendor token",
          description:
            '`token` is null when the organisation has none. The cloud secret is never answered; ' +
            '`hasCloudSecret` says one is stored.',
          params: orgParamsSchema,
          response: { 200: externalTokenAnswerSchema },
        },
      },
      async (request) => {
        const view = await findExternalToken(db, accessOf(request).org.id);
        return { token: view ? toJson(view) : null };
      },
    );

    app.put(
      '/api/org/:orgId/tokens/external',
      {
        config: AUTH_TOKEN_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create or replace the external data-vendor token',
          description:
            'An organisation has one external data-vendor token: this call deletes the one it had and ' +
            'creates a new one with a new key and secret (201 when there was none, 200 when replaced). The ' +
            'cloud secret is encrypted at rest and never answered. ' +
            CREATE_NOTE,
          params: orgParamsSchema,
          body: externalTokenInputSchema,
          response: { 200: createdInputTokenSchema, 201: createdInputTokenSchema },
        },
      },
      async (request, reply) => {
        const { token, replaced } = await replaceExternalToken(db, secrets, actorOf(request), request.body);
        return reply.status(replaced ? 200 : 201).send(token);
      },
    );

    app.delete(
      '/api/org/:orgId/tokens/external',
      {
        config: AUTH_TOKEN_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete the external data-vendor token',
          description: 'For good, with its cloud secret. 404 TOKEN_NOT_FOUND when there is none.',
          params: orgParamsSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteExternalToken(db, actorOf(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/token/:id/revoke',
      {
        config: AUTH_TOKEN_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Revoke a token',
          description:
            'For good: the token stops authenticating at once and stays listed as revoked. 404 ' +
            'TOKEN_NOT_FOUND for tokens of other organisations, 409 TOKEN_ALREADY_REVOKED.',
          params: idParams,
          response: { 200: inputTokenSchema },
        },
      },
      async (request) => revokeToken(db, actorOf(request), request.params.id),
    );

    app.get(
      '/api/getCredentials',
      {
        config: { auth: 'public', csrf: false },
        schema: {
          tags: TAGS,
          summary: "An external data vendor's delivery credentials",
          description:
            'Called by an external data vendor with its external data-vendor token: `Authorization: Bearer ' +
            '<key>.<secret>`. Answers the organisation, the queue name and the cloud access key id and secret ' +
            'the vendor delivers data with (the secret is stored encrypted and answered only here). 401 for a ' +
            'missing, malformed, unknown, revoked or expired token and for tokens of other kinds.',
          security: [{ ingestToken: [] }],
          response: { 200: vendorCredentialsSchema },
        },
      },
      async (request, reply) => {
        const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
        const credentials = match ? await vendorCredentials(db, secrets, match[1]!) : null;
        if (!credentials) {
          reply.header('www-authenticate', 'Bearer realm="vigil-vendor"');
          throw notAuthenticated();
        }
        reply.header('cache-control', 'no-store');
        return credentials;
      },
    );
  };
