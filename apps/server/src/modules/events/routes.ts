import {
  AGGREGATION_MAX_TERMS,
  SEARCH_CSV_MAX_ROWS,
  SEARCH_MAX_RANGE_DAYS,
  SEARCH_TOTAL_CAP,
  aggregateRequestSchema,
  aggregationResultSchema,
  fieldValuesRequestSchema,
  fieldValuesResponseSchema,
  searchCsvRequestSchema,
  searchFieldsQuerySchema,
  searchFieldsResponseSchema,
  searchRequestSchema,
  searchResponseSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import type { JobRunner } from '../../platform/jobs';
import { crossOrgSearchRoutes } from './cross-org';
import { exportEventsCsv } from './export';
import { dropExpiredPartitions, ensurePartitions, PARTITION_DAYS_AHEAD, retentionPolicy } from './partitions';
import {
  aggregateEvents,
  fieldValues,
  searchEvents,
  searchFields,
  SEARCH_STATEMENT_TIMEOUT_MS,
  type SearchActor,
  type SearchOptions,
} from './service';

const tags = ['events'];
const EVENT_VIEW = { access: { permission: 'EVENT_VIEW' as const } };

const actorOf = (request: FastifyRequest): SearchActor => {
  const access = accessOf(request);
  return { orgId: access.org.id, userId: access.user.id };
};

const SCOPE =
  '`query` is the query language (blank: every event); `begin` and `end` are ISO date-times, epoch ' +
  'milliseconds or dates (an end date includes its whole UTC day), or `intervalType` a report range (1H … ALL_TIME, ' +
  `default 24H); at most ${SEARCH_MAX_RANGE_DAYS} days. \`filters\` [{ field, values, exclude? }] are ANDed (values ` +
  "of one field OR-joined, exact). The caller's data restrictions always apply. Errors: 400 SEARCH_INVALID_QUERY " +
  '{ position, message }, SEARCH_INVALID_RANGE (begin after end), SEARCH_RANGE_TOO_LONG; 503 SEARCH_TIMEOUT when ' +
  `a statement runs over ${SEARCH_STATEMENT_TIMEOUT_MS / 1000} s (retry).`;

/** Event search (spec 3 sections 3, 5, 8, 9): search, aggregations, CSV export and the field sidebar. */
export const eventRoutes =
  (db: Db, options: SearchOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    await app.register(crossOrgSearchRoutes(db, options));

    app.post(
      '/api/org/:orgId/search',
      {
        config: EVENT_VIEW,
        schema: {
          tags,
          summary: 'Search events',
          description:
            `${SCOPE} Sorted by \`sortField\` (timestamp by default, a column or a field) and \`sortOrder\` ` +
            '(DESC by default or ASC; 400 SEARCH_INVALID_SORT_FIELD / SEARCH_INVALID_SORT_ORDER), ties by time; ' +
            'paged by `pageSize` (1 to 1000) and `pageNumber` (from 1; 400 SEARCH_RESPONSE_TOO_LARGE beyond ' +
            `result 100,000). \`total\` is exact up to ${SEARCH_TOTAL_CAP}; beyond it \`totalIsLowerBound\` is true.`,
          params: orgParamsSchema,
          body: searchRequestSchema,
          response: { 200: searchResponseSchema },
        },
      },
      async (request) => searchEvents(db, actorOf(request), request.body, options),
    );

    app.post(
      '/api/org/:orgId/search/aggregate',
      {
        config: EVENT_VIEW,
        schema: {
          tags,
          summary: 'Aggregate events',
          description:
            `${SCOPE} \`aggregation.type\`: count; terms (top \`size\`, default 10, of \`field\`; 400 ` +
            `SEARCH_TOO_MANY_TERMS above ${AGGREGATION_MAX_TERMS} unique terms); count_distinct (exact); sum, avg, ` +
            'min, max (numeric values only: 400 SEARCH_AGGREGATION_NOT_NUMERIC); date_histogram (`interval` 1m … 7d, ' +
            'chosen from the range when omitted; empty buckets included). The message is text: 400 ' +
            'SEARCH_AGGREGATION_TEXT_FIELD.',
          params: orgParamsSchema,
          body: aggregateRequestSchema,
          response: { 200: aggregationResultSchema },
        },
      },
      async (request) => aggregateEvents(db, actorOf(request), request.body, options),
    );

    app.post(
      '/api/org/:orgId/search/csv',
      {
        config: EVENT_VIEW,
        schema: {
          tags,
          summary: 'Download the results of a search as CSV',
          description:
            `${SCOPE} Streams text/csv (attachment events.csv) of the first ${SEARCH_CSV_MAX_ROWS} results in the ` +
            'order of `sortField`/`sortOrder`, with the columns timestamp, host, srcIp, dstIp, userName, dataSource, ' +
            'message and then each field of `columns` (non-text values as JSON). Cells starting with =, +, -, @ ' +
            "or a tab are prefixed with ' so spreadsheets read them as text.",
          params: orgParamsSchema,
          body: searchCsvRequestSchema,
        },
      },
      async (request, reply) => {
        const stream = await exportEventsCsv(db, actorOf(request), request.body, options);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="events.csv"')
          .send(stream);
      },
    );

    app.get(
      '/api/org/:orgId/search/fields',
      {
        config: EVENT_VIEW,
        schema: {
          tags,
          summary: 'Fields seen in a time range',
          description:
            'For the search sidebar: the columns and top-level free fields held by the latest 1,000 events of the ' +
            'range (and of `query`, when given) that the caller may see, with how many of them hold each, most ' +
            'common first. Range as for the search.',
          params: orgParamsSchema,
          querystring: searchFieldsQuerySchema,
          response: { 200: searchFieldsResponseSchema },
        },
      },
      async (request) => searchFields(db, actorOf(request), { ...request.query, filters: [] }, options),
    );

    app.post(
      '/api/org/:orgId/search/field-values',
      {
        config: EVENT_VIEW,
        schema: {
          tags,
          summary: 'Top values of a field in a search',
          description:
            `${SCOPE} Answers the \`size\` (default 10) most frequent values of \`field\` among the matches, with ` +
            'their counts and `total`, the matches holding the field. The message cannot be listed (400 ' +
            'SEARCH_AGGREGATION_TEXT_FIELD).',
          params: orgParamsSchema,
          body: fieldValuesRequestSchema,
          response: { 200: fieldValuesResponseSchema },
        },
      },
      async (request) => fieldValues(db, actorOf(request), request.body, options),
    );
  };

/**
 * The event store's jobs: daily partitions created ahead (hourly) and retention (daily), each
 * organisation keeping its own number of days.
 */
export function defineEventJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: 'events.partitions',
    cron: '7 * * * *',
    handler: async () => void (await ensurePartitions(db, { daysAhead: PARTITION_DAYS_AHEAD })),
  });
  jobs.define({
    name: 'events.retention',
    cron: '23 3 * * *',
    expireInSeconds: 3600,
    handler: async () => void (await dropExpiredPartitions(db, await retentionPolicy(db))),
  });
}
