import { readFile } from 'node:fs/promises';
import fastifyMultipart from '@fastify/multipart';
import {
  carryOverInputSchema,
  carryOverResultSchema,
  controlAnswerInputSchema,
  controlAnswerSchema,
  frameworkControlUpdateSchema,
  frameworkTiersInputSchema,
  FRAMEWORK_TIERS_MAX,
  frameworkUpdateSchema,
  evaluationPeriodInputSchema,
  evaluationPeriodSchema,
  evidenceInputSchema,
  evidenceReportQuerySchema,
  EVIDENCE_FILES_LIMIT,
  frameworkDetailSchema,
  frameworkSummarySchema,
  governanceDashboardSchema,
  GOVERNANCE_REVIEW_HORIZON_DAYS,
  libraryFrameworkSchema,
  OSCAL_CATALOG_MAX_BYTES,
  OSCAL_CATALOG_MAX_ITEMS,
  periodComparisonSchema,
  periodExtensionInputSchema,
  periodRiskProfileInputSchema,
  periodTierInputSchema,
  tierTargetInputSchema,
  TICKET_FILE_MAX_BYTES,
  TICKET_FILE_TYPES,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import { attachment, orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import { governanceDashboard } from './dashboard';
import { evidenceReport } from './evidence-report';
import { importOscalCatalog, OscalCatalogError } from './oscal';
import {
  addEvidence,
  addEvidenceFiles,
  adoptFramework,
  carryOverAnswers,
  answerControl,
  comparePeriods,
  createPeriod,
  deleteFramework,
  evidenceFile,
  extendPeriod,
  finalizePeriod,
  getFramework,
  getPeriod,
  importFramework,
  listFrameworks,
  listLibrary,
  listPeriodAnswers,
  listPeriods,
  removeEvidence,
  setPeriodRiskProfile,
  setFrameworkTiers,
  setPeriodTier,
  setTarget,
  updateControl,
  updateFrameworkDetails,
  type Actor,
} from './service';

const VIEW = { access: { permission: 'POLICY_FRAMEWORK_VIEW' as const } };
const EDIT = { access: { permission: 'POLICY_FRAMEWORK_EDIT' as const } };
const TAGS = ['governance'];
const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const frameworkParams = orgParamsSchema.extend({ id: z.uuid() });
const periodParams = orgParamsSchema.extend({ id: z.uuid() });
const controlParams = periodParams.extend({ controlId: z.uuid() });
const evidenceParams = periodParams.extend({ evidenceId: z.uuid() });

const FRAMEWORK_404 = 'Frameworks of other organisations answer 404 GOVERNANCE_FRAMEWORK_NOT_FOUND.';
const PERIOD_404 = 'Periods of other organisations answer 404 GOVERNANCE_PERIOD_NOT_FOUND.';
const IN_PROGRESS =
  'Only a period in progress changes: a finalized one answers 409 GOVERNANCE_PERIOD_FINALIZED and nothing is ' +
  `written. ${PERIOD_404}`;
const FILE_TYPES = Object.keys(TICKET_FILE_TYPES).join(', ');

function evidenceUploadRefusal({ refusal }: UploadRefusedError): AppError {
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'TICKET_FILE_TOO_LARGE',
      `${refusal.filename} is too large`,
      {
        params: { 0: refusal.filename, maxBytes: TICKET_FILE_MAX_BYTES },
      },
    );
  }
  if (refusal.reason === 'tooManyFiles') {
    return validationFailed('GOVERNANCE_EVIDENCE_TOO_MANY_FILES', 'Too many evidence files', {
      field: 'file',
      params: { limit: EVIDENCE_FILES_LIMIT },
    });
  }
  return validationFailed('TICKET_FILE_NO_FILE', 'Not a multipart upload', { field: 'file' });
}

function catalogUploadRefusal({ refusal }: UploadRefusedError): AppError {
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'GOVERNANCE_OSCAL_TOO_LARGE',
      `${refusal.filename} is too large`,
      {
        params: { 0: refusal.filename, max: '5 MiB', maxBytes: OSCAL_CATALOG_MAX_BYTES },
      },
    );
  }
  return validationFailed('GOVERNANCE_OSCAL_NO_FILE', 'Upload one OSCAL catalog file', { field: 'file' });
}

/** The framework an uploaded OSCAL catalog describes, or the error that names what is wrong with it. */
async function catalogOf(upload: SpooledUpload) {
  const [file] = upload.files;
  if (!file || upload.files.length > 1) {
    throw validationFailed('GOVERNANCE_OSCAL_NO_FILE', 'Upload one OSCAL catalog file', { field: 'file' });
  }
  let document: unknown;
  try {
    document = JSON.parse(await readFile(file.path, 'utf8'));
  } catch {
    throw validationFailed('GOVERNANCE_OSCAL_MALFORMED', `${file.filename} is not JSON`, {
      field: 'file',
      params: { 0: file.filename },
    });
  }
  try {
    return importOscalCatalog(document);
  } catch (error) {
    if (!(error instanceof OscalCatalogError)) throw error;
    const key =
      error.kind === 'empty'
        ? 'GOVERNANCE_OSCAL_EMPTY'
        : error.kind === 'tooManyItems'
          ? 'GOVERNANCE_OSCAL_TOO_MANY_ITEMS'
          : 'GOVERNANCE_OSCAL_INVALID';
    throw validationFailed(key, error.message, {
      field: 'file',
      params: { 0: file.filename, reason: error.reason, path: error.path, max: OSCAL_CATALOG_MAX_ITEMS },
    });
  }
}

/** Spools a multipart upload, mapping refusals, and removes it once `use` is done. */
async function withUpload<T>(
  request: FastifyRequest,
  refusal: (error: UploadRefusedError) => AppError,
  use: (upload: SpooledUpload) => Promise<T>,
): Promise<T> {
  let upload: SpooledUpload;
  try {
    upload = await spoolUploadedFiles(request, 'vigil-governance');
  } catch (error) {
    throw error instanceof UploadRefusedError ? refusal(error) : error;
  }
  try {
    return await use(upload);
  } finally {
    await upload.remove();
  }
}

/** Frameworks, evaluation periods, answers and evidence (spec 3, Governance). */
export const governanceRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/governance/framework-library',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The framework library',
          description:
            "NIST CSF 2.0 (from NIST's OSCAL catalog), the CISA Cross-Sector Cybersecurity Performance Goals 2.0 " +
            'and 1.0.1, and the FFIEC CAT structure, each with `adoptedId` when the organisation has adopted it.',
          params: orgParamsSchema,
          response: { 200: z.array(libraryFrameworkSchema) },
        },
      },
      async (request) => listLibrary(db, accessOf(request).org.id),
    );

    app.post(
      '/api/org/:orgId/governance/framework-library/:key/adopt',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Adopt a library framework',
          description:
            'Copies its sections and controls into the organisation. 404 GOVERNANCE_LIBRARY_FRAMEWORK_NOT_FOUND for ' +
            'an unknown key; 409 GOVERNANCE_FRAMEWORK_ALREADY_ADOPTED when the organisation holds it already.',
          params: orgParamsSchema.extend({ key: z.string().min(1).max(64) }),
          response: { 201: frameworkDetailSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await adoptFramework(db, actorOf(request), request.params.key)),
    );

    app.get(
      '/api/org/:orgId/governance/dashboard',
      {
        config: { access: { permission: 'GOVERNANCE_DASHBOARD_VIEW' } },
        schema: {
          tags: TAGS,
          summary: 'The governance dashboard',
          description:
            `The policies overdue for review or due within ${GOVERNANCE_REVIEW_HORIZON_DAYS} days, soonest first, of ` +
            'the kinds the requester may read (CUSTOM_POLICY_VIEW, CAT_POLICY_VIEW; null with neither), and the ' +
            'frameworks with a period in progress (POLICY_FRAMEWORK_VIEW; else null). The tasks of the task ' +
            'schedules are counted by `GET …/task-schedules/task-counts`.',
          params: orgParamsSchema,
          response: { 200: governanceDashboardSchema },
        },
      },
      async (request) => governanceDashboard(db, accessOf(request)),
    );

    app.get(
      '/api/org/:orgId/governance/frameworks',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's frameworks",
          description: 'By name, each with its counts and its newest period in progress.',
          params: orgParamsSchema,
          response: { 200: z.array(frameworkSummarySchema) },
        },
      },
      async (request) => listFrameworks(db, accessOf(request).org.id),
    );

    app.get(
      '/api/org/:orgId/governance/framework/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A framework with its sections and controls',
          description: `Sections in catalog order, nested by parentId. ${FRAMEWORK_404}`,
          params: frameworkParams,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) => getFramework(db, accessOf(request).org.id, request.params.id),
    );

    app.patch(
      '/api/org/:orgId/governance/framework/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Rename a framework',
          description: `Its \`name\` and \`description\`; sections, controls and periods stay as they are. ${FRAMEWORK_404}`,
          params: frameworkParams,
          body: frameworkUpdateSchema,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) => updateFrameworkDetails(db, actorOf(request), request.params.id, request.body),
    );

    app.put(
      '/api/org/:orgId/governance/framework/:id/tiers',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: "Set the framework's maturity tiers",
          description:
            `\`tiers\` lowest first, at most ${FRAMEWORK_TIERS_MAX}, each once in any case (400 ` +
            'GOVERNANCE_TIERS_DUPLICATE). A tier that is a target of the framework or a section, or assessed in ' +
            'any period (finalized ones too), must stay with its name: removing or renaming it answers 409 ' +
            `GOVERNANCE_TIER_IN_USE and nothing changes. ${FRAMEWORK_404}`,
          params: frameworkParams,
          body: frameworkTiersInputSchema,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) => setFrameworkTiers(db, actorOf(request), request.params.id, request.body.tiers),
    );

    app.delete(
      '/api/org/:orgId/governance/framework/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a framework',
          description:
            'For good, with its sections, controls and evaluation periods (answers, evidence files, links and ' +
            'automatic evidence); a library framework can then be adopted again. A finalized period is an ' +
            'examiner record: a framework holding one answers 409 GOVERNANCE_FRAMEWORK_HAS_FINALIZED_PERIOD and ' +
            `nothing is deleted. ${FRAMEWORK_404}`,
          params: frameworkParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteFramework(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    const TARGET =
      "`targetTier` is one of the framework's tiers (400 GOVERNANCE_TIER_UNKNOWN) or null to clear it. A target " +
      'is held at one level of a branch: a section cannot take one while the framework or a parent section has ' +
      'one, nor the framework or a section while a section below has one (409 GOVERNANCE_TIER_TARGET_EXISTS).';

    app.put(
      '/api/org/:orgId/governance/framework/:id/target',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: "Set the framework's target tier",
          description: `${TARGET} ${FRAMEWORK_404}`,
          params: frameworkParams,
          body: tierTargetInputSchema,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) => setTarget(db, actorOf(request), request.params.id, null, request.body.targetTier),
    );

    app.put(
      '/api/org/:orgId/governance/framework/:id/section/:sectionId/target',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: "Set a section's target tier",
          description: `${TARGET} 404 GOVERNANCE_SECTION_NOT_FOUND for a section of another framework. ${FRAMEWORK_404}`,
          params: frameworkParams.extend({ sectionId: z.uuid() }),
          body: tierTargetInputSchema,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) =>
        setTarget(db, actorOf(request), request.params.id, request.params.sectionId, request.body.targetTier),
    );

    app.patch(
      '/api/org/:orgId/governance/framework/:id/control/:controlId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Mark a control mandatory or alertable',
          description:
            'A mandatory control cannot be answered N/A: marking one mandatory while a period in progress answers ' +
            'it N/A answers 400 GOVERNANCE_MANDATORY_ANSWERED_NOT_APPLICABLE naming the periods, and nothing is ' +
            'stored. An alertable control needs `triggerId` (400 ' +
            'GOVERNANCE_ALERTABLE_NEEDS_TRIGGER), a trigger of the organisation (400 GOVERNANCE_INVALID_TRIGGER). ' +
            `404 GOVERNANCE_CONTROL_NOT_FOUND for a control of another framework. ${FRAMEWORK_404}`,
          params: frameworkParams.extend({ controlId: z.uuid() }),
          body: frameworkControlUpdateSchema,
          response: { 200: frameworkDetailSchema },
        },
      },
      async (request) =>
        updateControl(db, actorOf(request), request.params.id, request.params.controlId, request.body),
    );

    app.get(
      '/api/org/:orgId/governance/framework/:id/periods',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "A framework's evaluation periods",
          description: `Newest start first. ${FRAMEWORK_404}`,
          params: frameworkParams,
          response: { 200: z.array(evaluationPeriodSchema) },
        },
      },
      async (request) => listPeriods(db, accessOf(request).org.id, request.params.id),
    );

    app.post(
      '/api/org/:orgId/governance/framework/:id/period',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Start an evaluation period',
          description:
            '`startsOn` before `endsOn` (YYYY-MM-DD; 400 GOVERNANCE_PERIOD_INVALID_DATES). The period starts in ' +
            `progress. ${FRAMEWORK_404}`,
          params: frameworkParams,
          body: evaluationPeriodInputSchema,
          response: { 201: evaluationPeriodSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createPeriod(db, actorOf(request), request.params.id, request.body)),
    );

    app.get(
      '/api/org/:orgId/governance/period/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'An evaluation period',
          description: PERIOD_404,
          params: periodParams,
          response: { 200: evaluationPeriodSchema },
        },
      },
      async (request) => getPeriod(db, accessOf(request).org.id, request.params.id),
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/extend',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Extend an evaluation period by 12 or 18 months',
          description: `\`months\` 12 or 18; the end moves by as much and the extension is kept. ${IN_PROGRESS}`,
          params: periodParams,
          body: periodExtensionInputSchema,
          response: { 200: evaluationPeriodSchema },
        },
      },
      async (request) => extendPeriod(db, actorOf(request), request.params.id, request.body.months),
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/finalize',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Finalize an evaluation period',
          description: `Permanent: the period, its answers and evidence become read-only. ${IN_PROGRESS}`,
          params: periodParams,
          response: { 200: evaluationPeriodSchema },
        },
      },
      async (request) => finalizePeriod(db, actorOf(request), request.params.id),
    );

    app.put(
      '/api/org/:orgId/governance/period/:id/tier',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Record the maturity tier assessed for a section or the framework',
          description:
            '`sectionId` null is the framework as a whole (404 GOVERNANCE_SECTION_NOT_FOUND for another ' +
            "framework's); `tier` one of the framework's tiers (400 GOVERNANCE_TIER_UNKNOWN) or null to clear it. " +
            IN_PROGRESS,
          params: periodParams,
          body: periodTierInputSchema,
          response: { 200: evaluationPeriodSchema },
        },
      },
      async (request) =>
        setPeriodTier(db, actorOf(request), request.params.id, request.body.sectionId, request.body.tier),
    );

    app.put(
      '/api/org/:orgId/governance/period/:id/risk-profile',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Rate the inherent risk profile in a period',
          description:
            "For frameworks with an inherent risk profile (FFIEC CAT): `levels` maps each category's ref to one of " +
            'the levels (Least to Most); anything else answers 400 GOVERNANCE_RISK_PROFILE_INVALID. Replaces the ' +
            `ratings. ${IN_PROGRESS}`,
          params: periodParams,
          body: periodRiskProfileInputSchema,
          response: { 200: evaluationPeriodSchema },
        },
      },
      async (request) => setPeriodRiskProfile(db, actorOf(request), request.params.id, request.body.levels),
    );

    app.get(
      '/api/org/:orgId/governance/period/:id/answers',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The answers of an evaluation period',
          description: `Every control answered or holding evidence in the period, with its evidence. ${PERIOD_404}`,
          params: periodParams,
          response: { 200: z.array(controlAnswerSchema) },
        },
      },
      async (request) => listPeriodAnswers(db, accessOf(request).org.id, request.params.id),
    );

    app.put(
      '/api/org/:orgId/governance/period/:id/control/:controlId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Answer a control',
          description:
            '`status` IMPLEMENTED, PARTIALLY_IMPLEMENTED, NOT_IMPLEMENTED or NOT_APPLICABLE (null: not answered); a ' +
            'mandatory control cannot be NOT_APPLICABLE (400 GOVERNANCE_MANDATORY_NOT_APPLICABLE). `ownerId` an ' +
            'active person of the organisation (400 GOVERNANCE_INVALID_OWNER). Saving clears a carried-over ' +
            `suggestion. 404 GOVERNANCE_CONTROL_NOT_FOUND for a control of another framework. ${IN_PROGRESS}`,
          params: controlParams,
          body: controlAnswerInputSchema,
          response: { 200: controlAnswerSchema },
        },
      },
      async (request) =>
        answerControl(db, actorOf(request), request.params.id, request.params.controlId, request.body),
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/control/:controlId/evidence',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add a link, a ticket or a report as evidence',
          description:
            '`kind` link (a name and an http(s) `url`), ticket (`slug` of an incident or task of the ' +
            'organisation, 400 GOVERNANCE_EVIDENCE_TICKET_NOT_FOUND) or report (`reportId` of a report of the ' +
            "organisation's reports area, read with REPORT_VIEW, else 403 PERMISSION_DENIED; another " +
            "organisation's or an unknown one: 400 GOVERNANCE_EVIDENCE_REPORT_NOT_FOUND; not completed: 400 " +
            'GOVERNANCE_EVIDENCE_REPORT_NOT_COMPLETED). A report is kept as a copy of its PDF, named with its ' +
            `range, and downloads as an evidence file. ${IN_PROGRESS}`,
          params: controlParams,
          body: evidenceInputSchema,
          response: { 201: controlAnswerSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await addEvidence(
              db,
              actorOf(request),
              request.params.id,
              request.params.controlId,
              request.body,
            ),
          ),
    );

    app.delete(
      '/api/org/:orgId/governance/period/:id/evidence/:evidenceId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Remove evidence',
          description: `404 GOVERNANCE_EVIDENCE_NOT_FOUND for evidence of another period. ${IN_PROGRESS}`,
          params: evidenceParams,
          response: { 200: controlAnswerSchema },
        },
      },
      async (request) => removeEvidence(db, actorOf(request), request.params.id, request.params.evidenceId),
    );

    app.get(
      '/api/org/:orgId/governance/period/:id/evidence/:evidenceId',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Download an evidence file or report',
          description:
            "A file's bytes as uploaded (a report's PDF as attached), with the content type checked at upload, " +
            '`Content-Disposition: attachment` and ' +
            `\`X-Content-Type-Options: nosniff\`. 404 GOVERNANCE_EVIDENCE_NOT_FOUND otherwise. ${PERIOD_404}`,
          params: evidenceParams,
        },
      },
      async (request, reply) => {
        const file = await evidenceFile(
          db,
          accessOf(request).org.id,
          request.params.id,
          request.params.evidenceId,
        );
        return reply
          .header(
            'content-type',
            file.contentType.startsWith('text/') ? `${file.contentType}; charset=utf-8` : file.contentType,
          )
          .header('content-disposition', attachment(file.name))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(file.content);
      },
    );

    app.post(
      '/api/org/:orgId/governance/period/:id/carry-over',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Carry answers over from a CAT or CPG period as suggestions',
          description:
            'For a NIST CSF 2.0 period: the answers of `fromPeriodId`, a period of the FFIEC CAT (each component by ' +
            'its Baseline answer) or the CISA CPG, are mapped to CSF 2.0 subcategories by the crosswalk; each ' +
            'subcategory not answered yet gets the weakest mapped answer as a suggestion, which stays unanswered ' +
            'until someone saves it. Other frameworks: 400 GOVERNANCE_CROSSWALK_UNSUPPORTED. ' +
            IN_PROGRESS,
          params: periodParams,
          body: carryOverInputSchema,
          response: { 200: carryOverResultSchema },
        },
      },
      async (request) => carryOverAnswers(db, actorOf(request), request.params.id, request.body.fromPeriodId),
    );

    app.get(
      '/api/org/:orgId/governance/period/:id/evidence-report',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The evidence report of a period (PDF)',
          description:
            'A PDF for an examiner or a board: a cover (framework, period, state, organisation, time) and the ' +
            '`elements` chosen (comma-separated or repeated; none: 400 GOVERNANCE_EVIDENCE_REPORT_NO_ELEMENTS): ' +
            "FRAMEWORK_STATUS, the framework's status by top-level section with evidence counts, tiers and the " +
            'controls not fully implemented; AUTO_EVIDENCE, the latest evaluation of each automatic evidence ' +
            'source; RISK_REGISTER, the risk register summary (with RISK_VIEW and a risk module); ' +
            "INCIDENT_STATISTICS, incident statistics for the period's dates (with INCIDENT_VIEW); POLICY_REVIEWS, " +
            'the review status of the policies the requester may read. An element chosen without its permission ' +
            `says it is not available to the requester. ${PERIOD_404}`,
          params: periodParams,
          querystring: evidenceReportQuerySchema,
        },
      },
      async (request, reply) => {
        const report = await evidenceReport(db, accessOf(request), request.params.id, request.query.elements);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', attachment(report.name))
          .header('cache-control', 'private, no-store')
          .send(report.content);
      },
    );

    app.get(
      '/api/org/:orgId/governance/period-comparison',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Compare two evaluation periods',
          description:
            'The status of every control of the framework in `from` and in `to`, in catalog order. Both periods ' +
            `belong to one framework (400 GOVERNANCE_PERIOD_COMPARE_OTHER_FRAMEWORK). ${PERIOD_404}`,
          params: orgParamsSchema,
          querystring: z.object({ from: z.uuid(), to: z.uuid() }),
          response: { 200: periodComparisonSchema },
        },
      },
      async (request) => comparePeriods(db, accessOf(request).org.id, request.query.from, request.query.to),
    );

    // Uploads: each kind with its own limits.
    await app.register(async (instance) => {
      const uploads = instance.withTypeProvider<ZodTypeProvider>();
      await uploads.register(fastifyMultipart, {
        limits: { files: EVIDENCE_FILES_LIMIT - 1, fileSize: TICKET_FILE_MAX_BYTES, fields: 10, parts: 60 },
      });
      uploads.post(
        '/api/org/:orgId/governance/period/:id/control/:controlId/evidence-files',
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: 'Attach files as evidence',
            description:
              `multipart/form-data with one or more files of at most ${TICKET_FILE_MAX_BYTES} bytes each (413 ` +
              `TICKET_FILE_TOO_LARGE); a control keeps fewer than ${EVIDENCE_FILES_LIMIT} files per period (400 ` +
              `GOVERNANCE_EVIDENCE_TOO_MANY_FILES). Accepted as for ticket files: ${FILE_TYPES}, the bytes matching ` +
              `the type (415 TICKET_FILE_UNSUPPORTED_TYPE); one refused file refuses the upload. ${IN_PROGRESS}`,
            params: controlParams,
            response: { 201: controlAnswerSchema },
          },
        },
        async (request, reply) => {
          const answer = await withUpload(request, evidenceUploadRefusal, (upload) =>
            addEvidenceFiles(db, actorOf(request), request.params.id, request.params.controlId, upload.files),
          );
          return reply.status(201).send(answer);
        },
      );
    });

    await app.register(async (instance) => {
      const uploads = instance.withTypeProvider<ZodTypeProvider>();
      await uploads.register(fastifyMultipart, {
        limits: { files: 1, fileSize: OSCAL_CATALOG_MAX_BYTES, fields: 5, parts: 5 },
      });
      uploads.post(
        '/api/org/:orgId/governance/framework-import',
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: 'Import a framework from an OSCAL catalog',
            description:
              'multipart/form-data with one OSCAL catalog in JSON of at most 5 MiB (413 GOVERNANCE_OSCAL_TOO_LARGE; ' +
              'none, 400 GOVERNANCE_OSCAL_NO_FILE). Groups, and controls holding controls, become nested sections; ' +
              'other controls are answered, with their statement and examples or guidance; withdrawn items are ' +
              'left out. Not JSON: 400 GOVERNANCE_OSCAL_MALFORMED; not a catalog: 400 GOVERNANCE_OSCAL_INVALID with ' +
              `the reason and JSON path; no controls: 400 GOVERNANCE_OSCAL_EMPTY; more than ${OSCAL_CATALOG_MAX_ITEMS} ` +
              'sections and controls: 400 GOVERNANCE_OSCAL_TOO_MANY_ITEMS. Nothing is stored on error.',
            params: orgParamsSchema,
            response: { 201: frameworkDetailSchema },
          },
        },
        async (request, reply) => {
          const template = await withUpload(request, catalogUploadRefusal, catalogOf);
          return reply.status(201).send(await importFramework(db, actorOf(request), template));
        },
      );
    });
  };
