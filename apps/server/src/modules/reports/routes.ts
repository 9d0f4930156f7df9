import {
  reportListQuerySchema,
  reportLibraryCopyResultSchema,
  reportListSchema,
  reportRequestSchema,
  reportScheduleActivateSchema,
  reportSchema,
  reportScheduleInputSchema,
  reportScheduleListSchema,
  reportScheduleSchema,
  reportTemplateInputSchema,
  reportTemplateListSchema,
  reportTemplateSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { attachment, orgParamsSchema } from '../../platform/http';
import type { Actor } from '../dashboards/service';
import { listReports, listSchedules, listTemplates } from './repo';
import {
  activateSchedule,
  copyScheduleLibraryToCustomers,
  createSchedule,
  createTemplate,
  deleteReport,
  deleteSchedule,
  deleteTemplate,
  getReport,
  getTemplate,
  moveSchedule,
  reportJson,
  reportPdf,
  requestReport,
  scheduleJson,
  templatesJson,
  updateScheduleFields,
  updateTemplateFields,
  type QueueBuild,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'REPORT_VIEW' as const } };
const EDIT = { access: { permission: 'REPORT_EDIT' as const } };
const TAGS = ['reports'];
const noContent = { 204: z.null() };

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });
const pageOf = (query: { pageSize: number; pageNumber: number }) => ({
  limit: query.pageSize,
  offset: (query.pageNumber - 1) * query.pageSize,
});

const TEMPLATE_RULES =
  'Rules (400): at least one chart (REPORT_TEMPLATE_NEEDS_CHART), at most 24 ' +
  '(REPORT_TEMPLATE_TOO_MANY_CHARTS), each once (REPORT_TEMPLATE_DUPLICATE_CHART) and each a live chart ' +
  'of the organisation or the library (REPORT_TEMPLATE_CHART_MISSING; a library template takes library charts ' +
  'only). `library: true` makes a library template, offered to every customer; library templates are changed ' +
  'by provider administrators only (403 LIBRARY_COPY_DENIED). A chart in a template has its series locked: ' +
  'changing its family, queries or domain answers 400 SERIES_USED_IN_ON_DEMAND_REPORT.';

const BUILD_NOTE =
  'A durable job builds the PDF: REQUESTED, WAITING_FOR_DATA (the charts read their data as the requester, ' +
  'under their permissions and data restrictions), BUILDING, then COMPLETED or FAILED with ' +
  '`errorKey` REPORT_GENERATION_FAILED. The PDF has a cover (report, organisation, range, generated time), ' +
  'then per chart its title, its picture (bar, line, area, pie) and its data table.';

const SCHEDULE_NOTE =
  'A schedule builds its template over `range` DAILY (00:00 UTC), WEEKLY (Monday) or MONTHLY (the 1st) ' +
  'and e-mails the PDF to `recipients` (1 to 50 addresses; 400 REPORT_SCHEDULE_NEEDS_RECIPIENT). States ' +
  'NOT_COPIED, ACTIVE, PAUSED, DELETED; `lastRunState` PENDING, COMPLETED or FAILED. Library schedules ' +
  '(`library: true`, provider administrators only, a library template, no recipients: 400 ' +
  'REPORT_LIBRARY_SCHEDULE_RECIPIENTS) never run: copied to the customers they are NOT_COPIED there, never ' +
  'built or e-mailed, until the organisation copies one (POST .../activate) with its own recipients. Changing ' +
  'a library schedule changes its copies still NOT_COPIED; deleting it deletes them.';

/** Report templates, on-demand reports and report schedules (spec 3): /reports and /reports/templates/list. */
export const reportRoutes =
  (db: Db, queue: QueueBuild): FastifyPluginAsyncZod =>
  async (app) => {
    // ---------------------------------------------------------------------------------------------
    // Templates

    app.get(
      '/api/org/:orgId/report-templates',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's report templates",
          description:
            'By name; `search` matches part of the name; paged by pageSize and pageNumber. `library=true`: ' +
            "the provider's library templates instead.",
          params: orgParamsSchema,
          querystring: reportListQuerySchema,
          response: { 200: reportTemplateListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { items, total } = await listTemplates(
          db,
          request.query.library ? null : access.org.id,
          request.query.search,
          pageOf(request.query),
        );
        return { items: await templatesJson(db, access, items), total };
      },
    );

    app.get(
      '/api/org/:orgId/report-template/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'One report template',
          description:
            "The organisation's or the library's; its charts in order; `live` is false for a chart deleted " +
            'since. 404 REPORT_TEMPLATE_NOT_FOUND.',
          params: idParams,
          response: { 200: reportTemplateSchema },
        },
      },
      async (request) => getTemplate(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/report-template',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a report template',
          description: `A name and the charts a report shows, in order. ${TEMPLATE_RULES}`,
          params: orgParamsSchema,
          body: reportTemplateInputSchema,
          response: { 201: reportTemplateSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createTemplate(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/report-template/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a report template',
          description: `Replaces its name, description and charts. ${TEMPLATE_RULES}`,
          params: idParams,
          body: reportTemplateInputSchema,
          response: { 200: reportTemplateSchema },
        },
      },
      async (request) => updateTemplateFields(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/report-template/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a report template',
          description:
            'Reports built from it keep their PDFs. 409 REPORT_TEMPLATE_IN_USE while a schedule that is not ' +
            'deleted uses it (for a library template: a library schedule or a NOT_COPIED copy of one).',
          params: idParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deleteTemplate(db, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    // ---------------------------------------------------------------------------------------------
    // On-demand reports

    app.get(
      '/api/org/:orgId/reports',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's reports",
          description: `Newest first, on-demand and scheduled, with their state. ${BUILD_NOTE}`,
          params: orgParamsSchema,
          querystring: reportListQuerySchema.omit({ library: true }),
          response: { 200: reportListSchema },
        },
      },
      async (request) => {
        const { items, total } = await listReports(
          db,
          accessOf(request).org.id,
          request.query.search,
          pageOf(request.query),
        );
        return { items: items.map(reportJson), total };
      },
    );

    app.post(
      '/api/org/:orgId/report',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Request an on-demand report',
          description:
            'Builds a template over a range: 1H, 3H, 12H, 24H, 7D, 30D, 90D, THIS_WEEK, LAST_WEEK, THIS_MONTH, ' +
            `LAST_MONTH or ALL_TIME, resolved now. Answers 202 with the report REQUESTED. ${BUILD_NOTE} ` +
            '400 REPORT_TEMPLATE_NOT_FOUND.',
          params: orgParamsSchema,
          body: reportRequestSchema,
          response: { 202: reportSchema },
        },
      },
      async (request, reply) =>
        reply.code(202).send(await requestReport(db, queue, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/report/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'One report and its state',
          description: `${BUILD_NOTE} 404 REPORT_NOT_FOUND.`,
          params: idParams,
          response: { 200: reportSchema },
        },
      },
      async (request) => getReport(db, accessOf(request).org.id, request.params.id),
    );

    app.get(
      '/api/org/:orgId/report/:id/pdf',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "Download a report's PDF",
          description:
            'application/pdf as an attachment. 409 REPORT_NOT_READY until COMPLETED; 404 REPORT_NOT_FOUND.',
          params: idParams,
        },
      },
      async (request, reply) => {
        const { name, content } = await reportPdf(db, accessOf(request).org.id, request.params.id);
        return reply
          .header('content-type', 'application/pdf')
          .header('content-disposition', attachment(`${name}.pdf`))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'private, no-store')
          .send(content);
      },
    );

    app.delete(
      '/api/org/:orgId/report/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a report',
          description: 'Deletes the report and its PDF. 404 REPORT_NOT_FOUND.',
          params: idParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deleteReport(db, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    // ---------------------------------------------------------------------------------------------
    // Schedules

    app.get(
      '/api/org/:orgId/report-schedules',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's report schedules",
          description:
            'Schedules not deleted (NOT_COPIED, ACTIVE, PAUSED), by template name; `library=true`: the ' +
            `provider's library schedules instead. ${SCHEDULE_NOTE}`,
          params: orgParamsSchema,
          querystring: reportListQuerySchema.omit({ search: true }),
          response: { 200: reportScheduleListSchema },
        },
      },
      async (request) => {
        const owner = request.query.library ? null : accessOf(request).org.id;
        const { items, total } = await listSchedules(db, owner, pageOf(request.query));
        return { items: items.map(scheduleJson), total };
      },
    );

    app.post(
      '/api/org/:orgId/report-schedule',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Schedule a report',
          description: `${SCHEDULE_NOTE} Starts ACTIVE. 400 REPORT_TEMPLATE_NOT_FOUND.`,
          params: orgParamsSchema,
          body: reportScheduleInputSchema,
          response: { 201: reportScheduleSchema },
        },
      },
      async (request, reply) =>
        reply.code(201).send(await createSchedule(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/report-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a report schedule',
          description:
            `${SCHEDULE_NOTE} A new frequency moves the next run. \`library\` is kept as it was. 404 ` +
            'REPORT_SCHEDULE_NOT_FOUND; 409 REPORT_SCHEDULE_NOT_COPIED for a NOT_COPIED schedule (copy it first).',
          params: idParams,
          body: reportScheduleInputSchema,
          response: { 200: reportScheduleSchema },
        },
      },
      async (request) => updateScheduleFields(db, actorOf(request), request.params.id, request.body),
    );

    for (const move of ['pause', 'resume'] as const) {
      app.post(
        `/api/org/:orgId/report-schedule/:id/${move}`,
        {
          config: EDIT,
          schema: {
            tags: TAGS,
            summary: move === 'pause' ? 'Pause a report schedule' : 'Resume a paused report schedule',
            description:
              (move === 'pause'
                ? 'ACTIVE to PAUSED: no report is built until it is resumed. '
                : 'PAUSED to ACTIVE: the next run counts from now. ') +
              '409 REPORT_SCHEDULE_STATE_INVALID from another state, REPORT_SCHEDULE_NOT_COPIED from NOT_COPIED.',
            params: idParams,
            response: { 200: reportScheduleSchema },
          },
        },
        async (request) => moveSchedule(db, actorOf(request), request.params.id, move),
      );
    }

    app.delete(
      '/api/org/:orgId/report-schedule/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a report schedule',
          description:
            'Moves it to DELETED; the reports it built stay. A NOT_COPIED schedule is dismissed (later library ' +
            'copies skip it); a library schedule (provider administrators) takes its NOT_COPIED copies along. ' +
            '404 REPORT_SCHEDULE_NOT_FOUND.',
          params: idParams,
          response: noContent,
        },
      },
      async (request, reply) => {
        await deleteSchedule(db, actorOf(request), request.params.id);
        return reply.code(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/report-schedule/:id/activate',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Copy a library schedule to the organisation',
          description:
            "NOT_COPIED to ACTIVE with the organisation's own `recipients` (1 to 50): the organisation's copy " +
            'of the library template (with copies of its charts) is made unless it holds one, and the schedule ' +
            'builds it from its next run. 409 REPORT_SCHEDULE_STATE_INVALID from another state; 404 ' +
            'REPORT_SCHEDULE_NOT_FOUND.',
          params: idParams,
          body: reportScheduleActivateSchema,
          response: { 200: reportScheduleSchema },
        },
      },
      async (request) => activateSchedule(db, actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/org/:orgId/report-schedules/library/copy-to-customers',
      {
        config: { access: { permission: 'TRAC_ADMIN' as const } },
        schema: {
          tags: TAGS,
          summary: 'Copy library schedules to every customer organisation',
          description:
            'Provider administrators only (403 LIBRARY_COPY_DENIED). Each live library schedule appears in every ' +
            "organisation but the provider's as NOT_COPIED (never built or e-mailed) until the organisation " +
            'copies it; schedules an organisation already holds a copy of (even a deleted one) are skipped. ' +
            'New customer organisations get them when created.',
          params: orgParamsSchema,
          response: { 200: reportLibraryCopyResultSchema },
        },
      },
      async (request) => copyScheduleLibraryToCustomers(db, actorOf(request)),
    );
  };
