/**
 * The event query language (DESIGN section 5): parser, syntax tree, compiler to parameterised SQL and
 * the click-to-filter query builder. Browser-safe: no Node.js modules.
 */
export { parseQuery, QUERY_MAX_FIELD_DEPTH, QUERY_MAX_LENGTH, QueryParseError, validateQuery } from './parse';
export type {
  MatchValue,
  PatternPart,
  QueryAst,
  QueryLocation,
  QueryValidation,
  RangeBound,
  RangeValue,
  TermValue,
} from './parse';
export { compileQuery, MATCH_ALL } from './compile';
export type { CompiledQuery, CompileOptions } from './compile';
export { DEFAULT_EVENT_SCHEMA, qualifyEventSchema } from './schema';
export type { EventColumn, EventColumnType, EventSchema } from './schema';
export {
  andQueries,
  buildQuery,
  excludeFilter,
  formatQueryField,
  includeFilter,
  quoteQueryValue,
} from './build';
export type { QueryFilter } from './build';
