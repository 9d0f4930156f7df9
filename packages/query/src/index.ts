/**
 * The event query language (DESIGN section 5): parser, syntax tree and compiler to parameterised
 * SQL. The compiler arrives with the events area.
 */
export { parseQuery, QUERY_MAX_LENGTH, QueryParseError, validateQuery } from './parse';
export type { QueryAst, QueryValidation } from './parse';

export interface CompiledQuery {
  /** SQL condition with `$n` placeholders; user text never appears in it. */
  sql: string;
  params: unknown[];
}

/** A query that matches every event: the neutral element of AND. */
export const MATCH_ALL: CompiledQuery = { sql: 'TRUE', params: [] };
