import {
  bulkDeleteResultSchema,
  bulkDeleteSchema,
  chartDataSchema,
  chartInputSchema,
  chartListQuerySchema,
  chartListSchema,
  chartPreviewSchema,
  chartRangeSchema,
  chartSchema,
  dashboardInputSchema,
  dashboardListQuerySchema,
  dashboardListSchema,
  dashboardSchema,
  defaultDashboardSchema,
  dashboardLibraryCopyResultSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import type { PrefillQueue, PrefillRequest } from './prefill';
import { listCharts, listDashboards } from './repo';
import {
  addFromLibrary,
  bulkDeleteCharts,
  bulkDeleteDashboards,
  chartData,
  chartEditableFlags,
  chartJson,
  chooseDefaultDashboard,
  copyLibraryToCustomers,
  createChart,
  createDashboard,
  dashboardSummaries,
  defaultDashboard,
  deleteChart,
  deleteDashboard,
  getChart,
  getDashboard,
  previewChart,
  restoreChart,
  restoreDashboard,
  updateChartFields,
  updateDashboardFields,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const CHART_VIEW = { access: { permission: 'CHART_VIEW' as const } };
const CHART_EDIT = { access: { permission: 'CHART_EDIT' as const } };
/** Chart data is read by the chart list and by dashboards. */
const CHART_DATA = { access: { permission: ['CHART_VIEW' as const, 'DASHBOARD_VIEW' as const] } };
const DASHBOARD_VIEW = { access: { permission: 'DASHBOARD_VIEW' as const } };
const DASHBOARD_EDIT = { access: { permission: 'DASHBOARD_EDIT' as const } };
const CHART_TAGS = ['charts'];
const DASHBOARD_TAGS = ['dashboards'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

/**
 * Queues the roll-up prefill of what a change makes a dashboard draw. The change is committed
 * already: a prefill that cannot be queued is logged, and the periodic prefill catches up.
 */
export async function queuePrefill(
  request: FastifyRequest,
  prefill: PrefillQueue | undefined,
  what: PrefillRequest,
): Promise<void> {
  if (!prefill) return;
  try {
    await prefill(what);
  } catch (error) {
    request.log.warn({ err: error, prefill: what }, 'roll-up prefill not queued');
  }
}

/** After a chart changes: its roll-ups in the caller's organisation. */
async function chartChanged<T extends { id: string }>(
  request: FastifyRequest,
  prefill: PrefillQueue | undefined,
  chart: T,
) {
  await queuePrefill(request, prefill, { orgId: accessOf(request).org.id, chartIds: [chart.id] });
  return chart;
}

/** After a dashboard's tiles or range change: the roll-ups of its charts. */
async function dashboardChanged<T extends { tiles: { chartId: string }[] }>(
  request: FastifyRequest,
  prefill: PrefillQueue | undefined,
  dashboard: T,
) {
  const chartIds = dashboard.tiles.map((tile) => tile.chartId);
  if (chartIds.length > 0)
    await queuePrefill(request, prefill, { orgId: accessOf(request).org.id, chartIds });
  return dashboard;
}

const CHART_RULES =
  'Editing needs CHART_EDIT with EVENT_EDIT and SAVED_SEARCH_EDIT (403 CHART_EDIT_NEEDS_SEARCH). Rules (400): ' +
  'the type must draw the family (CHART_TYPE_NOT_SUPPORTED; SAVED_QUERIES any type, ALERT_LIST table, ' +
  'ALERT_COUNTS and ALERT_FLAGGED bar/pie/table/badge, ALERT_TRENDS line/area/bar/table, ' +
  'DISMISSED_TRIGGER_ACTIVITY bar/pie/table, ESCALATIONS and INCIDENT_TRENDS line/area/bar/table, ' +
  'INCIDENT_LIST and TASK_LIST table, INCIDENT_/TASK_STATE_COUNTS, INCIDENT_/TASK_OWNER_COUNTS and ' +
  'TASK_EVENTS (task history entries in the range per action) bar/pie/table/badge, ACTIVITY_FUNNEL ' +
  '(alerts fired in the range, worked, escalated or flagged) bar/table, RISKS and CONTROLS bar/pie/table/badge, INVENTORIES (items per kind) ' +
  'bar/pie/table/badge, INVENTORY_CONTEXTUAL_SCORING (items with their derived scores and linked risks, ' +
  'highest inherent risk first; 1 to 1000 rows) table, FRAMEWORKS (controls per answer, one category per ' +
  'framework) bar/table, CAT_SUMMARY (per FFIEC CAT domain: maturity assessed, statements implemented) ' +
  'bar/table, CAT_RISK_PROFILE (the inherent risk level of each category) bar/pie/table, ASSESSMENTS ' +
  '(assessments per state) bar/pie/table/badge); SAVED_QUERIES ' +
  'needs queries the organisation sees ' +
  '(CHART_QUERIES_REQUIRED, CHART_QUERY_MISSING): one aggregate query or up to 5 non-aggregate ones ' +
  '(CHART_ONE_AGGREGATE_QUERY, CHART_TOO_MANY_QUERIES), badge, events table and map exactly one non-aggregate ' +
  'query (CHART_NEEDS_ONE_NON_AGGREGATE_QUERY); terms draw as bar/pie/table, date histograms as ' +
  'line/area/bar/table, single values as table (CHART_AGGREGATION_NOT_SUPPORTED); an events table ' +
  'shows 1 to 100 events (`rowLimit`, CHART_EVENTS_COUNT_INVALID), an alert list 1 to 10,000 rows, an ' +
  'incident or task list 1 to 1000 (CHART_ROW_LIMIT_INVALID). The fraud domain needs the fraud product (403 PRODUCT_NOT_ENTITLED). ' +
  '`library: true` is for provider administrators (403 LIBRARY_COPY_DENIED) and library queries only ' +
  '(CHART_LIBRARY_NEEDS_LIBRARY_QUERY).';

const RANGE_NOTE =
  'The range is `intervalType` (1H … 90D, this/last week or month, ALL_TIME) or `begin` and `end`, as in ' +
  'the event search (last 24 hours by default). Saved-query charts run through the event search, so the ' +
  "caller's data restrictions apply; they need EVENT_VIEW, alert families and the escalation chart " +
  'ALERT_INBOX_VIEW, incident families INCIDENT_VIEW, task families TASK_VIEW, RISKS and CONTROLS ' +
  'and the inventory families RISK_VIEW (403 PERMISSION_DENIED) and a risk product (403 ' +
  'PRODUCT_NOT_ENTITLED), framework families POLICY_FRAMEWORK_VIEW; they show the register, or each ' +
  "framework's current evaluation period (the newest in progress, else the newest finalized), as it " +
  'stands, whatever the range. Counts, top terms and histograms of an hour and more are ' +
  'added up from hourly roll-ups of the whole hours of the range and the events of the rest, exactly. ' +
  'Terms show the top 10 values, events tables at most 45 days back, maps the events per country of their ' +
  'source IP (ISO 3166-1 alpha-2 `categories`; at most 10,000 distinct source IPs, SEARCH_TOO_MANY_TERMS ' +
  'above), alert and incident trends the past ' +
  'year without the last hour whatever the range. Ticket families count the tickets created in the range; ' +
  'the escalation chart the alerts escalated per day, one series per trigger (top 10).';

const DASHBOARD_RULES =
  'Rules (400): at most 24 tiles (DASHBOARD_TOO_MANY_CHARTS), each a live chart the organisation sees ' +
  '(DASHBOARD_CHART_MISSING; a library dashboard only library charts) no wider than `chartsPerRow` 1 to 4 ' +
  '(DASHBOARD_TILE_TOO_WIDE), each `height` 1 or 2 rows (a tall tile; 1 when left out); `refreshSeconds` 0, 60, 300 or 900. `library: true` is for provider ' +
  'administrators (403 LIBRARY_COPY_DENIED); library dashboards are changed only by them (403 ' +
  'DASHBOARD_LIBRARY_READ_ONLY).';

/** Charts and dashboards (spec 3): /reports/charts/list and the dashboards area. */
export const dashboardRoutes =
  (db: Db, prefill?: PrefillQueue): FastifyPluginAsyncZod =>
  async (app) => {
    // ---------------------------------------------------------------------------------------------
    // Charts

    app.get(
      '/api/org/:orgId/charts',
      {
        config: CHART_VIEW,
        schema: {
          tags: CHART_TAGS,
          summary: "The organisation's charts, or the library's",
          description:
            '`state` ACTIVE (default) or DELETED (to restore); `library=true` lists library charts; `search` ' +
            'matches part of the name. By name; paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: chartListQuerySchema,
          response: { 200: chartListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { pageSize, pageNumber, ...filter } = request.query;
        const { items, total } = await listCharts(db, access.org.id, filter, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        const flags = await chartEditableFlags(
          db,
          access,
          items.map((view) => view.row),
        );
        return { items: items.map((view, index) => chartJson(view, flags[index]!)), total };
      },
    );

    app.get(
      '/api/org/:orgId/chart/:id',
      {
        config: CHART_VIEW,
        schema: {
          tags: CHART_TAGS,
          summary: 'A chart',
          description: 'Charts of other organisations answer 404 CHART_NOT_FOUND.',
          params: idParams,
          response: { 200: chartSchema },
        },
      },
      async (request) => getChart(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/chart',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'Create a chart',
          description: CHART_RULES,
          params: orgParamsSchema,
          body: chartInputSchema,
          response: { 201: chartSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await chartChanged(request, prefill, await createChart(db, actorOf(request), request.body))),
    );

    app.put(
      '/api/org/:orgId/chart/:id',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'Change a chart',
          description: `${CHART_RULES} Deleted charts answer 404; \`library\` stays as created.`,
          params: idParams,
          body: chartInputSchema,
          response: { 200: chartSchema },
        },
      },
      async (request) =>
        chartChanged(
          request,
          prefill,
          await updateChartFields(db, actorOf(request), request.params.id, request.body),
        ),
    );

    app.post(
      '/api/org/:orgId/chart/:id/delete',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'Delete a chart (restorable)',
          description:
            'The chart leaves lists and dashboards show its tile as deleted until it is restored. 409 ' +
            'ALREADY_DELETED.',
          params: idParams,
          response: { 200: chartSchema },
        },
      },
      async (request) => deleteChart(db, actorOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/chart/:id/restore',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'Restore a deleted chart',
          description: '409 NOT_DELETED for a live chart.',
          params: idParams,
          response: { 200: chartSchema },
        },
      },
      async (request) =>
        chartChanged(request, prefill, await restoreChart(db, actorOf(request), request.params.id)),
    );

    app.post(
      '/api/org/:orgId/charts/bulk-delete',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'Delete several charts',
          description:
            'Each item names a chart and the `modifiedOn` it was seen with; charts changed or deleted since, ' +
            'or not the caller\'s to delete, are counted in `failed` ("Deleting {0} chart(s) succeeded, but ' +
            'another {1} chart(s) failed. They may have been modified by another user.").',
          params: orgParamsSchema,
          body: bulkDeleteSchema,
          response: { 200: bulkDeleteResultSchema },
        },
      },
      async (request) => bulkDeleteCharts(db, actorOf(request), request.body.items),
    );

    app.post(
      '/api/org/:orgId/chart/:id/data',
      {
        config: CHART_DATA,
        schema: {
          tags: CHART_TAGS,
          summary: 'What a chart draws over a range',
          description:
            `CHART_VIEW or DASHBOARD_VIEW. ${RANGE_NOTE} Counts, top terms and histograms of whole hours of ` +
            'saved queries come from hourly roll-ups, computed ahead by a background job; hours it has not ' +
            'reached yet are counted from the events (the same figures) and queued for it.',
          params: idParams,
          body: chartRangeSchema,
          response: { 200: chartDataSchema },
        },
      },
      async (request) => {
        let deferred = false;
        const data = await chartData(db, accessOf(request), request.params.id, request.body, () => {
          deferred = true;
        });
        // Counted from the events for want of roll-ups: have the prefill compute them for the next view.
        if (deferred) {
          await queuePrefill(request, prefill, {
            orgId: accessOf(request).org.id,
            chartIds: [request.params.id],
          });
        }
        return data;
      },
    );

    app.post(
      '/api/org/:orgId/chart/preview',
      {
        config: CHART_EDIT,
        schema: {
          tags: CHART_TAGS,
          summary: 'What a chart not saved yet would draw',
          description: `The chart's rules as for create. ${RANGE_NOTE}`,
          params: orgParamsSchema,
          body: chartPreviewSchema,
          response: { 200: chartDataSchema },
        },
      },
      async (request) => previewChart(db, accessOf(request), request.body.chart, request.body.range),
    );

    // ---------------------------------------------------------------------------------------------
    // Dashboards

    app.get(
      '/api/org/:orgId/dashboards',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: "The organisation's dashboards, or the library's",
          description:
            '`state` ACTIVE (default) or DELETED; `library=true` lists library dashboards; `search` matches part ' +
            'of the name. By name; paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: dashboardListQuerySchema,
          response: { 200: dashboardListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { pageSize, pageNumber, ...filter } = request.query;
        const { items, total } = await listDashboards(db, access.org.id, filter, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: await dashboardSummaries(db, access, items), total };
      },
    );

    app.get(
      '/api/org/:orgId/dashboards/default',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: "The caller's default dashboard",
          description:
            'The dashboard the caller chose as default in this organisation, else its first (oldest) live ' +
            'dashboard; `dashboard: null` when it has none.',
          params: orgParamsSchema,
          response: { 200: defaultDashboardSchema },
        },
      },
      async (request) => ({ dashboard: await defaultDashboard(db, accessOf(request)) }),
    );

    app.get(
      '/api/org/:orgId/dashboard/:id',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'A dashboard with its tiles and charts',
          description:
            'Library dashboards are visible to every organisation; dashboards of other organisations answer ' +
            '404 DASHBOARD_NOT_FOUND. A tile whose chart is gone has `chart: null`.',
          params: idParams,
          response: { 200: dashboardSchema },
        },
      },
      async (request) => getDashboard(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/dashboard',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: "Create a dashboard ('My Own')",
          description: DASHBOARD_RULES,
          params: orgParamsSchema,
          body: dashboardInputSchema,
          response: { 201: dashboardSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await dashboardChanged(
              request,
              prefill,
              await createDashboard(db, actorOf(request), request.body),
            ),
          ),
    );

    app.put(
      '/api/org/:orgId/dashboard/:id',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Change a dashboard (QuickStart or Expert Mode)',
          description: `${DASHBOARD_RULES} Deleted dashboards answer 404.`,
          params: idParams,
          body: dashboardInputSchema,
          response: { 200: dashboardSchema },
        },
      },
      async (request) =>
        dashboardChanged(
          request,
          prefill,
          await updateDashboardFields(db, actorOf(request), request.params.id, request.body),
        ),
    );

    app.post(
      '/api/org/:orgId/dashboard/:id/delete',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Delete a dashboard (restorable)',
          description: '409 ALREADY_DELETED.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteDashboard(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/dashboard/:id/restore',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Restore a deleted dashboard',
          description: '409 NOT_DELETED for a live dashboard.',
          params: idParams,
          response: { 200: dashboardSchema },
        },
      },
      async (request) =>
        dashboardChanged(request, prefill, await restoreDashboard(db, actorOf(request), request.params.id)),
    );

    app.post(
      '/api/org/:orgId/dashboards/bulk-delete',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Delete several dashboards',
          description:
            "As for charts: items changed or deleted since `modifiedOn`, or not the caller's, count in `failed`.",
          params: orgParamsSchema,
          body: bulkDeleteSchema,
          response: { 200: bulkDeleteResultSchema },
        },
      },
      async (request) => bulkDeleteDashboards(db, actorOf(request), request.body.items),
    );

    app.post(
      '/api/org/:orgId/dashboard/:id/default',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: "Make a dashboard the caller's default",
          description:
            "The caller lands on it after signing in to this organisation. One of the organisation's live " +
            'dashboards (404 DASHBOARD_NOT_FOUND otherwise).',
          params: idParams,
          response: { 200: dashboardSchema },
        },
      },
      async (request) => chooseDefaultDashboard(db, actorOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/dashboard/:id/copy',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Add a library dashboard to the organisation',
          description:
            'A copy of the library dashboard and its charts in this organisation (400 DASHBOARD_NOT_LIBRARY ' +
            'for other dashboards).',
          params: idParams,
          response: { 201: dashboardSchema },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await dashboardChanged(
              request,
              prefill,
              await addFromLibrary(db, actorOf(request), request.params.id),
            ),
          ),
    );

    app.post(
      '/api/org/:orgId/dashboards/library/copy-to-customers',
      {
        config: { access: { permission: 'TRAC_ADMIN' as const } },
        schema: {
          tags: DASHBOARD_TAGS,
          summary: 'Copy library dashboards to every customer organisation',
          description:
            'Provider administrators only (403 LIBRARY_COPY_DENIED). Each live library dashboard, with its ' +
            "charts, is copied into every organisation but the provider's; dashboards an organisation already " +
            'holds a copy of (even a deleted one) are skipped.',
          params: orgParamsSchema,
          response: { 200: dashboardLibraryCopyResultSchema },
        },
      },
      async (request) => copyLibraryToCustomers(db, actorOf(request)),
    );
  };
