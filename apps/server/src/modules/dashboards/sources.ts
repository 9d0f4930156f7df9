import {
  AGGREGATION_MAX_TERMS,
  CHART_ALERT_LIST_DEFAULT_ROWS,
  CHART_ALERT_LIST_MAX_ROWS,
  CHART_EVENTS_TABLE_DEFAULT,
  CHART_EVENTS_TABLE_MAX,
  CHART_EVENTS_TABLE_MIN,
  CHART_LIST_MAX_ROWS,
  CHART_MAP_FIELD,
  CHART_MAX_QUERIES,
  CHART_REALTIME_MAX_DAYS,
  CHART_TICKET_LIST_MAX_ROWS,
  CHART_TOP_VALUES,
  CHART_TREND_DAYS,
  CHART_TREND_EXCLUDED_MS,
  type Aggregation,
  type ChartData,
  type ChartFamily,
  type ChartType,
  type Permission,
  type SavedQuery,
  type SearchFilter,
  type SkuGate,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { assertDomainEntitled, type AccessContext } from '../../platform/access';
import { AppError, validationFailed } from '../../platform/errors';
import {
  alertCountsBySeverity,
  alertFunnel,
  alertsPerDay,
  dismissedPerTrigger,
  escalationsPerDay,
  flaggedAlertCounts,
  latestAlerts,
  type AlertScope,
} from '../alerts/summaries';
import { aggregateEvents, histogramInterval, searchEvents, type SearchActor } from '../events/service';
import { getSavedQuery } from '../saved-queries/service';
import { controlCountsByOverallScore, riskCountsByResidualRisk } from '../risk/summaries';
import { countriesOf } from './geo';
import {
  latestTickets,
  ticketCountsByOwner,
  ticketCountsByState,
  ticketEventCounts,
  ticketsPerDay,
  type TicketScope,
} from '../tickets/summaries';
import { inventoryCountsByKind, inventoryScoring } from '../risk/inventory';
import { catRiskProfile, catSummary, frameworkStatus, NOT_ASSESSED } from '../governance/summaries';
import { assessmentCountsByState } from '../risk/assessments';

/**
 * The data-source registry of charts (spec 3 "Dashboard data source families"). Each family says
 * which permission its data needs, checks a chart's settings and runs it for a viewer over a range.
 * Saved-query charts run through the event search service, so the viewer's data restrictions apply
 * to every figure; ticket families need INCIDENT_VIEW or TASK_VIEW, risk families RISK_VIEW and a
 * risk product, framework families POLICY_FRAMEWORK_VIEW. Other areas add an entry here and a value to CHART_FAMILIES.
 */

/** The settings of a chart that its source reads. */
export interface ChartSpec {
  type: ChartType;
  family: ChartFamily;
  savedQueryIds: string[];
  domain: string;
  rowLimit: number | null;
  library: boolean;
}

export interface Range {
  begin: Date;
  end: Date;
}

export interface ChartSource {
  /** What the viewer needs to see the data (403 PERMISSION_DENIED otherwise). */
  viewPermission: Permission;
  /** The product the data belongs to (403 PRODUCT_NOT_ENTITLED without it). */
  sku?: SkuGate;
  /** Checks the settings; answers them normalised (row limit defaulted). */
  check(db: Db, access: AccessContext, spec: ChartSpec): Promise<ChartSpec>;
  /** `onRollupsDeferred`: called when counts were read from the events for want of roll-ups. */
  run(
    db: Db,
    access: AccessContext,
    spec: ChartSpec,
    range: Range,
    now: Date,
    onRollupsDeferred?: () => void,
  ): Promise<ChartData>;
}

const DAY_MS = 86_400_000;

/**
 * Missing roll-up hours a chart view computes itself: the hours since the last prefill. More (a chart
 * or viewer the prefill has not reached yet) are counted from the events, about what a direct query
 * costs, and left to the prefill job (`prefill.ts`), which the view asks for.
 */
export const CHART_INLINE_FILL_HOURS = 6;

/** Charts count from hourly roll-ups: a dashboard asks the same questions at every view. */
const chartSearch = (now: Date, onRollupsDeferred?: () => void) => ({
  rollups: true,
  now,
  rollupFillLimitHours: CHART_INLINE_FILL_HOURS,
  onRollupsDeferred,
});

// ---------------------------------------------------------------------------------------------------
// Saved and library queries

/** Aggregations a chart can draw, and with which types. */
const AGGREGATION_TYPES: Record<string, readonly ChartType[]> = {
  terms: ['bar', 'pie', 'table'],
  date_histogram: ['line', 'area', 'bar', 'table'],
  // A badge is exactly one non-aggregate query (spec 3); single values of aggregations show as a table.
  count: ['table'],
  count_distinct: ['table'],
  sum: ['table'],
  avg: ['table'],
  min: ['table'],
  max: ['table'],
};

const queryMissing = (id: string) =>
  validationFailed('CHART_QUERY_MISSING', `Saved or library query missing: ${id}`, {
    field: 'savedQueryIds',
    params: { id },
  });

async function loadQueries(db: Db, access: AccessContext, ids: string[]): Promise<SavedQuery[]> {
  const queries: SavedQuery[] = [];
  for (const id of ids) {
    try {
      queries.push(await getSavedQuery(db, access, id));
    } catch (error) {
      if (error instanceof AppError && error.status === 404) throw queryMissing(id);
      throw error;
    }
  }
  return queries;
}

const ONE_QUERY_TYPES: readonly ChartType[] = ['badge', 'events_table', 'map'];

const savedQueries: ChartSource = {
  viewPermission: 'EVENT_VIEW',
  async check(db, access, spec) {
    const ids = [...new Set(spec.savedQueryIds)];
    if (ids.length === 0) {
      throw validationFailed('CHART_QUERIES_REQUIRED', 'Choose at least one saved or library query', {
        field: 'savedQueryIds',
      });
    }
    const queries = await loadQueries(db, access, ids);
    if (spec.library) {
      const own = queries.find((query) => !query.library);
      if (own) {
        throw validationFailed('CHART_LIBRARY_NEEDS_LIBRARY_QUERY', 'A library chart uses library queries', {
          field: 'savedQueryIds',
          params: { id: own.id },
        });
      }
    }
    const aggregates = queries.filter((query) => query.aggregation);
    if (ONE_QUERY_TYPES.includes(spec.type) && (queries.length !== 1 || aggregates.length > 0)) {
      throw validationFailed(
        'CHART_NEEDS_ONE_NON_AGGREGATE_QUERY',
        `A ${spec.type} chart needs exactly one non-aggregate query`,
        { field: 'savedQueryIds', params: { type: spec.type } },
      );
    }
    if (aggregates.length > 0 && queries.length > 1) {
      throw validationFailed(
        'CHART_ONE_AGGREGATE_QUERY',
        'A chart uses one aggregate query or a limited number of non-aggregate queries',
        { field: 'savedQueryIds' },
      );
    }
    if (queries.length > CHART_MAX_QUERIES) {
      throw validationFailed('CHART_TOO_MANY_QUERIES', `At most ${CHART_MAX_QUERIES} queries`, {
        field: 'savedQueryIds',
        params: { max: CHART_MAX_QUERIES },
      });
    }
    const aggregation = aggregates[0]?.aggregation;
    if (aggregation && !(AGGREGATION_TYPES[aggregation.type] ?? []).includes(spec.type)) {
      throw validationFailed(
        'CHART_AGGREGATION_NOT_SUPPORTED',
        `A ${spec.type} chart cannot show a ${aggregation.type} aggregation`,
        {
          field: 'type',
          params: { type: spec.type, aggregation: aggregation.type },
          validValues: [...(AGGREGATION_TYPES[aggregation.type] ?? [])],
        },
      );
    }
    let rowLimit: number | null = null;
    if (spec.type === 'events_table') {
      rowLimit = spec.rowLimit ?? CHART_EVENTS_TABLE_DEFAULT;
      if (rowLimit < CHART_EVENTS_TABLE_MIN || rowLimit > CHART_EVENTS_TABLE_MAX) {
        throw validationFailed('CHART_EVENTS_COUNT_INVALID', 'An events table shows 1 to 100 events', {
          field: 'rowLimit',
          params: { min: CHART_EVENTS_TABLE_MIN, max: CHART_EVENTS_TABLE_MAX },
        });
      }
    }
    return { ...spec, savedQueryIds: ids, rowLimit };
  },

  async run(db, access, spec, range, now, onRollupsDeferred) {
    const actor: SearchActor = { orgId: access.org.id, userId: access.user.id };
    const options = chartSearch(now, onRollupsDeferred);
    const queries = await loadQueries(db, access, spec.savedQueryIds);
    const scope = {
      begin: range.begin.toISOString(),
      end: range.end.toISOString(),
      filters: [] as SearchFilter[],
    };
    const base = { begin: scope.begin, end: scope.end, timeAxis: false };
    const aggregated = queries[0]?.aggregation;
    if (aggregated) return runAggregate(db, actor, queries[0]!, aggregated, scope, base, options);

    if (spec.type === 'events_table') {
      // Realtime sources: at most 45 days back from the end.
      const earliest = range.end.getTime() - CHART_REALTIME_MAX_DAYS * DAY_MS;
      const begin = new Date(Math.max(range.begin.getTime(), earliest)).toISOString();
      const page = await searchEvents(db, actor, {
        ...scope,
        begin,
        query: queries[0]!.query,
        sortField: 'timestamp',
        sortOrder: 'desc',
        pageSize: spec.rowLimit ?? CHART_EVENTS_TABLE_DEFAULT,
        pageNumber: 1,
      });
      return { ...base, begin, events: page.items, total: page.total };
    }
    if (spec.type === 'map') return runMap(db, actor, queries[0]!, scope, base, options);
    if (spec.type === 'badge') {
      const result = await aggregateEvents(
        db,
        actor,
        {
          ...scope,
          query: queries[0]!.query,
          aggregation: { type: 'count' },
        },
        options,
      );
      return { ...base, value: result.value ?? 0 };
    }
    if (spec.type === 'pie' || spec.type === 'table') {
      const values: number[] = [];
      for (const query of queries) {
        const result = await aggregateEvents(
          db,
          actor,
          {
            ...scope,
            query: query.query,
            aggregation: { type: 'count' },
          },
          options,
        );
        values.push(result.value ?? 0);
      }
      return {
        ...base,
        categories: queries.map((query) => query.name),
        series: [{ name: 'Events', values }],
      };
    }
    // bar, line, area: events over time, one series per query, on one interval.
    const interval = histogramInterval(range.begin, range.end);
    let categories: string[] = [];
    const series: { name: string; values: number[] }[] = [];
    for (const query of queries) {
      const result = await aggregateEvents(
        db,
        actor,
        {
          ...scope,
          query: query.query,
          aggregation: { type: 'date_histogram', interval },
        },
        options,
      );
      const buckets = result.buckets ?? [];
      if (categories.length === 0) categories = buckets.map((bucket) => bucket.key);
      series.push({ name: query.name, values: buckets.map((bucket) => bucket.count) });
    }
    return { ...base, timeAxis: true, categories, series };
  },
};

/**
 * A map: the query's events per country of their source IP, most first. Source IPs are counted in the
 * database (at most AGGREGATION_MAX_TERMS distinct ones, SEARCH_TOO_MANY_TERMS above) and located here;
 * private and unknown addresses count in `total` only.
 */
async function runMap(
  db: Db,
  actor: SearchActor,
  query: SavedQuery,
  scope: { begin: string; end: string; filters: SearchFilter[] },
  base: { begin: string; end: string; timeAxis: boolean },
  options: ReturnType<typeof chartSearch>,
): Promise<ChartData> {
  const result = await aggregateEvents(
    db,
    actor,
    {
      ...scope,
      query: query.query,
      aggregation: { type: 'terms', field: CHART_MAP_FIELD, size: AGGREGATION_MAX_TERMS },
    },
    options,
  );
  const buckets = result.buckets ?? [];
  const countries = await countriesOf(buckets.map((bucket) => bucket.key));
  const perCountry = new Map<string, number>();
  buckets.forEach((bucket, index) => {
    const country = countries[index];
    if (country) perCountry.set(country, (perCountry.get(country) ?? 0) + bucket.count);
  });
  const ranked = [...perCountry].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  return {
    ...base,
    categories: ranked.map(([country]) => country),
    series: [{ name: query.name, values: ranked.map(([, count]) => count) }],
    total: buckets.reduce((sum, bucket) => sum + bucket.count, 0),
  };
}

async function runAggregate(
  db: Db,
  actor: SearchActor,
  query: SavedQuery,
  aggregation: Aggregation,
  scope: { begin: string; end: string; filters: SearchFilter[] },
  base: { begin: string; end: string; timeAxis: boolean },
  options: ReturnType<typeof chartSearch>,
): Promise<ChartData> {
  const request = { ...scope, query: query.query };
  if (aggregation.type === 'terms') {
    const result = await aggregateEvents(
      db,
      actor,
      {
        ...request,
        aggregation: {
          type: 'terms',
          field: aggregation.field,
          size: Math.min(aggregation.size ?? CHART_TOP_VALUES, CHART_TOP_VALUES),
        },
      },
      options,
    );
    const buckets = result.buckets ?? [];
    return {
      ...base,
      categories: buckets.map((bucket) => bucket.key),
      series: [{ name: query.name, values: buckets.map((bucket) => bucket.count) }],
      total: buckets.reduce((sum, bucket) => sum + bucket.count, 0) + (result.otherCount ?? 0),
    };
  }
  if (aggregation.type === 'date_histogram') {
    const result = await aggregateEvents(db, actor, { ...request, aggregation }, options);
    const buckets = result.buckets ?? [];
    return {
      ...base,
      timeAxis: true,
      categories: buckets.map((bucket) => bucket.key),
      series: [{ name: query.name, values: buckets.map((bucket) => bucket.count) }],
    };
  }
  const result = await aggregateEvents(db, actor, { ...request, aggregation }, options);
  return { ...base, value: result.value ?? null };
}

// ---------------------------------------------------------------------------------------------------
// Security and fraud alerts

function alertScope(access: AccessContext, spec: ChartSpec, range: Range): AlertScope {
  return { orgId: access.org.id, domain: spec.domain, begin: range.begin, end: range.end };
}

const checkAlertDomain = async (_db: Db, access: AccessContext, spec: ChartSpec): Promise<ChartSpec> => {
  assertDomainEntitled(access, spec.domain);
  return { ...spec, savedQueryIds: [], rowLimit: null };
};

const keyed = (
  rows: { key: string; count: number }[],
  name: string,
  type: ChartType,
  base: { begin: string; end: string },
): ChartData =>
  type === 'badge'
    ? { ...base, timeAxis: false, value: rows.reduce((sum, row) => sum + row.count, 0) }
    : {
        ...base,
        timeAxis: false,
        categories: rows.map((row) => row.key),
        series: [{ name, values: rows.map((row) => row.count) }],
      };

const isoRange = (range: Range) => ({ begin: range.begin.toISOString(), end: range.end.toISOString() });

/** An alert family of counts per key (severity, fraud type, trigger) in the range. */
const keyedAlertSource = (
  name: string,
  count: (db: Db, scope: AlertScope) => Promise<{ key: string; count: number }[]>,
): ChartSource => ({
  viewPermission: 'ALERT_INBOX_VIEW',
  check: checkAlertDomain,
  async run(db, access, spec, range) {
    return keyed(await count(db, alertScope(access, spec, range)), name, spec.type, isoRange(range));
  },
});

const alertCounts = keyedAlertSource('Alerts', alertCountsBySeverity);
const alertFlagged = keyedAlertSource('Flagged alerts', (db, scope) =>
  flaggedAlertCounts(db, scope, CHART_TOP_VALUES),
);
const activityFunnel = keyedAlertSource('Alerts', alertFunnel);
const dismissedActivity = keyedAlertSource('Dismissed alerts', (db, scope) =>
  dismissedPerTrigger(db, scope, CHART_TOP_VALUES),
);

/** Checks the row count of a list family: 1 up to `max`, defaulting to CHART_ALERT_LIST_DEFAULT_ROWS. */
function checkRowLimit(spec: ChartSpec, max: number, what: string): number {
  const rowLimit = spec.rowLimit ?? CHART_ALERT_LIST_DEFAULT_ROWS;
  if (rowLimit < 1 || rowLimit > max) {
    throw validationFailed('CHART_ROW_LIMIT_INVALID', `${what} shows 1 to ${max} rows`, {
      field: 'rowLimit',
      params: { max },
    });
  }
  return rowLimit;
}

const alertList: ChartSource = {
  viewPermission: 'ALERT_INBOX_VIEW',
  async check(db, access, spec) {
    const checked = await checkAlertDomain(db, access, spec);
    return { ...checked, rowLimit: checkRowLimit(spec, CHART_ALERT_LIST_MAX_ROWS, 'An alert list') };
  },
  async run(db, access, spec, range) {
    const { rows, total } = await latestAlerts(
      db,
      alertScope(access, spec, range),
      spec.rowLimit ?? CHART_ALERT_LIST_DEFAULT_ROWS,
    );
    return {
      ...isoRange(range),
      timeAxis: false,
      columns: ['Fired', 'Title', 'Severity', 'State', 'Trigger'],
      rows: rows.map((row) => [
        row.firedAt.toISOString(),
        row.title,
        row.severity,
        row.state,
        row.triggerName,
      ]),
      total,
    };
  },
};

/** The days of the past year up to an hour ago, whatever the dashboard's range (spec 3 section 9). */
function trendYear(now: Date) {
  const end = new Date(now.getTime() - CHART_TREND_EXCLUDED_MS);
  const firstDay = Math.floor((end.getTime() - CHART_TREND_DAYS * DAY_MS) / DAY_MS);
  const days: string[] = [];
  for (let day = firstDay; day * DAY_MS <= end.getTime(); day++)
    days.push(new Date(day * DAY_MS).toISOString());
  return { begin: new Date(firstDay * DAY_MS), end, days };
}

/** A trend family: records per day over the past year excluding the last hour. */
const trendSource = (
  viewPermission: Permission,
  name: string,
  check: ChartSource['check'],
  perDay: (
    db: Db,
    access: AccessContext,
    spec: ChartSpec,
    range: Range,
  ) => Promise<{ day: string; count: number }[]>,
): ChartSource => ({
  viewPermission,
  check,
  async run(db, access, spec, _range, now) {
    const { begin, end, days } = trendYear(now);
    const byDay = new Map(
      (await perDay(db, access, spec, { begin, end })).map((row) => [row.day, row.count]),
    );
    return {
      begin: begin.toISOString(),
      end: end.toISOString(),
      timeAxis: true,
      categories: days,
      series: [{ name, values: days.map((day) => byDay.get(day.slice(0, 10)) ?? 0) }],
    };
  },
});

/** Alerts per day over the past year, excluding the last hour, whatever the dashboard's range. */
const alertTrends = trendSource('ALERT_INBOX_VIEW', 'Alerts', checkAlertDomain, (db, access, spec, range) =>
  alertsPerDay(db, alertScope(access, spec, range)),
);

/** Alerts escalated to incidents per day of the range, one series per trigger (the top 10). */
const escalations: ChartSource = {
  viewPermission: 'ALERT_INBOX_VIEW',
  check: checkAlertDomain,
  async run(db, access, spec, range) {
    const rows = await escalationsPerDay(db, alertScope(access, spec, range));
    const firstDay = Math.floor(range.begin.getTime() / DAY_MS);
    const categories: string[] = [];
    for (let day = firstDay; day * DAY_MS <= range.end.getTime(); day++) {
      categories.push(new Date(day * DAY_MS).toISOString());
    }
    const totals = new Map<string, number>();
    for (const row of rows) totals.set(row.trigger, (totals.get(row.trigger) ?? 0) + row.count);
    const top = [...totals.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .slice(0, CHART_TOP_VALUES)
      .map(([trigger]) => trigger);
    const series = top.map((trigger) => {
      const byDay = new Map(rows.filter((row) => row.trigger === trigger).map((row) => [row.day, row.count]));
      return { name: trigger, values: categories.map((day) => byDay.get(day.slice(0, 10)) ?? 0) };
    });
    return { ...isoRange(range), timeAxis: true, categories, series };
  },
};

// ---------------------------------------------------------------------------------------------------
// Incidents and tasks

const ticketPermission = { incident: 'INCIDENT_VIEW', task: 'TASK_VIEW' } as const;
const ticketNoun = { incident: 'Incidents', task: 'Tasks' } as const;

const ticketScope = (access: AccessContext, kind: TicketScope['kind'], range: Range): TicketScope => ({
  orgId: access.org.id,
  kind,
  begin: range.begin,
  end: range.end,
});

/** Ticket families have no settings of their own but the row count of lists. */
const checkPlain = async (_db: Db, _access: AccessContext, spec: ChartSpec): Promise<ChartSpec> => ({
  ...spec,
  savedQueryIds: [],
  domain: 'security',
  rowLimit: null,
});

const ticketList = (kind: TicketScope['kind']): ChartSource => ({
  viewPermission: ticketPermission[kind],
  async check(db, access, spec) {
    const checked = await checkPlain(db, access, spec);
    const what = kind === 'incident' ? 'An incident list' : 'A task list';
    return { ...checked, rowLimit: checkRowLimit(spec, CHART_TICKET_LIST_MAX_ROWS, what) };
  },
  async run(db, access, spec, range) {
    const { rows, total } = await latestTickets(
      db,
      ticketScope(access, kind, range),
      spec.rowLimit ?? CHART_ALERT_LIST_DEFAULT_ROWS,
    );
    return {
      ...isoRange(range),
      timeAxis: false,
      columns: [kind === 'incident' ? 'Incident' : 'Task', 'Title', 'State', 'Owner', 'Created'],
      rows: rows.map((row) => [row.slug, row.title, row.state, row.ownerName, row.createdOn.toISOString()]),
      total,
    };
  },
});

const ticketCounts = (
  kind: TicketScope['kind'],
  count: (db: Db, scope: TicketScope) => Promise<{ key: string; count: number }[]>,
): ChartSource => ({
  viewPermission: ticketPermission[kind],
  check: checkPlain,
  async run(db, access, spec, range) {
    return keyed(
      await count(db, ticketScope(access, kind, range)),
      ticketNoun[kind],
      spec.type,
      isoRange(range),
    );
  },
});

const byOwner = (db: Db, scope: TicketScope) => ticketCountsByOwner(db, scope, CHART_TOP_VALUES);

/** Incidents opened per day over the past year, excluding the last hour. */
const incidentTrends = trendSource('INCIDENT_VIEW', 'Incidents', checkPlain, (db, access, _spec, range) =>
  ticketsPerDay(db, ticketScope(access, 'incident', range)),
);

// ---------------------------------------------------------------------------------------------------
// Risk register

/** The register as it stands (not the range): counts per level, from the risk module. */
const registerCounts = (
  name: string,
  count: (db: Db, orgId: string) => Promise<{ key: string; count: number }[]>,
): ChartSource => ({
  viewPermission: 'RISK_VIEW',
  sku: 'risk',
  check: checkPlain,
  async run(db, access, spec, range) {
    return keyed(await count(db, access.org.id), name, spec.type, isoRange(range));
  },
});

// ---------------------------------------------------------------------------------------------------
// Risk inventory (the register now, whatever the range)

const inventories: ChartSource = {
  viewPermission: 'RISK_VIEW',
  sku: 'risk',
  check: checkPlain,
  async run(db, access, spec, range) {
    return keyed(
      await inventoryCountsByKind(db, access.org.id),
      'Inventory items',
      spec.type,
      isoRange(range),
    );
  },
};

const inventoryContextualScoring: ChartSource = {
  viewPermission: 'RISK_VIEW',
  sku: 'risk',
  async check(db, access, spec) {
    const checked = await checkPlain(db, access, spec);
    return {
      ...checked,
      rowLimit: checkRowLimit(
        spec,
        CHART_LIST_MAX_ROWS.INVENTORY_CONTEXTUAL_SCORING!,
        'An inventory scoring table',
      ),
    };
  },
  async run(db, access, spec, range) {
    const { rows, total } = await inventoryScoring(
      db,
      access.org.id,
      spec.rowLimit ?? CHART_ALERT_LIST_DEFAULT_ROWS,
    );
    return {
      ...isoRange(range),
      timeAxis: false,
      columns: [
        'Item',
        'Name',
        'Kind',
        'Data sensitivity',
        'Business criticality',
        'Inherent risk',
        'Residual risk',
        'Risks',
      ],
      rows: rows.map(({ row, riskCount }) => [
        row.publicId,
        row.name,
        row.kind,
        row.dataSensitivity,
        row.businessCriticality,
        row.inherentRisk,
        row.residualRisk,
        riskCount,
      ]),
      total,
    };
  },
};

// ---------------------------------------------------------------------------------------------------
// Frameworks and the FFIEC CAT (each framework's current evaluation period, whatever the range)

/** Controls per answer status, one category per framework. */
const frameworks: ChartSource = {
  viewPermission: 'POLICY_FRAMEWORK_VIEW',
  check: checkPlain,
  async run(db, access, _spec, range) {
    const { categories, series } = await frameworkStatus(db, access.org.id);
    return { ...isoRange(range), timeAxis: false, categories, series };
  },
};

/** Per CAT domain: the maturity assessed and the maturity statements implemented. */
const catSummaryChart: ChartSource = {
  viewPermission: 'POLICY_FRAMEWORK_VIEW',
  check: checkPlain,
  async run(db, access, spec, range) {
    const domains = (await catSummary(db, access.org.id))?.domains ?? [];
    if (spec.type === 'table') {
      return {
        ...isoRange(range),
        timeAxis: false,
        columns: ['Domain', 'Assessed maturity', 'Statements implemented', 'Statements'],
        rows: domains.map((domain) => [
          domain.title,
          domain.assessedMaturity ?? NOT_ASSESSED,
          domain.implemented,
          domain.controls,
        ]),
      };
    }
    return {
      ...isoRange(range),
      timeAxis: false,
      categories: domains.map((domain) => domain.title),
      series: [
        { name: 'Implemented', values: domains.map((domain) => domain.implemented) },
        { name: 'Not implemented', values: domains.map((domain) => domain.controls - domain.implemented) },
      ],
    };
  },
};

/** The CAT inherent risk profile: each category's level, or the categories per level. */
const catRiskProfileChart: ChartSource = {
  viewPermission: 'POLICY_FRAMEWORK_VIEW',
  check: checkPlain,
  async run(db, access, spec, range) {
    const profile = await catRiskProfile(db, access.org.id);
    const categories = profile?.categories ?? [];
    if (spec.type === 'table') {
      return {
        ...isoRange(range),
        timeAxis: false,
        columns: ['Category', 'Inherent risk'],
        rows: categories.map((category) => [category.title, category.level ?? NOT_ASSESSED]),
      };
    }
    const levels = [...(profile?.levels ?? []), NOT_ASSESSED];
    return keyed(
      levels.map((level) => ({
        key: level,
        count: categories.filter((category) => (category.level ?? NOT_ASSESSED) === level).length,
      })),
      'Risk profile categories',
      spec.type,
      isoRange(range),
    );
  },
};

export const CHART_SOURCES: Record<ChartFamily, ChartSource> = {
  SAVED_QUERIES: savedQueries,
  ALERT_LIST: alertList,
  ALERT_COUNTS: alertCounts,
  ALERT_FLAGGED: alertFlagged,
  ALERT_TRENDS: alertTrends,
  DISMISSED_TRIGGER_ACTIVITY: dismissedActivity,
  ESCALATIONS: escalations,
  INCIDENT_LIST: ticketList('incident'),
  INCIDENT_STATE_COUNTS: ticketCounts('incident', ticketCountsByState),
  INCIDENT_OWNER_COUNTS: ticketCounts('incident', byOwner),
  INCIDENT_TRENDS: incidentTrends,
  TASK_LIST: ticketList('task'),
  TASK_STATE_COUNTS: ticketCounts('task', ticketCountsByState),
  TASK_OWNER_COUNTS: ticketCounts('task', byOwner),
  TASK_EVENTS: ticketCounts('task', ticketEventCounts),
  ACTIVITY_FUNNEL: activityFunnel,
  RISKS: registerCounts('Risks', riskCountsByResidualRisk),
  CONTROLS: registerCounts('Controls', controlCountsByOverallScore),
  INVENTORIES: inventories,
  INVENTORY_CONTEXTUAL_SCORING: inventoryContextualScoring,
  FRAMEWORKS: frameworks,
  CAT_SUMMARY: catSummaryChart,
  CAT_RISK_PROFILE: catRiskProfileChart,
  ASSESSMENTS: registerCounts('Assessments', assessmentCountsByState),
};
