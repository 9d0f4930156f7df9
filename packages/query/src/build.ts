/**
 * Query builder for click-to-filter (spec 3 section 5): values with special characters are quoted,
 * the values of one field are OR-joined and different fields AND-joined. Every value is written as a
 * quoted, escaped phrase, the language's exact match (on text columns a bare word would match
 * case-insensitively, and a bare `*` would be a wildcard), so a filter matches exactly the events
 * whose field holds one of its values.
 */

export interface QueryFilter {
  field: string;
  values: readonly string[];
  /** Match the events whose field holds none of the values. */
  exclude?: boolean;
}

/** Field names written bare; any other is quoted (a quoted field name is taken literally). */
const BARE_FIELD = /^[A-Za-z0-9_@][A-Za-z0-9_.@-]*$/;
const RESERVED_FIELDS = new Set(['AND', 'OR', 'NOT', 'TO', '_exists_']);

/** A value as an exact phrase: `"…"` with `"` and `\` escaped. */
export function quoteQueryValue(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

/** A field name as the query language reads it: bare when it can be, else quoted. */
export function formatQueryField(field: string): string {
  return BARE_FIELD.test(field) && !RESERVED_FIELDS.has(field) ? field : quoteQueryValue(field);
}

function uniqueValues(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/** `field:"a"`, or `(field:"a" OR field:"b")` for several values; empty text for no value. */
export function includeFilter(field: string, values: readonly string[]): string {
  const terms = uniqueValues(values).map((value) => `${formatQueryField(field)}:${quoteQueryValue(value)}`);
  if (terms.length <= 1) return terms[0] ?? '';
  return `(${terms.join(' OR ')})`;
}

/** `NOT field:"a"`, or `NOT (field:"a" OR field:"b")`; empty text for no value. */
export function excludeFilter(field: string, values: readonly string[]): string {
  const include = includeFilter(field, values);
  return include && `NOT ${include}`;
}

/**
 * The query text for filters: filters on the same field (and the same `exclude`) are merged and their
 * values OR-joined, different filters AND-joined; filters without values are left out.
 */
export function buildQuery(filters: readonly QueryFilter[]): string {
  const merged = new Map<string, QueryFilter & { values: string[] }>();
  for (const filter of filters) {
    const key = JSON.stringify([filter.field, Boolean(filter.exclude)]);
    const entry = merged.get(key) ?? { field: filter.field, values: [], exclude: Boolean(filter.exclude) };
    entry.values.push(...filter.values);
    merged.set(key, entry);
  }
  return [...merged.values()]
    .map((filter) => (filter.exclude ? excludeFilter : includeFilter)(filter.field, filter.values))
    .filter((text) => text !== '')
    .join(' AND ');
}

/**
 * Queries ANDed together (`(a) AND (b)`), blank ones left out: to add a click-to-filter to the query
 * in the search bar.
 */
export function andQueries(...queries: readonly string[]): string {
  const parts = queries.map((query) => query.trim()).filter((query) => query !== '');
  return parts.length <= 1 ? (parts[0] ?? '') : parts.map((query) => `(${query})`).join(' AND ');
}
