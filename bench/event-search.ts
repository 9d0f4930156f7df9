import { SEARCH_TOTAL_CAP } from '@vigil/contracts';
import { HOST_COUNT, hostName, RARE_WORD, SEED_DAYS as DAYS, seedEvents } from './event-data';
import { apiVsSql, benchApp, sample, scratchDatabase, type BenchResult, type Query } from './support';

const DAY_MS = 86_400_000;
const PAGE_SIZE = 50;
const TERMS_SIZE = 10;
/** Samples of the searches and of the (much slower) aggregation, each after a few unmeasured. */
const SEARCH_SAMPLES = 40;
const AGGREGATION_SAMPLES = 12;

/** The columns of an event as the API answers it. */
const EVENT_COLUMNS = `id::text AS id, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS timestamp,
  to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "receivedAt", host,
  host(src_ip) AS "srcIp", host(dst_ip) AS "dstIp", user_name AS "userName", data_source AS "dataSource",
  message, fields, to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS cursor`;

interface Range {
  begin: string;
  end: string;
}

/** The scope as the server writes it: organisation, range, the compiled query, no restriction. */
const scopeWhere = (condition: string) =>
  `org_id = $1::uuid AND ts >= $2::timestamptz AND ts <= $3::timestamptz AND ${condition} AND TRUE`;

/** The search statements the API runs, written by hand: the first page, newest first, and the capped total. */
async function rawSearch(query: Query, orgId: string, range: Range, condition: string, value: string) {
  const where = scopeWhere(condition);
  const params = [orgId, range.begin, range.end, value];
  await query(
    `SELECT ${EVENT_COLUMNS} FROM events WHERE ${where} ORDER BY ts DESC, id DESC LIMIT ${PAGE_SIZE} OFFSET 0`,
    params,
  );
  await query(
    `SELECT count(*)::int AS n FROM (SELECT 1 FROM events WHERE ${where} LIMIT ${SEARCH_TOTAL_CAP + 1}) t`,
    params,
  );
}

/** The terms aggregation the API runs on `host`: the top terms, counting the unique ones in the same pass. */
async function rawTerms(query: Query, orgId: string, range: Range) {
  const where = scopeWhere('TRUE');
  await query(
    `WITH g AS (SELECT host AS key, count(*) AS c FROM events WHERE ${where} AND host IS NOT NULL GROUP BY 1)
     SELECT key, c::float8 AS count, (count(*) OVER ())::int AS unique_terms, (sum(c) OVER ())::float8 AS total
       FROM g ORDER BY c DESC, key LIMIT ${TERMS_SIZE}`,
    [orgId, range.begin, range.end],
  );
}

/**
 * Event search over BENCH_EVENTS events (10,000,000 unless told) of one organisation spread over 30
 * days, created in SQL day by day: through the HTTP API (session, access hook, query compiler, read-only
 * transaction, JSON) against the same statements on a second connection. A field query over 24 hours
 * (`host:web-N`, 1 in 200 events), a free-text query over 7 days (a word in 0.5% of the messages) and a
 * top-10 terms aggregation on `host` over 30 days.
 */
export async function eventSearchBenchmark(): Promise<BenchResult> {
  const eventCount = Number(process.env.BENCH_EVENTS ?? 10_000_000);
  const scratch = await scratchDatabase();
  const { database, query, orgId, cookie } = scratch;
  try {
    const now = Date.now();
    const seeded = await seedEvents(scratch, eventCount, now);

    const rangeOf = (days: number): Range => ({
      begin: new Date(now - days * DAY_MS).toISOString(),
      end: new Date(now).toISOString(),
    });
    const day = rangeOf(1);
    const week = rangeOf(7);
    const month = rangeOf(DAYS);
    let turn = 0;
    const nextHost = () => hostName(turn++ % HOST_COUNT);

    const app = await benchApp(database);
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const post = async (path: string, body: object) => {
      const response = await fetch(`${address}/api/org/${orgId}/${path}`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', 'x-requested-with': 'XMLHttpRequest' },
        body: JSON.stringify(body),
      });
      if (response.status !== 200)
        throw new Error(`${path} answered ${response.status}: ${await response.text()}`);
      await response.json();
    };
    const hostCondition = '(host IS NOT NULL AND lower(host) = lower($4))';
    const textCondition = "(search IS NOT NULL AND search @@ plainto_tsquery('simple', $4))";

    const field = {
      api: await sample(SEARCH_SAMPLES, () => post('search', { query: `host:${nextHost()}`, ...day }), 5),
      raw: await sample(SEARCH_SAMPLES, () => rawSearch(query, orgId, day, hostCondition, nextHost()), 5),
    };
    const text = {
      api: await sample(SEARCH_SAMPLES, () => post('search', { query: RARE_WORD, ...week }), 5),
      raw: await sample(SEARCH_SAMPLES, () => rawSearch(query, orgId, week, textCondition, RARE_WORD), 5),
    };
    const terms = {
      api: await sample(
        AGGREGATION_SAMPLES,
        () =>
          post('search/aggregate', {
            ...month,
            aggregation: { type: 'terms', field: 'host', size: TERMS_SIZE },
          }),
        2,
      ),
      raw: await sample(AGGREGATION_SAMPLES, () => rawTerms(query, orgId, month), 2),
    };
    await app.close();
    return {
      name: `event search: ${Math.round(eventCount / DAYS) * DAYS} events over ${DAYS} days in one organisation, ${scratch.where}`,
      lines: [
        seeded,
        `field query host:web-N over 24 hours, first page of ${PAGE_SIZE} and total (${SEARCH_SAMPLES} samples)`,
        ...apiVsSql(field.api, field.raw),
        `free text "${RARE_WORD}" over 7 days, first page and total (${SEARCH_SAMPLES} samples)`,
        ...apiVsSql(text.api, text.raw),
        `top ${TERMS_SIZE} terms of host over ${DAYS} days (${AGGREGATION_SAMPLES} samples)`,
        ...apiVsSql(terms.api, terms.raw),
      ],
    };
  } finally {
    await scratch.close();
  }
}
