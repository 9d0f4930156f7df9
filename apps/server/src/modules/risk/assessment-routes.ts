import {
  assessmentCompleteSchema,
  assessmentCreateSchema,
  assessmentDetailSchema,
  assessmentListQuerySchema,
  assessmentListSchema,
  assessmentUpdateSchema,
} from '@vigil/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { attachment, orgParamsSchema } from '../../platform/http';
import {
  assessmentPdf,
  completeAssessment,
  createAssessment,
  getAssessment,
  listAssessments,
  updateAssessment,
} from './assessments';
import type { Actor } from './service';

const TAGS = ['risk'];
const refParams = orgParamsSchema.extend({ ref: z.string().min(1).max(64) });
const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });
const VIEW = { access: { permission: 'RISK_VIEW' as const, sku: 'risk' as const } };
const EDIT = { access: { permission: 'RISK_EDIT' as const, sku: 'risk' as const } };

const ONE =
  '`ref` is the id or public id (A-0001). 404 RISK_ASSESSMENT_NOT_FOUND for missing assessments, those of ' +
  'other organisations and those of a module the organisation does not hold.';
const ITEMS =
  '`module` is a risk module the organisation holds (400 RISK_MODULE_NOT_ENTITLED; default the first it holds). ' +
  '`itemIds` are risks (kind RISK) or inventory items (kind INVENTORY) of the register; others answer 400 ' +
  'RISK_INVALID_LINKS with the field; risks outside the module, or inventory items of another kind than the ' +
  "module's (vendors for Third-Party Risk, systems and applications otherwise), answer 400 " +
  'RISK_ASSESSMENT_ITEM_OUTSIDE_MODULE. `inherentRisk` and `residualRisk` override the recommended aggregates ' +
  '(the most severe score among the covered items); null takes the recommendation.';
const EDITABLE =
  '409 RISK_ASSESSMENT_COMPLETED once completed (published read-only); `version` is the version read: 409 ' +
  'RISK_MODIFIED when it changed meanwhile. Nothing is written on an error.';

/** Risk and inventory assessments: drafts, saved, completed and exported as PDF. */
export function assessmentRoutes(app: FastifyInstance, db: Db) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/org/:orgId/risk-assessments',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: "The organisation's risk and inventory assessments",
        description:
          'Newest first, filtered by `kind`, `state` and `modules` (comma-separated; default and upper bound: the ' +
          'modules the organisation holds, those of other modules are not shown), paged by pageSize and pageNumber.',
        params: orgParamsSchema,
        querystring: assessmentListQuerySchema,
        response: { 200: assessmentListSchema },
      },
    },
    async (request) => listAssessments(db, accessOf(request), request.query),
  );

  typed.post(
    '/api/org/:orgId/risk-assessment',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Start a risk or inventory assessment',
        description: `The assessment starts as DRAFT with the next public id of the organisation (A-0001). ${ITEMS}`,
        params: orgParamsSchema,
        body: assessmentCreateSchema,
        response: { 201: assessmentDetailSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createAssessment(db, actorOf(request), request.body)),
  );

  typed.get(
    '/api/org/:orgId/risk-assessment/:ref',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'One assessment with its executive summary, aggregate scores and covered items',
        description: `A completed assessment shows the items' scores as they stood when it was completed. ${ONE}`,
        params: refParams,
        response: { 200: assessmentDetailSchema },
      },
    },
    async (request) => getAssessment(db, accessOf(request), request.params.ref),
  );

  typed.patch(
    '/api/org/:orgId/risk-assessment/:ref',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Save changes to a draft assessment',
        description: `The assessment is then SAVED (saved as draft). ${ITEMS} ${EDITABLE} ${ONE}`,
        params: refParams,
        body: assessmentUpdateSchema,
        response: { 200: assessmentDetailSchema },
      },
    },
    async (request) => updateAssessment(db, actorOf(request), request.params.ref, request.body),
  );

  typed.post(
    '/api/org/:orgId/risk-assessment/:ref/complete',
    {
      config: EDIT,
      schema: {
        tags: TAGS,
        summary: 'Complete and publish an assessment',
        description:
          'Needs both aggregate scores, overridden or recommended (400 RISK_ASSESSMENT_SCORE_REQUIRED with the ' +
          'field inherentRisk or residualRisk), and the executive summary (400 RISK_ASSESSMENT_SUMMARY_REQUIRED, ' +
          'field executiveSummary). Each item of an inventory assessment must have answered its mandatory ' +
          'questions, the sensitivity and criticality sets and for vendors the due-diligence questionnaire (400 ' +
          'RISK_MANDATORY_ITEM_INVALID naming the items, field itemIds). The aggregates and the items’ scores are kept as they stand and the ' +
          `assessment is read-only from then on. ${EDITABLE} ${ONE}`,
        params: refParams,
        body: assessmentCompleteSchema,
        response: { 200: assessmentDetailSchema },
      },
    },
    async (request) => completeAssessment(db, actorOf(request), request.params.ref, request.body.version),
  );

  typed.get(
    '/api/org/:orgId/risk-assessment/:ref/pdf',
    {
      config: VIEW,
      schema: {
        tags: TAGS,
        summary: 'The assessment as a PDF',
        description:
          'application/pdf as an attachment: a cover (organisation, state, completion), the executive summary, ' +
          `the aggregate scores and the covered items with their scores; each export is kept in the activity log. ${ONE}`,
        params: refParams,
      },
    },
    async (request, reply) => {
      const pdf = await assessmentPdf(db, actorOf(request), request.params.ref);
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', attachment(pdf.name))
        .header('cache-control', 'private, no-store')
        .send(pdf.content);
    },
  );
}
