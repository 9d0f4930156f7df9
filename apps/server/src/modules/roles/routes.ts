import {
  roleDeleteQuerySchema,
  roleInputSchema,
  roleListQuerySchema,
  roleListResponseSchema,
  roleSchema,
  type Role,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { countRoleHolders, reassignRole } from '../users/repo';
import {
  findOrgRoleByName,
  findRole,
  insertCustomRole,
  listOrgRoles,
  updateCustomRole,
  type RoleRow,
} from './repo';
import { assignableRole, assertPermissionsHeld, checkCustomRolePermissions, viewerOf } from './rules';

const tags = ['roles'];
const roleParamsSchema = orgParamsSchema.extend({ id: z.uuid() });

const toRole = (role: RoleRow, userCount: number): Role => ({
  id: role.id,
  name: role.name,
  description: role.description,
  permissions: role.permissions,
  shared: role.shared,
  provider: role.provider,
  hidden: role.hidden,
  deleted: role.deletedAt !== null,
  userCount,
});

const snapshot = (role: RoleRow) => ({
  name: role.name,
  description: role.description,
  permissions: role.permissions,
  deleted: role.deletedAt !== null,
});

/**
 * A custom role of the current organisation, to change: shared roles are refused, roles of other
 * organisations answer as missing, and so do deleted ones unless `deleted` asks for them.
 */
async function customRoleOf(db: Db, access: AccessContext, roleId: string, deleted = false) {
  const role = await findRole(db, roleId);
  if (role && role.orgId === null) {
    throw validationFailed('ROLE_NOT_EDITABLE', 'Shared roles cannot be changed', { field: 'id' });
  }
  if (!role || role.orgId !== access.org.id || (role.deletedAt !== null) !== deleted) throw notFound('role');
  // Changing a role changes what its holders may do: only someone holding all of it may.
  assertPermissionsHeld(access, role.permissions);
  return role;
}

async function assertNameFree(db: Db, orgId: string, name: string, exceptId?: string) {
  if (await findOrgRoleByName(db, orgId, name, exceptId)) {
    throw conflict('ROLE_NAME_TAKEN', 'A role with this name exists', { field: 'name' });
  }
}

export const roleRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/roles',
      {
        config: { access: { permission: 'USER_VIEW' } },
        schema: {
          tags,
          summary: 'Roles of the organisation',
          description:
            'The shared roles and the custom roles of this organisation, each with the number of its users holding ' +
            'it. `includeDeleted` adds deleted custom roles; `includeTracRoles` adds the provider roles, for provider ' +
            'staff only (ignored for anyone else). Hidden roles are listed only to holders of a hidden role.',
          params: orgParamsSchema,
          querystring: roleListQuerySchema,
          response: { 200: roleListResponseSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const viewer = await viewerOf(db, access);
        const rows = await listOrgRoles(db, access.org.id, {
          includeDeleted: request.query.includeDeleted,
          includeProvider: request.query.includeTracRoles && viewer.providerStaff,
          includeHidden: viewer.seesHidden,
        });
        const items = rows.map((row) => toRole(row.role, row.userCount));
        return { items, total: items.length };
      },
    );

    app.post(
      '/api/org/:orgId/role/custom',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Create a custom role',
          description:
            'Permission codes as the catalogue names them (an _EDIT code includes its _VIEW code). Refused: a code ' +
            'the acting user does not hold (403 ROLE_PERMISSION_NOT_HELD), provider and compliance markers from ' +
            'anyone but provider staff (400 ROLE_MARKER_NOT_ALLOWED), a missing required dependency (400 ' +
            'ROLE_REQUIRES_PERMISSION naming both codes), a name in use (409 ROLE_NAME_TAKEN).',
          params: orgParamsSchema,
          body: roleInputSchema,
          response: { 201: roleSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const viewer = await viewerOf(db, access);
        const permissions = checkCustomRolePermissions(access, viewer, request.body.permissions);
        await assertNameFree(db, access.org.id, request.body.name);
        const role = await db.transaction(async (tx) => {
          const created = await insertCustomRole(tx, access.org.id, { ...request.body, permissions });
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'role.created',
            targetType: 'role',
            targetId: created.id,
            details: { after: snapshot(created) },
            ip: request.ip,
          });
          return created;
        });
        return reply.status(201).send(toRole(role, 0));
      },
    );

    app.put(
      '/api/org/:orgId/role/custom/:id',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Change a custom role',
          description:
            'The same rules as creating one; the acting user must also hold everything the role holds now. Shared ' +
            'roles answer 400 ROLE_NOT_EDITABLE. The holders get the new permissions with their next request.',
          params: roleParamsSchema,
          body: roleInputSchema,
          response: { 200: roleSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const viewer = await viewerOf(db, access);
        const before = await customRoleOf(db, access, request.params.id);
        const permissions = checkCustomRolePermissions(access, viewer, request.body.permissions);
        await assertNameFree(db, access.org.id, request.body.name, before.id);
        const role = await db.transaction(async (tx) => {
          const updated = await updateCustomRole(tx, access.org.id, before.id, {
            ...request.body,
            permissions,
          });
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'role.updated',
            targetType: 'role',
            targetId: before.id,
            details: { before: snapshot(before), after: snapshot(updated) },
            ip: request.ip,
          });
          return updated;
        });
        return toRole(role, await countRoleHolders(db, role.id));
      },
    );

    app.delete(
      '/api/org/:orgId/role/custom/:id',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Delete a custom role',
          description:
            'A role in use needs `targetRoleId`, a role its users move to (409 ROLE_IN_USE without one); the move ' +
            'and the deletion happen together. Deleted roles can be restored.',
          params: roleParamsSchema,
          querystring: roleDeleteQuerySchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const role = await customRoleOf(db, access, request.params.id);
        const { targetRoleId } = request.query;
        const holders = await countRoleHolders(db, role.id);
        if (holders > 0 && !targetRoleId) {
          throw conflict('ROLE_IN_USE', 'The role is in use; name a role for its users', {
            field: 'targetRoleId',
            params: { count: holders },
          });
        }
        if (holders > 0 && targetRoleId) {
          if (targetRoleId === role.id) {
            throw validationFailed('ROLE_INVALID', 'The users cannot move to the role being deleted', {
              field: 'targetRoleId',
            });
          }
          await assignableRole(db, access, await viewerOf(db, access), targetRoleId, 'targetRoleId');
        }
        await db.transaction(async (tx) => {
          const movedUserIds =
            holders > 0 && targetRoleId ? await reassignRole(tx, role.id, targetRoleId) : [];
          await updateCustomRole(tx, access.org.id, role.id, { deletedAt: new Date() });
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'role.deleted',
            targetType: 'role',
            targetId: role.id,
            details: {
              before: snapshot(role),
              after: { ...snapshot(role), deleted: true },
              ...(movedUserIds.length > 0 && { movedUserIds, targetRoleId }),
            },
            ip: request.ip,
          });
        });
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/role/custom/:id/restore',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Restore a deleted custom role',
          description:
            'Its former users stay on the roles they were moved to. 409 ROLE_NAME_TAKEN when its name is in use.',
          params: roleParamsSchema,
          response: { 200: roleSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const role = await customRoleOf(db, access, request.params.id, true);
        await assertNameFree(db, access.org.id, role.name, role.id);
        const restored = await db.transaction(async (tx) => {
          const updated = await updateCustomRole(tx, access.org.id, role.id, { deletedAt: null });
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'role.restored',
            targetType: 'role',
            targetId: role.id,
            details: { before: snapshot(role), after: snapshot(updated) },
            ip: request.ip,
          });
          return updated;
        });
        return toRole(restored, 0);
      },
    );
  };
