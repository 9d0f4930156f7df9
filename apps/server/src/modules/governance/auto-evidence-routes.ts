import {
  AUTO_EVIDENCE_HISTORY_LENGTH,
  AUTO_EVIDENCE_SOURCES_LIMIT,
  autoEvidenceHistoryQuerySchema,
  autoEvidenceHistorySchema,
  autoEvidenceInputSchema,
  autoEvidenceSourceSchema,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  addAutoEvidence,
  autoEvidenceHistory,
  evaluateAutoEvidence,
  listAutoEvidence,
  removeAutoEvidence,
} from './auto-evidence';

const VIEW = { access: { permission: 'POLICY_FRAMEWORK_VIEW' as const } };
const EDIT = { access: { permission: 'POLICY_FRAMEWORK_EDIT' as const } };
const TAGS = ['governance'];

const periodParams = orgParamsSchema.extend({ id: z.uuid() });
const controlParams = periodParams.extend({ controlId: z.uuid() });
const sourceParams = periodParams.extend({ sourceId: z.uuid() });

const PERIOD_404 = 'Periods of other organisations answer 404 GOVERNANCE_PERIOD_NOT_FOUND.';
const IN_PROGRESS =
  'Only a period in progress changes: a finalized one answers 409 GOVERNANCE_PERIOD_FINALIZED and nothing is ' +
  `written. ${PERIOD_404}`;
const EVALUATION =
  'Each evaluation is PASSING, FAILING or UNKNOWN (nothing to measure) with a reason and the figures measured; ' +
  `the latest ${AUTO_EVIDENCE_HISTORY_LENGTH} are listed, newest first, with \`historyTotal\` (all of them: ` +
  'older ones are paged by `…/history`). Sources of periods in progress are evaluated daily.';

/** Automatic evidence (issue 12): Vigil's own data measured as living evidence of a control. */
export function autoEvidenceRoutes(db: Db): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/api/org/:orgId/governance/period/:id/auto-evidence',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "List a period's automatic evidence sources",
          description: `Every source of the period, or of one control with \`controlId\`. ${EVALUATION} ${PERIOD_404}`,
          params: periodParams,
          querystring: z.object({ controlId: z.uuid().optional() }),
          response: { 200: z.array(autoEvidenceSourceSchema) },
        },
      },
      async (request) =>
        listAutoEvidence(db, accessOf(request).org.id, request.params.id, request.query.controlId),
    );

    app.get(
      '/api/org/:orgId/governance/period/:id/auto-evidence/:sourceId/history',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "Page through a source's evaluations",
          description:
            'Every evaluation of the source, newest first, paged by `pageSize` and `pageNumber`, with the ' +
            `total. Another period's source: 404 GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND. ${PERIOD_404}`,
          params: sourceParams,
          querystring: autoEvidenceHistoryQuerySchema,
          response: { 200: autoEvidenceHistorySchema },
        },
      },
      async (request) =>
        autoEvidenceHistory(
          db,
          accessOf(request).org.id,
          request.params.id,
          request.params.sourceId,
          request.query,
        ),
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/control/:controlId/auto-evidence',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add an automatic evidence source to a control',
          description:
            '`kind` TRIGGER_ACTIVE: the trigger `triggerId` (active or paused, of the organisation, else 400 ' +
            'GOVERNANCE_AUTO_EVIDENCE_TRIGGER_NOT_FOUND) is active and ran without error within the last `window` ' +
            'hours (1–720), following the trigger to its current version when its alert conditions are edited ' +
            '(the runs of every version count) and failing once it is deleted. INCIDENTS_WITHIN_SLA: of the incidents whose SLA date (else due date, else 30 days after ' +
            'creation) fell in the last `window` days (1–365), at least `threshold` percent (1–100) were resolved, ' +
            'closed or invalid by it. ASSETS_INVENTORIED: of the active assets seen in the last `window` days, at ' +
            'least `threshold` percent have an owner. REVIEWS_DONE: no review schedule of a risk or risk control is ' +
            'late (`window` 1–365, kept for the record). Out of range: 400 GOVERNANCE_AUTO_EVIDENCE_INVALID naming ' +
            `the field; a control holds at most ${AUTO_EVIDENCE_SOURCES_LIMIT} sources per period (400 ` +
            "GOVERNANCE_AUTO_EVIDENCE_TOO_MANY); another framework's control: 404 GOVERNANCE_CONTROL_NOT_FOUND. " +
            `The source is evaluated at once. ${EVALUATION} ${IN_PROGRESS}`,
          params: controlParams,
          body: autoEvidenceInputSchema,
          response: { 201: autoEvidenceSourceSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await addAutoEvidence(
              db,
              { access: accessOf(request), ip: request.ip },
              request.params.id,
              request.params.controlId,
              request.body,
            ),
          ),
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/auto-evidence/:sourceId/evaluate',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Evaluate an automatic evidence source now',
          description:
            `Measures the source on the current data and records the evaluation. ${EVALUATION} Another period's ` +
            `source: 404 GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND. ${IN_PROGRESS}`,
          params: sourceParams,
          response: { 200: autoEvidenceSourceSchema },
        },
      },
      async (request) =>
        evaluateAutoEvidence(
          db,
          { access: accessOf(request), ip: request.ip },
          request.params.id,
          request.params.sourceId,
        ),
    );

    app.delete(
      '/api/org/:orgId/governance/period/:id/auto-evidence/:sourceId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Remove an automatic evidence source',
          description:
            "Removes the source with its evaluations. Another period's source: 404 " +
            `GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND. ${IN_PROGRESS}`,
          params: sourceParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeAutoEvidence(
          db,
          { access: accessOf(request), ip: request.ip },
          request.params.id,
          request.params.sourceId,
        );
        return reply.status(204).send(null);
      },
    );
  };
}
