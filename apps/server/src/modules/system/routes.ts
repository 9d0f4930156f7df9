import { readFileSync } from 'node:fs';
import { CLIENT_ERROR_REPORTS_PER_MINUTE, clientErrorReportSchema, healthSchema } from '@vigil/contracts';
import { sql } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../../db/client';
import { clientErrors } from './tables';

const { version } = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  version: string;
};
export const APP_VERSION = version;

export const systemRoutes =
  (database: Database): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/health',
      {
        config: { auth: 'public' },
        schema: {
          tags: ['system'],
          summary: 'Liveness and database check',
          description:
            'Answers once the database accepts a query; used by load balancers and start-up checks.',
          response: { 200: healthSchema },
        },
      },
      async () => {
        await database.db.execute(sql`SELECT 1`);
        return { status: 'ok' as const, version: APP_VERSION, database: database.kind };
      },
    );

    app.post(
      '/api/client-errors',
      {
        config: {
          auth: 'user',
          rateLimit: {
            max: CLIENT_ERROR_REPORTS_PER_MINUTE,
            timeWindow: 60_000,
            keyGenerator: (request) => request.session?.user.id ?? request.ip,
          },
        },
        schema: {
          tags: ['system'],
          summary: 'Report a failed call seen in the browser',
          description:
            'Status 400 to 599 except 401, with the parameterised path; at most 10 a minute per user.',
          body: clientErrorReportSchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await database.db.insert(clientErrors).values({
          ...request.body,
          userId: request.session!.user.id,
          userAgent: request.headers['user-agent']?.slice(0, 500),
        });
        return reply.status(204).send(null);
      },
    );
  };
