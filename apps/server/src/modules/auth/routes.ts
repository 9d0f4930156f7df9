import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import {
  currentUserSchema,
  forgotPasswordRequestSchema,
  knowledgeBaseLoginResponseSchema,
  loginResponseSchema,
  passwordChangeRequestSchema,
  passwordCheckResponseSchema,
  passwordResetRequestSchema,
  totpSetupResponseSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessOf } from '../../platform/access';
import { AppError } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { isCommonPassword } from '../../platform/password-strength';
import { clearSessionCookie, setSessionCookie } from '../../platform/session-cookie';
import {
  beginTotpSetup,
  beginWebauthnLogin,
  beginWebauthnRegistration,
  changePassword,
  confirmTotpSetup,
  currentUser,
  finishWebauthnLogin,
  finishWebauthnRegistration,
  knowledgeBaseLogin,
  login,
  loginWithTotp,
  requestPasswordReset,
  resetPassword,
  removeOwnSecondFactor,
  resetSecondFactor,
  type AuthDeps,
  type RequestOrigin,
} from './service';
import { manageableUser } from '../users/service';
import { createSession, deleteSession } from './sessions';

export interface AuthRouteDeps extends AuthDeps {
  /** The address users reach Vigil at; PUBLIC_URL or, without it, the request's own. */
  publicUrl(request: FastifyRequest): string;
}

const tags = ['auth'];
const noContent = { 204: z.null().describe('Done') };
// WebAuthn JSON is checked by @simplewebauthn; here it only has to be an object with an id.
const webauthnResponseSchema = z.looseObject({
  id: z.string(),
  rawId: z.string(),
  type: z.string(),
  response: z.looseObject({}),
});
const webauthnOptionsSchema = z.object({ options: z.looseObject({ challenge: z.string() }) });
/** WebAuthn options as the loose JSON object the response schema describes. */
const asOptions = (options: { challenge: string }) => ({
  options: { ...options } as { challenge: string; [key: string]: unknown },
});
// Forgot-password answers the same for every e-mail; this bounds how fast anyone can ask.
const forgotRateLimit = { max: 5, timeWindow: '1 minute' };

function parseBasicAuth(header: string | undefined): { email: string; password: string } | null {
  const match = /^Basic ([A-Za-z0-9+/=]+)$/.exec(header ?? '');
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const separator = decoded.indexOf(':');
  if (separator <= 0) return null;
  return { email: decoded.slice(0, separator), password: decoded.slice(separator + 1) };
}

export const authRoutes =
  (deps: AuthRouteDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const originOf = (request: FastifyRequest): RequestOrigin => ({
      ip: request.ip,
      userAgent: request.headers['user-agent'],
      publicUrl: deps.publicUrl(request),
    });
    const pendingOf = (request: FastifyRequest) =>
      request.pendingSession
        ? { sessionId: request.pendingSession.sessionId, userId: request.pendingSession.user.id }
        : null;
    const sessionOf = (request: FastifyRequest) => {
      if (!request.session)
        throw new AppError('AuthenticationException', 'NOT_AUTHENTICATED', 'Sign in to continue');
      return request.session;
    };

    app.post(
      '/api/user/login',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Sign in with e-mail and password',
          description:
            'Authorization: Basic base64(email:password). Sets the session cookie. When `secondFactorRequired` is true the ' +
            'session is pending: finish it with the one-time code or the security key within 10 minutes. A wrong password ' +
            'and an unknown e-mail both answer 401 LOGIN_FAILED; too many failures per account or address answer 429 ' +
            'LOGIN_RATE_LIMITED.',
          response: { 200: loginResponseSchema },
        },
      },
      async (request, reply) => {
        const credentials = parseBasicAuth(request.headers.authorization);
        if (!credentials)
          throw new AppError('AuthenticationException', 'LOGIN_FAILED', 'Basic credentials missing');
        // Rotation: whatever session the browser had before ends here.
        if (request.session) await deleteSession(deps.db, request.session.sessionId);
        if (request.pendingSession) await deleteSession(deps.db, request.pendingSession.sessionId);
        const result = await login(deps, credentials.email, credentials.password, originOf(request));
        setSessionCookie(request, reply, result.token);
        return result.response;
      },
    );

    app.post(
      '/api/user/login/google2fa',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Second factor: the one-time code',
          description:
            'Text body: the six-digit code. Finishes a pending sign-in (and a first-time authenticator set-up). A code is ' +
            'accepted once. 401 SECOND_FACTOR_EXPIRED when no sign-in is pending; 400 INVALID_TOTP for a wrong code.',
          body: z.string().max(64),
          response: { 200: currentUserSchema },
        },
      },
      async (request, reply) => {
        const result = await loginWithTotp(deps, pendingOf(request), request.body.trim(), originOf(request));
        setSessionCookie(request, reply, result.token);
        return result.user;
      },
    );

    app.post(
      '/api/user/login/webauthn/begin',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Second factor: security-key challenge',
          description: 'Answers the WebAuthn request options for the pending sign-in.',
          response: { 200: webauthnOptionsSchema },
        },
      },
      async (request) => asOptions(await beginWebauthnLogin(deps, pendingOf(request), originOf(request))),
    );

    app.post(
      '/api/user/login/webauthn/finish',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Second factor: security-key answer',
          description:
            'Body: the WebAuthn authentication response. Finishes the pending sign-in; 401 LOGIN_FAILED otherwise.',
          body: webauthnResponseSchema,
          response: { 200: currentUserSchema },
        },
      },
      async (request, reply) => {
        const result = await finishWebauthnLogin(
          deps,
          pendingOf(request),
          request.body as unknown as AuthenticationResponseJSON,
          originOf(request),
        );
        setSessionCookie(request, reply, result.token);
        return result.user;
      },
    );

    app.post(
      '/api/user/logout',
      {
        config: { auth: 'public' },
        schema: {
          tags,
          summary: 'Sign out',
          description: 'Ends the session and clears its cookie.',
          response: noContent,
        },
      },
      async (request, reply) => {
        const session = request.session ?? request.pendingSession;
        if (session) await deleteSession(deps.db, session.sessionId);
        clearSessionCookie(request, reply);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/user',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'The signed-in user',
          description: '401 when signed out.',
          response: { 200: currentUserSchema },
        },
      },
      async (request) => currentUser(deps.db, sessionOf(request).user.id),
    );

    app.post(
      '/api/user/update-token',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Renew the session token',
          description: 'Replaces the session cookie with a new token.',
          response: noContent,
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        const origin = originOf(request);
        await deleteSession(deps.db, session.sessionId);
        const token = await createSession(deps.db, {
          userId: session.user.id,
          ip: origin.ip,
          userAgent: origin.userAgent,
        });
        setSessionCookie(request, reply, token);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/heartbeat',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Keep the session alive',
          description: 'Sent every 10 minutes by an open console.',
          response: noContent,
        },
      },
      async (_request, reply) => reply.status(204).send(null),
    );

    const forgot = async (request: FastifyRequest, email: string) => {
      await requestPasswordReset(deps, email, originOf(request));
    };
    app.post(
      '/api/user/forgot',
      {
        config: { auth: 'public', rateLimit: forgotRateLimit },
        schema: {
          tags,
          summary: 'Mail a password-reset link',
          description: 'Always answers 204, whether or not the e-mail belongs to a user.',
          body: forgotPasswordRequestSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        await forgot(request, request.body.email);
        return reply.status(204).send(null);
      },
    );
    app.post(
      '/api/user/email/:email/forgot',
      {
        config: { auth: 'public', rateLimit: forgotRateLimit },
        schema: {
          tags,
          summary: 'Mail a password-reset link (e-mail in the path)',
          description: 'Always answers 204.',
          params: forgotPasswordRequestSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        await forgot(request, request.params.email);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/user/password-check',
      {
        config: { auth: 'public', rateLimit: { max: 60, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Is a password a known common one?',
          description: 'Checks the offline list of common and breached passwords; a warning, not a refusal.',
          body: z.object({ password: z.string().max(4096) }),
          response: { 200: passwordCheckResponseSchema },
        },
      },
      async (request) => ({ common: isCommonPassword(request.body.password) }),
    );

    app.post(
      '/api/user/password-reset',
      {
        config: { auth: 'public', rateLimit: { max: 10, timeWindow: '1 minute' } },
        schema: {
          tags,
          summary: 'Set a new password through a reset or new-user link',
          description:
            '`id` and `confirmation` come from the mailed link, which works once and for 24 hours. Every session of the ' +
            'user ends. 400 PASSWORD_LINK_INVALID, or the key of the broken password rule.',
          body: passwordResetRequestSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        await resetPassword(deps, request.body, originOf(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/user/:id/password',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Change your own password',
          description:
            'Needs the current password. Ends every session of the user and renews this one. 400 PASSWORD_CURRENT_INVALID ' +
            'or the key of the broken password rule.',
          params: orgParamsSchema.extend({ id: z.string() }),
          body: passwordChangeRequestSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        const { user } = accessOf(request);
        if (request.params.id !== user.id) {
          throw new AppError(
            'AccessDeniedException',
            'PERMISSION_DENIED',
            'Users change only their own password here',
          );
        }
        const token = await changePassword(deps, user.id, request.body, originOf(request));
        setSessionCookie(request, reply, token);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/user/google2fa/setup',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Start setting up an authenticator app',
          description:
            'Answers a new secret and its otpauth URI; it replaces the current one once confirmed with a code.',
          response: { 200: totpSetupResponseSchema },
        },
      },
      async (request) => beginTotpSetup(deps, sessionOf(request).user.id),
    );

    app.post(
      '/api/user/google2fa/confirm',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Confirm the authenticator app with a code',
          description: 'Text body: the six-digit code. 400 INVALID_TOTP for a wrong code.',
          body: z.string().max(64),
          response: noContent,
        },
      },
      async (request, reply) => {
        await confirmTotpSetup(deps, sessionOf(request).user.id, request.body.trim(), originOf(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/user/webauthn/register/begin',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Start registering a security key',
          description: 'Answers the WebAuthn creation options.',
          response: { 200: webauthnOptionsSchema },
        },
      },
      async (request) => {
        const session = sessionOf(request);
        return asOptions(
          await beginWebauthnRegistration(deps, session.sessionId, session.user.id, originOf(request)),
        );
      },
    );

    app.post(
      '/api/user/webauthn/register/finish',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Finish registering a security key',
          description: 'Body: the WebAuthn registration response.',
          body: webauthnResponseSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        const session = sessionOf(request);
        await finishWebauthnRegistration(
          deps,
          session.sessionId,
          session.user.id,
          request.body as unknown as RegistrationResponseJSON,
          originOf(request),
        );
        return reply.status(204).send(null);
      },
    );

    for (const kind of ['google2fa', 'u2f'] as const) {
      app.post(
        `/api/org/:orgId/user/:id/${kind}/reset`,
        {
          config: { access: { permission: 'USER_EDIT' } },
          schema: {
            tags,
            summary:
              kind === 'google2fa' ? "Reset a user's authenticator app" : "Remove a user's security keys",
            description:
              "For administrators of the user's home organisation; 404 for users of other organisations.",
            params: orgParamsSchema.extend({ id: z.string().uuid() }),
            response: noContent,
          },
        },
        async (request, reply) => {
          const access = accessOf(request);
          // Hidden people, other organisations' users and stronger accounts are refused as elsewhere.
          await manageableUser(deps.db, access, request.params.id);
          await resetSecondFactor(deps, access.org.id, request.params.id, kind, {
            userId: access.user.id,
            ip: request.ip,
          });
          return reply.status(204).send(null);
        },
      );
    }

    for (const kind of ['google2fa', 'u2f'] as const) {
      app.post(
        `/api/user/${kind}/remove`,
        {
          config: { auth: 'user' },
          schema: {
            tags,
            summary: kind === 'google2fa' ? 'Remove your authenticator app' : 'Remove your security keys',
            description:
              'Needs the current password (400 PASSWORD_CURRENT_INVALID). Where the organisation requires two-factor ' +
              'sign-in, the next sign-in sets up an authenticator again.',
            body: z.object({ requiredPassword: z.string().max(4096) }),
            response: noContent,
          },
        },
        async (request, reply) => {
          await removeOwnSecondFactor(
            deps,
            sessionOf(request).user.id,
            kind,
            request.body.requiredPassword,
            originOf(request),
          );
          return reply.status(204).send(null);
        },
      );
    }

    app.get(
      '/api/knowledge-base-login',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Sign-in address of the knowledge base',
          description:
            'Answers the knowledge base URL with a signed, five-minute sign-in token and the return path `r`.',
          querystring: z.object({ r: z.string().max(2048).optional() }),
          response: { 200: knowledgeBaseLoginResponseSchema },
        },
      },
      async (request) => knowledgeBaseLogin(deps, sessionOf(request).user.id, request.query.r),
    );
  };
