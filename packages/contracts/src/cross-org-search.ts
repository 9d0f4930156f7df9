import { z } from 'zod';
import { eventSchema, searchCsvRequestSchema, searchRequestSchema, searchResponseSchema } from './events';

/** Organisations one cross-organisation search may name. */
export const CROSS_ORG_SEARCH_MAX_ORGS = 1000;

/**
 * POST /api/org/:orgId/search/cross-org: the search request plus the organisations to search
 * (default: every organisation the user may act in). `columns` only shapes the CSV answer.
 */
export const crossOrgSearchRequestSchema = searchRequestSchema.extend({
  orgIds: z.array(z.uuid()).min(1).max(CROSS_ORG_SEARCH_MAX_ORGS).optional(),
  columns: searchCsvRequestSchema.shape.columns,
});
export type CrossOrgSearchRequest = z.input<typeof crossOrgSearchRequestSchema>;

export const crossOrgEventSchema = eventSchema.extend({ orgId: z.string(), orgName: z.string() });
export type CrossOrgEvent = z.infer<typeof crossOrgEventSchema>;

/** Why an organisation was left out: the refusal key the organisation's own search would answer. */
export const skippedOrgSchema = z.object({ id: z.string(), name: z.string(), reason: z.string() });
export type SkippedOrg = z.infer<typeof skippedOrgSchema>;

export const crossOrgSearchResponseSchema = searchResponseSchema.extend({
  items: z.array(crossOrgEventSchema),
  skippedOrgs: z.array(skippedOrgSchema),
});
export type CrossOrgSearchResponse = z.infer<typeof crossOrgSearchResponseSchema>;
