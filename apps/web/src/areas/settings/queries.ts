import { queryOptions, skipToken } from '@tanstack/react-query';
import {
  bannerSchema,
  managedOrgSchema,
  orgSettingsResponseSchema,
  type TotpSetupResponse,
} from '@vigil/contracts';
import { z } from 'zod';
import { apiFetch } from '../../lib/api';

/** The authenticator secret being set up, from the profile page until its code is confirmed. */
export const totpSetupQuery = queryOptions<TotpSetupResponse | null>({
  queryKey: ['settings', 'totpSetup'],
  queryFn: skipToken,
});

const orgPath = (orgId: string) => `/api/org/${encodeURIComponent(orgId)}`;

/** GET /api/org/:orgId/settings (GLOBAL_SETTINGS_VIEW). */
export const orgSettingsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'org-settings'] as const,
    queryFn: ({ signal }) =>
      apiFetch(`${orgPath(orgId)}/global-settings`, { schema: orgSettingsResponseSchema, signal }),
  });

export const managedOrgsPath = (orgId: string) => `${orgPath(orgId)}/managed-orgs`;

/** GET /api/org/:orgId/managed-orgs: every organisation, for provider administrators. */
export const managedOrgsQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'managed-orgs'] as const,
    queryFn: ({ signal }) =>
      apiFetch(managedOrgsPath(orgId), {
        schema: z.object({ items: z.array(managedOrgSchema), total: z.number() }),
        signal,
      }),
  });

export const adminBannerSchema = bannerSchema.extend({
  endsAt: z.string().nullable(),
  createdAt: z.string(),
  active: z.boolean(),
});
export type AdminBanner = z.infer<typeof adminBannerSchema>;

export const adminBannersPath = (orgId: string) => `${orgPath(orgId)}/banners`;

/** GET /api/org/:orgId/banners: every banner, active or ended, for provider administrators. */
export const adminBannersQuery = (orgId: string) =>
  queryOptions({
    queryKey: ['settings', orgId, 'banners'] as const,
    queryFn: ({ signal }) =>
      apiFetch(adminBannersPath(orgId), {
        schema: z.object({ items: z.array(adminBannerSchema), total: z.number() }),
        signal,
      }),
  });
