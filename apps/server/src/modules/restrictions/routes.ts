import {
  dataRestrictionInputSchema,
  dataRestrictionListQuerySchema,
  dataRestrictionListSchema,
  dataRestrictionSchema,
  restrictedUserListSchema,
  type DataRestriction,
} from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { conflict, notFound, validationFailed } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { listUserOrgs } from '../orgs/repo';
import {
  findRestriction,
  foreignUserIds,
  insertRestriction,
  listRestrictions,
  restrictedUsers,
  restrictionsForUser,
  setRestrictionDeletedAt,
  updateRestriction,
  type RestrictionDetail,
  type RestrictionValues,
} from './repo';

const tags = ['data-restrictions'];
const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'DATA_RESTRICTION_VIEW' as const } };
const EDIT = { access: { permission: 'DATA_RESTRICTION_EDIT' as const } };

const toJson = (restriction: RestrictionDetail): DataRestriction => ({
  id: restriction.id,
  name: restriction.name,
  includeQuery: restriction.includeQuery,
  excludeQuery: restriction.excludeQuery,
  users: restriction.users,
  orgs: restriction.orgs,
  createdAt: restriction.createdAt.toISOString(),
  updatedAt: restriction.updatedAt.toISOString(),
  deletedAt: restriction.deletedAt?.toISOString() ?? null,
});

/** What the activity log keeps of a restriction before and after a change. */
const snapshot = ({ name, includeQuery, excludeQuery, users, orgs }: RestrictionDetail) => ({
  name,
  includeQuery,
  excludeQuery,
  users,
  orgs,
});

type RestrictionBody = z.output<typeof dataRestrictionInputSchema>;

/** Checks every rule before anything is written; the first broken one refuses the whole request. */
async function validated(db: Db, access: AccessContext, body: RestrictionBody): Promise<RestrictionValues> {
  if (!body.includeQuery && !body.excludeQuery) {
    throw validationFailed('DATA_RESTRICTION_QUERY_REQUIRED', 'An include or an exclude query is required', {
      field: 'includeQuery',
    });
  }
  for (const field of ['includeQuery', 'excludeQuery'] as const) {
    const text = body[field];
    const result = text ? validateQuery(text) : { valid: true as const };
    if (!result.valid) {
      throw validationFailed('DATA_RESTRICTION_INVALID_QUERY', `Invalid query: ${result.message}`, {
        field,
        params: { field, message: result.message, position: result.position },
      });
    }
  }
  const orgId = access.org.id;
  const userIds = [...new Set(body.userIds)];
  const [foreignUser] = await foreignUserIds(db, orgId, userIds);
  if (foreignUser) {
    throw validationFailed('DATA_RESTRICTION_UNKNOWN_USER', 'Not a user of this organisation', {
      field: 'userIds',
      params: { id: foreignUser },
    });
  }
  const orgIds = [...new Set(body.orgIds)];
  const allowed = new Set([orgId, ...(await listUserOrgs(db, access.user)).map((org) => org.id)]);
  const foreignOrg = orgIds.find((id) => !allowed.has(id));
  if (foreignOrg) {
    throw validationFailed('DATA_RESTRICTION_UNKNOWN_ORG', 'Not an organisation you are authorised for', {
      field: 'orgIds',
      params: { id: foreignOrg },
    });
  }
  return {
    name: body.name,
    includeQuery: body.includeQuery,
    excludeQuery: body.excludeQuery,
    userIds,
    orgIds,
  };
}

/**
 * Data restrictions (spec 2 sections 3 to 5): which events the listed users, and every user of the
 * listed organisations, may see in this organisation. Stored here; event searches apply them through
 * `restrictionsForUser`.
 */
export const restrictionRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    const base = '/api/org/:orgId/data-restriction';

    app.get(
      '/api/org/:orgId/data-restrictions',
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'Data restrictions of the organisation',
          description:
            'Sorted by name; deleted ones only with includeDeleted=true. Paged by pageSize and pageNumber.',
          params: orgParamsSchema,
          querystring: dataRestrictionListQuerySchema,
          response: { 200: dataRestrictionListSchema },
        },
      },
      async (request) => {
        const { includeDeleted, pageSize, pageNumber } = request.query;
        const { items, total } = await listRestrictions(db, accessOf(request).org.id, {
          includeDeleted,
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(toJson), total };
      },
    );

    app.get(
      base,
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'The restrictions that apply to a user here',
          description:
            'The live restrictions that list the user (the caller unless userId is given) or their home ' +
            'organisation: what an event search in this organisation ANDs into its condition.',
          params: orgParamsSchema,
          querystring: z.object({ userId: z.uuid().optional() }),
          response: {
            200: z.object({
              items: z.array(
                dataRestrictionSchema.pick({ id: true, name: true, includeQuery: true, excludeQuery: true }),
              ),
              total: z.number(),
            }),
          },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const items = await restrictionsForUser(db, access.org.id, request.query.userId ?? access.user.id);
        return { items, total: items.length };
      },
    );

    app.post(
      base,
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Create a data restriction',
          description:
            'At least one of includeQuery and excludeQuery (400 DATA_RESTRICTION_QUERY_REQUIRED), each a valid ' +
            'query (400 DATA_RESTRICTION_INVALID_QUERY with the field and the parser message). Users must have ' +
            'this organisation as their home (DATA_RESTRICTION_UNKNOWN_USER); organisations must be this one ' +
            'or one the caller is authorised for (DATA_RESTRICTION_UNKNOWN_ORG).',
          params: orgParamsSchema,
          body: dataRestrictionInputSchema,
          response: { 201: dataRestrictionSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const created = await db.transaction(async (tx) => {
          const values = await validated(tx, access, request.body);
          const id = await insertRestriction(tx, access.org.id, values);
          const restriction = (await findRestriction(tx, access.org.id, id))!;
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'data_restriction.created',
            targetType: 'data_restriction',
            targetId: id,
            details: { after: snapshot(restriction) },
            ip: request.ip,
          });
          return restriction;
        });
        return reply.status(201).send(toJson(created));
      },
    );

    app.get(
      `${base}/:id`,
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'One data restriction',
          description: 'Deleted ones too (deletedAt set). 404 for restrictions of other organisations.',
          params: idParams,
          response: { 200: dataRestrictionSchema },
        },
      },
      async (request) => {
        const restriction = await findRestriction(db, accessOf(request).org.id, request.params.id);
        if (!restriction) throw notFound('data restriction');
        return toJson(restriction);
      },
    );

    app.put(
      `${base}/:id`,
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Change a data restriction',
          description:
            'Replaces every field and target, with the rules of creation. A deleted restriction must be ' +
            'restored first (409 DATA_RESTRICTION_DELETED).',
          params: idParams,
          body: dataRestrictionInputSchema,
          response: { 200: dataRestrictionSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { id } = request.params;
        const updated = await db.transaction(async (tx) => {
          const before = await findRestriction(tx, access.org.id, id);
          if (!before) throw notFound('data restriction');
          if (before.deletedAt) throw conflict('DATA_RESTRICTION_DELETED', 'Restore the restriction first');
          const values = await validated(tx, access, request.body);
          await updateRestriction(tx, access.org.id, id, values);
          const after = (await findRestriction(tx, access.org.id, id))!;
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'data_restriction.updated',
            targetType: 'data_restriction',
            targetId: id,
            details: { before: snapshot(before), after: snapshot(after) },
            ip: request.ip,
          });
          return after;
        });
        return toJson(updated);
      },
    );

    app.delete(
      `${base}/:id`,
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Delete a data restriction',
          description:
            'It stops applying at once and can be restored. Deleting a deleted one changes nothing.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const { id } = request.params;
        await db.transaction(async (tx) => {
          const before = await findRestriction(tx, access.org.id, id);
          if (!before) throw notFound('data restriction');
          if (before.deletedAt) return;
          await setRestrictionDeletedAt(tx, access.org.id, id, new Date());
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'data_restriction.deleted',
            targetType: 'data_restriction',
            targetId: id,
            details: { before: snapshot(before) },
            ip: request.ip,
          });
        });
        return reply.status(204).send(null);
      },
    );

    app.post(
      `${base}/:id/restore`,
      {
        config: EDIT,
        schema: {
          tags,
          summary: 'Restore a deleted data restriction',
          description:
            'It applies again with its former queries and targets. Restoring a live one changes nothing.',
          params: idParams,
          response: { 200: dataRestrictionSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { id } = request.params;
        const restored = await db.transaction(async (tx) => {
          const before = await findRestriction(tx, access.org.id, id);
          if (!before) throw notFound('data restriction');
          if (!before.deletedAt) return before;
          await setRestrictionDeletedAt(tx, access.org.id, id, null);
          const after = (await findRestriction(tx, access.org.id, id))!;
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'data_restriction.restored',
            targetType: 'data_restriction',
            targetId: id,
            details: { after: snapshot(after) },
            ip: request.ip,
          });
          return after;
        });
        return toJson(restored);
      },
    );

    app.get(
      `${base}/:id/users`,
      {
        config: VIEW,
        schema: {
          tags,
          summary: 'The users a data restriction applies to',
          description:
            'The listed users (via "user") and every user whose home is a listed organisation (via "org"), ' +
            'by name; deleted users are left out.',
          params: idParams,
          response: { 200: restrictedUserListSchema },
        },
      },
      async (request) => {
        const restriction = await findRestriction(db, accessOf(request).org.id, request.params.id);
        if (!restriction) throw notFound('data restriction');
        const items = await restrictedUsers(db, restriction.id);
        return { items, total: items.length };
      },
    );
  };
