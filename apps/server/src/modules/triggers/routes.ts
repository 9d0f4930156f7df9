import {
  triggerCreateSchema,
  triggerDisableSchema,
  triggerInputSchema,
  triggerListQuerySchema,
  triggerListSchema,
  triggerRunListQuerySchema,
  triggerRunListSchema,
  triggerSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, assertDomainEntitled } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import { listTriggerRuns, listTriggers } from './repo';
import {
  changeTriggerState,
  createTrigger,
  toJson,
  triggerView,
  updateTriggerFields,
  type Actor,
  type TriggerAction,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'TRIGGER_VIEW' as const } };
const EDIT = { access: { permission: 'TRIGGER_EDIT' as const } };
const TAGS = ['triggers'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const ACCESS_NOTE =
  'Triggers of other organisations answer 404 TRIGGER_NOT_FOUND; fraud triggers need the fraud product ' +
  '(403 PRODUCT_NOT_ENTITLED); ops-managed triggers are changed only by provider staff (403 ' +
  'TRIGGER_MANAGED_READ_ONLY).';

const WRITE_NOTE =
  'Rules (400 unless said): a saved query the organisation sees (TRIGGER_MISSING_SAVED_QUERY); EVERY_EVENT ' +
  'cannot use a query with an aggregation (TRIGGER_AGGREGATE_QUERY_NOT_ALLOWED); AGGREGATION needs ' +
  '`aggregation` with type and field (TRIGGER_MISSING_AGGREGATION); minMatch and maxMatch are integers of 0 ' +
  'or more with min ≤ max, THRESHOLD needs one of them (TRIGGER_INVALID_MATCH_RANGE); SEQUENCE needs 2 to 10 ' +
  'steps, each a saved query (TRIGGER_SEQUENCE_STEPS_REQUIRED), and an interval of 60 to 86,400 s ' +
  '(TRIGGER_INVALID_SEQUENCE_INTERVAL); DYNAMIC_THRESHOLD always runs every 1800 s; TEMPORAL_ANOMALY needs ' +
  'an interval of 1800 s (TRIGGER_PERIOD_INTERVAL_REQUIRED); other intervals are 60 s to 7 days ' +
  '(TRIGGER_INVALID_INTERVAL); e-mail recipients are addresses (TRIGGER_INVALID_EMAIL); custom header names ' +
  'are printable ASCII without space or colon and values have no line breaks (TRIGGER_INVALID_HEADER); ' +
  'important fields are field names (TRIGGER_INVALID_FIELD); the ticket owner and watchers are users of ' +
  'the organisation (TRIGGER_INVALID_USER); the schedule is one of the organisation (404 ' +
  'TRIGGER_SCHEDULE_NOT_FOUND). Only provider staff may set managedBy OPS (403 TRIGGER_MANAGED_READ_ONLY). ' +
  '`actionIds` (at most 10) are actions of the organisation (TRIGGER_INVALID_ACTION) and need the ' +
  'automatedIntervention feature (403 FEATURE_NOT_ENABLED); left out on a change, the trigger keeps its ' +
  'actions. For each alert a run raises, each action becomes a pending action per value the alert’s ' +
  'events hold in its fields, executed by the integrations.pending-actions job (see GET /pending-actions).';

const STATE_ACTIONS: { action: TriggerAction; summary: string; rule: string }[] = [
  { action: 'pause', summary: 'Pause a trigger', rule: 'ACTIVE to PAUSED.' },
  {
    action: 'resume',
    summary: 'Resume a paused trigger',
    rule: 'PAUSED to ACTIVE; the next run is one interval from now.',
  },
  {
    action: 'enable',
    summary: 'Enable a disabled trigger',
    rule: 'DISABLED to ACTIVE; the next run is one interval from now.',
  },
  {
    action: 'delete',
    summary: 'Delete a trigger (restorable)',
    rule: 'ACTIVE, PAUSED or DISABLED to DELETED; it stops running and can be restored.',
  },
  {
    action: 'restore',
    summary: 'Restore a deleted trigger',
    rule: 'DELETED to PAUSED, so that it does not fire before it is resumed.',
  },
];

/** Triggers (spec 3): saved queries run on an interval that raise alerts. */
export const triggerRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/triggers',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's triggers of a domain",
          description:
            '`domain` security (default) or fraud (403 PRODUCT_NOT_ENTITLED without the fraud product). ' +
            'Without `state`, deleted and archived triggers are left out. `search` matches part of the ' +
            'name; `type` and `label` filter; sorted by `sortField` (name, type, severity, state, ' +
            'modifiedOn, nextRunAt) and `sortOrder`. Paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: triggerListQuerySchema,
          response: { 200: triggerListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { pageSize, pageNumber, ...filter } = request.query;
        assertDomainEntitled(access, filter.domain);
        const { items, total } = await listTriggers(db, access.org.id, filter, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(toJson), total };
      },
    );

    app.get(
      '/api/org/:orgId/trigger/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A trigger',
          description: `Any state, archived versions included. ${ACCESS_NOTE}`,
          params: idParams,
          response: { 200: triggerSchema },
        },
      },
      async (request) => toJson(await triggerView(db, accessOf(request), request.params.id)),
    );

    app.get(
      '/api/org/:orgId/trigger/:id/runs',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "A trigger's runs",
          description: `The evaluated windows, newest first, paged by pageSize and pageNumber. ${ACCESS_NOTE}`,
          params: idParams,
          querystring: triggerRunListQuerySchema,
          response: { 200: triggerRunListSchema },
        },
      },
      async (request) => {
        const { row } = await triggerView(db, accessOf(request), request.params.id);
        const { pageSize, pageNumber } = request.query;
        const { items, total } = await listTriggerRuns(db, row.id, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return {
          items: items.map((run) => ({
            id: run.id,
            windowStart: run.windowStart.toISOString(),
            windowEnd: run.windowEnd.toISOString(),
            ranAt: run.ranAt.toISOString(),
            durationMs: run.durationMs,
            matched: run.matched,
            alertsRaised: run.alertsRaised,
            error: run.error,
          })),
          total,
        };
      },
    );

    app.post(
      '/api/org/:orgId/trigger',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a trigger',
          description:
            '`domain` security (default) or fraud (403 PRODUCT_NOT_ENTITLED without the fraud product). ' +
            `The trigger starts ACTIVE; its first run is one interval from now. ${WRITE_NOTE}`,
          params: orgParamsSchema,
          body: triggerCreateSchema,
          response: { 201: triggerSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createTrigger(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/trigger/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a trigger',
          description:
            'A change to the alert conditions (type, saved query, interval, aggregation, min/max match, ' +
            'sequence) archives this version and answers the new one (version + 1, previousVersionId); it ' +
            'needs `confirmArchive: true` (409 TRIGGER_MISSING_ARCHIVE_CONFIRMATION). Other fields change ' +
            'in place. Deleted and archived triggers cannot change (409 TRIGGER_INVALID_STATE_CHANGE). ' +
            `${WRITE_NOTE} ${ACCESS_NOTE}`,
          params: idParams,
          body: triggerInputSchema,
          response: { 200: triggerSchema },
        },
      },
      async (request) => updateTriggerFields(db, actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/org/:orgId/trigger/:id/disable',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Disable a trigger',
          description:
            'ACTIVE or PAUSED to DISABLED: until `until` (TEMPORARY; 400 TRIGGER_DISABLE_UNTIL_IN_PAST ' +
            'unless in the future) or, without it, until enabled (INDEFINITE). Other states answer 409 ' +
            `TRIGGER_INVALID_STATE_CHANGE. ${ACCESS_NOTE}`,
          params: idParams,
          body: triggerDisableSchema,
          response: { 200: triggerSchema },
        },
      },
      async (request) => {
        const { until } = request.body;
        return changeTriggerState(
          db,
          actorOf(request),
          request.params.id,
          'disable',
          until ? new Date(until) : null,
        );
      },
    );

    for (const { action, summary, rule } of STATE_ACTIONS) {
      app.post(
        `/api/org/:orgId/trigger/:id/${action}`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary,
            description: `${rule} Other states answer 409 TRIGGER_INVALID_STATE_CHANGE. ${ACCESS_NOTE}`,
            params: idParams,
            response: { 200: triggerSchema },
          },
        },
        async (request) => changeTriggerState(db, actorOf(request), request.params.id, action),
      );
    }
  };
