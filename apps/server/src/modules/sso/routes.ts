import { samlEnabledResponseSchema } from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { toAppError } from '../../platform/error-handler';
import { setSessionCookie } from '../../platform/session-cookie';
import { createSession } from '../auth/sessions';
import { recordSignIn } from './repo';
import { SamlService, type SamlFailure } from './service';

export interface SsoRouteDeps {
  db: Db;
  /**
   * The server's public base URL, e.g. `https://vigil.example.com`. The service provider's entity id
   * (the expected audience) and ACS URL derive from it, so it must come from configuration, not
   * from request headers, wherever the server is reachable under a name an attacker can choose.
   */
  publicUrl: (request: FastifyRequest) => string;
}

const LANDING_PAGE = '/dashboards/default';
const LOGIN_FAILED_PAGE = '/login?error=SAML_LOGIN_FAILED';
/** A signed response is a few kilobytes; identity providers that list group claims send more. */
const ACS_BODY_LIMIT = 512 * 1024;
/** Per client address; generous because a whole bank may sign in from one egress address. */
const RATE_LIMIT = { max: 300, timeWindow: 60_000 };

const samlEnabledQuerySchema = z.object({ email: z.email().max(320) });
const acsBodySchema = z.object({
  SAMLResponse: z.string().min(1).describe('Base64 SAML 2.0 Response from the identity provider'),
  RelayState: z.string().optional().describe('Accepted and ignored: the landing page is fixed'),
});

interface AuditedFailure extends Omit<SamlFailure, 'ok' | 'reason'> {
  reason: SamlFailure['reason'] | 'malformed_request' | 'server_error';
}

async function auditFailure(db: Db, request: FastifyRequest, failure: AuditedFailure) {
  request.log.info({ reason: failure.reason, detail: failure.detail }, 'SAML sign-in refused');
  await recordActivity(db, {
    orgId: failure.provider?.orgId ?? null,
    action: 'user.login_failed',
    targetType: failure.userId ? 'user' : undefined,
    targetId: failure.userId,
    details: {
      method: 'saml',
      reason: failure.reason,
      providerId: failure.provider?.id,
      email: failure.email,
    },
    ip: request.ip,
  });
}

/** SAML single sign-on: the e-mail check of the login page and the assertion consumer service. */
export const ssoRoutes =
  (deps: SsoRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const saml = new SamlService();

    // Scoped to this plugin: an identity provider's browser form is the only urlencoded body the API takes.
    app.addContentTypeParser(
      'application/x-www-form-urlencoded',
      { parseAs: 'string', bodyLimit: ACS_BODY_LIMIT },
      (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body.toString()))),
    );

    app.get(
      '/api/user/saml-enabled',
      {
        config: { auth: 'public', rateLimit: RATE_LIMIT },
        schema: {
          tags: ['auth'],
          summary: 'Whether an e-mail signs in through single sign-on',
          description:
            "Answers from the e-mail's domain alone, so it reveals nothing about whether the user exists. " +
            "When the domain belongs to an organisation's SAML identity provider, the answer carries its " +
            'name, its sign-on URL and a deflated, base64 AuthnRequest for the SAMLRequest query parameter ' +
            '(not URL-encoded). The request is valid for 15 minutes and can be answered once.',
          querystring: samlEnabledQuerySchema,
          response: { 200: samlEnabledResponseSchema },
        },
      },
      async (request, reply) => {
        reply.header('cache-control', 'no-store');
        return saml.checkEmail(deps.db, request.query.email, deps.publicUrl(request));
      },
    );

    app.post(
      '/api/saml/acs',
      {
        // The identity provider's page posts here cross-site, so the CSRF header cannot be there;
        // the signed response bound to a request made here stands in for it.
        config: { auth: 'public', csrf: false, rateLimit: RATE_LIMIT },
        schema: {
          tags: ['auth'],
          summary: 'SAML assertion consumer service',
          description:
            "The identity provider's browser form posts its signed response here " +
            '(application/x-www-form-urlencoded). A valid answer to a sign-in request made by ' +
            '/api/user/saml-enabled, signed by the identity provider of a domain of the user, starts a ' +
            'session and redirects (303) to /dashboards/default; the identity provider is the ' +
            'authenticator, so no second factor is asked. Any failure redirects (303) to ' +
            '/login?error=SAML_LOGIN_FAILED.',
          consumes: ['application/x-www-form-urlencoded'],
          body: acsBodySchema,
        },
        // A browser is on the other end: every failure, including a malformed post, ends on the login page.
        errorHandler: async (error, request, reply) => {
          const appError = toAppError(error, request);
          if (appError.status >= 500) request.log.error({ err: error }, 'SAML sign-in failed');
          // A row per rate-limited post would undo the limit.
          if (appError.status !== 429) {
            const reason = appError.status >= 500 ? 'server_error' : 'malformed_request';
            try {
              await auditFailure(deps.db, request, { reason });
            } catch (auditError) {
              request.log.error({ err: auditError }, 'SAML sign-in failure not audited');
            }
          }
          return reply.redirect(LOGIN_FAILED_PAGE, 303);
        },
      },
      async (request, reply) => {
        const result = await saml.signIn(deps.db, request.body.SAMLResponse, deps.publicUrl(request));
        if (!result.ok) {
          await auditFailure(deps.db, request, result);
          return reply.redirect(LOGIN_FAILED_PAGE, 303);
        }
        const { userId, provider } = result;
        const token = await deps.db.transaction(async (tx) => {
          const sessionToken = await createSession(tx, {
            userId,
            ip: request.ip,
            userAgent: request.headers['user-agent'],
          });
          await recordSignIn(tx, userId);
          await recordActivity(tx, {
            orgId: provider.orgId,
            actorUserId: userId,
            action: 'user.login',
            targetType: 'user',
            targetId: userId,
            details: { method: 'saml', providerId: provider.id },
            ip: request.ip,
          });
          return sessionToken;
        });
        setSessionCookie(request, reply, token);
        return reply.redirect(LANDING_PAGE, 303);
      },
    );
  };
