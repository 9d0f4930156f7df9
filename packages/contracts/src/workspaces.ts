import { z } from 'zod';
import { pageParams } from './query-params';

/**
 * Workspaces (spec 3): a named group of dashboards with an owner, shared with nobody, all users of
 * the organisation or specific users, editable by others or view-only. Library workspaces (no
 * organisation) are the provider's; those marked "copied by default" go to every customer
 * organisation, premium-only ones only to organisations with REPORTING_PREMIUM.
 */

export const WORKSPACE_SHARING = ['NOBODY', 'ALL', 'USERS'] as const;
export type WorkspaceSharing = (typeof WORKSPACE_SHARING)[number];

/** The labels a workspace card shows (spec 3), in this order. */
export const WORKSPACE_LABELS = [
  'PERSONAL',
  'SHARED',
  'SHARED_WITH_ME',
  'PUBLIC',
  'EDITOR',
  'VIEWER',
  'DEFAULT',
  'PREMIUM_ONLY',
] as const;
export type WorkspaceLabel = (typeof WORKSPACE_LABELS)[number];

export const WORKSPACE_NAME_MAX_LENGTH = 200;
export const WORKSPACE_DESCRIPTION_MAX_LENGTH = 1000;
/** Not shown by the spec: a workspace groups a screenful of dashboards. */
export const WORKSPACE_MAX_DASHBOARDS = 50;
export const WORKSPACE_MAX_SHARED_USERS = 500;

/** POST /workspace and PUT /workspace/:id. */
export const workspaceInputSchema = z.object({
  name: z.string().trim().min(1).max(WORKSPACE_NAME_MAX_LENGTH),
  description: z.string().trim().max(WORKSPACE_DESCRIPTION_MAX_LENGTH).default(''),
  /** Dashboards in order; a library workspace holds library dashboards. */
  dashboardIds: z.array(z.uuid()).max(WORKSPACE_MAX_DASHBOARDS).default([]),
  sharing: z.enum(WORKSPACE_SHARING).default('NOBODY'),
  /** USERS: who it is shared with. */
  sharedUserIds: z.array(z.uuid()).max(WORKSPACE_MAX_SHARED_USERS).default([]),
  /** Others it is shared with may change it; otherwise it is view-only for them. */
  editableByOthers: z.boolean().default(false),
  /** Only for organisations with REPORTING_PREMIUM. */
  premiumOnly: z.boolean().default(false),
  /** Provider administrators only: a library workspace. */
  library: z.boolean().default(false),
  /** Library workspaces: copied by default to (new) customer organisations. */
  copyToCustomers: z.boolean().default(false),
});
export type WorkspaceInput = z.input<typeof workspaceInputSchema>;

export const workspaceSchema = z.object({
  id: z.string(),
  orgId: z.string().nullable(),
  name: z.string(),
  description: z.string(),
  dashboards: z.array(z.object({ id: z.string(), name: z.string() })),
  ownerId: z.string().nullable(),
  ownerName: z.string().nullable(),
  sharing: z.enum(WORKSPACE_SHARING),
  /** Only for those who may change the workspace; empty otherwise. */
  sharedUsers: z.array(z.object({ id: z.string(), name: z.string() })),
  editableByOthers: z.boolean(),
  premiumOnly: z.boolean(),
  library: z.boolean(),
  copyToCustomers: z.boolean(),
  copiedFromId: z.string().nullable(),
  /** The caller may change it (Editor) or only look (Viewer). */
  editable: z.boolean(),
  /** The caller owns it and may change who it is shared with. */
  owned: z.boolean(),
  labels: z.array(z.enum(WORKSPACE_LABELS)),
  lastModifiedOn: z.string(),
});
export type Workspace = z.infer<typeof workspaceSchema>;

export const workspaceListQuerySchema = z.object({
  search: z.string().trim().max(WORKSPACE_NAME_MAX_LENGTH).optional(),
  library: z
    .enum(['true', 'false'])
    .transform((value) => value === 'true')
    .default(false),
  ...pageParams,
});
export type WorkspaceListQuery = z.input<typeof workspaceListQuerySchema>;

export const workspaceListSchema = z.object({ items: z.array(workspaceSchema), total: z.number() });
export type WorkspaceList = z.infer<typeof workspaceListSchema>;

/** Who a workspace can be shared with: active people of the organisation. */
export const workspacePeopleSchema = z.object({
  items: z.array(z.object({ id: z.string(), name: z.string() })),
});

/** POST /workspaces/library/copy-to-customers. */
export const workspaceLibraryCopyResultSchema = z.object({
  copied: z.number(),
  skipped: z.number(),
  orgs: z.number(),
});
export type WorkspaceLibraryCopyResult = z.infer<typeof workspaceLibraryCopyResultSchema>;
