import { permissionsResponseSchema, preferencesPatchSchema, preferencesSchema } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { getPreferences, patchPreferences } from './preferences';
import { users } from './tables';

const tags = ['users'];

export const userRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/user/permissions',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Effective permission codes of the signed-in user in this organisation',
          description:
            "The role's codes, each _EDIT code with its _VIEW code; in read-only mode only the _VIEW codes.",
          params: orgParamsSchema,
          response: { 200: permissionsResponseSchema },
        },
      },
      async (request) => ({ permissions: [...accessOf(request).permissions].sort() }),
    );

    app.get(
      '/api/org/:orgId/user/preferences',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Interface preferences of the signed-in user in this organisation',
          description: 'Stored values over the defaults.',
          params: orgParamsSchema,
          response: { 200: preferencesSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        return getPreferences(db, access.user.id, access.org.id);
      },
    );

    app.patch(
      '/api/org/:orgId/user/preferences',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Change some interface preferences',
          description: 'Any subset of the preferences; answers them all.',
          params: orgParamsSchema,
          body: preferencesPatchSchema,
          response: { 200: preferencesSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        return patchPreferences(db, access.user.id, access.org.id, request.body);
      },
    );

    app.put(
      '/api/org/:orgId/user/read-only',
      {
        config: { access: { feature: 'readonlyToggle' } },
        schema: {
          tags,
          summary: 'Switch read-only mode',
          description:
            'Read-only mode keeps only the _VIEW permissions, in every organisation, until switched off. For holders of ' +
            'TRAC_USER where the readonlyToggle feature is on.',
          params: orgParamsSchema,
          body: z.object({ enabled: z.boolean() }),
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        // Judged on the role, not the effective codes: read-only mode itself drops TRAC_USER.
        if (!access.rolePermissions.has('TRAC_USER')) {
          throw accessDenied('PERMISSION_DENIED', 'Read-only mode is for provider staff');
        }
        await db
          .update(users)
          .set({ readOnlyMode: request.body.enabled })
          .where(eq(users.id, access.user.id));
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: request.body.enabled ? 'user.read_only_on' : 'user.read_only_off',
          ip: request.ip,
        });
        return reply.status(204).send(null);
      },
    );
  };
