import {
  ASSET_IMPORTANCE_FILTERS,
  ASSET_LAST_SEEN_WINDOW_DAYS,
  ASSET_SORT_FIELDS,
  ASSET_TRACKED_FILTERS,
  type AssetSearch,
  type AssetSortField,
  type AssetTrackedFilter,
} from '@vigil/contracts';

/*
 * The asset list's filters as the address keeps them (spec 2 section 2), so that a filtered list can be
 * bookmarked and shared, and `/assets?labels=Firewall` lists the assets carrying a label. Values at
 * their default are left out of the address.
 */

export const ASSET_STATUS_FILTERS = ['active', 'deleted'] as const;
export type AssetStatusFilter = (typeof ASSET_STATUS_FILTERS)[number];
export type AssetImportanceFilter = (typeof ASSET_IMPORTANCE_FILTERS)[number];

/** Written in place of a last-seen-after date when the user cleared the default window. */
export const ANY_TIME = 'any';

export interface AssetListSearch {
  query?: string;
  /** One label; named `labels` as in the link form of spec 2 section 2. */
  labels?: string;
  softwareNames?: string[];
  tracked?: AssetTrackedFilter;
  status?: AssetStatusFilter;
  importance?: AssetImportanceFilter;
  /** A date (YYYY-MM-DD), or ANY_TIME; absent: the last ASSET_LAST_SEEN_WINDOW_DAYS days. */
  lastSeenAfter?: string;
  /** A date (YYYY-MM-DD), the day included. */
  lastSeenBefore?: string;
  sortBy?: AssetSortField;
  desc?: true;
  /** 1-based. */
  page?: number;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;

// The router reads query values that look like numbers or booleans as such.
const text = (value: unknown): string | undefined => {
  const result = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return result === undefined || result.trim() === '' ? undefined : result;
};
const oneOf = <T extends string>(values: readonly T[], value: unknown, fallback: T): T | undefined => {
  const found = values.find((item) => item === value);
  return found === undefined || found === fallback ? undefined : found;
};
const date = (value: unknown) => {
  const found = text(value);
  return found !== undefined && DATE.test(found) && !Number.isNaN(Date.parse(found)) ? found : undefined;
};

/** The route's search validator: keeps the keys it knows, each only with a valid, non-default value. */
export function validateAssetListSearch(search: Record<string, unknown>): AssetListSearch {
  const softwareNames = (Array.isArray(search.softwareNames) ? search.softwareNames : [search.softwareNames])
    .map(text)
    .filter((name): name is string => name !== undefined);
  const page = Number(search.page);
  const after = text(search.lastSeenAfter);
  return {
    query: text(search.query),
    labels: text(search.labels),
    softwareNames: softwareNames.length > 0 ? softwareNames : undefined,
    tracked: oneOf(ASSET_TRACKED_FILTERS, search.tracked, 'both'),
    status: oneOf(ASSET_STATUS_FILTERS, search.status, 'active'),
    importance: oneOf(ASSET_IMPORTANCE_FILTERS, search.importance, 'all'),
    lastSeenAfter: after === ANY_TIME ? ANY_TIME : date(after),
    lastSeenBefore: date(search.lastSeenBefore),
    sortBy: oneOf(ASSET_SORT_FIELDS, search.sortBy, 'name'),
    desc: search.desc === true || search.desc === 'true' ? true : undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

const pad = (value: number) => String(value).padStart(2, '0');

/** A local date as YYYY-MM-DD. */
export function localDate(time: Date): string {
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}`;
}

/** The start of the default last-seen window: the local date ASSET_LAST_SEEN_WINDOW_DAYS days ago. */
export function defaultLastSeenAfter(now: Date = new Date()): string {
  const start = new Date(now);
  start.setDate(start.getDate() - ASSET_LAST_SEEN_WINDOW_DAYS);
  return localDate(start);
}

/** Local midnight at the start of a YYYY-MM-DD date, `days` later. */
function startOfDay(value: string, days = 0): string {
  const [year = 0, month = 1, day = 1] = value.split('-').map(Number);
  return new Date(year, month - 1, day + days).toISOString();
}

/** The filters of the list as the asset search calls take them (without sorting and paging). */
export type AssetFilters = Omit<AssetSearch, 'sortBy' | 'desc' | 'pageSize' | 'pageId'>;

/**
 * The API filters of an address search. The default window starts at a local midnight, so that the
 * request stays the same all day.
 */
export function assetFilters(search: AssetListSearch, now: Date = new Date()): AssetFilters {
  const after =
    search.lastSeenAfter === ANY_TIME ? undefined : (search.lastSeenAfter ?? defaultLastSeenAfter(now));
  return {
    ...(search.query?.trim() && { query: search.query.trim() }),
    ...(search.labels?.trim() && { label: search.labels.trim() }),
    ...(search.softwareNames?.length && { softwareNames: search.softwareNames }),
    tracked: search.tracked ?? 'both',
    active: (search.status ?? 'active') === 'active',
    importance: search.importance ?? 'all',
    ...(after && { lastSeenAfter: startOfDay(after) }),
    // The chosen day is included: before the start of the next one.
    ...(search.lastSeenBefore && { lastSeenBefore: startOfDay(search.lastSeenBefore, 1) }),
  };
}

/** Whether the user narrowed the list beyond the defaults (the last-seen window aside). */
export function isFiltered(search: AssetListSearch): boolean {
  return Boolean(
    search.query ||
    search.labels ||
    search.softwareNames?.length ||
    search.tracked ||
    search.status ||
    search.importance ||
    search.lastSeenBefore ||
    (search.lastSeenAfter && search.lastSeenAfter !== ANY_TIME),
  );
}

/** The query string of an asset search (GET and DELETE /assets/search): repeated softwareNames. */
export function assetSearchParams(
  filters: AssetFilters,
  order?: { sortBy: AssetSortField; desc: boolean },
  page?: { pageSize: number; pageId: number },
): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) {
    if (Array.isArray(value)) for (const item of value) params.append(key, String(item));
    else if (value !== undefined) params.set(key, String(value));
  }
  if (order) {
    params.set('sortBy', order.sortBy);
    params.set('desc', String(order.desc));
  }
  if (page) {
    params.set('pageSize', String(page.pageSize));
    params.set('pageId', String(page.pageId));
  }
  return params.toString();
}
