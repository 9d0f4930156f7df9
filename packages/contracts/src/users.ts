import { z } from 'zod';
import { isPermission } from './permissions';
import { pageParams, queryFlag } from './query-params';

/** Spec 2 section 3: the types of a profile's contact numbers. */
export const CONTACT_NUMBER_TYPES = ['Main', 'Office', 'Mobile', 'Emergency'] as const;
export type ContactNumberType = (typeof CONTACT_NUMBER_TYPES)[number];

export const PERSON_NAME_MAX_LENGTH = 100;
export const USERNAME_MAX_LENGTH = 64;
export const ROLE_NAME_MAX_LENGTH = 100;
export const ROLE_DESCRIPTION_MAX_LENGTH = 500;
export const JOB_DESCRIPTOR_NAME_MAX_LENGTH = 100;
export const CONTACT_NUMBERS_MAX = 8;

const personName = z.string().trim().min(1).max(PERSON_NAME_MAX_LENGTH);
/** Letters, digits and . _ - @; unique across users, compared lower-cased. */
export const usernameSchema = z
  .string()
  .trim()
  .min(2)
  .max(USERNAME_MAX_LENGTH)
  .regex(/^[A-Za-z0-9._@-]+$/);

export const contactNumberSchema = z.object({
  type: z.enum(CONTACT_NUMBER_TYPES),
  number: z
    .string()
    .trim()
    .min(3)
    .max(40)
    .regex(/^\+?[0-9 ()./-]+$/),
});
export type ContactNumber = z.infer<typeof contactNumberSchema>;

export const USER_ACTIVE_FILTERS = ['ACTIVE', 'INACTIVE', 'ALL'] as const;
export type UserActiveFilter = (typeof USER_ACTIVE_FILTERS)[number];
export const USER_SORT_FIELDS = ['name', 'email', 'role', 'active', 'lastLoginAt', 'createdAt'] as const;
export type UserSortField = (typeof USER_SORT_FIELDS)[number];

/**
 * GET /api/org/:orgId/users and /users-csv. Pages are `pageNumber` from 1 or `pageId` from 0 (the
 * first one given wins).
 */
export const userListQuerySchema = z.object({
  q: z.string().trim().max(200).optional(),
  active: z.enum(USER_ACTIVE_FILTERS).default('ACTIVE'),
  pageSize: pageParams.pageSize,
  pageNumber: z.coerce.number().int().min(1).optional(),
  pageId: z.coerce.number().int().min(0).optional(),
  sortBy: z.enum(USER_SORT_FIELDS).default('name'),
  desc: queryFlag.default(false),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;

export const userSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  fullName: z.string(),
  username: z.string().nullable(),
  email: z.string(),
  emails: z.array(z.object({ email: z.string() })),
  homeOrgId: z.string(),
  roleId: z.string(),
  roleName: z.string(),
  active: z.boolean(),
  google2faEnabled: z.boolean(),
  jobDescriptorIds: z.array(z.string()),
  contactNumbers: z.array(contactNumberSchema),
  lastLoginAt: z.string().nullable(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const userListResponseSchema = z.object({ items: z.array(userSchema), total: z.number() });

/** GET /api/org/:orgId/user/:id adds whether security keys are registered. */
export const userDetailSchema = userSchema.extend({ u2fEnabled: z.boolean() });
export type UserDetail = z.infer<typeof userDetailSchema>;

/** POST /api/org/:orgId/user */
export const userCreateSchema = z.object({
  email: z.email().max(254),
  firstName: personName,
  lastName: personName,
  username: usernameSchema.optional(),
  roleId: z.uuid(),
  jobDescriptorIds: z.array(z.uuid()).max(100).optional(),
});
export type UserCreate = z.infer<typeof userCreateSchema>;

/** PUT /api/org/:orgId/user/:id; a null username removes it. */
export const userUpdateSchema = z.object({
  firstName: personName,
  lastName: personName,
  username: usernameSchema.nullable().optional(),
});
export type UserUpdate = z.infer<typeof userUpdateSchema>;

/** PUT /api/org/:orgId/user: the signed-in user's own profile. */
export const profileUpdateSchema = userUpdateSchema.extend({
  contactNumbers: z.array(contactNumberSchema).max(CONTACT_NUMBERS_MAX),
});
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

export const profileSchema = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  username: z.string().nullable(),
  emails: z.array(z.object({ email: z.string() })),
  contactNumbers: z.array(contactNumberSchema),
});
export type Profile = z.infer<typeof profileSchema>;

/** GET /api/org/:orgId/user/summary: a person as every person picker shows them. */
export const personSummarySchema = z.object({
  id: z.string(),
  fullName: z.string(),
  active: z.boolean(),
  roleId: z.string(),
  homeOrgId: z.string(),
});
export type PersonSummary = z.infer<typeof personSummarySchema>;
export const personSummaryQuerySchema = z.object({ includeInactive: queryFlag.default(false) });

export const userJobDescriptorsSchema = z.object({ jobDescriptorIds: z.array(z.uuid()).max(100) });
export const userAuthorisedOrgsSchema = z.object({ orgIds: z.array(z.uuid()).max(1000) });

/** GET /api/org/:orgId/user/:id/orgs: the user's organisations that the viewer may also act in. */
export const userOrgEntrySchema = z.object({ id: z.string(), name: z.string(), isHome: z.boolean() });

export const roleSchema = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  permissions: z.array(z.string()),
  /** Shared roles are the same for every organisation and not editable. */
  shared: z.boolean(),
  provider: z.boolean(),
  hidden: z.boolean(),
  deleted: z.boolean(),
  /** Users of this organisation holding the role. */
  userCount: z.number(),
});
export type Role = z.infer<typeof roleSchema>;

export const roleListResponseSchema = z.object({ items: z.array(roleSchema), total: z.number() });

export const roleListQuerySchema = z.object({
  includeDeleted: queryFlag.default(false),
  /** Provider roles; honoured for provider staff only. */
  includeTracRoles: queryFlag.default(false),
});

/** POST /api/org/:orgId/role/custom and PUT /role/custom/:id. */
export const roleInputSchema = z.object({
  name: z.string().trim().min(1).max(ROLE_NAME_MAX_LENGTH),
  description: z.string().trim().max(ROLE_DESCRIPTION_MAX_LENGTH).default(''),
  permissions: z.array(z.string().refine(isPermission, { message: 'Unknown permission code' })).max(200),
});
export type RoleInput = z.input<typeof roleInputSchema>;

/** DELETE /api/org/:orgId/role/custom/:id: where the role's users go when it is in use. */
export const roleDeleteQuerySchema = z.object({ targetRoleId: z.uuid().optional() });

export const jobDescriptorSchema = z.object({
  id: z.string(),
  name: z.string(),
  userCount: z.number(),
});
export type JobDescriptor = z.infer<typeof jobDescriptorSchema>;
export const jobDescriptorListResponseSchema = z.object({
  items: z.array(jobDescriptorSchema),
  total: z.number(),
});
export const jobDescriptorInputSchema = z.object({
  name: z.string().trim().min(1).max(JOB_DESCRIPTOR_NAME_MAX_LENGTH),
});
