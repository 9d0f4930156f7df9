import { z } from 'zod';
import { pageParams, queryFlag } from './query-params';

export const DATA_RESTRICTION_NAME_MAX_LENGTH = 100;
/** Users, and organisations, one restriction may list. */
export const DATA_RESTRICTION_MAX_TARGETS = 500;

/** Blank text means no query. */
const optionalQuery = z
  .string()
  .nullish()
  .transform((value) => (value?.trim() ? value.trim() : null));

/**
 * A data restriction as an administrator enters it: events must match the include query and must not
 * match the exclude query (at least one of the two), for the listed users and every user of the listed
 * organisations.
 */
export const dataRestrictionInputSchema = z.object({
  name: z.string().trim().min(1).max(DATA_RESTRICTION_NAME_MAX_LENGTH),
  includeQuery: optionalQuery,
  excludeQuery: optionalQuery,
  userIds: z.array(z.uuid()).max(DATA_RESTRICTION_MAX_TARGETS).default([]),
  orgIds: z.array(z.uuid()).max(DATA_RESTRICTION_MAX_TARGETS).default([]),
});
export type DataRestrictionInput = z.input<typeof dataRestrictionInputSchema>;

export const dataRestrictionSchema = z.object({
  id: z.string(),
  name: z.string(),
  includeQuery: z.string().nullable(),
  excludeQuery: z.string().nullable(),
  users: z.array(z.object({ id: z.string(), fullName: z.string() })),
  orgs: z.array(z.object({ id: z.string(), name: z.string() })),
  createdAt: z.string(),
  updatedAt: z.string(),
  deletedAt: z.string().nullable(),
});
export type DataRestriction = z.infer<typeof dataRestrictionSchema>;

export const dataRestrictionListSchema = z.object({
  items: z.array(dataRestrictionSchema),
  total: z.number(),
});

/** GET /api/org/:orgId/data-restrictions, sorted by name. */
export const dataRestrictionListQuerySchema = z.object({
  includeDeleted: queryFlag.default(false),
  ...pageParams,
});

/** A user a restriction applies to, and whether by name or through their organisation. */
export const restrictedUserSchema = z.object({
  id: z.string(),
  fullName: z.string(),
  active: z.boolean(),
  homeOrgId: z.string(),
  via: z.enum(['user', 'org']),
});
export type RestrictedUser = z.infer<typeof restrictedUserSchema>;

export const restrictedUserListSchema = z.object({
  items: z.array(restrictedUserSchema),
  total: z.number(),
});
