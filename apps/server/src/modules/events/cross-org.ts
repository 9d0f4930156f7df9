import {
  CROSS_ORG_SEARCH_MAX_ORGS,
  SEARCH_CSV_MAX_ROWS,
  SEARCH_TOTAL_CAP,
  crossOrgSearchRequestSchema,
  crossOrgSearchResponseSchema,
  type CrossOrgSearchResponse,
  type SkippedOrg,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import {
  accessContextOf,
  accessOf,
  refusalFor,
  type AccessContext,
  type OrgAccess,
  type RouteAccess,
  type SessionUser,
} from '../../platform/access';
import { AppError, accessDenied } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { listUserOrgs } from '../orgs/repo';
import { restrictionsForUser } from '../restrictions/repo';
import { loadOrgAccess } from '../users/access';
import { resolveCsvColumns, streamEventsCsv, type CsvOptions } from './export';
import type { OrgsScope } from './repo';
import {
  queryCondition,
  resolvePaging,
  resolveRange,
  restrictionCondition,
  selectPage,
  SEARCH_STATEMENT_TIMEOUT_MS,
  toEvent,
  type SearchOptions,
} from './service';

type CrossOrgSearchRequest = z.output<typeof crossOrgSearchRequestSchema>;

/** What each organisation's own event search declares; an organisation refusing it is skipped. */
const EVENT_SEARCH_ACCESS: RouteAccess = { permission: 'EVENT_VIEW' };

/** The representation an Accept header asks for: JSON (also when absent or any), CSV, or null for neither. */
export function negotiateSearchFormat(accept: string | undefined): 'json' | 'csv' | null {
  if (!accept?.trim()) return 'json';
  let best: { format: 'json' | 'csv'; q: number } | null = null;
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((piece) => piece.trim().toLowerCase());
    const weight = params.find((param) => param.startsWith('q='));
    const q = weight ? Number(weight.slice(2)) : 1;
    if (!(q > 0)) continue;
    const format =
      range === 'text/csv' || range === 'text/*'
        ? 'csv'
        : ['application/json', 'application/*', '*/*'].includes(range)
          ? 'json'
          : null;
    if (format && (!best || q > best.q)) best = { format, q };
  }
  return best?.format ?? null;
}

/**
 * Why the user may not search an organisation's events, by the same rule as that organisation's own
 * search route (null: they may); ORG_NOT_AUTHORISED when they may not act in it at all.
 */
export function orgSearchRefusal(user: SessionUser, orgAccess: OrgAccess | null): string | null {
  if (!orgAccess) return 'ORG_NOT_AUTHORISED';
  return refusalFor(EVENT_SEARCH_ACCESS, accessContextOf(user, orgAccess));
}

interface SearchedOrg {
  id: string;
  name: string;
}

/**
 * The organisations a cross-organisation search reads: those asked for (default every organisation
 * the user may act in), each of which must be one of the user's (403 ORG_NOT_AUTHORISED otherwise,
 * naming none), split into those searched and those skipped with the reason.
 */
export async function crossOrgTargets(
  db: Db,
  user: SessionUser,
  orgIds: readonly string[] | undefined,
): Promise<{ searched: SearchedOrg[]; skipped: SkippedOrg[] }> {
  const mine = await listUserOrgs(db, user);
  const byId = new Map(mine.map((org) => [org.id, org]));
  const asked = orgIds ? [...new Set(orgIds)] : mine.map((org) => org.id);
  if (asked.some((id) => !byId.has(id))) {
    throw accessDenied('ORG_NOT_AUTHORISED', 'orgIds names an organisation the user may not act in');
  }
  const searched: SearchedOrg[] = [];
  const skipped: SkippedOrg[] = [];
  for (const id of asked) {
    const { name } = byId.get(id)!;
    const reason = orgSearchRefusal(user, await loadOrgAccess(db, user, id));
    if (reason) skipped.push({ id, name, reason });
    else searched.push({ id, name });
  }
  return { searched, skipped };
}

/** The scope of a cross-organisation search: the query once, each organisation's data restrictions for its events. */
async function crossOrgScope(
  db: Db,
  userId: string,
  searched: readonly SearchedOrg[],
  request: CrossOrgSearchRequest,
  options: SearchOptions,
): Promise<OrgsScope> {
  const { begin, end } = resolveRange(request, options.now ?? new Date());
  const condition = queryCondition(request.query, request.filters);
  const orgs = [];
  for (const org of searched) {
    const restrictions = await restrictionsForUser(db, org.id, userId);
    orgs.push({ orgId: org.id, condition: restrictionCondition(restrictions) });
  }
  return { begin, end, condition, orgs };
}

function assertProviderStaff(access: AccessContext) {
  if (!access.org.isProvider) {
    throw accessDenied(
      'CROSS_ORG_SEARCH_PROVIDER_ONLY',
      'Cross-organisation search runs in the provider organisation',
    );
  }
}

const unknownMediaType = (accept: string) =>
  new AppError(
    'UnsupportedMediaTypeException',
    'SEARCH_UNKNOWN_MEDIA_TYPE',
    'Ask for application/json or text/csv',
    {
      params: { accept: accept.slice(0, 200) },
    },
  );

/** Cross-organisation event search (issue 7; spec 1 section 2.7, spec 3 sections 3, 8 and 9). */
export const crossOrgSearchRoutes =
  (db: Db, options: CsvOptions = {}): FastifyPluginAsyncZod =>
  async (app) => {
    app.post(
      '/api/org/:orgId/search/cross-org',
      {
        config: { access: { permission: 'EVENT_VIEW' } },
        schema: {
          tags: ['events'],
          summary: 'Search the events of several organisations',
          description:
            'For provider staff working in the provider organisation (403 CROSS_ORG_SEARCH_PROVIDER_ONLY ' +
            'elsewhere). Searches the organisations of `orgIds` (default: every organisation the user may act ' +
            `in; at most ${CROSS_ORG_SEARCH_MAX_ORGS}); an id that is not one of them is refused with 403 ` +
            'ORG_NOT_AUTHORISED. In each organisation the user needs what its own search needs (EVENT_VIEW): ' +
            'organisations refusing it are left out and listed in `skippedOrgs` with the refusal key; the ' +
            "user's data restrictions of each organisation apply to its events. Request and errors as for " +
            '`POST /api/org/{orgId}/search` (query, range, filters, sort, paging; 400 SEARCH_INVALID_QUERY, ' +
            'SEARCH_INVALID_RANGE, SEARCH_RANGE_TOO_LONG, SEARCH_INVALID_SORT_FIELD, SEARCH_INVALID_SORT_ORDER, ' +
            `SEARCH_RESPONSE_TOO_LARGE; 503 SEARCH_TIMEOUT after ${SEARCH_STATEMENT_TIMEOUT_MS / 1000} s). Each ` +
            `hit carries \`orgId\` and \`orgName\`; \`total\` is exact up to ${SEARCH_TOTAL_CAP}. With ` +
            `\`Accept: text/csv\` the answer is a CSV (attachment cross-org-events.csv) of the first ` +
            `${SEARCH_CSV_MAX_ROWS} results: the column org first, then the columns of the per-organisation ` +
            "export and the fields of `columns`, formula-like cells prefixed with '. An Accept naming neither " +
            'JSON nor CSV is refused with 415 SEARCH_UNKNOWN_MEDIA_TYPE.',
          params: orgParamsSchema,
          body: crossOrgSearchRequestSchema,
          response: { 200: crossOrgSearchResponseSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        assertProviderStaff(access);
        const format = negotiateSearchFormat(request.headers.accept);
        if (!format) throw unknownMediaType(request.headers.accept ?? '');
        const body = request.body;
        // The sort, page and columns are checked before any organisation is read.
        const paging = format === 'json' ? resolvePaging(body) : null;
        const columns = format === 'csv' ? resolveCsvColumns(body) : null;
        const { searched, skipped } = await crossOrgTargets(db, access.user, body.orgIds);
        const scope = await crossOrgScope(db, access.user.id, searched, body, options);
        const names = new Map(searched.map((org) => [org.id, org.name]));

        if (columns) {
          const orgColumn = { name: 'org', value: (row: { orgId: string }) => names.get(row.orgId) ?? null };
          const stream = await streamEventsCsv(db, scope, columns, options, [orgColumn]);
          return (
            reply
              .header('content-type', 'text/csv; charset=utf-8')
              .header('content-disposition', 'attachment; filename="cross-org-events.csv"')
              // Fastify pipes a stream as it is; the response schema describes the JSON answer only.
              .send(stream as unknown as CrossOrgSearchResponse)
          );
        }
        const { rows, ...page } = await selectPage(db, scope, paging!, options);
        const answer: CrossOrgSearchResponse = {
          items: rows.map((row) => ({ ...toEvent(row), orgId: row.orgId, orgName: names.get(row.orgId)! })),
          ...page,
          skippedOrgs: skipped,
        };
        return answer;
      },
    );
  };
