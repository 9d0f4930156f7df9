import { Readable } from 'node:stream';
import {
  personSummaryQuerySchema,
  personSummarySchema,
  profileSchema,
  profileUpdateSchema,
  userAuthorisedOrgsSchema,
  userCreateSchema,
  userDetailSchema,
  userJobDescriptorsSchema,
  userListQuerySchema,
  userListResponseSchema,
  userOrgEntrySchema,
  userSchema,
  userUpdateSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { accessOf, type AccessContext } from '../../platform/access';
import { recordActivity, type AuditEntry } from '../../platform/audit/audit';
import { accessDenied, AppError, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { listCredentials } from '../auth/repo';
import type { AuthDeps } from '../auth/service';
import { deleteUserSessions } from '../auth/sessions';
import { listUserOrgs } from '../orgs/repo';
import { assignableRole, viewerOf } from '../roles/rules';
import { csvLine } from '../../platform/csv';
import { setUserJobDescriptors } from './job-descriptors';
import {
  findOrgUserListRow,
  findUser,
  listGrantedOrgIds,
  listOrgUsers,
  listPersonSummaries,
  listUserEmails,
  replaceGrantedOrgs,
  setPrimaryEmail,
  updateUser,
  type UserFilter,
} from './repo';
import {
  assertEmailUsable,
  assertJobDescriptors,
  assertNotSelf,
  assertUsernameFree,
  createOrgUser,
  manageableUser,
  orgUserFor,
  toUser,
  userSnapshot,
} from './service';

export interface UserAdminDeps extends AuthDeps {
  /** The address users reach Vigil at, for the new-user link. */
  publicUrl(request: FastifyRequest): string;
}

const tags = ['users'];
const userParamsSchema = orgParamsSchema.extend({ id: z.uuid() });
const noContent = { 204: z.null().describe('Done') };
const CSV_BATCH = 500;

const auditOf = (
  request: FastifyRequest,
  access: AccessContext,
  entry: Omit<AuditEntry, 'orgId' | 'actorUserId' | 'ip'>,
) => ({
  ...entry,
  orgId: access.org.id,
  actorUserId: access.user.id,
  ip: request.ip,
});

export const userAdminRoutes =
  (deps: UserAdminDeps): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;

    /** The user as answered after a change. */
    const reload = async (access: AccessContext, userId: string) =>
      toUser((await findOrgUserListRow(db, access.org.id, userId, false))!);

    const filterOf = async (access: AccessContext, query: { q?: string; active: UserFilter['active'] }) => ({
      q: query.q || undefined,
      active: query.active,
      withoutHidden: !(await viewerOf(db, access)).seesHidden,
    });

    app.get(
      '/api/org/:orgId/users',
      {
        config: { access: { permission: 'USER_VIEW' } },
        schema: {
          tags,
          summary: 'Users of the organisation',
          description:
            'People whose home organisation this is, not deleted. `q` searches names, usernames and e-mail ' +
            'addresses; `active` is ACTIVE (default), INACTIVE or ALL; pages by `pageSize` with `pageNumber` (from 1) ' +
            'or `pageId` (from 0); sorted by `sortBy` and `desc`. People holding a hidden role are left out unless ' +
            "the viewer's role is hidden.",
          params: orgParamsSchema,
          querystring: userListQuerySchema,
          response: { 200: userListResponseSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const query = request.query;
        const page = query.pageNumber !== undefined ? query.pageNumber - 1 : (query.pageId ?? 0);
        const result = await listOrgUsers(db, access.org.id, await filterOf(access, query), {
          sortBy: query.sortBy,
          desc: query.desc,
          limit: query.pageSize,
          offset: page * query.pageSize,
        });
        return { items: result.items.map(toUser), total: result.total };
      },
    );

    app.get(
      '/api/org/:orgId/users-csv',
      {
        config: { access: { permission: 'USER_VIEW' } },
        schema: {
          tags,
          summary: 'Users of the organisation as CSV',
          description: 'The search of GET /users (without paging), streamed as text/csv.',
          params: orgParamsSchema,
          querystring: userListQuerySchema.omit({ pageSize: true, pageNumber: true, pageId: true }),
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const filter = await filterOf(access, request.query);
        const { sortBy, desc } = request.query;
        async function* lines() {
          yield csvLine([
            'First name',
            'Last name',
            'Username',
            'E-mail',
            'Role',
            'Active',
            'Two-factor',
            'Last sign-in',
            'Created',
          ]);
          for (let offset = 0; ; offset += CSV_BATCH) {
            const { items } = await listOrgUsers(db, access.org.id, filter, {
              sortBy,
              desc,
              limit: CSV_BATCH,
              offset,
            });
            for (const row of items) {
              const user = toUser(row);
              yield csvLine([
                user.firstName,
                user.lastName,
                user.username,
                user.email,
                user.roleName,
                user.active,
                user.google2faEnabled,
                user.lastLoginAt,
                user.createdAt,
              ]);
            }
            if (items.length < CSV_BATCH) return;
          }
        }
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="users.csv"')
          .send(Readable.from(lines()));
      },
    );

    app.get(
      '/api/org/:orgId/user/summary',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'People for person pickers',
          description:
            'Users of the organisation and those authorised for it, by name; active ones unless ' +
            "`includeInactive=true`. People holding a hidden role are left out unless the viewer's role is hidden.",
          params: orgParamsSchema,
          querystring: personSummaryQuerySchema,
          response: { 200: z.array(personSummarySchema) },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const viewer = await viewerOf(db, access);
        const people = await listPersonSummaries(db, access.org.id, {
          includeInactive: request.query.includeInactive,
          withoutHidden: !viewer.seesHidden,
        });
        return people.map(({ firstName, lastName, ...person }) => ({
          ...person,
          fullName: `${firstName} ${lastName}`.trim(),
        }));
      },
    );

    const profileOf = async (userId: string) => {
      const user = await findUser(db, userId);
      if (!user) throw notFound('user');
      return {
        id: user.id,
        firstName: user.firstName,
        lastName: user.lastName,
        username: user.username,
        emails: (await listUserEmails(db, user.id)).map((email) => ({ email })),
        contactNumbers: user.contactNumbers,
      };
    };

    app.get(
      '/api/org/:orgId/user',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Your own profile',
          description: 'Name, username, e-mail addresses and contact numbers of the signed-in user.',
          params: orgParamsSchema,
          response: { 200: profileSchema },
        },
      },
      async (request) => profileOf(accessOf(request).user.id),
    );

    app.put(
      '/api/org/:orgId/user',
      {
        config: { access: {} },
        schema: {
          tags,
          summary: 'Change your own profile',
          description:
            'Name, username (unique, 409 USERNAME_TAKEN) and contact numbers typed Main, Office, Mobile or Emergency.',
          params: orgParamsSchema,
          body: profileUpdateSchema,
          response: { 200: profileSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const before = await findUser(db, access.user.id);
        if (!before) throw notFound('user');
        await assertUsernameFree(db, request.body.username, before.id);
        await db.transaction(async (tx) => {
          const after = await updateUser(tx, before.id, {
            firstName: request.body.firstName,
            lastName: request.body.lastName,
            contactNumbers: request.body.contactNumbers,
            ...(request.body.username !== undefined && { username: request.body.username }),
          });
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.profile_updated',
              targetType: 'user',
              targetId: before.id,
              details: {
                before: { ...userSnapshot(before), contactNumbers: before.contactNumbers },
                after: { ...userSnapshot(after), contactNumbers: after.contactNumbers },
              },
            }),
          );
        });
        return profileOf(before.id);
      },
    );

    app.post(
      '/api/org/:orgId/user',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Create a user of the organisation',
          description:
            'The user is mailed a new-user link to choose a password. The e-mail must be unique across all users ' +
            '(409 USER_EMAIL_TAKEN); users of the provider organisation need an address of the domain of the ' +
            "provider's first administrator (400 USER_EMAIL_NOT_PROVIDER_DOMAIN). The role must be one the acting " +
            'user may give (400 ROLE_INVALID, 403 ROLE_PERMISSION_NOT_HELD); job descriptors must be the ' +
            "organisation's (400 INVALID_JOB_DESCRIPTORS).",
          params: orgParamsSchema,
          body: userCreateSchema,
          response: { 201: userSchema },
        },
      },
      async (request, reply) => {
        const user = await createOrgUser(deps, accessOf(request), request.body, {
          ip: request.ip,
          publicUrl: deps.publicUrl(request),
        });
        return reply.status(201).send(user);
      },
    );

    app.get(
      '/api/org/:orgId/user/:id',
      {
        config: { access: { permission: 'USER_VIEW' } },
        schema: {
          tags,
          summary: 'One user of the organisation',
          description: 'Users of other organisations, deleted ones and hidden ones answer 404.',
          params: userParamsSchema,
          response: { 200: userDetailSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const row = await orgUserFor(db, access, await viewerOf(db, access), request.params.id);
        return { ...toUser(row), u2fEnabled: (await listCredentials(db, row.user.id)).length > 0 };
      },
    );

    app.put(
      '/api/org/:orgId/user/:id',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: "Change a user's name and username",
          description: 'A null username removes it; 409 USERNAME_TAKEN when another user has it.',
          params: userParamsSchema,
          body: userUpdateSchema,
          response: { 200: userSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const row = await orgUserFor(db, access, await viewerOf(db, access), request.params.id);
        await assertUsernameFree(db, request.body.username, row.user.id);
        await db.transaction(async (tx) => {
          const after = await updateUser(tx, row.user.id, request.body);
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.updated',
              targetType: 'user',
              targetId: row.user.id,
              details: { before: userSnapshot(row.user), after: userSnapshot(after) },
            }),
          );
        });
        return reload(access, row.user.id);
      },
    );

    app.put(
      '/api/org/:orgId/user/:id/email/:email',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: "Change a user's e-mail address",
          description:
            'Replaces the primary address, under the rules of creating a user. Refused (403 ' +
            'ROLE_PERMISSION_NOT_HELD) for a user whose role holds permissions the acting user does not.',
          params: userParamsSchema.extend({ email: z.email().max(254) }),
          response: { 200: userSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { row } = await manageableUser(db, access, request.params.id);
        const email = await assertEmailUsable(db, access, request.params.email, row.user.id);
        await db.transaction(async (tx) => {
          await setPrimaryEmail(tx, row.user.id, email);
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.email_changed',
              targetType: 'user',
              targetId: row.user.id,
              details: { before: { email: row.email }, after: { email } },
            }),
          );
        });
        return reload(access, row.user.id);
      },
    );

    for (const active of [true, false]) {
      app.post(
        `/api/org/:orgId/user/:id/${active ? 'activate' : 'deactivate'}`,
        {
          config: { access: { permission: 'USER_EDIT' } },
          schema: {
            tags,
            summary: active ? 'Activate a user' : 'Deactivate a user',
            description: active
              ? 'The user may sign in again.'
              : 'The user cannot sign in, and their sessions end at once. Not for oneself (400 USER_SELF_CHANGE_REFUSED).',
            params: userParamsSchema,
            response: { 200: userSchema },
          },
        },
        async (request) => {
          const access = accessOf(request);
          assertNotSelf(access, request.params.id);
          const { row } = await manageableUser(db, access, request.params.id);
          await db.transaction(async (tx) => {
            const after = await updateUser(tx, row.user.id, { active });
            if (!active) await deleteUserSessions(tx, row.user.id);
            await recordActivity(
              tx,
              auditOf(request, access, {
                action: active ? 'user.activated' : 'user.deactivated',
                targetType: 'user',
                targetId: row.user.id,
                details: { before: userSnapshot(row.user), after: userSnapshot(after) },
              }),
            );
          });
          return reload(access, row.user.id);
        },
      );
    }

    app.delete(
      '/api/org/:orgId/user/:id',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Delete a user',
          description:
            'The row stays (the activity log still names them) but the user disappears from lists, cannot sign in, ' +
            'and their sessions end. Their e-mail address stays reserved. Not for oneself.',
          params: userParamsSchema,
          response: noContent,
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        assertNotSelf(access, request.params.id);
        const { row } = await manageableUser(db, access, request.params.id);
        await db.transaction(async (tx) => {
          const after = await updateUser(tx, row.user.id, { active: false, deletedAt: new Date() });
          await deleteUserSessions(tx, row.user.id);
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.deleted',
              targetType: 'user',
              targetId: row.user.id,
              details: { before: userSnapshot(row.user, row.email), after: userSnapshot(after, row.email) },
            }),
          );
        });
        return reply.status(204).send(null);
      },
    );

    app.put(
      '/api/org/:orgId/user/:id/role/:roleId',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: "Change a user's role",
          description:
            'The new role must be one the acting user may give: a live shared or custom role of this organisation ' +
            'holding nothing the acting user does not hold; provider roles only to provider staff, by provider ' +
            'staff (400 ROLE_INVALID, 403 ROLE_PERMISSION_NOT_HELD). Takes effect with the next request of the user.',
          params: userParamsSchema.extend({ roleId: z.uuid() }),
          response: { 200: userSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        assertNotSelf(access, request.params.id);
        const { row, viewer } = await manageableUser(db, access, request.params.id);
        const role = await assignableRole(db, access, viewer, request.params.roleId);
        await db.transaction(async (tx) => {
          await updateUser(tx, row.user.id, { roleId: role.id });
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.role_changed',
              targetType: 'user',
              targetId: row.user.id,
              details: {
                before: { roleId: row.user.roleId, roleName: row.roleName },
                after: { roleId: role.id, roleName: role.name },
              },
            }),
          );
        });
        return reload(access, row.user.id);
      },
    );

    app.put(
      '/api/org/:orgId/user/:id/job-descriptors',
      {
        config: { access: { permission: 'USER_EDIT', feature: 'jobDescriptors' } },
        schema: {
          tags,
          summary: "Set a user's job descriptors",
          description:
            "Replaces them; every id must be one of the organisation's (400 INVALID_JOB_DESCRIPTORS).",
          params: userParamsSchema,
          body: userJobDescriptorsSchema,
          response: { 200: userSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const row = await orgUserFor(db, access, await viewerOf(db, access), request.params.id);
        const ids = [...new Set(request.body.jobDescriptorIds)];
        await assertJobDescriptors(db, access.org.id, ids);
        await db.transaction(async (tx) => {
          await setUserJobDescriptors(tx, row.user.id, ids);
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.job_descriptors_changed',
              targetType: 'user',
              targetId: row.user.id,
              details: {
                before: { jobDescriptorIds: row.jobDescriptorIds },
                after: { jobDescriptorIds: ids },
              },
            }),
          );
        });
        return reload(access, row.user.id);
      },
    );

    /** Organisations the acting user may act in: the only ones they may see or grant. */
    const actorOrgs = (access: AccessContext) =>
      listUserOrgs(db, { id: access.user.id, homeOrgId: access.user.homeOrgId });

    const orgsOfUser = async (access: AccessContext, user: { id: string; homeOrgId: string }) => {
      const granted = new Set([...(await listGrantedOrgIds(db, user.id)), user.homeOrgId]);
      return (await actorOrgs(access))
        .filter((org) => granted.has(org.id))
        .map((org) => ({ id: org.id, name: org.name, isHome: org.id === user.homeOrgId }));
    };

    app.get(
      '/api/org/:orgId/user/:id/orgs',
      {
        config: { access: { permission: 'USER_VIEW' } },
        schema: {
          tags,
          summary: 'Organisations a user may act in',
          description:
            'Their home organisation and those they are authorised for, as far as the viewer may act in them.',
          params: userParamsSchema,
          response: { 200: z.array(userOrgEntrySchema) },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const row = await orgUserFor(db, access, await viewerOf(db, access), request.params.id);
        return orgsOfUser(access, row.user);
      },
    );

    app.put(
      '/api/org/:orgId/user/:id/authorized-orgs',
      {
        config: { access: { permission: 'USER_EDIT' } },
        schema: {
          tags,
          summary: 'Set the organisations a provider staff member is authorised for',
          description:
            'In the provider organisation, by provider staff, for its own people. Only organisations the acting ' +
            'user may act in can be granted or taken away (403 USER_ORGS_NOT_AUTHORISED names the others); grants ' +
            'of other organisations stay as they are.',
          params: userParamsSchema,
          body: userAuthorisedOrgsSchema,
          response: { 200: z.array(userOrgEntrySchema) },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { row, viewer } = await manageableUser(db, access, request.params.id);
        if (!access.org.isProvider || !viewer.providerStaff) {
          throw accessDenied('PERMISSION_DENIED', 'Authorised organisations are set by provider staff');
        }
        const scope = (await actorOrgs(access))
          .map((org) => org.id)
          .filter((id) => id !== row.user.homeOrgId);
        const wanted = [...new Set(request.body.orgIds)].filter((id) => id !== row.user.homeOrgId);
        const refused = wanted.filter((id) => !scope.includes(id));
        if (refused.length > 0) {
          throw new AppError(
            'AccessDeniedException',
            'USER_ORGS_NOT_AUTHORISED',
            'You are not authorised for some of these organisations',
            { field: 'orgIds', params: { count: refused.length, orgIds: refused.join(', ') } },
          );
        }
        const before = await listGrantedOrgIds(db, row.user.id);
        await db.transaction(async (tx) => {
          await replaceGrantedOrgs(tx, row.user.id, scope, wanted);
          await recordActivity(
            tx,
            auditOf(request, access, {
              action: 'user.authorised_orgs_changed',
              targetType: 'user',
              targetId: row.user.id,
              details: {
                before: { orgIds: before.sort() },
                after: { orgIds: await listGrantedOrgIds(tx, row.user.id).then((ids) => ids.sort()) },
              },
            }),
          );
        });
        return orgsOfUser(access, row.user);
      },
    );
  };
