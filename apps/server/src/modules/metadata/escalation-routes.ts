import {
  ESCALATION_MAX_CONTACT_STEPS,
  ESCALATION_MAX_OUT_OF_OFFICE,
  ESCALATION_STEP_INTERVAL_MINUTES,
  escalationOutOfOfficeInputSchema,
  escalationOutOfOfficeListSchema,
  escalationOutOfOfficeSchema,
  escalationScheduleInputSchema,
  escalationScheduleSchema,
  escalationStepInputSchema,
  escalationStepListSchema,
  escalationStepOrderSchema,
  escalationStepSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  createOutOfOffice,
  createStep,
  deleteOutOfOffice,
  deleteStep,
  getSchedule,
  listOutOfOfficeRows,
  listSteps,
  reorderSteps,
  saveSchedule,
  toOutOfOffice,
  updateStep,
} from './escalation';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'ESCALATION_VIEW' as const, feature: 'escalationPage' as const } };
const EDIT = { access: { permission: 'ESCALATION_EDIT' as const, feature: 'escalationPage' as const } };
const tags = ['escalation'];

const actorOf = (request: FastifyRequest) => ({ access: accessOf(request), ip: request.ip });

const stepList = async (db: Db, orgId: string) => ({
  items: await listSteps(db, orgId),
  max: ESCALATION_MAX_CONTACT_STEPS,
  intervalMinutes: ESCALATION_STEP_INTERVAL_MINUTES,
});

const STEP_RULES =
  `Exactly one of userId (an active user of the organisation, 400 ESCALATION_STEP_INVALID_PERSON) and ` +
  `email (400 ESCALATION_STEP_CONTACT_REQUIRED when neither or both); a contact is in one step only (409 ` +
  `ESCALATION_STEP_DUPLICATE_CONTACT). hours is ALWAYS (the default) or BUSINESS_HOURS: such a step is ` +
  `passed over when alerts are escalated outside business hours or during out of office.`;

/** Escalation (spec 3, metadata service): contact steps with reorder, business hours, out of office. */
export const escalationRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/escalation/steps',
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'Contact steps of the organisation',
          description:
            `First step first. When alerts are escalated to an incident nobody has taken, the steps are ` +
            `e-mailed in this order ${ESCALATION_STEP_INTERVAL_MINUTES} minutes apart until the incident ` +
            `has an owner or leaves Triage. At most ${ESCALATION_MAX_CONTACT_STEPS} steps (max).`,
          params: orgParamsSchema,
          response: { 200: escalationStepListSchema },
        },
      },
      async (request) => stepList(db, accessOf(request).org.id),
    );

    app.post(
      '/api/org/:orgId/escalation/step',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Add a contact step after the last one',
          description: `${STEP_RULES} The ${ESCALATION_MAX_CONTACT_STEPS + 1}th step is refused (409 ESCALATION_MAX_CONTACT_STEPS).`,
          params: orgParamsSchema,
          body: escalationStepInputSchema,
          response: { 201: escalationStepSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createStep(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/escalation/step/:id',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Change a contact step',
          description: `${STEP_RULES} Keeps its position. 404 ESCALATION_STEP_NOT_FOUND for steps of other organisations.`,
          params: idParams,
          body: escalationStepInputSchema,
          response: { 200: escalationStepSchema },
        },
      },
      async (request) => updateStep(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/escalation/step/:id',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Remove a contact step',
          description:
            'The later steps move up. 404 ESCALATION_STEP_NOT_FOUND for steps of other organisations.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteStep(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/api/org/:orgId/escalation/steps/order',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Reorder the contact steps',
          description:
            'ids lists every step of the organisation once, first step first (409 ' +
            'ESCALATION_STEP_ORDER_MISMATCH otherwise, e.g. when someone added or removed a step meanwhile).',
          params: orgParamsSchema,
          body: escalationStepOrderSchema,
          response: { 200: escalationStepListSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await reorderSteps(db, actor, request.body.ids);
        return stepList(db, actor.access.org.id);
      },
    );

    app.get(
      '/api/org/:orgId/escalation/schedule',
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'Business hours for escalation',
          description:
            'WEEKDAYS (Monday to Friday 09:00 to 17:00, the default) or CUSTOM days, on the wall clock of ' +
            'timezone (UTC until saved). businessHoursNow also counts out-of-office periods.',
          params: orgParamsSchema,
          response: { 200: escalationScheduleSchema },
        },
      },
      async (request) => getSchedule(db, accessOf(request).org.id),
    );

    app.put(
      '/api/org/:orgId/escalation/schedule',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Set the business hours',
          description:
            'timezone is an IANA time zone (400 ESCALATION_INVALID_TIMEZONE). CUSTOM needs at least one day ' +
            '(400 ESCALATION_HOURS_DAYS_REQUIRED), each day once (400 ESCALATION_HOURS_DUPLICATE_DAY) with ' +
            'start before end as HH:MM, 24:00 for midnight (400 ESCALATION_HOURS_INVALID_WINDOW); WEEKDAYS ' +
            'ignores days.',
          params: orgParamsSchema,
          body: escalationScheduleInputSchema,
          response: { 200: escalationScheduleSchema },
        },
      },
      async (request) => saveSchedule(db, actorOf(request), request.body),
    );

    app.get(
      '/api/org/:orgId/escalation/out-of-office',
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'Out-of-office periods',
          description: 'Earliest first. During a period the organisation counts as outside business hours.',
          params: orgParamsSchema,
          response: { 200: escalationOutOfOfficeListSchema },
        },
      },
      async (request) => ({
        items: (await listOutOfOfficeRows(db, accessOf(request).org.id)).map(toOutOfOffice),
      }),
    );

    app.post(
      '/api/org/:orgId/escalation/out-of-office',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Add an out-of-office period',
          description:
            'endsAt after startsAt (400 ESCALATION_OUT_OF_OFFICE_INVALID_RANGE) and in the future (400 ' +
            `ESCALATION_OUT_OF_OFFICE_IN_PAST); note up to 500 characters; at most ${ESCALATION_MAX_OUT_OF_OFFICE} ` +
            'periods (409 ESCALATION_MAX_OUT_OF_OFFICE).',
          params: orgParamsSchema,
          body: escalationOutOfOfficeInputSchema,
          response: { 201: escalationOutOfOfficeSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createOutOfOffice(db, actorOf(request), request.body)),
    );

    app.delete(
      '/api/org/:orgId/escalation/out-of-office/:id',
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Remove an out-of-office period',
          description: '404 ESCALATION_OUT_OF_OFFICE_NOT_FOUND for periods of other organisations.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteOutOfOffice(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
