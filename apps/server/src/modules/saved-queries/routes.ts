import {
  savedQueryInputSchema,
  savedQueryListQuerySchema,
  savedQueryListSchema,
  savedQuerySchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import type { PrefillQueue } from '../dashboards/prefill';
import { queuePrefill } from '../dashboards/routes';
import { listSavedQueries } from './repo';
import {
  createSavedQuery,
  editableFlags,
  getSavedQuery,
  promoteSavedQuery,
  removeSavedQuery,
  replaceSavedQuery,
  toJson,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'SAVED_SEARCH_VIEW' as const } };
const EDIT = { access: { permission: 'SAVED_SEARCH_EDIT' as const } };
const TAGS = ['saved-queries'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const WRITE_NOTE =
  'The name is unique in the organisation, any case (409 SAVED_QUERY_NAME_TAKEN); the query must parse ' +
  '(400 SAVED_QUERY_INVALID_QUERY with `position`, at most 2048 characters). Library queries are changed ' +
  'only by provider staff (403 SAVED_QUERY_LIBRARY_READ_ONLY); queries of other organisations answer 404 ' +
  'SAVED_QUERY_NOT_FOUND. The aggregation cannot change while a trigger or a live chart uses the query (409 ' +
  'SAVED_QUERY_AGGREGATION_IN_USE). While a chart of a report template draws the query, its query text and ' +
  'aggregation cannot change (400 SAVED_QUERY_USED_IN_ON_DEMAND_REPORT); its name and description can.';

/** Saved queries (spec 3): the organisation's own and the provider's library. */
export const savedQueryRoutes =
  (db: Db, prefill?: PrefillQueue): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/saved-queries',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's saved queries and the library's",
          description:
            'By name, any case. `search` matches part of the name. Library queries carry `library: true`; ' +
            '`editable` says whether the caller may change each one. Paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: savedQueryListQuerySchema,
          response: { 200: savedQueryListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { search, pageSize, pageNumber } = request.query;
        const { items, total } = await listSavedQueries(db, access.org.id, search, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        const flags = await editableFlags(db, access, items);
        return { items: items.map((view, index) => toJson(view, flags[index]!)), total };
      },
    );

    app.get(
      '/api/org/:orgId/saved-query/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A saved or library query',
          description: '404 SAVED_QUERY_NOT_FOUND for missing queries and those of other organisations.',
          params: idParams,
          response: { 200: savedQuerySchema },
        },
      },
      async (request) => getSavedQuery(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/saved-query',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Save a query',
          description: WRITE_NOTE,
          params: orgParamsSchema,
          body: savedQueryInputSchema,
          response: { 201: savedQuerySchema },
        },
      },
      async (request, reply) => {
        const saved = await createSavedQuery(db, actorOf(request), request.body);
        return reply.status(201).send(saved);
      },
    );

    app.put(
      '/api/org/:orgId/saved-query/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a saved query',
          description: WRITE_NOTE,
          params: idParams,
          body: savedQueryInputSchema,
          response: { 200: savedQuerySchema },
        },
      },
      async (request) => {
        const saved = await replaceSavedQuery(db, actorOf(request), request.params.id, request.body);
        // The charts drawing the query count another condition now: roll-ups to fill ahead.
        await queuePrefill(request, prefill, { savedQueryId: saved.id });
        return saved;
      },
    );

    app.delete(
      '/api/org/:orgId/saved-query/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a saved query',
          description:
            'For good. Library queries are deleted only by provider staff (403 SAVED_QUERY_LIBRARY_READ_ONLY); a ' +
            'query drawing a chart of a report template is kept (400 SAVED_QUERY_USED_IN_ON_DEMAND_REPORT).',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeSavedQuery(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/saved-query/:id/promote',
      {
        config: { access: { permission: 'TRAC_ADMIN' as const } },
        schema: {
          tags: TAGS,
          summary: 'Add a saved query to the library',
          description:
            'Provider administrators only (TRAC_ADMIN, home in the provider organisation; 403 ' +
            'SAVED_QUERY_PROMOTE_DENIED otherwise). The query leaves its organisation and becomes a library ' +
            'query visible to every organisation and changed only by provider staff. 409 ' +
            'SAVED_QUERY_ALREADY_LIBRARY, 409 SAVED_QUERY_NAME_TAKEN when the library holds the name.',
          params: idParams,
          response: { 200: savedQuerySchema },
        },
      },
      async (request) => promoteSavedQuery(db, actorOf(request), request.params.id),
    );
  };
