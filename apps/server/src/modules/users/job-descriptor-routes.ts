import {
  jobDescriptorInputSchema,
  jobDescriptorListResponseSchema,
  jobDescriptorSchema,
} from '@vigil/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { conflict, notFound } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import {
  deleteJobDescriptor,
  findJobDescriptor,
  findJobDescriptorByName,
  insertJobDescriptor,
  listJobDescriptors,
  renameJobDescriptor,
} from './job-descriptors';

const tags = ['job descriptors'];
const params = orgParamsSchema.extend({ id: z.uuid() });
// Spec 2 section 2: the job descriptors page needs the feature and the TRAC_USER role.
const manage = { permission: 'TRAC_USER', feature: 'jobDescriptors' } as const;

async function assertNameFree(db: Db, orgId: string, name: string, exceptId?: string) {
  const holder = await findJobDescriptorByName(db, orgId, name);
  if (holder && holder !== exceptId) {
    throw conflict('JOB_DESCRIPTOR_NAME_TAKEN', 'A job descriptor with this name exists', { field: 'name' });
  }
}

export const jobDescriptorRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/job-descriptors',
      {
        // The users page lists them to assign them.
        config: { access: { permission: ['TRAC_USER', 'USER_VIEW'], feature: 'jobDescriptors' } },
        schema: {
          tags,
          summary: "The organisation's job descriptors",
          description: 'By name, each with the number of people holding it.',
          params: orgParamsSchema,
          response: { 200: jobDescriptorListResponseSchema },
        },
      },
      async (request) => {
        const items = await listJobDescriptors(db, accessOf(request).org.id);
        return { items, total: items.length };
      },
    );

    app.post(
      '/api/org/:orgId/job-descriptor',
      {
        config: { access: manage },
        schema: {
          tags,
          summary: 'Create a job descriptor',
          description: 'Names are unique in the organisation, ignoring case (409 JOB_DESCRIPTOR_NAME_TAKEN).',
          params: orgParamsSchema,
          body: jobDescriptorInputSchema,
          response: { 201: jobDescriptorSchema },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        await assertNameFree(db, access.org.id, request.body.name);
        const created = await db.transaction(async (tx) => {
          const row = await insertJobDescriptor(tx, access.org.id, request.body.name);
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'job_descriptor.created',
            targetType: 'job_descriptor',
            targetId: row.id,
            details: { after: { name: row.name } },
            ip: request.ip,
          });
          return row;
        });
        return reply.status(201).send({ id: created.id, name: created.name, userCount: 0 });
      },
    );

    app.put(
      '/api/org/:orgId/job-descriptor/:id',
      {
        config: { access: manage },
        schema: {
          tags,
          summary: 'Rename a job descriptor',
          description: 'Its holders keep it.',
          params,
          body: jobDescriptorInputSchema,
          response: { 200: jobDescriptorSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const before = await findJobDescriptor(db, access.org.id, request.params.id);
        if (!before) throw notFound('job descriptor');
        await assertNameFree(db, access.org.id, request.body.name, before.id);
        await db.transaction(async (tx) => {
          await renameJobDescriptor(tx, access.org.id, before.id, request.body.name);
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'job_descriptor.renamed',
            targetType: 'job_descriptor',
            targetId: before.id,
            details: { before: { name: before.name }, after: { name: request.body.name } },
            ip: request.ip,
          });
        });
        const items = await listJobDescriptors(db, access.org.id);
        return items.find((item) => item.id === before.id)!;
      },
    );

    app.delete(
      '/api/org/:orgId/job-descriptor/:id',
      {
        config: { access: manage },
        schema: {
          tags,
          summary: 'Delete a job descriptor',
          description: 'Its holders lose it.',
          params,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        const access = accessOf(request);
        const before = await findJobDescriptor(db, access.org.id, request.params.id);
        if (!before) throw notFound('job descriptor');
        await db.transaction(async (tx) => {
          await deleteJobDescriptor(tx, access.org.id, before.id);
          await recordActivity(tx, {
            orgId: access.org.id,
            actorUserId: access.user.id,
            action: 'job_descriptor.deleted',
            targetType: 'job_descriptor',
            targetId: before.id,
            details: { before: { name: before.name }, after: null },
            ip: request.ip,
          });
        });
        return reply.status(204).send(null);
      },
    );
  };
