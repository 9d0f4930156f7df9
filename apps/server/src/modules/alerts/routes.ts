import {
  alertBulkResultSchema,
  alertBulkStateInputSchema,
  alertDetailSchema,
  alertEventsSchema,
  alertListQuerySchema,
  alertListSchema,
  alertPageSchema,
  alertStateChangeInputSchema,
  alertSimilarQuerySchema,
  alertEscalateInputSchema,
  ticketRefSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import type { SendMail } from '../../platform/mail';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  alertEvents,
  bulkChangeState,
  changeAlertState,
  escalateToNewIncident,
  getAlert,
  listInbox,
  markViewed,
  similarAlerts,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'ALERT_INBOX_VIEW' as const } };
const EDIT = { access: { permission: 'ALERT_INBOX_EDIT' as const } };
const TAGS = ['alerts'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const ONE_ALERT =
  '404 ALERT_NOT_FOUND for missing alerts and those of other organisations; fraud alerts need a fraud ' +
  'product (403 PRODUCT_NOT_ENTITLED).';

const STATE_RULES =
  '`state` is required (400 ALERT_STATE_EMPTY) and one of NEW, ACKED, ESCALATED, DISMISSED, ' +
  'FRAUD_FLAGGED (400 GENERIC_INVALID_FIELD_VALUE). ESCALATED needs `ticketSlug` (400 ' +
  'ALERT_ESCALATION_NEEDS_TICKET) naming an incident of the organisation (400 ALERT_ESCALATION_NOT_INCIDENT); ' +
  'the incident records the escalation in its history and its owner and watchers are e-mailed. ' +
  'DISMISSED needs a `reason` (400 ALERT_DISMISS_REASON_REQUIRED; FALSE_POSITIVE, TRUE_POSITIVE_BENIGN, ' +
  'DUPLICATE, TEST, OTHER) and `notes` for OTHER (400 ALERT_DISMISS_DETAILS_REQUIRED). FRAUD_FLAGGED ' +
  'needs a `fraudType` (400 ALERT_FRAUD_TYPE_REQUIRED) and `fraudCertainty` (SUSPECTED by default): ' +
  'confirmed fraud cannot be UNKNOWN (400 ALERT_FRAUD_CONFIRMED_UNKNOWN), suspected fraud cannot be OTHER ' +
  '(400 ALERT_FRAUD_SUSPECTED_OTHER), security alerts cannot be flagged (400 ALERT_FRAUD_SECURITY_ALERT) ' +
  'nor alerts with a ticket (409 ALERT_FRAUD_TICKET_ATTACHED). The same state is refused (409 ' +
  'ALERT_SAME_STATE) and an escalated alert keeps its state (409 ALERT_ESCALATED_FROZEN). Every change ' +
  'is kept in the history with who and when, and audited.';

/** The alert inbox (spec 3): security alerts, and fraud alerts for organisations with a fraud product. */
export const alertRoutes =
  (db: Db, sendMail?: SendMail): FastifyPluginAsyncZod =>
  async (app) => {
    const mail = { sendMail, log: app.log };
    app.get(
      '/api/org/:orgId/alerts',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The alert inbox',
          description:
            '`domain` security (default) or fraud (403 PRODUCT_NOT_ENTITLED without a fraud product). `view` ' +
            'alert (a page of alerts), trigger (one row per trigger, threat match as one row, with counts per ' +
            'state whatever `state` says) or story (similar alerts, sharing a group key, with count and time ' +
            'span). `state`: comma-separated or repeated states, NEW when absent. `filter`: repeated ' +
            '`key:value` with keys severity, kind, trigger (an id), title (part of it) and group (400 ' +
            'ALERT_FILTER_FORMAT_INVALID, 400 ALERT_FILTER_INVALID, 400 ALERT_FILTER_ONE_KEY when a key is ' +
            'repeated). `sort` newest, oldest, severity; lastEscalated, dismissed and fraudFlagged only with ' +
            'that state alone (400 ALERT_SORT_INVALID). `begin` and `end` bound the fired time. Paged by ' +
            'pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: alertListQuerySchema,
          response: { 200: alertListSchema },
        },
      },
      async (request) => {
        const { state, filter, ...query } = request.query;
        return listInbox(db, accessOf(request), { ...query, states: state, filters: filter });
      },
    );

    app.post(
      '/api/org/:orgId/alerts/bulk-state',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change the state of many alerts',
          description:
            'The alerts listed in `ids`, or those `selection` finds (domain, states, filters, time range, ' +
            'as the inbox; at most 500, newest first); one of the two is required (400 ' +
            'ALERT_BULK_NOTHING_SELECTED). Only alerts fired in the last 30 days change. Each alert ' +
            'succeeds or fails on its own: the answer lists every one with the key of its failure ' +
            '(ALERT_BULK_TOO_OLD, ALERT_NOT_FOUND, ALERT_SAME_STATE …). ' +
            STATE_RULES,
          params: orgParamsSchema,
          body: alertBulkStateInputSchema,
          response: { 200: alertBulkResultSchema },
        },
      },
      async (request) => {
        const { selection, ...input } = request.body;
        return bulkChangeState(
          db,
          actorOf(request),
          {
            ...input,
            selection: selection && {
              ...selection,
              states: selection.state,
              filters: selection.filter,
            },
          },
          new Date(),
          mail,
        );
      },
    );

    app.post(
      '/api/org/:orgId/alerts/escalate',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Escalate alerts to a new incident',
          description:
            'Creates an incident (needs INCIDENT_EDIT as well, else 403 PERMISSION_DENIED) titled `title`, else ' +
            "after the first alert's trigger, listing the alerts in its description, and escalates every alert " +
            'in `ids` to it. All or nothing: an alert that cannot be escalated (404 ALERT_NOT_FOUND, 409 ' +
            'ALERT_ESCALATED_FROZEN …) refuses the whole request and no incident is created. Answers the ' +
            'new incident.',
          params: orgParamsSchema,
          body: alertEscalateInputSchema,
          response: { 201: ticketRefSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await escalateToNewIncident(db, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/alert/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'An alert with its state history and viewers',
          description: ONE_ALERT,
          params: idParams,
          response: { 200: alertDetailSchema },
        },
      },
      async (request) => getAlert(db, accessOf(request), request.params.id),
    );

    app.get(
      '/api/org/:orgId/alert/:id/events',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The events an alert matched',
          description:
            'The matched events kept with the alert, read from the event store by id and time, newest ' +
            'first. The caller’s data restrictions apply: `stored` counts them all, `items` holds those ' +
            'the caller may see. ' +
            ONE_ALERT,
          params: idParams,
          response: { 200: alertEventsSchema },
        },
      },
      async (request) => alertEvents(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/alert/:id/viewed',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Record that the caller viewed an alert',
          description:
            'The web calls it once an alert has been on screen for 10 seconds. Idempotent: the first view ' +
            'counts. ' +
            ONE_ALERT,
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await markViewed(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/alert/:id/similar',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Alerts similar to one alert',
          description:
            'Alerts of the same domain sharing its group key (else its trigger), newest first, in every ' +
            'state. Paged by pageSize and pageNumber. ' +
            ONE_ALERT,
          params: idParams,
          querystring: alertSimilarQuerySchema,
          response: { 200: alertPageSchema },
        },
      },
      async (request) => similarAlerts(db, accessOf(request), request.params.id, request.query),
    );

    app.put(
      '/api/org/:orgId/alert/:id/state',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change the state of an alert',
          description: `${STATE_RULES} ${ONE_ALERT}`,
          params: idParams,
          body: alertStateChangeInputSchema,
          response: { 200: alertDetailSchema },
        },
      },
      async (request) => changeAlertState(db, actorOf(request), request.params.id, request.body, mail),
    );
  };
