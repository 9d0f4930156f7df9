import {
  workspaceInputSchema,
  workspaceLibraryCopyResultSchema,
  workspaceListQuerySchema,
  workspaceListSchema,
  workspacePeopleSchema,
  workspaceSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import type { Actor } from './service';
import { listWorkspaces } from './workspace-repo';
import {
  copyWorkspacesToCustomers,
  createWorkspace,
  deleteWorkspace,
  getWorkspace,
  sharePeople,
  updateWorkspaceFields,
  workspaceJsons,
  workspaceViewer,
} from './workspace-service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const DASHBOARD_VIEW = { access: { permission: 'DASHBOARD_VIEW' as const } };
const DASHBOARD_EDIT = { access: { permission: 'DASHBOARD_EDIT' as const } };
const TAGS = ['workspaces'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const VISIBILITY =
  "A user sees the organisation's workspaces they own, those shared with all users and those shared with " +
  'them; premium-only ones only when the organisation holds REPORTING_PREMIUM. Others answer 404 ' +
  'WORKSPACE_NOT_FOUND, as do workspaces of other organisations.';

const RULES =
  'Rules: `dashboardIds` are live dashboards of the organisation (of the library for a library workspace; ' +
  '400 WORKSPACE_DASHBOARD_MISSING); `sharing` NOBODY, ALL or USERS with `sharedUserIds`, active people of ' +
  'the organisation (400 WORKSPACE_SHARE_USER_INVALID); `premiumOnly` needs REPORTING_PREMIUM (403 ' +
  'PRODUCT_NOT_ENTITLED); `library` and `copyToCustomers` are for provider administrators (403 ' +
  'LIBRARY_COPY_DENIED).';

/** Workspaces (spec 3): /dashboards/workspace-tiles and /dashboards/library/workspace-tiles. */
export const workspaceRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/workspaces',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: TAGS,
          summary: 'The workspaces the caller sees, or the library',
          description:
            `${VISIBILITY} \`library=true\` lists the library's workspaces (premium-only ones labelled ` +
            "PREMIUM_ONLY). `labels` are the caller's: PERSONAL or SHARED (own), SHARED_WITH_ME, PUBLIC " +
            '(shared with all), EDITOR or VIEWER, DEFAULT (copied by default to customers), PREMIUM_ONLY. ' +
            'By name; `search` matches part of it; paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: workspaceListQuerySchema,
          response: { 200: workspaceListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { pageSize, pageNumber, ...filter } = request.query;
        const { items, total } = await listWorkspaces(db, workspaceViewer(access), filter, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: await workspaceJsons(db, access, items), total };
      },
    );

    app.get(
      '/api/org/:orgId/workspaces/people',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Who a workspace can be shared with',
          description: 'Active people of the organisation, its own and those authorised for it, by name.',
          params: orgParamsSchema,
          response: { 200: workspacePeopleSchema },
        },
      },
      async (request) => sharePeople(db, accessOf(request)),
    );

    app.get(
      '/api/org/:orgId/workspace/:id',
      {
        config: DASHBOARD_VIEW,
        schema: {
          tags: TAGS,
          summary: 'A workspace with its dashboards',
          description: `${VISIBILITY} \`sharedUsers\` is shown to the owner only.`,
          params: idParams,
          response: { 200: workspaceSchema },
        },
      },
      async (request) => getWorkspace(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/workspace',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a workspace owned by the caller',
          description: RULES,
          params: orgParamsSchema,
          body: workspaceInputSchema,
          response: { 201: workspaceSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createWorkspace(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/workspace/:id',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a workspace',
          description:
            `${RULES} The owner, or those it is shared with when it is editable by others, change it; for the ` +
            'others it is view-only (403 WORKSPACE_PERMISSION_DENIED). Only the owner changes `sharing`, ' +
            '`editableByOthers` and `premiumOnly` (403 WORKSPACE_PERMISSION_DENIED) and whom it is shared with (the ' +
            "others' `sharedUserIds` are ignored); library " +
            'workspaces only provider administrators. Nothing is written when refused.',
          params: idParams,
          body: workspaceInputSchema,
          response: { 200: workspaceSchema },
        },
      },
      async (request) => updateWorkspaceFields(db, actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/org/:orgId/workspace/:id/delete',
      {
        config: DASHBOARD_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a workspace',
          description:
            'The owner only (403 WORKSPACE_PERMISSION_DENIED); ownerless copies of library workspaces by those ' +
            'who may change them. Its dashboards stay.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteWorkspace(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/workspaces/library/copy-to-customers',
      {
        config: { access: { permission: 'TRAC_ADMIN' as const } },
        schema: {
          tags: TAGS,
          summary: 'Copy the default library workspaces to every customer organisation',
          description:
            'Provider administrators only (403 LIBRARY_COPY_DENIED). Each library workspace marked ' +
            '`copyToCustomers` is copied, with its library dashboards, into every organisation but the ' +
            "provider's that holds no copy yet; premium-only ones only where REPORTING_PREMIUM is held. The " +
            'copies have no owner and are shared with all users.',
          params: orgParamsSchema,
          response: { 200: workspaceLibraryCopyResultSchema },
        },
      },
      async (request) => copyWorkspacesToCustomers(db, actorOf(request)),
    );
  };
