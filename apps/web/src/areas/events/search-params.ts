import {
  EVENT_FIELD_NAME_MAX_LENGTH,
  SEARCH_CSV_MAX_EXTRA_COLUMNS,
  SEARCH_INTERVAL_TYPES,
  type SearchFilter,
  type SearchIntervalType,
  type SearchScopeInput,
} from '@vigil/contracts';

/*
 * The event search as the address keeps it (spec 3 sections 3 and 5), so that a search can be
 * bookmarked and shared, and pivots elsewhere (`/search?query=…&begin=…&end=…`) open it. Values at their
 * default are left out of the address.
 */

/** The range of a search without begin and end. */
export const DEFAULT_INTERVAL_TYPE: SearchIntervalType = '24H';

export interface EventSearch {
  query?: string;
  /** ISO date-time (or anything the API reads as a begin); with `end`, it replaces `intervalType`. */
  begin?: string;
  end?: string;
  intervalType?: SearchIntervalType;
  /** Click-to-filter chips, sent as the request's `filters`. */
  filters?: SearchFilter[];
  /** Field columns shown after the fixed ones, in order; also the CSV download's extra columns. */
  columns?: string[];
  /** The field the results are sorted by; the time when absent. */
  sortField?: string;
  /** Ascending order; descending (newest first) when absent. */
  sort?: 'asc';
  /** 1-based. */
  page?: number;
}

// The router reads query values that look like numbers or booleans as such.
const text = (value: unknown): string | undefined => {
  const result = typeof value === 'string' ? value : typeof value === 'number' ? String(value) : undefined;
  return result === undefined || result.trim() === '' ? undefined : result;
};

const validTime = (value: string | undefined) =>
  value !== undefined && value.length <= 64 && !Number.isNaN(new Date(value).getTime()) ? value : undefined;

function readFilters(value: unknown): SearchFilter[] | undefined {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const filters: SearchFilter[] = [];
  for (const item of list.slice(0, 100) as unknown[]) {
    if (typeof item !== 'object' || item === null) continue;
    const { field, values, exclude } = item as Record<string, unknown>;
    if (typeof field !== 'string' || field.trim() === '' || field.length > EVENT_FIELD_NAME_MAX_LENGTH)
      continue;
    if (!Array.isArray(values)) continue;
    const kept = values
      .map(text)
      .filter((entry): entry is string => entry !== undefined && entry.length <= 2048);
    if (kept.length === 0) continue;
    filters.push({ field, values: kept.slice(0, 100), ...(exclude === true && { exclude: true }) });
  }
  return filters.length > 0 ? filters : undefined;
}

const sortFieldOf = (field: string | undefined) =>
  field && field !== 'timestamp' && field.length <= EVENT_FIELD_NAME_MAX_LENGTH ? field : undefined;

/** The fixed result columns, by their query-language names: never an extra column. */
export const FIXED_COLUMNS = ['timestamp', 'host', 'src_ip', 'dst_ip', 'user_name', 'data_source', 'message'];

function readColumns(value: unknown): string[] | undefined {
  let list = value;
  if (typeof list === 'string') {
    try {
      list = JSON.parse(list) as unknown;
    } catch {
      return undefined;
    }
  }
  if (!Array.isArray(list)) return undefined;
  const columns: string[] = [];
  for (const item of list as unknown[]) {
    const name = text(item)?.trim();
    if (!name || name.length > EVENT_FIELD_NAME_MAX_LENGTH) continue;
    if (FIXED_COLUMNS.includes(name) || columns.includes(name)) continue;
    columns.push(name);
  }
  return columns.length > 0 ? columns.slice(0, SEARCH_CSV_MAX_EXTRA_COLUMNS) : undefined;
}

/**
 * Why `name` cannot be added as a column (spec 3 section 5: not empty, not a duplicate, an existing
 * field, at most the maximum count): a message key, or null when it can.
 */
export function columnProblem(
  columns: readonly string[],
  name: string,
  knownFields: readonly string[],
): string | null {
  const trimmed = name.trim();
  if (trimmed === '') return 'events.columnPicker.required';
  if (FIXED_COLUMNS.includes(trimmed) || columns.includes(trimmed)) return 'events.columnPicker.duplicate';
  if (!knownFields.includes(trimmed)) return 'events.columnPicker.unknown';
  if (columns.length >= SEARCH_CSV_MAX_EXTRA_COLUMNS) return 'events.columnPicker.tooMany';
  return null;
}

/** The value of a field column: a dotted name reads nested fields, else the key as it is. */
export function columnValue(fields: Record<string, unknown>, name: string): string {
  let value: unknown = Object.hasOwn(fields, name) ? fields[name] : undefined;
  if (value === undefined) {
    value = name.split('.').reduce<unknown>((node, key) => {
      if (node === null || typeof node !== 'object' || Array.isArray(node)) return undefined;
      return (node as Record<string, unknown>)[key];
    }, fields);
  }
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The route's search validator: keeps the keys it knows, each only with a valid, non-default value. */
export function validateEventSearch(search: Record<string, unknown>): EventSearch {
  const begin = validTime(text(search.begin));
  const end = validTime(text(search.end));
  const interval = SEARCH_INTERVAL_TYPES.find((type) => type === search.intervalType);
  const page = Number(search.page);
  return {
    query: text(search.query),
    begin,
    end,
    intervalType: interval === DEFAULT_INTERVAL_TYPE ? undefined : interval,
    filters: readFilters(search.filters),
    columns: readColumns(search.columns),
    sortField: sortFieldOf(text(search.sortField)),
    sort: search.sort === 'asc' ? 'asc' : undefined,
    page: Number.isInteger(page) && page > 1 ? page : undefined,
  };
}

/** Whether the search has an explicit begin…end range instead of a preset. */
export const hasAbsoluteRange = (search: EventSearch) =>
  search.begin !== undefined && search.end !== undefined;

/** What every search call shares: the query, the range and the filters. */
export function searchScope(
  search: EventSearch,
): Required<Pick<SearchScopeInput, 'query' | 'filters'>> &
  Pick<SearchScopeInput, 'begin' | 'end' | 'intervalType'> {
  return {
    query: search.query?.trim() ?? '',
    ...(hasAbsoluteRange(search)
      ? { begin: search.begin, end: search.end }
      : { intervalType: search.intervalType ?? DEFAULT_INTERVAL_TYPE }),
    filters: search.filters ?? [],
  };
}

/**
 * The filters with `value` added to `field` (included or excluded): values of one field and one kind
 * share a filter, so that they are OR-joined (spec 3 section 5).
 */
export function addFilterValue(
  filters: readonly SearchFilter[],
  field: string,
  value: string,
  exclude: boolean,
): SearchFilter[] {
  const index = filters.findIndex((filter) => filter.field === field && Boolean(filter.exclude) === exclude);
  if (index === -1) return [...filters, { field, values: [value], ...(exclude && { exclude: true }) }];
  return filters.map((filter, at) =>
    at === index && !filter.values.includes(value)
      ? { ...filter, values: [...filter.values, value] }
      : filter,
  );
}

/** The filters without one value; a filter left without values goes. */
export function removeFilterValue(
  filters: readonly SearchFilter[],
  index: number,
  value: string,
): SearchFilter[] {
  return filters
    .map((filter, at) =>
      at === index ? { ...filter, values: filter.values.filter((v) => v !== value) } : filter,
    )
    .filter((filter) => filter.values.length > 0);
}

const pad = (value: number) => String(value).padStart(2, '0');

/** An ISO time as a datetime-local input shows it (local time, to the minute); empty when absent. */
export function toLocalInput(value: string | undefined): string {
  if (!value) return '';
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return '';
  return `${time.getFullYear()}-${pad(time.getMonth() + 1)}-${pad(time.getDate())}T${pad(time.getHours())}:${pad(time.getMinutes())}`;
}

/**
 * A datetime-local value as an ISO time; `end` takes the last millisecond of its minute, so that the
 * minute shown is included (spec 3 section 5: ranges end inclusively).
 */
export function fromLocalInput(value: string, end = false): string | undefined {
  if (!value) return undefined;
  const time = new Date(value);
  if (Number.isNaN(time.getTime())) return undefined;
  return new Date(time.getTime() + (end ? 59_999 : 0)).toISOString();
}
