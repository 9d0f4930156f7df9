import { CROSS_ORG_SEARCH_MAX_ORGS } from '@vigil/contracts';
import { validateEventSearch, type EventSearch } from './search-params';

/**
 * The cross-organisation search as the address keeps it: the event search's query, range, order and
 * page, and the organisations chosen (all of the user's when absent).
 */
export interface CrossOrgSearch extends Pick<
  EventSearch,
  'query' | 'begin' | 'end' | 'intervalType' | 'sortField' | 'sort' | 'page'
> {
  orgIds?: string[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function readOrgIds(value: unknown): string[] | undefined {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const ids = [...new Set(list.filter((id): id is string => typeof id === 'string' && UUID.test(id)))];
  return ids.length > 0 ? ids.slice(0, CROSS_ORG_SEARCH_MAX_ORGS) : undefined;
}

/** The route's search validator: the event search's keys it shares, and the organisations. */
export function validateCrossOrgSearch(search: Record<string, unknown>): CrossOrgSearch {
  const { query, begin, end, intervalType, sortField, sort, page } = validateEventSearch(search);
  return { query, begin, end, intervalType, sortField, sort, page, orgIds: readOrgIds(search.orgIds) };
}
