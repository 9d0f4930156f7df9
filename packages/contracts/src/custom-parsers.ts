import { z } from 'zod';
import type { ErrorKey } from './errors';
import { EVENT_FIELD_NAME_MAX_LENGTH } from './events';
import { pageParams } from './query-params';

/**
 * Custom parsers (spec 3): per data source (the "app name"), field remappings applied to an
 * organisation's events at ingest, before classifiers. Spec 2 names the limits without values.
 */
export const CUSTOM_PARSER_MAX_MAPPINGS = 100;
export const CUSTOM_PARSERS_MAX_PER_ORG = 50;
/** The longest data source an event can carry. */
export const CUSTOM_PARSER_DATA_SOURCE_MAX_LENGTH = 256;

/** To-fields written to an event column rather than to `fields`: the query language's names. */
export const CUSTOM_PARSER_COLUMN_TARGETS = ['host', 'src_ip', 'dst_ip', 'user_name', 'message'] as const;
/**
 * Query names the event keeps for itself (its other columns and the query language's aliases): a
 * field of that name could never be searched, so no mapping may write one.
 */
export const CUSTOM_PARSER_RESERVED_TARGETS = [
  'ts',
  'received_at',
  'id',
  'data_source',
  'ip',
  'timestamp',
  'user',
] as const;

/** Letters, digits, underscores, periods and spaces (spec 3). */
const FROM_FIELD = /^[A-Za-z0-9_. ]+$/;
/** No period: the target is one top-level field. */
const TO_FIELD = /^[A-Za-z0-9_]+$/;

/**
 * Why a from-field is refused, or null. It is a dotted path into the event's fields; a segment may
 * hold spaces inside (`source address`) but not at either end, and none may be empty.
 */
export function fromFieldProblem(from: string): ErrorKey | null {
  if (from === '') return 'CUSTOM_PARSER_FIELD_REQUIRED';
  if (!FROM_FIELD.test(from)) return 'CUSTOM_PARSER_INVALID_FROM_FIELD';
  const segments = from.split('.');
  if (segments.some((segment) => segment === '' || segment.trim() !== segment)) {
    return 'CUSTOM_PARSER_INVALID_FROM_FIELD';
  }
  return null;
}

/** Why a to-field is refused, or null. */
export function toFieldProblem(to: string): ErrorKey | null {
  if (to === '') return 'CUSTOM_PARSER_FIELD_REQUIRED';
  if (!TO_FIELD.test(to)) return 'CUSTOM_PARSER_INVALID_TO_FIELD';
  if ((CUSTOM_PARSER_RESERVED_TARGETS as readonly string[]).includes(to)) {
    return 'CUSTOM_PARSER_RESERVED_TO_FIELD';
  }
  return null;
}

export interface CustomParserMapping {
  from: string;
  to: string;
}

export interface MappingProblem {
  /** Zero-based row of the mapping. */
  index: number;
  side: 'from' | 'to';
  key: ErrorKey;
}

/**
 * Every refused field of a parser's mappings, in row order: bad from- and to-fields, and a to-field
 * used again by a later row. The server answers the first; the browser shows them all inline.
 */
export function mappingProblems(mappings: readonly CustomParserMapping[]): MappingProblem[] {
  const problems: MappingProblem[] = [];
  const targets = new Set<string>();
  mappings.forEach((mapping, index) => {
    const fromKey = fromFieldProblem(mapping.from);
    if (fromKey) problems.push({ index, side: 'from', key: fromKey });
    const toKey = toFieldProblem(mapping.to);
    if (toKey) problems.push({ index, side: 'to', key: toKey });
    else if (targets.has(mapping.to))
      problems.push({ index, side: 'to', key: 'CUSTOM_PARSER_DUPLICATE_TO_FIELD' });
    targets.add(mapping.to);
  });
  return problems;
}

const mappingSchema = z.object({
  from: z.string().trim().max(EVENT_FIELD_NAME_MAX_LENGTH),
  to: z.string().trim().max(EVENT_FIELD_NAME_MAX_LENGTH),
});

/**
 * POST /custom-parser and PUT /custom-parser/:id. Emptiness, field rules and the mapping cap are the
 * service's, so that each answers its own catalogue key.
 */
export const customParserInputSchema = z.object({
  dataSource: z.string().trim().max(CUSTOM_PARSER_DATA_SOURCE_MAX_LENGTH),
  mappings: z.array(mappingSchema),
});
export type CustomParserInput = z.input<typeof customParserInputSchema>;

export const customParserSchema = z.object({
  id: z.string(),
  dataSource: z.string(),
  mappings: z.array(z.object({ from: z.string(), to: z.string() })),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type CustomParser = z.infer<typeof customParserSchema>;

/** GET /custom-parsers: by data source, any case. */
export const customParserListQuerySchema = z.object({ ...pageParams });
export type CustomParserListQuery = z.input<typeof customParserListQuerySchema>;

export const customParserListSchema = z.object({
  items: z.array(customParserSchema),
  total: z.number(),
});
export type CustomParserList = z.infer<typeof customParserListSchema>;
