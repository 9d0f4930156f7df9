import {
  activityLogListSchema,
  activityLogQuerySchema,
  tagInputSchema,
  tagListQuerySchema,
  tagListSchema,
  tagSchema,
  type Tag,
  type TagColor,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { findSqlState } from '../../platform/error-handler';
import { conflict, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { deleteTag, findTag, insertTag, listActivity, listTags, updateTag, type TagRow } from './repo';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const TAG_VIEW = { access: { permission: 'TAG_VIEW' as const } };
const TAG_EDIT = { access: { permission: 'TAG_EDIT' as const } };

const toJson = (tag: TagRow): Tag => ({
  id: tag.id,
  name: tag.name,
  // Written only through tagInputSchema, so always a catalogue colour.
  color: tag.color as TagColor,
  description: tag.description,
  createdAt: tag.createdAt.toISOString(),
  updatedAt: tag.updatedAt.toISOString(),
});

const snapshot = ({ name, color, description }: TagRow) => ({ name, color, description });

/** A name another tag of the organisation already has, ignoring case, breaks the unique index. */
async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (findSqlState(error) === '23505') {
      throw conflict('TAG_NAME_TAKEN', 'Another tag has this name', { field: 'name' });
    }
    throw error;
  }
}

/** Metadata (spec 3): the organisation's tags and its activity log. */
export const metadataRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/tags',
      {
        config: TAG_VIEW,
        schema: {
          tags: ['tags'],
          summary: 'Tags of the organisation',
          description:
            'Sorted by name (desc=true reverses); search matches name or description. Paged by pageSize and ' +
            'pageNumber.',
          params: orgParamsSchema,
          querystring: tagListQuerySchema,
          response: { 200: tagListSchema },
        },
      },
      async (request) => {
        const { search, desc, pageSize, pageNumber } = request.query;
        const { items, total } = await listTags(db, accessOf(request).org.id, {
          search,
          desc,
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(toJson), total };
      },
    );

    app.post(
      '/api/org/:orgId/tag',
      {
        config: TAG_EDIT,
        schema: {
          tags: ['tags'],
          summary: 'Create a tag',
          description:
            'The name is trimmed, 1 to 50 characters and unique in the organisation ignoring case (409 ' +
            'TAG_NAME_TAKEN); the colour is one of the listed Mantine colours.',
          params: orgParamsSchema,
          body: tagInputSchema,
          response: { 201: tagSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const tag = await uniqueName(() =>
          db.transaction(async (tx) => {
            const created = await insertTag(tx, access.org.id, request.body);
            await recordActivity(tx, {
              orgId: access.org.id,
              actorUserId: access.user.id,
              action: 'tag.created',
              targetType: 'tag',
              targetId: created.id,
              details: { after: snapshot(created) },
              ip: request.ip,
            });
            return created;
          }),
        );
        return reply.status(201).send(toJson(tag));
      },
    );

    app.get(
      '/api/org/:orgId/tag/:id',
      {
        config: TAG_VIEW,
        schema: {
          tags: ['tags'],
          summary: 'One tag',
          description: '404 for tags of other organisations.',
          params: idParams,
          response: { 200: tagSchema },
        },
      },
      async (request) => {
        const tag = await findTag(db, accessOf(request).org.id, request.params.id);
        if (!tag) throw notFound('tag');
        return toJson(tag);
      },
    );

    app.put(
      '/api/org/:orgId/tag/:id',
      {
        config: TAG_EDIT,
        schema: {
          tags: ['tags'],
          summary: 'Rename, recolour or describe a tag',
          description: 'Replaces every field, with the rules of creation.',
          params: idParams,
          body: tagInputSchema,
          response: { 200: tagSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { id } = request.params;
        const tag = await uniqueName(() =>
          db.transaction(async (tx) => {
            const before = await findTag(tx, access.org.id, id);
            if (!before) throw notFound('tag');
            const after = (await updateTag(tx, access.org.id, id, request.body))!;
            await recordActivity(tx, {
              orgId: access.org.id,
              actorUserId: access.user.id,
              action: 'tag.updated',
              targetType: 'tag',
              targetId: id,
              details: { before: snapshot(before), after: snapshot(after) },
              ip: request.ip,
            });
            return after;
          }),
        );
        return toJson(tag);
      },
    );

    app.delete(
      '/api/org/:orgId/tag/:id',
      {
        config: TAG_EDIT,
        schema: {
          tags: ['tags'],
          summary: 'Delete a tag',
          description: 'For good. 404 for tags of other organisations.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        await db.transaction(async (tx) => {
          const deleted = await deleteTag(tx, access.org.id, request.params.id);
          if (!deleted) throw notFound('tag');
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'tag.deleted',
            targetType: 'tag',
            targetId: deleted.id,
            details: { before: snapshot(deleted) },
            ip: request.ip,
          });
        });
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/activity-logs',
      {
        config: { access: { permission: 'ACTIVITY_LOG_VIEW' } },
        schema: {
          tags: ['activity-logs'],
          summary: "The organisation's activity log",
          description:
            'Newest first. Filters: actorUserId, action (a prefix such as "tag."), from and to (ISO times, ' +
            'inclusive), query (text in the action, target type or target id). Paged by pageSize and ' +
            'pageNumber. Changes carry before and after in details.',
          params: orgParamsSchema,
          querystring: activityLogQuerySchema,
          response: { 200: activityLogListSchema },
        },
      },
      async (request) => {
        const { actorUserId, action, from, to, query, pageSize, pageNumber } = request.query;
        const { items, total } = await listActivity(
          db,
          accessOf(request).org.id,
          {
            actorUserId,
            action,
            query,
            from: from ? new Date(from) : undefined,
            to: to ? new Date(to) : undefined,
          },
          { limit: pageSize, offset: (pageNumber - 1) * pageSize },
        );
        return {
          items: items.map(({ entry, actorName }) => ({
            id: entry.id,
            createdAt: entry.createdAt.toISOString(),
            action: entry.action,
            actorUserId: entry.actorUserId,
            actorName,
            targetType: entry.targetType,
            targetId: entry.targetId,
            details: entry.details,
            ip: entry.ip,
          })),
          total,
        };
      },
    );
  };
