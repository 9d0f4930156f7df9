import {
  actionInputSchema,
  actionIntegrationInputSchema,
  actionIntegrationListSchema,
  actionIntegrationSchema,
  actionListSchema,
  actionRunSchema,
  actionSchema,
  pendingActionListSchema,
  pendingActionSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import type { SecretBox } from '../../platform/crypto';
import { orgParamsSchema } from '../../platform/http';
import { listPendingActions } from './action-repo';
import {
  createAction,
  createActionIntegration,
  deleteActionIntegrationOf,
  deleteActionOf,
  listActionIntegrationsOf,
  listActionsOf,
  pendingActionJson,
  runAction,
  undoPendingAction,
  updateActionIntegrationOf,
  updateActionOf,
} from './actions';
import type { Actor } from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const FEATURE = 'automatedIntervention' as const;
const INTEGRATION_VIEW = { access: { permission: 'INTEGRATION_VIEW' as const, feature: FEATURE } };
const INTEGRATION_EDIT = { access: { permission: 'INTEGRATION_EDIT' as const, feature: FEATURE } };
const ACTION_VIEW = { access: { permission: 'ACTION_VIEW' as const, feature: FEATURE } };
const ACTION_EDIT = { access: { permission: 'ACTION_EDIT' as const, feature: FEATURE } };
const TAGS = ['action-integrations'];

const actorOf = (request: FastifyRequest): Actor => {
  const access = accessOf(request);
  return { orgId: access.org.id, userId: access.user.id, ip: request.ip };
};

/** Action integrations, actions and pending actions (spec 3), behind the automatedIntervention feature. */
export const actionRoutes =
  ({ db, secrets }: { db: Db; secrets: SecretBox }): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/action-integrations',
      {
        config: INTEGRATION_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's action integrations",
          description: 'One per provider (Q2, Apiture, Symxchange). The client secret is never answered.',
          params: orgParamsSchema,
          response: { 200: actionIntegrationListSchema },
        },
      },
      async (request) => {
        const items = await listActionIntegrationsOf(db, accessOf(request).org.id);
        return { items, total: items.length };
      },
    );

    app.post(
      '/api/org/:orgId/action-integrations',
      {
        config: INTEGRATION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add an action integration',
          description:
            'provider, API base URL and authentication base URL (valid base URLs, 400 INVALID_BASE_URL), client ' +
            'id and client secret (required; encrypted at rest). 409 ACTION_INTEGRATION_EXISTS when the provider ' +
            'has one.',
          params: orgParamsSchema,
          body: actionIntegrationInputSchema,
          response: { 201: actionIntegrationSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createActionIntegration(db, secrets, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/action-integration/:id',
      {
        config: INTEGRATION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change an action integration',
          description: 'The same rules; a client secret left out keeps the stored one.',
          params: idParams,
          body: actionIntegrationInputSchema,
          response: { 200: actionIntegrationSchema },
        },
      },
      async (request) =>
        updateActionIntegrationOf(db, secrets, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/action-integration/:id',
      {
        config: INTEGRATION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an action integration',
          description: 'Actions of its provider then answer "contact support" when run.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteActionIntegrationOf(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/actions',
      {
        config: ACTION_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's actions",
          description: 'By name.',
          params: orgParamsSchema,
          response: { 200: actionListSchema },
        },
      },
      async (request) => {
        const items = await listActionsOf(db, accessOf(request).org.id);
        return { items, total: items.length };
      },
    );

    const ACTION_RULES =
      'name (unique), type and a provider that offers it (400 ACTION_PROVIDER_MISMATCH), the event fields holding ' +
      'the values (at most 5: 400 ACTION_MAX_FIELDS_REACHED), multiple-values handling (SEND_ALL one at a time, ' +
      'SEND_FIRST, SEND_NONE) and, for ADD_WARNING_CODE, a warning code from 1 to 999 (400 ' +
      'SYMXCHANGE_INVALID_WARNING_CODE).';

    app.post(
      '/api/org/:orgId/actions',
      {
        config: ACTION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create an action',
          description: ACTION_RULES,
          params: orgParamsSchema,
          body: actionInputSchema,
          response: { 201: actionSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createAction(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/action/:id',
      {
        config: ACTION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change an action',
          description: ACTION_RULES,
          params: idParams,
          body: actionInputSchema,
          response: { 200: actionSchema },
        },
      },
      async (request) => updateActionOf(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/action/:id',
      {
        config: ACTION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an action',
          description: 'Its pending actions stay recorded.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteActionOf(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/action/:id/run',
      {
        config: ACTION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Run an action',
          description:
            'On the given `values`, or on the values an `event` holds in the action fields. Each value (by the ' +
            'multiple-values handling) becomes a pending action executed at once and recorded with its request ' +
            'and response (EXECUTED) or its error (FAILED). Without an integration of the provider: 400 ' +
            'SYMXCHANGE_INTEGRATION_MISSING, APITURE_ADB_INTEGRATION_MISSING or ACTION_INTEGRATION_MISSING ' +
            '(contact support). A Symxchange account holding 20 warning codes fails its pending action.',
          params: idParams,
          body: actionRunSchema,
          response: { 200: z.object({ items: z.array(pendingActionSchema) }) },
        },
      },
      async (request) => ({
        items: await runAction(db, secrets, actorOf(request), request.params.id, request.body),
      }),
    );

    app.get(
      '/api/org/:orgId/pending-actions',
      {
        config: ACTION_VIEW,
        schema: {
          tags: TAGS,
          summary: 'Pending actions',
          description:
            'Newest first, with their requests and responses. Paged by pageSize and pageNumber. `alertId` ' +
            'keeps those queued for one alert: the actions attached to the trigger that raised it, one pending ' +
            'action per value found in its events, in state PENDING (queued), RUNNING, EXECUTED, FAILED (with ' +
            'why) or REVERTED.',
          params: orgParamsSchema,
          querystring: z.object({
            pageSize: z.coerce.number().int().min(1).max(100).default(25),
            pageNumber: z.coerce.number().int().min(1).default(1),
            alertId: z.uuid().optional(),
          }),
          response: { 200: pendingActionListSchema },
        },
      },
      async (request) => {
        const { pageSize, pageNumber, alertId } = request.query;
        const page = await listPendingActions(
          db,
          accessOf(request).org.id,
          { limit: pageSize, offset: (pageNumber - 1) * pageSize },
          alertId,
        );
        return { items: page.items.map(pendingActionJson), total: page.total };
      },
    );

    app.post(
      '/api/org/:orgId/pending-action/:id/undo',
      {
        config: ACTION_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Undo a pending action',
          description:
            'Only EXECUTED ones (409 PENDING_ACTION_NOT_EXECUTED): the provider reverse call is sent and the ' +
            'action becomes REVERTED; a refused undo leaves it EXECUTED with the error.',
          params: idParams,
          response: { 200: pendingActionSchema },
        },
      },
      async (request) => undoPendingAction(db, secrets, actorOf(request), request.params.id),
    );
  };
