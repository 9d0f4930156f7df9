import fastifyMultipart from '@fastify/multipart';
import {
  THREAT_INDICATOR_TYPES,
  THREAT_INDICATORS_PER_SOURCE_MAX,
  THREAT_RATING_LOOKUP_MAX,
  THREAT_RATINGS,
  THREAT_UPLOAD_MAX_FILE_BYTES,
  threatIndicatorInputSchema,
  threatIndicatorListQuerySchema,
  threatIndicatorListSchema,
  threatIndicatorSchema,
  threatRatingClearQuerySchema,
  threatRatingInputSchema,
  threatRatingLookupResultSchema,
  threatRatingLookupSchema,
  threatRatingSchema,
  threatSourceEnabledInputSchema,
  threatSourceInputSchema,
  threatSourceListQuerySchema,
  threatSourceListSchema,
  threatSourceSchema,
  threatSubscriptionInputSchema,
  threatUploadQuerySchema,
  threatUploadResultSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { AppError } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import { createIndicator, listIndicators, removeIndicator, replaceIndicator } from './indicators';
import { clearThreatRating, lookupThreatRatings, rateThreat } from './ratings';
import {
  createThreatSource,
  getThreatSource,
  listThreatSources,
  removeThreatSource,
  replaceThreatSource,
  setSubscription,
  setThreatSourceEnabled,
  type Actor,
} from './sources';
import { isIndicatorType, unsupportedType, uploadIndicators } from './upload';

const sourceParams = orgParamsSchema.extend({ id: z.uuid() });
const indicatorParams = sourceParams.extend({ indicatorId: z.uuid() });
const RATE_VIEW = { access: { permission: ['RATE_THREAT_VIEW' as const, 'RATE_THREAT_EDIT' as const] } };
const RATE_EDIT = { access: { permission: 'RATE_THREAT_EDIT' as const } };
const VIEW = { access: { permission: 'THREATMATCH_VIEW' as const } };
const EDIT = { access: { permission: 'THREATMATCH_EDIT' as const } };
const RATING_TAGS = ['threat-ratings'];
const TAGS = ['threat-match'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const SOURCE_NOTE =
  'Sources of the fraud domain need the fraud product (403 PRODUCT_NOT_ENTITLED). Sources of other ' +
  'organisations and missing ones answer 404 THREAT_SOURCE_NOT_FOUND.';
const EDIT_NOTE =
  `${SOURCE_NOTE} Provider sources (offered to every organisation) are changed only by provider staff ` +
  '(403 THREAT_SOURCE_PROVIDER_READ_ONLY).';
const SOURCE_WRITE_NOTE =
  `${EDIT_NOTE} The name is unique among the organisation's sources of the domain (or the provider's), ` +
  'any case (409 THREAT_SOURCE_NAME_TAKEN); url is an http or https URL; type one of the source types.';
const INDICATOR_WRITE_NOTE =
  `${EDIT_NOTE} The value must be of its type (400 THREAT_INDICATOR_INVALID_IP for an address or CIDR ` +
  'range, _DOMAIN, _URL, _HEX for 32, 40, 64 or 128 hex digits, _EMAIL); rating and severity from their ' +
  'lists (400 THREAT_INDICATOR_INVALID_RATING / _SEVERITY with validValues); an IP indicator needs ' +
  'validFrom and expiresAt, the start first (400 THREAT_INDICATOR_TIMES_REQUIRED). 409 ' +
  'THREAT_INDICATOR_DUPLICATE when the source holds the value; 409 THREAT_INDICATOR_LIMIT_EXCEEDED beyond ' +
  `${THREAT_INDICATORS_PER_SOURCE_MAX} indicators per source; 404 THREAT_INDICATOR_NOT_FOUND.`;

function uploadRefusal(error: UploadRefusedError): AppError {
  const { refusal } = error;
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'THREAT_UPLOAD_TOO_LARGE',
      `${refusal.filename} is larger than ${THREAT_UPLOAD_MAX_FILE_BYTES} bytes`,
      { params: { 0: refusal.filename, maxBytes: THREAT_UPLOAD_MAX_FILE_BYTES } },
    );
  }
  if (refusal.reason === 'tooManyFiles') {
    return new AppError('ValidatorException', 'THREAT_UPLOAD_TOO_MANY_FILES', 'Upload one file at a time');
  }
  return noFile();
}

const noFile = () =>
  new AppError('ValidatorException', 'THREAT_UPLOAD_NO_FILE', 'Choose a CSV file to upload');

/** Threat match (spec 2): threat ratings of hosts and signatures, threat sources and their indicators. */
export const threatRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    // Multipart bodies are read by the indicator upload of this area only; one file per upload.
    await app.register(fastifyMultipart, {
      limits: { files: 1, fileSize: THREAT_UPLOAD_MAX_FILE_BYTES, fields: 10, parts: 20 },
    });

    app.put(
      '/api/org/:orgId/threat-rating',
      {
        config: RATE_EDIT,
        schema: {
          tags: RATING_TAGS,
          summary: 'Rate a host or a signature',
          description:
            'A hex subject of 32 to 64 digits in whole bytes is a signature (MD5, SHA1, SHA256 or HEX by ' +
            'length), anything else a host. rating is one of ' +
            `${THREAT_RATINGS.join(', ')} (400 ERROR_RATING_THREAT_SIGNATURE or ERROR_RATING_THREAT_HOST ` +
            'with validValues otherwise). Harmless-and-exclude is HARMLESS with ignore: until a time, or ' +
            'forever when until is null; ignore with another rating answers 400 ' +
            'THREAT_RATING_IGNORE_NOT_HARMLESS. Replaces any earlier rating of the subject.',
          params: orgParamsSchema,
          body: threatRatingInputSchema,
          response: { 200: threatRatingSchema },
        },
      },
      async (request) => rateThreat(db, actorOf(request), request.body),
    );

    app.delete(
      '/api/org/:orgId/threat-rating',
      {
        config: RATE_EDIT,
        schema: {
          tags: RATING_TAGS,
          summary: 'Clear the rating of a host or a signature',
          description:
            'Removes the rating and any ignore. A subject that is not rated answers 404 ' +
            'ERROR_UNRATING_THREAT_SIGNATURE or ERROR_UNRATING_THREAT_HOST.',
          params: orgParamsSchema,
          querystring: threatRatingClearQuerySchema,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await clearThreatRating(db, actorOf(request), request.query.subject);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/threat-ratings/lookup',
      {
        config: RATE_VIEW,
        schema: {
          tags: RATING_TAGS,
          summary: 'The ratings of hosts and signatures',
          description:
            `1 to ${THREAT_RATING_LOOKUP_MAX} subjects, answered in the order asked; rating is null for ` +
            'subjects that are not rated. Web clients collect the subjects of 500 ms into one call.',
          params: orgParamsSchema,
          body: threatRatingLookupSchema,
          response: { 200: threatRatingLookupResultSchema },
        },
      },
      async (request) => ({
        items: await lookupThreatRatings(db, accessOf(request).org.id, request.body.subjects),
      }),
    );

    app.get(
      '/api/org/:orgId/threat-sources',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'Threat sources of a domain',
          description:
            "The provider's sources (with subscribed for this organisation) and the organisation's own " +
            '(always subscribed), subscribed first, then enabled, then by name. search matches part of the ' +
            `name. Paged by pageSize and pageNumber. ${SOURCE_NOTE}`,
          params: orgParamsSchema,
          querystring: threatSourceListQuerySchema,
          response: { 200: threatSourceListSchema },
        },
      },
      async (request) => listThreatSources(db, accessOf(request), request.query),
    );

    app.get(
      '/api/org/:orgId/threat-source/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A threat source',
          description: SOURCE_NOTE,
          params: sourceParams,
          response: { 200: threatSourceSchema },
        },
      },
      async (request) => getThreatSource(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/threat-source',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add a threat source',
          description: `${SOURCE_WRITE_NOTE} provider: true makes a provider source (provider staff only).`,
          params: orgParamsSchema,
          body: threatSourceInputSchema,
          response: { 201: threatSourceSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createThreatSource(db, actorOf(request), request.body)),
    );

    app.put(
      '/api/org/:orgId/threat-source/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a threat source',
          description: `${SOURCE_WRITE_NOTE} The domain and the provider flag stay as they were.`,
          params: sourceParams,
          body: threatSourceInputSchema,
          response: { 200: threatSourceSchema },
        },
      },
      async (request) => replaceThreatSource(db, actorOf(request), request.params.id, request.body),
    );

    app.put(
      '/api/org/:orgId/threat-source/:id/enabled',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Enable or disable a threat source',
          description: `Disabled sources match no events. ${EDIT_NOTE}`,
          params: sourceParams,
          body: threatSourceEnabledInputSchema,
          response: { 200: threatSourceSchema },
        },
      },
      async (request) =>
        setThreatSourceEnabled(db, actorOf(request), request.params.id, request.body.enabled),
    );

    app.put(
      '/api/org/:orgId/threat-source/:id/subscription',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Subscribe to a provider threat source or end it',
          description:
            'Events are matched against the provider sources the organisation subscribes to. Own sources ' +
            `are always used (409 THREAT_SOURCE_NOT_PROVIDER). ${SOURCE_NOTE}`,
          params: sourceParams,
          body: threatSubscriptionInputSchema,
          response: { 200: threatSourceSchema },
        },
      },
      async (request) => setSubscription(db, actorOf(request), request.params.id, request.body.subscribed),
    );

    app.delete(
      '/api/org/:orgId/threat-source/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a threat source',
          description: `For good, with its indicators. ${EDIT_NOTE}`,
          params: sourceParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeThreatSource(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/threat-source/:id/indicators',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "A threat source's indicators",
          description:
            'By type and value. type filters; search matches part of the value or the reason. Paged by ' +
            `pageSize and pageNumber. ${SOURCE_NOTE}`,
          params: sourceParams,
          querystring: threatIndicatorListQuerySchema,
          response: { 200: threatIndicatorListSchema },
        },
      },
      async (request) => listIndicators(db, accessOf(request), request.params.id, request.query),
    );

    app.post(
      '/api/org/:orgId/threat-source/:id/indicator',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Add an indicator',
          description: INDICATOR_WRITE_NOTE,
          params: sourceParams,
          body: threatIndicatorInputSchema,
          response: { 201: threatIndicatorSchema },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await createIndicator(db, actorOf(request), request.params.id, request.body)),
    );

    app.put(
      '/api/org/:orgId/threat-source/:id/indicator/:indicatorId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change an indicator',
          description: INDICATOR_WRITE_NOTE,
          params: indicatorParams,
          body: threatIndicatorInputSchema,
          response: { 200: threatIndicatorSchema },
        },
      },
      async (request) =>
        replaceIndicator(db, actorOf(request), request.params.id, request.params.indicatorId, request.body),
    );

    app.delete(
      '/api/org/:orgId/threat-source/:id/indicator/:indicatorId',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete an indicator',
          description: `For good. 404 THREAT_INDICATOR_NOT_FOUND. ${EDIT_NOTE}`,
          params: indicatorParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeIndicator(db, actorOf(request), request.params.id, request.params.indicatorId);
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/threat-source/:id/indicators/upload',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Upload indicators of one type from a CSV file',
          description:
            `multipart/form-data with one CSV file (UTF-8, comma separated) of at most ${THREAT_UPLOAD_MAX_FILE_BYTES} ` +
            `bytes (400 THREAT_UPLOAD_NO_FILE; 400 THREAT_UPLOAD_TOO_MANY_FILES; 413 THREAT_UPLOAD_TOO_LARGE). type (query) is the one indicator ` +
            `type of the file, one of ${THREAT_INDICATOR_TYPES.join(', ')} (400 THREAT_UPLOAD_UNSUPPORTED_TYPE ` +
            'with validValues). The header line names the columns value, rating (both required; 400 ' +
            'THREAT_UPLOAD_MISSING_COLUMNS), severity, reason, validFrom and expires; an unreadable file ' +
            'answers 400 THREAT_UPLOAD_MALFORMED. Every line is checked as a single indicator is, and values ' +
            'repeated in the file or held by the source are duplicates: when any line is wrong nothing is ' +
            'stored and the answer lists the first 100 line errors (line, field, key, value); otherwise all ' +
            'are stored in one transaction, unless the source would pass its limit (409 ' +
            `THREAT_INDICATOR_LIMIT_EXCEEDED). ${EDIT_NOTE}`,
          params: sourceParams,
          querystring: threatUploadQuerySchema,
          response: { 200: threatUploadResultSchema },
        },
      },
      async (request) => {
        const { type } = request.query;
        if (!isIndicatorType(type)) throw unsupportedType(type);
        let upload: SpooledUpload;
        try {
          upload = await spoolUploadedFiles(request, 'vigil-threat-upload');
        } catch (error) {
          throw error instanceof UploadRefusedError ? uploadRefusal(error) : error;
        }
        try {
          const [file] = upload.files;
          if (!file) throw noFile();
          return await uploadIndicators(db, actorOf(request), request.params.id, type, file);
        } finally {
          await upload.remove();
        }
      },
    );
  };
