import {
  AGGREGATION_MAX_TERMS,
  CHART_MAP_FIELD,
  CHART_TOP_VALUES,
  expandPermissions,
  resolveSearchRange,
  type Aggregation,
  type SearchIntervalType,
} from '@vigil/contracts';
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { AppError } from '../../platform/errors';
import { histogramInterval, prefillAggregationRollups } from '../events/service';
import { rowsOf } from '../events/repo';
import { appliedColumns, type AppliedRestriction } from '../restrictions/repo';
import { dataRestrictions } from '../restrictions/tables';
import { roles } from '../roles/tables';
import { findSavedQueryView } from '../saved-queries/repo';
import { findChartViews } from './repo';
import type { ChartSpec, Range } from './sources';
import { charts, dashboards } from './tables';

/*
 * Roll-ups filled ahead of the first view. Saved-query charts count from hourly roll-ups
 * (`events/rollups.ts`) keyed by the organisation, the chart's compiled query with the viewer's data
 * restrictions, and the shape (events, or events per term of a field). A roll-up computed at the
 * first view costs about what the events query costs; this job computes them before anyone looks:
 * when a chart is created or changed, when a dashboard's tiles or range change, when a saved query's
 * text changes, and every PREFILL_CRON for the charts of every dashboard (the hours just ended, and
 * hours late events made stale). It fills each chart over the ranges of the dashboards showing it
 * (a chart on none: the range a new dashboard draws over), once per distinct set of data
 * restrictions among the organisation's users who may see the chart's data, one day of hours per
 * transaction.
 */

export const ROLLUP_PREFILL_JOB = 'dashboards.rollup-prefill';
/** Every 15 minutes: hours end every hour, and late events make a past hour stale. */
const PREFILL_CRON = '*/15 * * * *';
/** The range of a chart that no dashboard shows: the range a new dashboard draws over. */
const DEFAULT_RANGE: SearchIntervalType = '7D';

/** What a prefill job covers: some charts of an organisation, the charts of a saved query, or all. */
export interface PrefillRequest {
  orgId?: string;
  chartIds?: string[];
  savedQueryId?: string;
}

/** Queues a prefill; a failure to queue is the caller's to log (the periodic run catches up). */
export type PrefillQueue = (request: PrefillRequest) => Promise<void>;

type ChartQuery = { query: string; aggregation: Aggregation | null };

/**
 * The event aggregations a saved-query chart asks for over a range, as its source's `run` asks them
 * (`sources.ts`): counts per query (badge, pie, table), a histogram per query on the range's interval
 * (bar, line, area), the top source addresses (map), the query's own aggregation (aggregate queries).
 * An events table reads events, not counts.
 */
export function chartAggregations(
  spec: Pick<ChartSpec, 'type'>,
  queries: readonly ChartQuery[],
  range: Range,
): { query: string; aggregation: Aggregation }[] {
  const aggregated = queries[0]?.aggregation;
  if (aggregated) {
    const aggregation: Aggregation =
      aggregated.type === 'terms'
        ? {
            type: 'terms',
            field: aggregated.field,
            size: Math.min(aggregated.size ?? CHART_TOP_VALUES, CHART_TOP_VALUES),
          }
        : aggregated;
    return [{ query: queries[0]!.query, aggregation }];
  }
  switch (spec.type) {
    case 'events_table':
      return [];
    case 'map':
      return [
        {
          query: queries[0]!.query,
          aggregation: { type: 'terms', field: CHART_MAP_FIELD, size: AGGREGATION_MAX_TERMS },
        },
      ];
    case 'badge':
      return [{ query: queries[0]!.query, aggregation: { type: 'count' } }];
    case 'pie':
    case 'table':
      return queries.map((query) => ({ query: query.query, aggregation: { type: 'count' } }));
    default: {
      const interval = histogramInterval(range.begin, range.end);
      return queries.map((query) => ({
        query: query.query,
        aggregation: { type: 'date_histogram', interval },
      }));
    }
  }
}

/**
 * The distinct sets of data restrictions (ordered as `restrictionsForUser` orders them, so the roll-up
 * keys match) of the organisation's active users who may see a saved-query chart's data: a home or
 * granted organisation, a live role with EVENT_VIEW and DASHBOARD_VIEW or CHART_VIEW.
 */
export async function viewerRestrictionSets(db: Db, orgId: string): Promise<AppliedRestriction[][]> {
  const viewers = rowsOf<{ role_id: string; ids: string[] }>(
    await db.execute(sql`SELECT DISTINCT u.role_id, coalesce((
        SELECT array_agg(r.id::text ORDER BY lower(r.name), r.id) FROM data_restrictions r
         WHERE r.org_id = ${orgId}::uuid AND r.deleted_at IS NULL
           AND r.id IN (SELECT t.restriction_id FROM data_restriction_targets t
                         WHERE t.user_id = u.id OR t.target_org_id = u.home_org_id)
      ), '{}') AS ids
      FROM users u
     WHERE u.deleted_at IS NULL AND u.active
       AND (u.home_org_id = ${orgId}::uuid
            OR EXISTS (SELECT 1 FROM user_orgs g WHERE g.user_id = u.id AND g.org_id = ${orgId}::uuid))`),
  );
  const roleIds = [...new Set(viewers.map((viewer) => viewer.role_id))];
  const roleRows =
    roleIds.length === 0
      ? []
      : await db
          .select({ id: roles.id, permissions: roles.permissions })
          .from(roles)
          .where(and(inArray(roles.id, roleIds), isNull(roles.deletedAt)));
  const seeing = new Set(
    roleRows
      .filter((role) => {
        const permissions = expandPermissions(role.permissions);
        return (
          permissions.has('EVENT_VIEW') &&
          (permissions.has('DASHBOARD_VIEW') || permissions.has('CHART_VIEW'))
        );
      })
      .map((role) => role.id),
  );
  const sets = new Map<string, string[]>();
  for (const viewer of viewers) {
    if (seeing.has(viewer.role_id)) sets.set(viewer.ids.join(' '), viewer.ids);
  }
  const allIds = [...new Set([...sets.values()].flat())];
  const restrictions = new Map(
    (allIds.length === 0
      ? []
      : await db.select(appliedColumns).from(dataRestrictions).where(inArray(dataRestrictions.id, allIds))
    ).map((row) => [row.id, row]),
  );
  return [...sets.values()].map((ids) => ids.map((id) => restrictions.get(id)!));
}

/** The live dashboards of an organisation: their ranges and the charts they show. */
async function orgDashboards(db: Db, orgId: string) {
  return db
    .select({ tiles: dashboards.tiles, intervalType: dashboards.intervalType })
    .from(dashboards)
    .where(and(eq(dashboards.orgId, orgId), eq(dashboards.state, 'ACTIVE')));
}

/**
 * Fills the roll-ups of an organisation's saved-query charts (`chartIds`, else every chart on its
 * dashboards) for every viewer restriction set, over the ranges of the dashboards showing each chart.
 * Answers the roll-up hours computed (0 when all were current: running it again computes nothing).
 */
export async function prefillOrgCharts(
  db: Db,
  orgId: string,
  chartIds?: readonly string[],
  now = new Date(),
): Promise<number> {
  const ranges = new Map<string, Set<SearchIntervalType>>();
  for (const dashboard of await orgDashboards(db, orgId)) {
    for (const tile of dashboard.tiles) {
      const set = ranges.get(tile.chartId) ?? new Set();
      set.add(dashboard.intervalType as SearchIntervalType);
      ranges.set(tile.chartId, set);
    }
  }
  const ids = chartIds ? [...new Set(chartIds)] : [...ranges.keys()];
  const views = await findChartViews(db, orgId, ids);
  const restrictionSets = await viewerRestrictionSets(db, orgId);
  const done = new Set<string>();
  let computed = 0;
  for (const { row } of views) {
    if (row.state !== 'ACTIVE' || row.family !== 'SAVED_QUERIES') continue;
    const queries: ChartQuery[] = [];
    for (const id of row.savedQueryIds) {
      const view = await findSavedQueryView(db, orgId, id);
      if (view)
        queries.push({
          query: view.row.query,
          aggregation: (view.row.aggregation as Aggregation | null) ?? null,
        });
    }
    // A chart missing a query draws nothing but CHART_QUERY_MISSING.
    if (queries.length !== row.savedQueryIds.length || queries.length === 0) continue;
    for (const intervalType of ranges.get(row.id) ?? [DEFAULT_RANGE]) {
      const range = resolveSearchRange(intervalType, now);
      for (const { query, aggregation } of chartAggregations(
        { type: row.type as ChartSpec['type'] },
        queries,
        range,
      )) {
        for (const restrictions of restrictionSets) {
          const key = JSON.stringify([intervalType, query, aggregation, restrictions.map((r) => r.id)]);
          if (done.has(key)) continue;
          done.add(key);
          const request = {
            query,
            aggregation,
            begin: range.begin.toISOString(),
            end: range.end.toISOString(),
            filters: [],
          };
          try {
            computed += await prefillAggregationRollups(db, orgId, restrictions, request, { now });
          } catch (error) {
            // A query or field that no longer compiles: its view answers the error, nothing to fill.
            if (error instanceof AppError && error.status === 400) continue;
            throw error;
          }
        }
      }
    }
  }
  return computed;
}

/** The organisations whose dashboards or charts draw a saved query (or, for a library query, any). */
async function orgsUsingQuery(db: Db, savedQueryId: string): Promise<Map<string, string[]>> {
  const using = await db
    .select({ id: charts.id, orgId: charts.orgId })
    .from(charts)
    .where(
      and(
        eq(charts.state, 'ACTIVE'),
        sql`${charts.savedQueryIds} @> ${JSON.stringify([savedQueryId])}::jsonb`,
      ),
    );
  const byOrg = new Map<string, string[]>();
  const add = (orgId: string, chartId: string) => byOrg.set(orgId, [...(byOrg.get(orgId) ?? []), chartId]);
  for (const chart of using) if (chart.orgId) add(chart.orgId, chart.id);
  const library = using.filter((chart) => !chart.orgId).map((chart) => chart.id);
  if (library.length > 0) {
    // Library charts draw in every organisation whose dashboards show them.
    const shown = rowsOf<{ org_id: string; chart_id: string }>(
      await db.execute(sql`SELECT DISTINCT d.org_id, t."chartId" AS chart_id FROM dashboards d,
          jsonb_to_recordset(d.tiles) AS t("chartId" uuid)
        WHERE d.org_id IS NOT NULL AND d.state = 'ACTIVE' AND t."chartId" = ANY(${sql.param(library)}::uuid[])`),
    );
    for (const row of shown) add(row.org_id, row.chart_id);
  }
  return byOrg;
}

/** Runs one prefill request: the charts it names, a saved query's charts, or every organisation's. */
export async function runPrefill(db: Db, request: PrefillRequest, now = new Date()): Promise<number> {
  if (request.savedQueryId) {
    let computed = 0;
    for (const [orgId, ids] of await orgsUsingQuery(db, request.savedQueryId)) {
      if (!request.orgId || request.orgId === orgId) computed += await prefillOrgCharts(db, orgId, ids, now);
    }
    return computed;
  }
  if (request.orgId) return prefillOrgCharts(db, request.orgId, request.chartIds, now);
  const orgIds = rowsOf<{ org_id: string }>(
    await db.execute(sql`SELECT DISTINCT org_id FROM dashboards WHERE org_id IS NOT NULL AND state = 'ACTIVE'
      AND jsonb_array_length(tiles) > 0 ORDER BY org_id`),
  );
  let computed = 0;
  for (const { org_id: orgId } of orgIds) computed += await prefillOrgCharts(db, orgId, undefined, now);
  return computed;
}

/** The prefill job, on change and every PREFILL_CRON. */
export function defineRollupPrefillJobs(jobs: JobRunner, db: Db) {
  jobs.define<PrefillRequest>({
    name: ROLLUP_PREFILL_JOB,
    cron: PREFILL_CRON,
    expireInSeconds: 3600,
    handler: async (data) => void (await runPrefill(db, data)),
  });
}

/** Queues a prefill; requests about the same charts while one waits are one job. */
export const prefillQueue =
  (jobs: JobRunner): PrefillQueue =>
  async (request) => {
    const key = JSON.stringify([
      request.orgId ?? null,
      request.savedQueryId ?? null,
      request.chartIds ?? null,
    ]);
    await jobs.send(ROLLUP_PREFILL_JOB, request, { singletonKey: key });
  };
