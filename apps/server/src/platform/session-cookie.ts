import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from './access';

/** Secure cookies once the server is reached over HTTPS (directly or behind a proxy). */
const isSecure = (request: FastifyRequest) => request.protocol === 'https';

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure over HTTPS; it lasts as long as the browser. */
export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
  });
}

export function clearSessionCookie(request: FastifyRequest, reply: FastifyReply) {
  reply.clearCookie(SESSION_COOKIE, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: isSecure(request),
  });
}
