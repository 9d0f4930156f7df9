import fastifyMultipart from '@fastify/multipart';
import {
  WATCHLIST_MAX_ITEMS,
  WATCHLIST_UPLOAD_MAX_BYTES,
  WATCHLIST_VALUE_MAX_LENGTH,
  WATCHLIST_WARN_ITEMS,
  watchlistCreateSchema,
  watchlistItemsQuerySchema,
  watchlistItemsSchema,
  watchlistListQuerySchema,
  watchlistListSchema,
  watchlistSchema,
  watchlistUpdateSchema,
  watchlistUploadQuerySchema,
  watchlistUploadResultSchema,
  watchlistValuesSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, assertDomainEntitled } from '../../platform/access';
import { csvLine } from '../../platform/csv';
import { AppError } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import { listItems, listWatchlists } from './repo';
import {
  addWatchlistItems,
  createWatchlist,
  getWatchlist,
  removeWatchlist,
  removeWatchlistItems,
  replaceWatchlist,
  toJson,
  uploadWatchlistItems,
  watchlistExport,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'THREATMATCH_VIEW' as const } };
const EDIT = { access: { permission: 'THREATMATCH_EDIT' as const } };
const TAGS = ['watchlists'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const DOMAIN_NOTE =
  'Fraud watchlists need the CYBERFRAUD_STANDARD or CYBERFRAUD_PREMIUM product (403 PRODUCT_NOT_ENTITLED); ' +
  'watchlists of other organisations answer 404 WATCHLIST_NOT_FOUND.';
const ITEM_RULES =
  `Values are trimmed, blank ones dropped and repeats collapsed; each is at most ${WATCHLIST_VALUE_MAX_LENGTH} ` +
  `characters. A watchlist holds 1 to ${WATCHLIST_MAX_ITEMS} items (400 WATCHLIST_ITEMS_REQUIRED; 400 ` +
  'WATCHLIST_TOO_MANY_ITEMS with params.max and params.overflow, nothing written); answers carry `nearLimit` ' +
  `from ${WATCHLIST_WARN_ITEMS} items.`;
const WRITE_NOTE =
  'The name is unique in the organisation and domain, any case (409 WATCHLIST_NAME_TAKEN). The field is one ' +
  'field name of the query language, written bare (400 WATCHLIST_FIELD_INVALID). ' +
  DOMAIN_NOTE;
/** Item lists of up to the limit travel as JSON. */
const ITEMS_BODY_LIMIT = WATCHLIST_UPLOAD_MAX_BYTES;

const noFile = () =>
  new AppError('ValidatorException', 'WATCHLIST_UPLOAD_NO_FILE', 'Choose a file to upload');

function uploadRefusal(error: UploadRefusedError): AppError {
  const { refusal } = error;
  if (refusal.reason === 'fileTooLarge') {
    return new AppError(
      'PayloadTooLargeException',
      'WATCHLIST_UPLOAD_TOO_LARGE',
      `${refusal.filename} is larger than ${WATCHLIST_UPLOAD_MAX_BYTES} bytes`,
      { params: { 0: refusal.filename, maxBytes: WATCHLIST_UPLOAD_MAX_BYTES } },
    );
  }
  return noFile();
}

/** A file name safe in a header: the watchlist's name without anything but letters, digits, - and _. */
const exportName = (name: string) =>
  `${name.replace(/[^A-Za-z0-9_-]+/g, '_').slice(0, 100) || 'watchlist'}.csv`;

/** Watchlists (spec 2): a field and a list of values, in the security or the fraud domain. */
export const watchlistRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    // Multipart bodies are read by the upload route of this area only.
    await app.register(fastifyMultipart, {
      limits: { files: 1, fileSize: WATCHLIST_UPLOAD_MAX_BYTES, fields: 10, parts: 20 },
    });

    app.get(
      '/api/org/:orgId/watchlists',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's watchlists of a domain",
          description:
            '`domain` security (default) or fraud. By name, any case; `search` matches part of the name. ' +
            'Each carries `itemCount` and `nearLimit`. Paged by pageSize and pageNumber. ' +
            DOMAIN_NOTE,
          params: orgParamsSchema,
          querystring: watchlistListQuerySchema,
          response: { 200: watchlistListSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const { domain, search, pageSize, pageNumber } = request.query;
        assertDomainEntitled(access, domain);
        const { items, total } = await listWatchlists(db, access.org.id, domain, search, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(toJson), total };
      },
    );

    app.get(
      '/api/org/:orgId/watchlist/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A watchlist',
          description: DOMAIN_NOTE,
          params: idParams,
          response: { 200: watchlistSchema },
        },
      },
      async (request) => getWatchlist(db, accessOf(request), request.params.id),
    );

    app.post(
      '/api/org/:orgId/watchlist',
      {
        config: EDIT,
        bodyLimit: ITEMS_BODY_LIMIT,
        schema: {
          tags: TAGS,
          summary: 'Create a watchlist',
          description: `\`domain\` security (default) or fraud; \`items\` its values. ${ITEM_RULES} ${WRITE_NOTE}`,
          params: orgParamsSchema,
          body: watchlistCreateSchema,
          response: { 201: watchlistSchema },
        },
      },
      async (request, reply) => {
        const created = await createWatchlist(db, actorOf(request), request.body);
        return reply.status(201).send(created);
      },
    );

    app.put(
      '/api/org/:orgId/watchlist/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: "Change a watchlist's name, description and field",
          description: `The domain stays; items change through /items and /upload. ${WRITE_NOTE}`,
          params: idParams,
          body: watchlistUpdateSchema,
          response: { 200: watchlistSchema },
        },
      },
      async (request) => replaceWatchlist(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/watchlist/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a watchlist',
          description: `For good, with its items. ${DOMAIN_NOTE}`,
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeWatchlist(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );

    app.get(
      '/api/org/:orgId/watchlist/:id/items',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "A page of a watchlist's values",
          description: `In order; \`search\` matches part of a value, any case. ${DOMAIN_NOTE}`,
          params: idParams,
          querystring: watchlistItemsQuerySchema,
          response: { 200: watchlistItemsSchema },
        },
      },
      async (request) => {
        const { id } = request.params;
        await getWatchlist(db, accessOf(request), id);
        const { search, pageSize, pageNumber } = request.query;
        return listItems(db, id, search, { limit: pageSize, offset: (pageNumber - 1) * pageSize });
      },
    );

    app.post(
      '/api/org/:orgId/watchlist/:id/items',
      {
        config: EDIT,
        bodyLimit: ITEMS_BODY_LIMIT,
        schema: {
          tags: TAGS,
          summary: 'Add values to a watchlist',
          description: `Values already listed are skipped. ${ITEM_RULES} ${DOMAIN_NOTE}`,
          params: idParams,
          body: watchlistValuesSchema,
          response: { 200: watchlistSchema },
        },
      },
      async (request) => addWatchlistItems(db, actorOf(request), request.params.id, request.body.values),
    );

    app.delete(
      '/api/org/:orgId/watchlist/:id/items',
      {
        config: EDIT,
        bodyLimit: ITEMS_BODY_LIMIT,
        schema: {
          tags: TAGS,
          summary: 'Remove values from a watchlist',
          description:
            'Values not listed are ignored. The last value cannot be removed (400 WATCHLIST_ITEMS_REQUIRED); ' +
            `delete the watchlist instead. ${DOMAIN_NOTE}`,
          params: idParams,
          body: watchlistValuesSchema,
          response: { 200: watchlistSchema },
        },
      },
      async (request) => removeWatchlistItems(db, actorOf(request), request.params.id, request.body.values),
    );

    app.post(
      '/api/org/:orgId/watchlist/:id/upload',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Upload values from a file',
          description:
            `multipart/form-data with one file of at most ${WATCHLIST_UPLOAD_MAX_BYTES} bytes (400 ` +
            'WATCHLIST_UPLOAD_NO_FILE; 413 WATCHLIST_UPLOAD_TOO_LARGE with params.0 the file name). A .csv file ' +
            'gives the first cell of each record, after an optional header line `value` or the field name; any ' +
            'other file is plain text, one value a line. A file that cannot be read answers 400 ' +
            'WATCHLIST_UPLOAD_MALFORMED (params.0 the file name); a value over the length limit 400 ' +
            'WATCHLIST_UPLOAD_VALUE_TOO_LONG (params.0, params.line). `mode` append (default) adds the values, ' +
            `replace makes them the whole list; either is one transaction, refused whole over the limit. ${ITEM_RULES} ` +
            DOMAIN_NOTE,
          params: idParams,
          querystring: watchlistUploadQuerySchema,
          response: { 200: watchlistUploadResultSchema },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        await getWatchlist(db, actor.access, request.params.id);
        let upload: SpooledUpload;
        try {
          upload = await spoolUploadedFiles(request, 'vigil-watchlist-upload');
        } catch (error) {
          throw error instanceof UploadRefusedError ? uploadRefusal(error) : error;
        }
        try {
          const [file] = upload.files;
          if (!file) throw noFile();
          return await uploadWatchlistItems(db, actor, request.params.id, file, request.query.mode);
        } finally {
          await upload.remove();
        }
      },
    );

    app.get(
      '/api/org/:orgId/watchlist/:id/export',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "A watchlist's values as CSV",
          description:
            'text/csv (attachment), a header line `value` and one value a line, in order; cells starting with ' +
            `=, +, -, @ or a tab are prefixed with ' so spreadsheets read them as text. ${DOMAIN_NOTE}`,
          params: idParams,
        },
      },
      async (request, reply) => {
        const { name, values } = await watchlistExport(db, accessOf(request), request.params.id);
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', `attachment; filename="${exportName(name)}"`)
          .send(csvLine(['value']) + values.map((value) => csvLine([value])).join(''));
      },
    );
  };
