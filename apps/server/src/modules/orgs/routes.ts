import {
  DEFAULT_ORG_SETTINGS,
  FEATURE_FLAGS,
  managedOrgInputSchema,
  managedOrgSchema,
  orgContextSchema,
  orgSettingsInputSchema,
  orgSettingsResponseSchema,
  userOrgsResponseSchema,
  type ManagedOrg,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { grantOrgAccess } from '../users/repo';
import { copyDefaultWorkspacesInto } from '../dashboards/workspace-service';
import { copyLibrarySchedulesInto } from '../reports/service';
import { findOrg, insertOrg, listAllOrgs, listUserOrgs, updateOrg, type OrgRow } from './repo';

const tags = ['orgs'];

const settingsOf = (org: Pick<OrgRow, 'settings'>) => ({ ...DEFAULT_ORG_SETTINGS, ...org.settings });

function toManagedOrg(org: OrgRow): ManagedOrg {
  const settings = settingsOf(org);
  return {
    id: org.id,
    name: org.name,
    isProvider: org.isProvider,
    productSkus: org.productSkus,
    managementMode: org.managementMode,
    featureFlags: Object.fromEntries(
      Object.entries(org.featureFlags).filter(
        (entry): entry is [string, boolean] => typeof entry[1] === 'boolean',
      ),
    ),
    requireTwoFactor: settings.requireTwoFactor,
    csmName: settings.csmName,
    csmEmailAddress: settings.csmEmailAddress,
    eventRetentionDays: settings.eventRetentionDays,
    createdAt: org.createdAt.toISOString(),
  };
}

/** Organisation management is for provider administrators working in the provider's own organisation. */
function assertProviderAdmin(access: AccessContext) {
  if (!access.org.isProvider) {
    throw accessDenied('PERMISSION_DENIED', 'Organisations are managed from the provider organisation');
  }
}

export const orgRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/orgs',
      {
        config: { auth: 'user' },
        schema: {
          tags,
          summary: 'Organisations of the signed-in user',
          description:
            'The home organisation and every organisation the user is authorised for, sorted by name.',
          response: { 200: userOrgsResponseSchema },
        },
      },
      async (request) => {
        const user = request.session!.user;
        const orgs = await listUserOrgs(db, user);
        return {
          homeOrgId: user.homeOrgId,
          orgs: orgs.map((org) => ({ ...org, isHome: org.id === user.homeOrgId })),
        };
      },
    );

    app.get(
      '/api/org/:orgId/context',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'The current organisation as the console shell needs it',
          description:
            'Organisation, effective feature flags (defaults, then the organisation, then the `feature` query ' +
            'parameter), effective permissions, whether read-only mode may be switched, settings and the ' +
            'customer-success contact (when the csmInformation feature is on).',
          params: orgParamsSchema,
          querystring: z.object({ feature: z.string().max(1000).optional() }),
          response: { 200: orgContextSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { org } = access;
        return {
          org: {
            id: org.id,
            name: org.name,
            isProvider: org.isProvider,
            productSkus: org.productSkus,
            managementMode: org.managementMode,
          },
          features: access.features,
          permissions: [...access.permissions].sort(),
          canToggleReadOnly: access.features.readonlyToggle && access.rolePermissions.has('TRAC_USER'),
          readOnlyMode: access.user.readOnlyMode,
          settings: { emailTimezone: org.settings.emailTimezone },
          csm:
            access.features.csmInformation && org.settings.csmName && org.settings.csmEmailAddress
              ? { csmName: org.settings.csmName, csmEmailAddress: org.settings.csmEmailAddress }
              : null,
        };
      },
    );

    app.get(
      '/api/org/:orgId/global-settings',
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_VIEW' } },
        schema: {
          tags,
          summary: "The organisation's settings",
          description: 'E-mail timezone, and whether its users must sign in with a second factor.',
          params: orgParamsSchema,
          response: { 200: orgSettingsResponseSchema },
        },
      },
      async (request) => {
        const { settings } = accessOf(request).org;
        return { emailTimezone: settings.emailTimezone, requireTwoFactor: settings.requireTwoFactor };
      },
    );

    app.put(
      '/api/org/:orgId/global-settings',
      {
        config: { access: { permission: 'GLOBAL_SETTINGS_EDIT' } },
        schema: {
          tags,
          summary: "Change the organisation's settings",
          description:
            'The two-factor requirement changes only through the provider (managed organisations).',
          params: orgParamsSchema,
          body: orgSettingsInputSchema,
          response: { 200: orgSettingsResponseSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const before = access.org.settings;
        const settings = { ...before, emailTimezone: request.body.emailTimezone };
        await updateOrg(db, access.org.id, { settings });
        await recordActivity(db, {
          orgId: access.org.id,
          actorUserId: access.user.id,
          action: 'org.settings_changed',
          details: {
            before: { emailTimezone: before.emailTimezone },
            after: { emailTimezone: settings.emailTimezone },
          },
          ip: request.ip,
        });
        return { emailTimezone: settings.emailTimezone, requireTwoFactor: settings.requireTwoFactor };
      },
    );

    const managed = '/api/org/:orgId/managed-orgs';
    const managedAccess = { access: { permission: 'TRAC_ADMIN' as const } };

    app.get(
      managed,
      {
        config: managedAccess,
        schema: {
          tags,
          summary: 'Every organisation (provider administrators)',
          description:
            'Product SKUs, management mode, feature flags, two-factor requirement and CSM contact.',
          params: orgParamsSchema,
          response: { 200: z.object({ items: z.array(managedOrgSchema), total: z.number() }) },
        },
      },
      async (request) => {
        assertProviderAdmin(accessOf(request));
        const items = (await listAllOrgs(db)).map(toManagedOrg);
        return { items, total: items.length };
      },
    );

    const valuesOf = (body: z.infer<typeof managedOrgInputSchema>, current?: OrgRow) => ({
      name: body.name,
      productSkus: [...new Set(body.productSkus)],
      managementMode: body.managementMode,
      featureFlags: Object.fromEntries(
        FEATURE_FLAGS.filter((flag) => flag in body.featureFlags).map((flag) => [
          flag,
          body.featureFlags[flag]!,
        ]),
      ),
      settings: {
        ...(current ? settingsOf(current) : DEFAULT_ORG_SETTINGS),
        requireTwoFactor: body.requireTwoFactor,
        csmName: body.csmName,
        csmEmailAddress: body.csmEmailAddress,
        eventRetentionDays: body.eventRetentionDays,
      },
    });

    app.post(
      managed,
      {
        config: managedAccess,
        schema: {
          tags,
          summary: 'Create a client organisation',
          description:
            'The creator is authorised for it at once. Library workspaces marked `copyToCustomers` are copied ' +
            'into it (premium-only ones when it holds REPORTING_PREMIUM); library report schedules appear in it ' +
            'as NOT_COPIED.',
          params: orgParamsSchema,
          body: managedOrgInputSchema,
          response: { 201: managedOrgSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        assertProviderAdmin(access);
        const created = await db.transaction(async (tx) => {
          const org = await insertOrg(tx, valuesOf(request.body));
          await grantOrgAccess(tx, access.user.id, org.id);
          // Library workspaces marked "copied by default" come with every new customer.
          await copyDefaultWorkspacesInto(tx, { access, ip: request.ip }, org);
          // Library report schedules appear in it as NOT_COPIED until its administrators copy them.
          await copyLibrarySchedulesInto(tx, { access, ip: request.ip }, org);
          await recordActivity(tx, {
            orgId: org.id,
            actorUserId: access.user.id,
            action: 'org.created',
            targetType: 'org',
            targetId: org.id,
            details: { after: toManagedOrg(org) },
            ip: request.ip,
          });
          return org;
        });
        return reply.status(201).send(toManagedOrg(created));
      },
    );

    app.put(
      `${managed}/:id`,
      {
        config: managedAccess,
        schema: {
          tags,
          summary: "Change an organisation's set-up",
          description:
            'Replaces name, SKUs, management mode, feature flags, two-factor requirement, CSM contact and event ' +
            'retention (days of events kept; older ones are deleted by the daily retention job).',
          params: orgParamsSchema.extend({ id: z.uuid() }),
          body: managedOrgInputSchema,
          response: { 200: managedOrgSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        assertProviderAdmin(access);
        const current = await findOrg(db, request.params.id);
        if (!current) throw notFound('organisation');
        const updated = await db.transaction(async (tx) => {
          const org = (await updateOrg(tx, current.id, valuesOf(request.body, current)))!;
          await recordActivity(tx, {
            orgId: org.id,
            actorUserId: access.user.id,
            action: 'org.updated',
            targetType: 'org',
            targetId: org.id,
            details: { before: toManagedOrg(current), after: toManagedOrg(org) },
            ip: request.ip,
          });
          return org;
        });
        return toManagedOrg(updated);
      },
    );
  };
