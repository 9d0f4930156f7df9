import fastifyMultipart from '@fastify/multipart';
import {
  CONTROL_EVIDENCE_LIMIT,
  CONTROL_EVIDENCE_MAX_BYTES,
  controlCreateSchema,
  controlDetailSchema,
  controlListQuerySchema,
  controlListSchema,
  controlUpdateSchema,
  incidentRiskSchema,
  libraryControlListSchema,
  libraryRiskListSchema,
  incidentRisksInputSchema,
  RISK_LIST_KINDS,
  reviewScheduleInputSchema,
  reviewScheduleSchema,
  riskCreateSchema,
  riskDetailSchema,
  riskIncidentSchema,
  riskIncidentsInputSchema,
  riskListItemInputSchema,
  riskListItemSchema,
  riskListQuerySchema,
  riskListSchema,
  riskStateInputSchema,
  riskUpdateSchema,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import {
  addEvidence,
  copyLibraryControls,
  createControl,
  evidenceContent,
  getControl,
  listControls,
  removeEvidence,
  updateControl,
} from './controls';
import { risksOfIncident, setIncidentRisks, setRiskIncidents } from './incidents';
import { assessmentRoutes } from './assessment-routes';
import { inventoryRoutes } from './inventory-routes';
import {
  actorOf,
  LIBRARY_ADMIN,
  LIBRARY_EDIT,
  libraryRoutes,
  REGISTER_EDIT,
  REGISTER_VIEW,
  refParams,
  TAGS,
  VERSION,
} from './library-routes';
import { addRiskListItem, listRiskListItems, removeRiskListItem } from './lists';
import {
  addReviewSchedule,
  deleteReviewSchedule,
  editReviewSchedule,
  getReviewSchedule,
  markReviewed,
} from './reviews';
import {
  changeRiskState,
  copyLibraryRisks,
  createRisk,
  getRisk,
  LIBRARY,
  listRisks,
  orgScope,
  resyncRisk,
  updateRisk,
} from './service';
import { riskControls, risks } from './tables';

const ONE_RISK =
  '`ref` is the id or public id (R-0042). 404 RISK_NOT_FOUND for missing risks and those of other organisations.';
const ONE_CONTROL =
  '`ref` is the id or public id (C-0007). 404 RISK_CONTROL_NOT_FOUND for missing controls and those of other ' +
  'organisations.';
const LIST_FILTERS =
  '`modules` (comma-separated; default and upper bound: the modules the organisation holds, every module in ' +
  'the library), `q` (public id, name or definition), `state` ACTIVE (default), INACTIVE or ALL, `exceptions` ' +
  'ALL or INCLUDE_EXCEPTIONS (with exceptions), ONLY_EXCEPTIONS, EXCLUDE_EXCEPTIONS; `keyRisk`, `residualRisk` ' +
  '(levels), `businessOwnerId`, `tagId`, `revisit` (true: only risks whose scores are to revisit, false: the ' +
  'others); `sortBy` number, name, inherentRisk, residualRisk, dueDate, modifiedOn ' +
  'with `desc`; paged by pageSize and pageNumber. Each risk has its `dueDateStatus` (EARLY, ALMOST_DUE, LATE; ' +
  'null without a due date) and `potentialImpact` with its recommendation.';
const RISK_RULES =
  '`modules` are modules the organisation holds (400 RISK_MODULE_NOT_ENTITLED); `businessOwnerId` (a risk owner), ' +
  '`businessUnitIds`, `auditIds`, `policyIds` name items of its custom lists and `tagIds` its tags (400 ' +
  'RISK_INVALID_LIST_ITEM); `watcherIds` are active people of it (400 RISK_INVALID_PERSON); `relatedRiskIds` and ' +
  '`controlIds` are of the same register, never the risk itself (400 RISK_INVALID_LINKS with their ids), and ' +
  'related risks are active (400 RISK_RELATED_ON_INACTIVE; none can be added to an inactive risk). Response ' +
  'MITIGATE needs a `mitigationPlan` (400 RISK_MITIGATION_PLAN_REQUIRED); `timeZoneId` is an IANA zone (400 ' +
  'RISK_INVALID_TIME_ZONE; a due date without one takes the organisation e-mail time zone); the answer has its ' +
  '`dueDateStatus` (EARLY, ALMOST_DUE in the 30 days up to it, LATE after it, in that zone). Scores: ' +
  '`likelihood` and `riskDirection` are set as given; `potentialImpact` (recommended as the highest impact of ' +
  'the linked systems, each the higher of its data sensitivity and business criticality), `inherentRisk` ' +
  '(recommended from the 5x5 matrix of likelihood and impact), `controlStrength` (the average overall score of the linked ' +
  'controls) and `residualRisk` (inherent risk lowered by control strength) take `recommended: true` (400 ' +
  'RISK_SCORE_NEEDS_INPUTS without their inputs) or a `value`; a value other than the recommendation needs an ' +
  '`overrideReason`, which is kept (400 RISK_SCORE_OVERRIDE_REASON_REQUIRED). Every change is kept in the ' +
  'history (NAME, DEFINITION, RESPONSE, SCORE, FIELDS, LINKS). Sending `scores` (changed or not) saves them and ' +
  'clears `revisitScores` (history REVISIT).';
const CONTROL_RULES =
  '`ownerId` an active person of the organisation (400 RISK_INVALID_PERSON); `riskIds` risks of the same ' +
  'register (400 RISK_INVALID_LINKS); `triggerIds` triggers of the organisation, not deleted (400 ' +
  'RISK_INVALID_TRIGGERS naming the others; library controls take none), shown with their state and last ' +
  'firing. `overallScore` is recommended as the weaker of design and operating ' +
  'effectiveness: `recommended: true` (400 RISK_SCORE_NEEDS_INPUTS without both) or a `value`, with an ' +
  '`overrideReason` when it differs (400 RISK_SCORE_OVERRIDE_REASON_REQUIRED).';

function uploadRefusal({ refusal }: UploadRefusedError): AppError {
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'RISK_EVIDENCE_TOO_LARGE',
      `${refusal.filename} is too large`,
      {
        params: { 0: refusal.filename, maxBytes: CONTROL_EVIDENCE_MAX_BYTES },
      },
    );
  }
  if (refusal.reason === 'tooManyFiles') {
    return validationFailed('RISK_EVIDENCE_TOO_MANY', 'Too many evidence files', {
      field: 'file',
      params: { limit: CONTROL_EVIDENCE_LIMIT },
    });
  }
  return validationFailed('RISK_EVIDENCE_NO_FILE', 'Not a multipart upload', { field: 'file' });
}

/** `attachment; filename=...` with an ASCII fallback and the UTF-8 name (RFC 6266). */
function attachment(name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** Operational risk: the risk and control registers and libraries, and the custom lists. */
export const riskRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(fastifyMultipart, {
      limits: {
        files: CONTROL_EVIDENCE_LIMIT - 1,
        fileSize: CONTROL_EVIDENCE_MAX_BYTES,
        fields: 10,
        parts: 60,
      },
    });

    // Risks ------------------------------------------------------------------------------------------

    app.get(
      '/api/org/:orgId/risks',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's risk register",
          description: LIST_FILTERS,
          params: orgParamsSchema,
          querystring: riskListQuerySchema,
          response: { 200: riskListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        return listRisks(db, access, orgScope(access), request.query);
      },
    );

    app.post(
      '/api/org/:orgId/risk',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add a risk to the register',
          description: `The risk takes the next public id of the organisation (R-0001) and starts ACTIVE. ${RISK_RULES}`,
          params: orgParamsSchema,
          body: riskCreateSchema,
          response: { 201: riskDetailSchema },
        },
      },
      async (request, reply) => reply.status(201).send(await createRisk(db, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/risk/:ref',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: 'One risk with its lists, links, recommendations and history',
          description: ONE_RISK,
          params: refParams,
          response: { 200: riskDetailSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        return getRisk(db, access, orgScope(access), request.params.ref);
      },
    );

    app.patch(
      '/api/org/:orgId/risk/:ref',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change fields, scores or links of a risk',
          description: `The fields given change. ${VERSION} ${RISK_RULES} ${ONE_RISK}`,
          params: refParams,
          body: riskUpdateSchema,
          response: { 200: riskDetailSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return updateRisk(db, actor, orgScope(actor.access), request.params.ref, request.body);
      },
    );

    app.put(
      '/api/org/:orgId/risk/:ref/state',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Activate or deactivate a risk',
          description:
            '`state` ACTIVE or INACTIVE; the current one answers 409 RISK_SAME_STATE. Deactivating a risk linked ' +
            'to other risks answers 409 RISK_DEACTIVATE_CONFIRM_LINKS naming them (`validValues`) unless ' +
            '`confirmRemoveLinks` is true; then the links are removed. The history keeps STATE with the removed ' +
            `links. ${VERSION} ${ONE_RISK}`,
          params: refParams,
          body: riskStateInputSchema,
          response: { 200: riskDetailSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return changeRiskState(db, actor, orgScope(actor.access), request.params.ref, request.body);
      },
    );

    app.post(
      '/api/org/:orgId/risk/:ref/resync',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Take the library content of a copied risk again',
          description:
            "The library risk's name, definition, threat type, ERM connections, response, plan and scores replace " +
            "the register's; its lists, people, links and state stay. 400 RISK_NOT_COPIED_FROM_LIBRARY for risks " +
            `not copied from the library (or whose library risk is gone). ${VERSION} ${ONE_RISK}`,
          params: refParams,
          body: z.object({ version: z.number().int().min(1) }),
          response: { 200: riskDetailSchema },
        },
      },
      async (request) => resyncRisk(db, actorOf(request), request.params.ref, request.body.version),
    );

    app.put(
      '/api/org/:orgId/risk/:ref/incidents',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Set the incidents that realised a risk',
          description:
            '`slugs` of incidents of the organisation (INC-12) replace the linked ones; another slug answers 400 ' +
            'RISK_INVALID_LINKS naming it, and nothing is written. The change is kept in the history (LINKS). ' +
            ONE_RISK,
          params: refParams,
          body: riskIncidentsInputSchema,
          response: { 200: z.array(riskIncidentSchema) },
        },
      },
      async (request) => setRiskIncidents(db, actorOf(request), request.params.ref, request.body.slugs),
    );

    const ONE_INCIDENT =
      '`ref` is the id or slug (INC-12) of an incident of the organisation: 404 TICKET_NOT_FOUND otherwise. ' +
      'Only register risks of the modules the organisation holds are listed.';
    app.get(
      '/api/org/:orgId/risks/incident/:ref',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: 'The register risks an incident realised',
          description:
            'With each risk its residual risk and `revisitScores` (set when a linked incident was closed with ' +
            'a resolution, until the scores are next saved). ' +
            ONE_INCIDENT,
          params: refParams,
          response: { 200: z.array(incidentRiskSchema) },
        },
      },
      async (request) => risksOfIncident(db, accessOf(request), request.params.ref),
    );

    app.put(
      '/api/org/:orgId/risks/incident/:ref',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Set the register risks an incident realised',
          description:
            '`riskIds` of register risks of the organisation in modules it holds replace the linked ones; any ' +
            'other id answers 400 RISK_INVALID_LINKS naming it, and nothing is written. Each risk gained or ' +
            'lost keeps the change in its history (LINKS). ' +
            ONE_INCIDENT,
          params: refParams,
          body: incidentRisksInputSchema,
          response: { 200: z.array(incidentRiskSchema) },
        },
      },
      async (request) => setIncidentRisks(db, actorOf(request), request.params.ref, request.body.riskIds),
    );

    app.put(
      '/api/org/:orgId/risks/library/:ref/state',
      {
        config: LIBRARY_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Activate or deactivate a library risk',
          description: `${LIBRARY_ADMIN} As for register risks.`,
          params: refParams,
          body: riskStateInputSchema,
          response: { 200: riskDetailSchema },
        },
      },
      async (request) => changeRiskState(db, actorOf(request), LIBRARY, request.params.ref, request.body),
    );

    libraryRoutes(app, db, {
      path: 'risks',
      table: risks,
      one: 'risk',
      many: 'risks',
      query: riskListQuerySchema,
      list: libraryRiskListSchema,
      create: riskCreateSchema,
      update: riskUpdateSchema,
      detail: riskDetailSchema,
      describe: {
        list: LIST_FILTERS,
        one: '`ref` is the id or public id (LR-0001).',
        create: "Library risks name no lists, tags, people or other organisations' links.",
        copy:
          'Only the modules the organisation holds come along; an item with none of them answers 400 ' +
          'RISK_MODULE_NOT_ENTITLED. 404 RISK_NOT_FOUND for ids not in the library.',
      },
      listItems: (db, access, query) => listRisks(db, access, LIBRARY, query),
      getItem: getRisk,
      createItem: createRisk,
      updateItem: updateRisk,
      copyItems: copyLibraryRisks,
    });

    inventoryRoutes(app, db);
    assessmentRoutes(app, db);

    // Controls ---------------------------------------------------------------------------------------

    app.get(
      '/api/org/:orgId/controls',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's control register",
          description:
            '`q` (public id, name, definition), `type`, `category`; `sortBy` number, name, overallScore, modifiedOn ' +
            'with `desc`; paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: controlListQuerySchema,
          response: { 200: controlListSchema },
        },
      },
      async (request) => listControls(db, orgScope(accessOf(request)), request.query),
    );

    app.post(
      '/api/org/:orgId/control',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add a control to the register',
          description: `The control takes the next public id (C-0001). ${CONTROL_RULES}`,
          params: orgParamsSchema,
          body: controlCreateSchema,
          response: { 201: controlDetailSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createControl(db, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/control/:ref',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: 'One control with its risks, evidence and history',
          description: ONE_CONTROL,
          params: refParams,
          response: { 200: controlDetailSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        return getControl(db, access, orgScope(access), request.params.ref);
      },
    );

    app.patch(
      '/api/org/:orgId/control/:ref',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a control',
          description: `The fields given change. ${VERSION} ${CONTROL_RULES} ${ONE_CONTROL}`,
          params: refParams,
          body: controlUpdateSchema,
          response: { 200: controlDetailSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        return updateControl(db, actor, orgScope(actor.access), request.params.ref, request.body);
      },
    );

    app.post(
      '/api/org/:orgId/control/:ref/evidence',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Attach evidence files to a control',
          description:
            `multipart/form-data with files of at most ${CONTROL_EVIDENCE_MAX_BYTES} bytes each (413 ` +
            `RISK_EVIDENCE_TOO_LARGE); a control keeps fewer than ${CONTROL_EVIDENCE_LIMIT} (400 ` +
            'RISK_EVIDENCE_TOO_MANY); none answers 400 RISK_EVIDENCE_NO_FILE. The types and checks of ticket files ' +
            'apply (415 RISK_EVIDENCE_UNSUPPORTED_TYPE); one refused file refuses the upload. Kept in the database. ' +
            ONE_CONTROL,
          params: refParams,
          response: { 201: controlDetailSchema },
        },
      },
      async (request, reply) => {
        let upload: SpooledUpload;
        try {
          upload = await spoolUploadedFiles(request, 'vigil-control-evidence');
        } catch (error) {
          throw error instanceof UploadRefusedError ? uploadRefusal(error) : error;
        }
        try {
          const detail = await addEvidence(db, actorOf(request), request.params.ref, upload.files);
          return await reply.status(201).send(detail);
        } finally {
          await upload.remove();
        }
      },
    );

    const fileParams = refParams.extend({ fileId: z.uuid() });

    app.get(
      '/api/org/:orgId/control/:ref/evidence/:fileId',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: 'Download an evidence file',
          description: `The bytes as uploaded, as an attachment. 404 RISK_EVIDENCE_NOT_FOUND. ${ONE_CONTROL}`,
          params: fileParams,
        },
      },
      async (request, reply) => {
        const { ref, fileId } = request.params;
        const file = await evidenceContent(db, accessOf(request).org.id, ref, fileId);
        const type = file.contentType.startsWith('text/')
          ? `${file.contentType}; charset=utf-8`
          : file.contentType;
        return reply
          .header('content-type', type)
          .header('content-disposition', attachment(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.content);
      },
    );

    app.delete(
      '/api/org/:orgId/control/:ref/evidence/:fileId',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an evidence file',
          description: `The history keeps its name. 404 RISK_EVIDENCE_NOT_FOUND. ${ONE_CONTROL}`,
          params: fileParams,
          response: { 200: controlDetailSchema },
        },
      },
      async (request) => removeEvidence(db, actorOf(request), request.params.ref, request.params.fileId),
    );

    libraryRoutes(app, db, {
      path: 'controls',
      table: riskControls,
      one: 'control',
      many: 'controls',
      query: controlListQuerySchema,
      list: libraryControlListSchema,
      create: controlCreateSchema,
      update: controlUpdateSchema,
      detail: controlDetailSchema,
      describe: {
        list: 'Filters as for the register.',
        one: '`ref` is the id or public id (LC-0001).',
        create: 'Library controls have no owner.',
        copy: '404 RISK_CONTROL_NOT_FOUND for ids not in the library.',
      },
      listItems: (db, _access, query) => listControls(db, LIBRARY, query),
      getItem: getControl,
      createItem: createControl,
      updateItem: updateControl,
      copyItems: copyLibraryControls,
    });

    // Custom lists -----------------------------------------------------------------------------------

    app.get(
      '/api/org/:orgId/risk-lists',
      {
        config: REGISTER_VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's custom risk lists",
          description:
            'Audits, asset types, policies, business units, risk owners and vendors, by list and name; `kind` ' +
            'narrows to one list. Tags are the organisation tags (/tags).',
          params: orgParamsSchema,
          querystring: z.object({ kind: z.enum(RISK_LIST_KINDS).optional() }),
          response: { 200: z.array(riskListItemSchema) },
        },
      },
      async (request) => listRiskListItems(db, accessOf(request).org.id, request.query.kind),
    );

    app.post(
      '/api/org/:orgId/risk-lists/:kind',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add a name to a custom list',
          description: 'Names are unique in their list, any case (409 RISK_LIST_ITEM_NAME_TAKEN).',
          params: orgParamsSchema.extend({ kind: z.enum(RISK_LIST_KINDS) }),
          body: riskListItemInputSchema,
          response: { 201: riskListItemSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await addRiskListItem(db, actorOf(request), request.params.kind, request.body.name)),
    );

    app.delete(
      '/api/org/:orgId/risk-lists/item/:id',
      {
        config: REGISTER_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a custom list item',
          description:
            'Risks naming it lose it (a risk owner leaves its risks without an owner). 404 RISK_LIST_ITEM_NOT_FOUND.',
          params: orgParamsSchema.extend({ id: z.uuid() }),
        },
      },
      async (request, reply) => {
        await removeRiskListItem(db, actorOf(request), request.params.id);
        return reply.status(204).send();
      },
    );

    // Review schedules ---------------------------------------------------------------------------------

    const REVIEW =
      '`every` 1 to 366 `unit`s (day, month or year), `nextReview` yyyy-mm-dd, at least one watcher (400 ' +
      'RISK_REVIEW_WATCHER_REQUIRED), each an active person of the organisation (400 RISK_INVALID_PERSON). ' +
      '`status` is EARLY, ALMOST_DUE (the last quarter of the interval, at most 30 days) or LATE (after the ' +
      "next review date), on the organisation's e-mail time zone. Changes are kept in the history (REVIEW: " +
      'ADDED, EDITED, DELETED, MARKED_REVIEWED). `lastReminder` is the last reminder the daily job ' +
      'risk.review-reminders sent (stage ALMOST_DUE or LATE, each once per next-review date `cycle`, e-mailed ' +
      'to the watchers still active in the organisation) with the open task of the cycle; marking reviewed, ' +
      'a new next-review date or deleting the schedule closes that task.';
    for (const target of ['risk', 'control'] as const) {
      const path = `/api/org/:orgId/${target}/:ref/review-schedule`;
      const ONE = target === 'risk' ? ONE_RISK : ONE_CONTROL;
      const MISSING = '404 RISK_REVIEW_SCHEDULE_NOT_FOUND when it has none.';
      app.get(
        path,
        {
          config: REGISTER_VIEW,
          schema: {
            tags: TAGS,
            summary: `The review schedule of a ${target}`,
            description: `null when it has none. ${REVIEW} ${ONE}`,
            params: refParams,
            response: { 200: reviewScheduleSchema.nullable() },
          },
        },
        async (request) => getReviewSchedule(db, actorOf(request), target, request.params.ref),
      );
      app.post(
        path,
        {
          config: REGISTER_EDIT,
          schema: {
            tags: TAGS,
            summary: `Add a review schedule to a ${target}`,
            description: `One per ${target}: 409 RISK_REVIEW_SCHEDULE_EXISTS when it has one. ${REVIEW} ${ONE}`,
            params: refParams,
            body: reviewScheduleInputSchema,
            response: { 201: reviewScheduleSchema },
          },
        },
        async (request, reply) =>
          reply
            .status(201)
            .send(await addReviewSchedule(db, actorOf(request), target, request.params.ref, request.body)),
      );
      app.put(
        path,
        {
          config: REGISTER_EDIT,
          schema: {
            tags: TAGS,
            summary: `Change the review schedule of a ${target}`,
            description: `${MISSING} ${REVIEW} ${ONE}`,
            params: refParams,
            body: reviewScheduleInputSchema,
            response: { 200: reviewScheduleSchema },
          },
        },
        async (request) => editReviewSchedule(db, actorOf(request), target, request.params.ref, request.body),
      );
      app.delete(
        path,
        {
          config: REGISTER_EDIT,
          schema: {
            tags: TAGS,
            summary: `Delete the review schedule of a ${target}`,
            description: `${MISSING} ${ONE}`,
            params: refParams,
          },
        },
        async (request, reply) => {
          await deleteReviewSchedule(db, actorOf(request), target, request.params.ref);
          return reply.status(204).send();
        },
      );
      app.post(
        `${path}/reviewed`,
        {
          config: REGISTER_EDIT,
          schema: {
            tags: TAGS,
            summary: `Mark a ${target} as reviewed`,
            description:
              'Sets the last review to today and the next one an interval after today. Refused while the review ' +
              `is EARLY (400 RISK_REVIEW_TOO_EARLY). ${MISSING} ${ONE}`,
            params: refParams,
            response: { 200: reviewScheduleSchema },
          },
        },
        async (request) => markReviewed(db, actorOf(request), target, request.params.ref),
      );
    }
  };
