import { runPrefill } from '../apps/server/src/modules/dashboards/prefill';
import { ensurePartitions, PARTITION_DAYS_AHEAD } from '../apps/server/src/modules/events/partitions';
import { insertDayOfEvents } from './event-data';
import {
  apiVsSql,
  benchApp,
  ms,
  percentile,
  sample,
  scratchDatabase,
  seconds,
  type BenchResult,
  type Query,
} from './support';

const DAYS = 30;
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;
/** The dashboard's range, and the histogram interval the server picks for it (1 hour over 7 days). */
const RANGE_DAYS = 7;
const HISTOGRAM_MS = HOUR_MS;
const SAMPLES = 10;
const ALERTS = 20_000;

/** The scope as the server writes it: organisation, range, the compiled query, no restriction. */
const scopeWhere = (condition: string) =>
  `org_id = $1::uuid AND ts >= $2::timestamptz AND ts <= $3::timestamptz AND ${condition} AND TRUE`;

const jsonEq = (field: string, value: string) =>
  `(fields IS NOT NULL AND fields @> '${JSON.stringify({ [field]: value })}'::jsonb)`;

/** The 12 charts: what the API is asked to draw, and the statements the server runs for each. */
function dashboardCharts() {
  const sources = ['windows-security', 'firewall', 'core-banking'];
  const sourceCondition = (source: string) =>
    `(data_source IS NOT NULL AND lower(data_source) = lower('${source}'))`;
  const histogram = (condition: string) =>
    `SELECT floor(extract(epoch FROM ts) * 1000 / ${HISTOGRAM_MS})::float8 AS bucket, count(*)::float8 AS count
       FROM events WHERE ${scopeWhere(condition)} GROUP BY 1 ORDER BY 1`;
  const terms = (column: string, condition = 'TRUE') =>
    `WITH g AS (SELECT ${column} AS key, count(*) AS c FROM events WHERE ${scopeWhere(condition)} AND ${column} IS NOT NULL GROUP BY 1)
     SELECT key, c::float8 AS count, (count(*) OVER ())::int AS unique_terms, (sum(c) OVER ())::float8 AS total
       FROM g ORDER BY c DESC, key LIMIT 10`;
  const count = (condition: string) =>
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM events WHERE ${scopeWhere(condition)}) t`;
  const alertScope = `org_id = $1::uuid AND domain = 'security' AND fired_at >= $2::timestamptz AND fired_at <= $3::timestamptz`;
  return {
    queries: [
      ...sources.map((source) => ({ name: `From ${source}`, query: `data_source:${source}` })),
      { name: 'Top hosts', query: '_exists_:host', aggregation: { type: 'terms', field: 'host' } },
      { name: 'Top users', query: '_exists_:user_name', aggregation: { type: 'terms', field: 'user_name' } },
      {
        name: 'By data source',
        query: '_exists_:data_source',
        aggregation: { type: 'terms', field: 'data_source' },
      },
      {
        name: 'Denied over time',
        query: 'action:deny',
        aggregation: { type: 'date_histogram', interval: '1h' },
      },
      { name: 'Failed logons', query: 'outcome:failure' },
      { name: 'Wires', query: 'transactionType:wire' },
      { name: 'Core banking', query: 'data_source:core-banking' },
    ],
    /** Chart settings by query names, and the statements each chart costs. */
    charts: [
      {
        type: 'line',
        queries: sources.map((source) => `From ${source}`),
        sql: sources.map((s) => histogram(sourceCondition(s))),
      },
      { type: 'bar', queries: ['Top hosts'], sql: [terms('host', '(host IS NOT NULL)')] },
      { type: 'pie', queries: ['Top users'], sql: [terms('user_name', '(user_name IS NOT NULL)')] },
      {
        type: 'table',
        queries: ['By data source'],
        sql: [terms('data_source', '(data_source IS NOT NULL)')],
      },
      { type: 'area', queries: ['Denied over time'], sql: [histogram(jsonEq('action', 'deny'))] },
      { type: 'badge', queries: ['Failed logons'], sql: [count(jsonEq('outcome', 'failure'))] },
      { type: 'badge', queries: ['Wires'], sql: [count(jsonEq('transactionType', 'wire'))] },
      {
        type: 'events_table',
        queries: ['Core banking'],
        rowLimit: 100,
        sql: [
          `SELECT * FROM events WHERE ${scopeWhere(sourceCondition('core-banking'))} ORDER BY ts DESC, id DESC LIMIT 100`,
          `SELECT count(*)::int AS n FROM (SELECT 1 FROM events WHERE ${scopeWhere(sourceCondition('core-banking'))} LIMIT 100001) t`,
        ],
      },
      {
        type: 'pie',
        queries: [],
        family: 'ALERT_COUNTS',
        sql: [`SELECT severity, count(*)::int FROM alerts WHERE ${alertScope} GROUP BY 1`],
      },
      {
        type: 'table',
        queries: [],
        family: 'ALERT_LIST',
        rowLimit: 100,
        sql: [
          `SELECT fired_at, title, severity, state FROM alerts WHERE ${alertScope} ORDER BY fired_at DESC, id LIMIT 100`,
          `SELECT count(*)::int FROM alerts WHERE ${alertScope}`,
        ],
      },
      {
        type: 'line',
        queries: [],
        family: 'ALERT_TRENDS',
        sql: [
          `SELECT to_char(date_trunc('day', fired_at AT TIME ZONE 'UTC'), 'YYYY-MM-DD') AS day, count(*)::int FROM alerts
            WHERE org_id = $1::uuid AND domain = 'security' AND fired_at >= now() - interval '365 days' AND fired_at <= now() - interval '1 hour'
            GROUP BY 1 ORDER BY 1`,
        ],
      },
      {
        type: 'bar',
        queries: [],
        family: 'DISMISSED_TRIGGER_ACTIVITY',
        sql: [
          `SELECT trigger_id, count(*)::int FROM alerts WHERE org_id = $1::uuid AND domain = 'security' AND state = 'DISMISSED'
            AND coalesce(dismissed_at, fired_at) >= $2::timestamptz AND coalesce(dismissed_at, fired_at) <= $3::timestamptz
            GROUP BY trigger_id, kind ORDER BY 2 DESC LIMIT 10`,
        ],
      },
    ],
  };
}

/**
 * A dashboard of 12 charts (series over time of three queries, three top-10 terms, a date histogram,
 * two badges, a 100-event table and four alert charts) over BENCH_EVENTS events (10,000,000 unless
 * told) of one organisation spread over 30 days, drawn over the last 7 days as the page does: the 12
 * data calls at once over HTTP. The baseline runs the same statements directly, also all at once, on a
 * second connection pool. Wall time until the last chart's data has arrived. The first view is reported
 * apart, twice: after the prefill job has computed the charts' hourly roll-ups, and without it.
 */
export async function dashboardBenchmark(): Promise<BenchResult> {
  const eventCount = Number(process.env.BENCH_EVENTS ?? 10_000_000);
  const scratch = await scratchDatabase();
  const { database, query, orgId, cookie } = scratch;
  try {
    const now = Date.now();
    await ensurePartitions(database.db, {
      now: new Date(now - DAYS * DAY_MS),
      daysAhead: DAYS + PARTITION_DAYS_AHEAD,
    });
    const seedStart = Date.now();
    const perDay = Math.round(eventCount / DAYS);
    for (let day = 0; day < DAYS; day++)
      await insertDayOfEvents(query, orgId, new Date(now - day * DAY_MS), perDay);
    await query(
      `INSERT INTO alerts (org_id, kind, title, severity, state, fired_at, dismissed_at)
       SELECT $1::uuid, 'TRIGGER', 'Alert ' || n, (ARRAY['CRITICAL','HIGH','MEDIUM','LOW'])[1 + n % 4],
              CASE WHEN n % 3 = 0 THEN 'DISMISSED' ELSE 'NEW' END,
              now() - (n % 365) * interval '1 day' - (n % 24) * interval '1 hour',
              CASE WHEN n % 3 = 0 THEN now() - (n % 30) * interval '1 day' END
         FROM generate_series(1, ${ALERTS}) n`,
      [orgId],
    );
    await query('ANALYZE events');
    await query('ANALYZE alerts');
    const seeded = `seeded ${perDay * DAYS} events over ${DAYS} days and ${ALERTS} alerts in ${seconds(seedStart)}`;

    const app = await benchApp(database);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const call = async (path: string, body: object) => {
      const response = await fetch(`${address}/api/org/${orgId}/${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200 && response.status !== 201) {
        throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      }
      return (await response.json()) as { id: string };
    };
    const { queries, charts } = dashboardCharts();
    const queryIds = new Map<string, string>();
    for (const entry of queries) queryIds.set(entry.name, (await call('saved-query', entry)).id);
    const chartIds: string[] = [];
    for (const [index, chart] of charts.entries()) {
      const created = await call('chart', {
        name: `Chart ${index + 1}`,
        type: chart.type,
        family: chart.family ?? 'SAVED_QUERIES',
        savedQueryIds: chart.queries.map((name) => queryIds.get(name)!),
        rowLimit: chart.rowLimit,
      });
      chartIds.push(created.id);
    }
    const range = {
      begin: new Date(now - RANGE_DAYS * DAY_MS).toISOString(),
      end: new Date(now).toISOString(),
    };
    const statements = charts.flatMap((chart) => chart.sql);
    const raw: Query = query;
    const drawDashboard = () => Promise.all(chartIds.map((id) => call(`chart/${id}/data`, range)));
    // The prefill job, as queued when the charts were created (run here, the bench's job runner is not started).
    const prefillStart = Date.now();
    const prefilledHours = await runPrefill(database.db, { orgId, chartIds });
    const prefillMs = Date.now() - prefillStart;
    const [prefilled] = await sample(1, drawDashboard, 0);
    // The first view without it counts from the events and queues the prefill; later views read roll-ups.
    await query('DELETE FROM event_rollup_counts WHERE org_id = $1::uuid', [orgId]);
    await query('DELETE FROM event_rollup_hours WHERE org_id = $1::uuid', [orgId]);
    const [first] = await sample(1, drawDashboard, 0);
    await runPrefill(database.db, { orgId, chartIds });
    const api = await sample(SAMPLES, drawDashboard, 1);
    const direct = await sample(
      SAMPLES,
      () =>
        Promise.all(
          statements.map((text) =>
            raw(text, text.includes('$2') ? [orgId, range.begin, range.end] : [orgId]),
          ),
        ),
      2,
    );
    await app.close();
    return {
      name: `dashboard of ${charts.length} charts: ${perDay * DAYS} events over ${DAYS} days in one organisation, ${scratch.where}`,
      lines: [
        seeded,
        `all ${charts.length} charts' data over ${RANGE_DAYS} days at once (${statements.length} statements; ${SAMPLES} samples)`,
        `prefill job: ${prefilledHours} roll-up hours in ${ms(prefillMs)}`,
        `first view after the prefill ${ms(prefilled!)} (ratio to SQL p50 ${(prefilled! / percentile(direct, 50)).toFixed(2)})`,
        `first view without prefill (counting from the events) ${ms(first!)} (ratio to SQL p50 ${(first! / percentile(direct, 50)).toFixed(2)})`,
        ...apiVsSql(api, direct),
      ],
    };
  } finally {
    await scratch.close();
  }
}
