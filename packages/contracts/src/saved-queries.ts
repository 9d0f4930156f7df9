import { z } from 'zod';
import { aggregationSchema, EVENT_FIELD_NAME_MAX_LENGTH } from './events';
import { pageParams } from './query-params';

/**
 * Saved queries (spec 3): a named query of the query language with an optional aggregation and
 * primary field. Library queries are promoted by provider administrators and visible to every
 * organisation; only provider staff may change them.
 */
export const SAVED_QUERY_NAME_MAX_LENGTH = 200;
export const SAVED_QUERY_DESCRIPTION_MAX_LENGTH = 1000;
/** The query language's own limit (packages/query QUERY_MAX_LENGTH). */
export const SAVED_QUERY_MAX_LENGTH = 2048;

/** POST /saved-query and PUT /saved-query/:id. */
export const savedQueryInputSchema = z.object({
  name: z.string().trim().min(1).max(SAVED_QUERY_NAME_MAX_LENGTH),
  description: z.string().trim().max(SAVED_QUERY_DESCRIPTION_MAX_LENGTH).default(''),
  query: z.string().trim().min(1).max(SAVED_QUERY_MAX_LENGTH),
  aggregation: aggregationSchema.nullish(),
  primaryField: z.string().trim().min(1).max(EVENT_FIELD_NAME_MAX_LENGTH).nullish(),
});
export type SavedQueryInput = z.input<typeof savedQueryInputSchema>;

export const savedQuerySchema = z.object({
  id: z.string(),
  /** Null for library queries. */
  orgId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  query: z.string(),
  aggregation: aggregationSchema.nullable(),
  primaryField: z.string().nullable(),
  library: z.boolean(),
  /** Whether the caller may change or delete it. */
  editable: z.boolean(),
  createdBy: z.string().nullable(),
  createdByName: z.string().nullable(),
  createdOn: z.string(),
  modifiedOn: z.string(),
});
export type SavedQuery = z.infer<typeof savedQuerySchema>;

/** GET /saved-queries: the organisation's and the library's, by name. */
export const savedQueryListQuerySchema = z.object({
  /** Part of the name, any case. */
  search: z.string().trim().max(SAVED_QUERY_NAME_MAX_LENGTH).optional(),
  ...pageParams,
});
export type SavedQueryListQuery = z.input<typeof savedQueryListQuerySchema>;

export const savedQueryListSchema = z.object({ items: z.array(savedQuerySchema), total: z.number() });
export type SavedQueryList = z.infer<typeof savedQueryListSchema>;
