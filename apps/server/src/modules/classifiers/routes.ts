import {
  classifierInputSchema,
  classifierListQuerySchema,
  classifierListSchema,
  classifierOrderSchema,
  classifierPausedSchema,
  classifierSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type RouteAccess } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  createClassifier,
  getClassifier,
  listClassifierPage,
  removeClassifier,
  reorder,
  replaceClassifier,
  setClassifierPaused,
  type Actor,
  type ClassifierScope,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const TAGS = ['classifiers'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const RULES =
  'The name is unique in the list, any case (409 CLASSIFIER_NAME_TAKEN); the query must parse and may not be ' +
  'made only of wildcards (400 CLASSIFIER_INVALID_QUERY with `position`, at most 2048 characters). Metadata: ' +
  'at most 50 attributes (400 CLASSIFIER_TOO_MANY_METADATA), keys of letters, numbers and underscores up to ' +
  '200 characters (400 CLASSIFIER_INVALID_METADATA_KEY) that are not event columns such as host or src_ip ' +
  '(400 CLASSIFIER_METADATA_KEY_RESERVED), values up to 1000 characters (400 ' +
  'CLASSIFIER_METADATA_VALUE_TOO_LONG). At most 500 classifiers per list (409 CLASSIFIER_LIMIT_REACHED).';

interface ScopeSpec {
  scope: ClassifierScope;
  base: string;
  read: RouteAccess;
  write: RouteAccess;
  what: string;
  note: string;
}

const SCOPES: ScopeSpec[] = [
  {
    scope: 'org',
    base: '/api/org/:orgId/classifiers',
    read: { permission: 'CLASSIFIER_VIEW' },
    write: { permission: 'CLASSIFIER_EDIT' },
    what: "the organisation's classifier",
    note:
      'Applied at ingest after the library, in order. Accelerated archive needs the ' +
      'ACCELERATED_ARCHIVE_DATA_TIER product (400 CLASSIFIER_ACCELERATED_ARCHIVE_NOT_ENTITLED). Classifiers ' +
      'of other organisations answer 404 CLASSIFIER_NOT_FOUND.',
  },
  {
    scope: 'library',
    base: '/api/org/:orgId/classifiers/library',
    read: { permission: 'TRAC_ENGINEER', feature: 'classifierLibrary' },
    write: { permission: 'TRAC_ENGINEER', feature: 'classifierLibrary' },
    what: 'a library classifier',
    note:
      'Library classifiers apply to every organisation before its own; accelerated archive takes effect only ' +
      'where the organisation holds its data tier. Needs TRAC_ENGINEER, the classifierLibrary feature and ' +
      'CLASSIFIER_VIEW (403 PERMISSION_DENIED); changes need CLASSIFIER_EDIT by provider staff (403 ' +
      'CLASSIFIER_LIBRARY_READ_ONLY; pausing 403 CLASSIFIER_LIBRARY_PAUSE_DENIED).',
  },
];

/** Classifiers (spec 3): the organisation's own and the provider's library, with the same rules. */
export const classifierRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    for (const { scope, base, read, write, what, note } of SCOPES) {
      app.get(
        base,
        {
          config: { access: read },
          schema: {
            tags: TAGS,
            summary: scope === 'org' ? "The organisation's classifiers" : 'The classifier library',
            description: `In the order they apply. \`search\` matches part of the name, any case. Paged by pageSize and pageNumber. ${note}`,
            params: orgParamsSchema,
            querystring: classifierListQuerySchema,
            response: { 200: classifierListSchema },
          },
        },
        async (request) => listClassifierPage(db, accessOf(request), scope, request.query),
      );

      app.get(
        `${base}/:id`,
        {
          config: { access: read },
          schema: {
            tags: TAGS,
            summary: `One of ${what}s`,
            description: `404 CLASSIFIER_NOT_FOUND when missing. ${note}`,
            params: idParams,
            response: { 200: classifierSchema },
          },
        },
        async (request) => getClassifier(db, accessOf(request), scope, request.params.id),
      );

      app.post(
        base,
        {
          config: { access: write },
          schema: {
            tags: TAGS,
            summary: `Add ${what}`,
            description: `Added last in the order. ${RULES} ${note}`,
            params: orgParamsSchema,
            body: classifierInputSchema,
            response: { 201: classifierSchema },
          },
        },
        async (request, reply) =>
          reply.status(201).send(await createClassifier(db, actorOf(request), scope, request.body)),
      );

      app.put(
        `${base}/:id`,
        {
          config: { access: write },
          schema: {
            tags: TAGS,
            summary: `Change ${what}`,
            description: `${RULES} ${note}`,
            params: idParams,
            body: classifierInputSchema,
            response: { 200: classifierSchema },
          },
        },
        async (request) => replaceClassifier(db, actorOf(request), scope, request.params.id, request.body),
      );

      app.put(
        `${base}/:id/paused`,
        {
          config: { access: write },
          schema: {
            tags: TAGS,
            summary: `Pause or resume ${what}`,
            description: `A paused classifier is skipped at ingest. ${note}`,
            params: idParams,
            body: classifierPausedSchema,
            response: { 200: classifierSchema },
          },
        },
        async (request) =>
          setClassifierPaused(db, actorOf(request), scope, request.params.id, request.body.paused),
      );

      app.delete(
        `${base}/:id`,
        {
          config: { access: write },
          schema: {
            tags: TAGS,
            summary: `Delete ${what}`,
            description: `For good. ${note}`,
            params: idParams,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          await removeClassifier(db, actorOf(request), scope, request.params.id);
          return reply.status(204).send(null);
        },
      );

      app.put(
        `${base}/order`,
        {
          config: { access: write },
          schema: {
            tags: TAGS,
            summary: scope === 'org' ? 'Reorder the organisation’s classifiers' : 'Reorder the library',
            description:
              'The ids of every classifier of the list, each once, first applied first (400 ' +
              `CLASSIFIER_ORDER_MISMATCH otherwise). ${note}`,
            params: orgParamsSchema,
            body: classifierOrderSchema,
            response: { 204: z.null() },
          },
        },
        async (request, reply) => {
          await reorder(db, actorOf(request), scope, request.body.ids);
          return reply.status(204).send(null);
        },
      );
    }
  };
