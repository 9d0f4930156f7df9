import {
  libraryBulkEditRequestSchema,
  libraryBulkEditResultSchema,
  libraryCopyRequestSchema,
  libraryCopyResultSchema,
  libraryResyncRequestSchema,
  libraryResyncResultSchema,
  libraryStatsSchema,
  libraryTriggerInputSchema,
  libraryTriggerSchema,
  triggerLibraryGroupInputSchema,
  triggerLibraryGroupSchema,
  triggerLibraryQuerySchema,
  triggerLibrarySchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  analyseResync,
  bulkEditCopies,
  copyLibraryTrigger,
  createLibraryGroup,
  createLibraryTrigger,
  libraryStats,
  readLibrary,
  readLibraryTrigger,
  removeLibraryGroup,
  removeLibraryTrigger,
  resyncCopies,
  updateLibraryGroupFields,
  updateLibraryTrigger,
} from './library';
import type { Actor } from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'TRIGGER_VIEW' as const } };
/** Provider staff; the service also checks TRIGGER_VIEW and the provider organisation. */
const STAFF = { access: { permission: 'TRAC_USER' as const } };
/** Provider staff with TRIGGER_EDIT (bulk edit across organisations). */
const STAFF_EDIT = { access: { permission: 'TRIGGER_EDIT' as const } };
/** Provider administrators; the service also checks TRIGGER_EDIT and the provider organisation. */
const ADMIN = { access: { permission: 'TRAC_ADMIN' as const } };
const TAGS = ['trigger-library'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const ADMIN_NOTE =
  'Provider administrators only: TRAC_ADMIN (403 PERMISSION_DENIED), provider staff working in the provider ' +
  'organisation (403 TRIGGER_LIBRARY_PROVIDER_ONLY), TRIGGER_EDIT, and for TRAC_ADMIN held without it 403 ' +
  'TRIGGER_LIBRARY_ADMIN_ONLY. Fraud-domain groups and triggers need the fraud product (403 PRODUCT_NOT_ENTITLED).';

const NOT_FOUND_NOTE =
  'A missing or deleted library trigger, or a trigger of an organisation, answers 404 TRIGGER_NOT_FOUND.';

const GROUP_NOTE =
  'The name is unique in the domain, any case (409 TRIGGER_LIBRARY_GROUP_NAME_TAKEN); the base query, ANDed ' +
  "with each of the group's triggers' queries, must parse (400 TRIGGER_LIBRARY_INVALID_BASE_QUERY with " +
  '`position`) or be empty.';

const TRIGGER_NOTE =
  'The rules of triggers apply (see POST /trigger), and the saved query and every sequence step must be library ' +
  'queries (400 TRIGGER_LIBRARY_QUERY_REQUIRED). The group must exist in the same domain (404 ' +
  'TRIGGER_LIBRARY_GROUP_NOT_FOUND). Library triggers carry no ticket owner, watchers or schedule: those are ' +
  "each organisation's. They never run themselves; their copies do.";

/** The trigger library (spec 3): groups with a base query, library triggers, copies, stats, resync, bulk edit. */
export const triggerLibraryRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/trigger-library',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'The trigger library of a domain',
          description:
            'Groups by name, each with its library triggers (not deleted) by name. Any organisation reads the ' +
            'library (TRIGGER_VIEW; fraud also the fraud product, 403 PRODUCT_NOT_ENTITLED); `copyHereId` is the ' +
            "current organisation's copy. `copyCount` counts the copies of every organisation in the provider " +
            'organisation, elsewhere only the own one.',
          params: orgParamsSchema,
          querystring: triggerLibraryQuerySchema,
          response: { 200: triggerLibrarySchema },
        },
      },
      async (request) => readLibrary(db, accessOf(request), request.query.domain),
    );

    app.get(
      '/api/org/:orgId/trigger-library/trigger/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A library trigger',
          description: NOT_FOUND_NOTE,
          params: idParams,
          response: { 200: libraryTriggerSchema },
        },
      },
      async (request) => readLibraryTrigger(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/trigger-library/group',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Create a library group',
          description: `${GROUP_NOTE} ${ADMIN_NOTE}`,
          params: orgParamsSchema,
          body: triggerLibraryGroupInputSchema,
          response: { 201: triggerLibraryGroupSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLibraryGroup(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/trigger-library/group/:id',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Change a library group',
          description:
            `${GROUP_NOTE} A group holding triggers keeps its domain (409 TRIGGER_LIBRARY_GROUP_DOMAIN_CHANGE). ` +
            'Copies take a changed base query when resynced (field `query`). 404 TRIGGER_LIBRARY_GROUP_NOT_FOUND. ' +
            ADMIN_NOTE,
          params: idParams,
          body: triggerLibraryGroupInputSchema,
          response: { 200: triggerLibraryGroupSchema },
        },
      },
      async (request) => updateLibraryGroupFields(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/trigger-library/group/:id',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Delete an empty library group',
          description:
            'Refused while the group holds library triggers that are not deleted (409 ' +
            `TRIGGER_LIBRARY_GROUP_NOT_EMPTY). 404 TRIGGER_LIBRARY_GROUP_NOT_FOUND. ${ADMIN_NOTE}`,
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeLibraryGroup(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/trigger-library/trigger',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Create a library trigger',
          description: `The trigger takes its group's domain. ${TRIGGER_NOTE} ${ADMIN_NOTE}`,
          params: orgParamsSchema,
          body: libraryTriggerInputSchema,
          response: { 201: libraryTriggerSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createLibraryTrigger(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/trigger-library/trigger/:id',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Change a library trigger',
          description:
            'In place; a change to the alert conditions raises `version`, and copies at an older version show as ' +
            `out of date until resynced. ${TRIGGER_NOTE} ${NOT_FOUND_NOTE} ${ADMIN_NOTE}`,
          params: idParams,
          body: libraryTriggerInputSchema,
          response: { 200: libraryTriggerSchema },
        },
      },
      async (request) => updateLibraryTrigger(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/trigger-library/trigger/:id',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Delete a library trigger',
          description:
            'Refused while copies are active in some organisations (409 TRIGGER_LIBRARY_ACTIVE_IN_SOME_ORGS with ' +
            `\`count\`); paused, disabled and deleted copies stay as they are. ${NOT_FOUND_NOTE} ${ADMIN_NOTE}`,
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeLibraryTrigger(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/trigger-library/trigger/:id/copy',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Copy a library trigger to organisations',
          description:
            'One copy per organisation, ACTIVE, first run one interval from now, with the group base query and ' +
            'the library version; `managedBy` OPS (default) keeps clients from changing it. Every named ' +
            'organisation must be one the user may act in (403 ORG_NOT_AUTHORISED, nothing copied). ' +
            'Organisations that hold a copy (in any state but archived) are skipped as ALREADY_COPIED, ' +
            'organisations without the fraud product for a fraud trigger as PRODUCT_NOT_ENTITLED. ' +
            `${NOT_FOUND_NOTE} ${ADMIN_NOTE}`,
          params: idParams,
          body: libraryCopyRequestSchema,
          response: { 200: libraryCopyResultSchema },
        },
      },
      async (request) => copyLibraryTrigger(db, actorOf(request), request.params.id, request.body),
    );

    app.get(
      '/api/org/:orgId/trigger-library/trigger/:id/stats',
      {
        config: STAFF,
        schema: {
          tags: TAGS,
          summary: 'Library statistics of a library trigger',
          description:
            'The copies in the organisations the user may act in (others are not shown), with state, version, ' +
            'the fields that differed at the last resync analysis and the alerts raised over the last 30 days; ' +
            'counts of active, paused and disabled copies. Provider staff (TRAC_USER) with TRIGGER_VIEW in the ' +
            `provider organisation (403 TRIGGER_LIBRARY_PROVIDER_ONLY). ${NOT_FOUND_NOTE}`,
          params: idParams,
          response: { 200: libraryStatsSchema },
        },
      },
      async (request) => libraryStats(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/trigger-library/trigger/:id/resync-analysis',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Calculate the resync information of the copies',
          description:
            'Compares every copy in the organisations the user works with the library trigger at its current ' +
            'version and stores the fields that differ; a resync needs it. Answers the statistics. ' +
            `${NOT_FOUND_NOTE} ${ADMIN_NOTE}`,
          params: idParams,
          response: { 200: libraryStatsSchema },
        },
      },
      async (request) => analyseResync(db, actorOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/trigger-library/trigger/:id/resync',
      {
        config: ADMIN,
        schema: {
          tags: TAGS,
          summary: 'Resync copies from their library trigger',
          description:
            'Copies the chosen `fields` to the named copies in one transaction (the copies keep their owner, ' +
            'watchers, schedule and state). Refused whole, in this order: no fields (400 ' +
            'TRIGGER_RESYNC_NO_FIELDS_SELECTED); the library trigger not active (409 TRIGGER_RESYNC_INACTIVE); ' +
            'ids that are not triggers of organisations the user may act in (404 TRIGGER_RESYNC_IDS_NOT_FOUND, ' +
            '`ids`); triggers not copied from this library trigger (409 TRIGGER_RESYNC_NOT_COPIED_FROM_LIBRARY); ' +
            'deleted or archived copies (409 TRIGGER_RESYNC_INACTIVE); no resync analysis run (409 ' +
            'TRIGGER_RESYNC_NO_ANALYSIS_RUN); an analysis older than the library version or a copy it did not ' +
            'cover (409 TRIGGER_RESYNC_INFO_NOT_CALCULATED); `intervalSeconds` of a dynamic threshold or ' +
            'temporal anomaly trigger (400 TRIGGER_RESYNC_INTERVAL_CANNOT_SYNC); condition fields (query, ' +
            'intervalSeconds, aggregation, matches) for copies of another type (409 ' +
            `TRIGGER_RESYNC_CONFIG_TYPE_DIFFERS). ${ADMIN_NOTE}`,
          params: idParams,
          body: libraryResyncRequestSchema,
          response: { 200: libraryResyncResultSchema },
        },
      },
      async (request) => resyncCopies(db, actorOf(request), request.params.id, request.body),
    );

    app.post(
      '/api/org/:orgId/trigger-library/trigger/:id/bulk-edit',
      {
        config: STAFF_EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change the copies of a library trigger in many organisations',
          description:
            'State (ACTIVE, PAUSED or DISABLED), severity, labels, notify only and managed by, at least one ' +
            '(400 TRIGGER_BULK_EDIT_NO_CHANGES). Organisations the user may not act in are left untouched and ' +
            'listed in `notAuthorisedOrgIds` with `key` TRIGGER_BULK_EDIT_NOT_AUTHORISED_SOME_ORGS; the others ' +
            'change in one transaction, and an organisation without a copy (TRIGGER_BULK_EDIT_NO_COPY) or whose ' +
            'copy cannot take the state (TRIGGER_INVALID_STATE_CHANGE) is listed in `failed` (`key` ' +
            'TRIGGER_BULK_EDIT_PARTIAL_FAILURE). Provider staff with TRIGGER_EDIT in the provider organisation ' +
            `(403 TRIGGER_LIBRARY_PROVIDER_ONLY). ${NOT_FOUND_NOTE}`,
          params: idParams,
          body: libraryBulkEditRequestSchema,
          response: { 200: libraryBulkEditResultSchema },
        },
      },
      async (request) => bulkEditCopies(db, actorOf(request), request.params.id, request.body),
    );
  };
