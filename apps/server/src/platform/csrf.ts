import type { FastifyInstance } from 'fastify';
import { accessDenied } from './errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** False for machine-to-machine routes authenticated by a token rather than the session cookie. */
    csrf?: boolean;
  }
}

/**
 * A cross-site form cannot set custom headers, so a state-changing API request must carry
 * X-Requested-With; a browser's Origin header, when sent, must be this server's own.
 */
export function registerCsrfGuard(app: FastifyInstance, publicUrl?: string) {
  const allowedOrigin = publicUrl ? new URL(publicUrl).origin : undefined;
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method) || !request.url.startsWith('/api/')) return;
    if (request.routeOptions.config.csrf === false) return;
    if (!request.headers['x-requested-with']) {
      throw accessDenied('CSRF_HEADER_MISSING', 'State-changing requests need the X-Requested-With header');
    }
    const origin = request.headers.origin;
    if (origin && origin !== allowedOrigin && origin !== `${request.protocol}://${request.host}`) {
      throw accessDenied('CSRF_ORIGIN_REFUSED', `Origin ${origin} may not change data here`);
    }
  });
}
