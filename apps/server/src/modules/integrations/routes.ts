import {
  integrationCreateSchema,
  integrationListQuerySchema,
  integrationListSchema,
  integrationSchema,
  integrationUpdateSchema,
  s3LogObjectListSchema,
  s3LogSourceInputSchema,
  s3LogSourceListSchema,
  s3LogSourceSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import type { SecretBox } from '../../platform/crypto';
import { orgParamsSchema } from '../../platform/http';
import type { JobRunner } from '../../platform/jobs';
import { S3_POLL_JOB } from './collector';
import type { EntraEndpoints } from './entra';
import { findLogSource, listLogObjects } from './repo';
import {
  createIntegration,
  createLogSource,
  deleteIntegrationOf,
  deleteLogSourceOf,
  getIntegration,
  listIntegrationsOf,
  listLogSourcesOf,
  logObjectJson,
  logSourceNotFound,
  revalidateEntra,
  updateIntegrationOf,
  updateLogSourceOf,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'INTEGRATION_VIEW' as const } };
const EDIT = { access: { permission: 'INTEGRATION_EDIT' as const } };
const TAGS = ['integrations'];

const actorOf = (request: FastifyRequest): Actor => {
  const access = accessOf(request);
  return { orgId: access.org.id, userId: access.user.id, ip: request.ip };
};

const INPUT_NOTE =
  'Rules: name required, at most 128 characters, unique per kind (409 INTEGRATION_NAME_TAKEN); AWS account ' +
  'id a 12-digit number (400 INVALID_CLOUD_ACCOUNT) not used by another AWS integration (409 ' +
  'CLOUD_INTEGRATION_EXISTS); Azure subscription id a GUID (400 INVALID_GUID) and storage account 3 to 24 ' +
  'lower-case letters and digits (400 INVALID_STORAGE_ACCOUNT); Apiture URL well formed (400 INVALID_URI); ' +
  'Finxact and customer-relationship platform URLs valid base URLs (400 INVALID_BASE_URL); Entra ID ' +
  'application and secret ids GUIDs, and the credentials are checked by a client-credentials token ' +
  'request (400 ENTRA_LOGIN_VALIDATION_FAILED) and a Graph call (400 ENTRA_GRAPH_VALIDATION_FAILED) before ' +
  'anything is stored. Secrets are encrypted at rest and never answered; `secretsSet` says which are stored.';

/** Integrations (spec 2 sections 3, 5, 8 and 9) and the S3 log sources of AWS accounts. */
export const integrationRoutes =
  (deps: { db: Db; secrets: SecretBox; entra: EntraEndpoints; jobs: JobRunner }): FastifyPluginAsyncZod =>
  async (app) => {
    const { db } = deps;

    app.get(
      '/api/org/:orgId/integrations',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's integrations",
          description:
            'All of them or those of one `kind`, by kind and name, with their status: WAITING_FIRST_FILE (an ' +
            'AWS account without data in its first 10 minutes), NO_DATA, RECEIVING, STALE (last received over ' +
            '24 hours), ERROR or VALIDATED (Entra ID). Never carries a secret.',
          params: orgParamsSchema,
          querystring: integrationListQuerySchema,
          response: { 200: integrationListSchema },
        },
      },
      async (request) => {
        const items = await listIntegrationsOf(deps, accessOf(request).org.id, request.query.kind);
        return { items, total: items.length };
      },
    );

    app.post(
      '/api/org/:orgId/integrations',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create an integration',
          description: INPUT_NOTE,
          params: orgParamsSchema,
          body: integrationCreateSchema,
          response: { 201: integrationSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createIntegration(deps, actorOf(request), request.body)),
    );

    app.get(
      '/api/org/:orgId/integration/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'One integration',
          description: '404 INTEGRATION_NOT_FOUND for unknown ids and those of other organisations.',
          params: idParams,
          response: { 200: integrationSchema },
        },
      },
      async (request) => getIntegration(deps, accessOf(request).org.id, request.params.id),
    );

    app.put(
      '/api/org/:orgId/integration/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change an integration',
          description: `The same rules as creation; the kind cannot change. A secret left out or null keeps the stored one. ${INPUT_NOTE}`,
          params: idParams,
          body: integrationUpdateSchema,
          response: { 200: integrationSchema },
        },
      },
      async (request) => updateIntegrationOf(deps, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/integration/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an integration',
          description:
            'For good, with its secrets and, for an AWS account, its log sources. Events already collected stay.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteIntegrationOf(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/integration/:id/validate',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Validate an Entra ID integration again',
          description:
            'Runs the token request and the Graph call with the stored credentials. On failure answers 400 ' +
            'ENTRA_LOGIN_VALIDATION_FAILED or ENTRA_GRAPH_VALIDATION_FAILED and the status becomes ERROR.',
          params: idParams,
          response: { 200: integrationSchema },
        },
      },
      async (request) => revalidateEntra(deps, actorOf(request), request.params.id),
    );

    app.get(
      '/api/org/:orgId/integration/:id/log-sources',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "An AWS account's S3 log sources",
          description:
            'With progress (objects read, events ingested, failed objects, last poll) and status. 404 ' +
            'INTEGRATION_NOT_FOUND unless the id is an AWS account of this organisation.',
          params: idParams,
          response: { 200: s3LogSourceListSchema },
        },
      },
      async (request) => {
        const items = await listLogSourcesOf(db, accessOf(request).org.id, request.params.id);
        return { items, total: items.length };
      },
    );

    app.post(
      '/api/org/:orgId/integration/:id/log-sources',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add an S3 log source to an AWS account',
          description:
            'bucket (S3 naming rules), optional roleArn (a full role ARN, 400 INVALID_CLOUD_ROLE), optional key ' +
            'prefix and a logs type. A bucket is used by one log source of the organisation (409 ' +
            'S3_BUCKET_IN_USE). Enabled sources are polled every minute: the collector assumes roleArn with ' +
            "STS AssumeRole, ExternalId set to the organisation's id (the role's trust policy must require it), " +
            "and reads the bucket with the role's temporary credentials only. A source without a role, or whose " +
            'role is refused, is not read: lastErrorKey INTEGRATION_ROLE_NOT_ASSUMED and lastError say why.',
          params: idParams,
          body: s3LogSourceInputSchema,
          response: { 201: s3LogSourceSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLogSource(db, actorOf(request), request.params.id, request.body)),
    );

    app.put(
      '/api/org/:orgId/log-source/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change an S3 log source',
          description:
            'The same rules as adding one; clears the last error. Objects already read are not read again.',
          params: idParams,
          body: s3LogSourceInputSchema,
          response: { 200: s3LogSourceSchema },
        },
      },
      async (request) => updateLogSourceOf(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/log-source/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an S3 log source',
          description: 'With its record of objects read. 404 S3_LOG_SOURCE_NOT_FOUND.',
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await deleteLogSourceOf(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/log-source/:id/objects',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Objects a log source has read',
          description:
            'Newest first, each with its event count, rejected lines and the error when it could not be read; ' +
            '`failedOnly` keeps the failed ones. Paged by pageSize and pageNumber.',
          params: idParams,
          querystring: z.object({
            pageSize: z.coerce.number().int().min(1).max(100).default(25),
            pageNumber: z.coerce.number().int().min(1).default(1),
            failedOnly: z.stringbool().default(false),
          }),
          response: { 200: s3LogObjectListSchema },
        },
      },
      async (request) => {
        const orgId = accessOf(request).org.id;
        if (!(await findLogSource(db, orgId, request.params.id))) throw logSourceNotFound();
        const { pageSize, pageNumber, failedOnly } = request.query;
        const { items, total } = await listLogObjects(db, orgId, request.params.id, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
          failedOnly,
        });
        return { items: items.map(logObjectJson), total };
      },
    );

    app.post(
      '/api/org/:orgId/log-source/:id/poll',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Poll a log source now',
          description: 'Queues a poll of this source at once instead of waiting for the next minute (202).',
          params: idParams,
          response: { 202: z.object({ queued: z.boolean() }) },
        },
      },
      async (request, reply) => {
        const orgId = accessOf(request).org.id;
        if (!(await findLogSource(db, orgId, request.params.id))) throw logSourceNotFound();
        await deps.jobs.send(S3_POLL_JOB, { orgId, sourceId: request.params.id });
        return reply.status(202).send({ queued: true });
      },
    );
  };
