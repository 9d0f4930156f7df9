import { createReadStream } from 'node:fs';
import path from 'node:path';
import fastifyMultipart from '@fastify/multipart';
import {
  ASSET_UPLOAD_MAX_FILE_BYTES,
  ASSET_UPLOAD_MAX_FILES,
  SUGGESTED_ASSET_LABELS,
  assetConfigSchema,
  assetDeleteQuerySchema,
  assetDeleteSearchResponseSchema,
  assetInputSchema,
  assetLabelsResponseSchema,
  assetListResponseSchema,
  assetLookupResponseSchema,
  assetMergeSchema,
  assetSchema,
  assetSearchSchema,
  assetSoftwareSchema,
  assetTagQueryResponseSchema,
  assetTagQuerySchema,
  assetUploadCheckQuerySchema,
  assetUploadCheckResponseSchema,
  assetUploadQuerySchema,
  assetUploadResultSchema,
  assetsDownResponseSchema,
  hostnameLookupQuerySchema,
  ipLookupQuerySchema,
  macLookupQuerySchema,
  softwareNamesResponseSchema,
  type AssetSearchParsed,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { AppError } from '../../platform/errors';
import { orgParamsSchema } from '../../platform/http';
import { spoolUploadedFiles, UploadRefusedError, type SpooledUpload } from '../../platform/uploads';
import { exportAssetsCsv } from './export';
import {
  getAssetConfig,
  listAssetSoftware,
  listLabelsInUse,
  listSoftwareNames,
  searchAssets,
  type AssetFilter,
} from './repo';
import {
  ASSET_TAG_QUERY_MAX_ASSETS,
  assetTagQuery,
  createAsset,
  deleteAsset,
  deleteAssetSearch,
  listDownAssetsFor,
  loadAsset,
  lookupAssetsByHostname,
  lookupAssetsByIp,
  lookupAssetsByMac,
  mergeAssets,
  setAssetConfig,
  updateAsset,
  withPairs,
  type Actor,
} from './service';
import { uploadAssets, writeUploadErrorsCsv } from './upload';

const tags = ['assets'];
const ASSET_VIEW = { access: { permission: 'ASSET_VIEW' as const } };
const ASSET_EDIT = { access: { permission: 'ASSET_EDIT' as const } };
const idParams = orgParamsSchema.extend({ id: z.uuid() });

const SEARCH_FILTERS =
  '`query` is free text: every word must appear in the name, tag, owner, description, labels, hostnames, IPs ' +
  'or MACs (ignoring case; addresses in any notation). `label` keeps assets carrying that label; ' +
  '`softwareNames` (repeatable) assets with any of that software; `tracked` is both (default), tracked or ' +
  'untracked; `active` true (default) lists active assets, false deleted ones; `importance` all (default), ' +
  'high, medium, low or none; `lastSeenBefore` and `lastSeenAfter` (ISO times, inclusive) compare the ' +
  'last-seen time, or the creation time of an asset never seen.';

/** The filters of a search; paging and sorting are the caller's. */
export const assetFilterOf = (search: AssetSearchParsed): AssetFilter => ({
  query: search.query || undefined,
  label: search.label || undefined,
  softwareNames: search.softwareNames,
  tracked: search.tracked,
  active: search.active,
  importance: search.importance,
  lastSeenBefore: search.lastSeenBefore ? new Date(search.lastSeenBefore) : undefined,
  lastSeenAfter: search.lastSeenAfter ? new Date(search.lastSeenAfter) : undefined,
});

const actorOf = (request: FastifyRequest): Actor => ({ userId: accessOf(request).user.id, ip: request.ip });

function uploadRefusal(error: UploadRefusedError): AppError {
  const { refusal } = error;
  switch (refusal.reason) {
    case 'tooManyFiles':
      return new AppError(
        'ValidatorException',
        'ASSET_UPLOAD_TOO_MANY_FILES',
        `An upload holds at most ${ASSET_UPLOAD_MAX_FILES} files`,
        { params: { max: ASSET_UPLOAD_MAX_FILES } },
      );
    case 'fileTooLarge':
      return new AppError(
        'PayloadTooLargeException',
        'ASSET_UPLOAD_FILE_TOO_LARGE',
        `${refusal.filename} is larger than ${ASSET_UPLOAD_MAX_FILE_BYTES} bytes`,
        { params: { 0: refusal.filename, maxBytes: ASSET_UPLOAD_MAX_FILE_BYTES } },
      );
    case 'notMultipart':
      return noFiles();
  }
}

const noFiles = () =>
  new AppError('ValidatorException', 'ASSET_UPLOAD_NO_FILES', 'Choose at least one CSV file to upload');

/** Assets (spec 2): the inventory, its search, export, lookups, merge, settings and CSV upload. */
export const assetRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    // Multipart bodies are read by the upload route of this area only.
    await app.register(fastifyMultipart, {
      limits: {
        files: ASSET_UPLOAD_MAX_FILES,
        fileSize: ASSET_UPLOAD_MAX_FILE_BYTES,
        fields: 20,
        parts: 100,
      },
    });

    app.get(
      '/api/org/:orgId/assets/search',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Search the assets',
          description:
            `${SEARCH_FILTERS} Sorted by \`sortBy\` (name by default; blank tags, owners and times last in ` +
            'either direction) and `desc`, ties by name, then id; paged by `pageSize` and zero-based `pageId`.',
          params: orgParamsSchema,
          querystring: assetSearchSchema,
          response: { 200: assetListResponseSchema },
        },
      },
      async (request) => {
        const orgId = accessOf(request).org.id;
        const { sortBy, desc, pageSize, pageId } = request.query;
        const { items, total } = await searchAssets(
          db,
          orgId,
          assetFilterOf(request.query),
          { sortBy, desc },
          {
            limit: pageSize,
            offset: pageId * pageSize,
          },
        );
        return { items: await withPairs(db, orgId, items), total };
      },
    );

    app.delete(
      '/api/org/:orgId/assets/search',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Delete every asset the search finds',
          description:
            `The filters of GET /assets/search, in the query string (paging and sorting are ignored). ${SEARCH_FILTERS} ` +
            'Every active match is deleted in one transaction: it stays listable under active=false, and its ' +
            'addresses move to the address history and are free for other assets. Answers how many were deleted.',
          params: orgParamsSchema,
          querystring: assetSearchSchema,
          response: { 200: assetDeleteSearchResponseSchema },
        },
      },
      async (request) => {
        const access = accessOf(request);
        const deleted = await deleteAssetSearch(
          db,
          access.org.id,
          assetFilterOf(request.query),
          actorOf(request),
        );
        return { deleted };
      },
    );

    app.post(
      '/api/org/:orgId/assets/search',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Export the search as CSV',
          description:
            `The filters and order of GET /assets/search as a JSON body (paging is ignored). ${SEARCH_FILTERS} ` +
            'Streams text/csv (attachment assets.csv) with the columns id, name, tag, owner, importance, ' +
            'description, labels, hostnames, ips, macs, tracked, active, lastSeen, dataLastSent, createdOn, ' +
            "modifiedOn. Lists are separated by '; '; the n-th IP and MAC form a pair. Cells starting with =, +, -, " +
            "@ or a tab are prefixed with ' so spreadsheets read them as text.",
          params: orgParamsSchema,
          body: assetSearchSchema,
        },
      },
      async (request, reply) => {
        const { sortBy, desc } = request.body;
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', 'attachment; filename="assets.csv"')
          .send(exportAssetsCsv(db, accessOf(request).org.id, assetFilterOf(request.body), { sortBy, desc }));
      },
    );

    app.delete(
      '/api/org/:orgId/assets',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Delete one asset',
          description:
            'Soft delete: the asset stays listable under active=false and its addresses are freed (kept in the ' +
            'address history for lookups at past times). 404 ASSET_NOT_FOUND for an unknown id or one of ' +
            'another organisation; 409 ASSET_DELETED when it is already deleted.',
          params: orgParamsSchema,
          querystring: assetDeleteQuerySchema,
          response: { 204: z.null().describe('Deleted') },
        },
      },
      async (request, reply) => {
        await deleteAsset(db, accessOf(request).org.id, request.query.assetId, actorOf(request));
        return reply.status(204).send(null);
      },
    );

    app.post(
      '/api/org/:orgId/asset',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Create an asset',
          description:
            'A tracked asset. name and importance are required; labels are trimmed, and empty or repeated ones ' +
            'dropped. Every IP/MAC pair needs an IP or a MAC (ipOrMacRequired), valid if given (badIp, badMac); ' +
            'these answer 400 GENERIC_INVALID_FIELD_VALUE with `field` ipMacPairs.<n>.ip or .mac and the code as ' +
            'message. An address given twice answers the same naming the repeat. An IP or MAC another active ' +
            'asset holds answers 409 ASSET_IP_OR_MAC_IN_USE with that field and params.value. IPv6 addresses ' +
            'are stored in RFC 5952 form and MACs as lower-case colon-separated pairs, so every notation of an ' +
            'address is one address.',
          params: orgParamsSchema,
          body: assetInputSchema,
          response: { 201: assetSchema },
        },
      },
      async (request, reply) => {
        const asset = await createAsset(db, accessOf(request).org.id, request.body, actorOf(request));
        return reply.status(201).send(asset);
      },
    );

    app.get(
      '/api/org/:orgId/asset/:id',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'One asset',
          description: 'Deleted assets too (active=false). 404 ASSET_NOT_FOUND for others.',
          params: idParams,
          response: { 200: assetSchema },
        },
      },
      async (request) => loadAsset(db, accessOf(request).org.id, request.params.id),
    );

    app.put(
      '/api/org/:orgId/asset/:id',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Change an asset',
          description:
            'Replaces every field and the IP/MAC pairs, with the rules of creation. Saving an untracked asset ' +
            'makes it tracked. Pairs taken off move to the address history (held from their first sighting ' +
            'until now). 404 ASSET_NOT_FOUND; 409 ASSET_DELETED for a deleted asset.',
          params: idParams,
          body: assetInputSchema,
          response: { 200: assetSchema },
        },
      },
      async (request) =>
        updateAsset(db, accessOf(request).org.id, request.params.id, request.body, actorOf(request)),
    );

    app.get(
      '/api/org/:orgId/asset/:id/software',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Software seen on an asset',
          description: 'Sorted by name, then version. 404 ASSET_NOT_FOUND for unknown assets.',
          params: idParams,
          response: { 200: z.object({ items: z.array(assetSoftwareSchema) }) },
        },
      },
      async (request) => {
        const orgId = accessOf(request).org.id;
        await loadAsset(db, orgId, request.params.id);
        const rows = await listAssetSoftware(db, orgId, request.params.id);
        return {
          items: rows.map((row) => ({ ...row, lastSeen: row.lastSeen?.toISOString() ?? null })),
        };
      },
    );

    app.get(
      '/api/org/:orgId/labels',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Asset labels',
          description: 'Labels on active assets, each once, sorted; and the suggested default labels.',
          params: orgParamsSchema,
          response: { 200: assetLabelsResponseSchema },
        },
      },
      async (request) => ({
        labels: (await listLabelsInUse(db, accessOf(request).org.id)).sort(byText),
        suggested: [...SUGGESTED_ASSET_LABELS],
      }),
    );

    app.get(
      '/api/org/:orgId/software',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Software names',
          description:
            'Names of software seen on active assets, each once, sorted (for the software filter).',
          params: orgParamsSchema,
          response: { 200: softwareNamesResponseSchema },
        },
      },
      async (request) => ({ names: (await listSoftwareNames(db, accessOf(request).org.id)).sort(byText) }),
    );

    app.get(
      '/api/org/:orgId/config',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Asset settings',
          description:
            'downNoticeEnabled: show the notice for high-importance assets without data for five minutes; ' +
            'discoverUntracked: create untracked assets for hosts first seen in events. Both on by default.',
          params: orgParamsSchema,
          response: { 200: assetConfigSchema },
        },
      },
      async (request) => getAssetConfig(db, accessOf(request).org.id),
    );

    app.post(
      '/api/org/:orgId/config',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Change the asset settings',
          description: 'Replaces both settings; recorded in the activity log.',
          params: orgParamsSchema,
          body: assetConfigSchema,
          response: { 200: assetConfigSchema },
        },
      },
      async (request) => setAssetConfig(db, accessOf(request).org.id, request.body, actorOf(request)),
    );

    app.get(
      '/api/org/:orgId/asset-tag-query',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'An event query for the assets of a label',
          description:
            'A query of the event query language matching the hostnames and IPs of the active assets carrying ' +
            '`label`, e.g. `host:("teller-01" OR "teller-02") OR ip:("10.0.0.1")`, values quoted and escaped. ' +
            `It covers at most ${ASSET_TAG_QUERY_MAX_ASSETS} assets, in name order, and stops before an asset ` +
            'that would make it longer than the query language allows (2048 characters); `assetCount` is the ' +
            'number of assets it covers (assets without hostname or IP are not counted). The query is empty ' +
            'when no asset of the label has a hostname or an IP.',
          params: orgParamsSchema,
          querystring: assetTagQuerySchema,
          response: { 200: assetTagQueryResponseSchema },
        },
      },
      async (request) => assetTagQuery(db, accessOf(request).org.id, request.query.label),
    );

    app.get(
      '/api/org/:orgId/ip/assets',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Assets by IP address',
          description:
            'Batched: repeat `address` (up to 200). One item per distinct address asked, in order, with the ' +
            'active assets holding it; any IPv6 notation matches; values that are no IP match nothing. With ' +
            '`timestamp`, assets whose address history covers that time answer instead of the current holder ' +
            '(addresses move between hosts).',
          params: orgParamsSchema,
          querystring: ipLookupQuerySchema,
          response: { 200: assetLookupResponseSchema },
        },
      },
      async (request) => ({
        items: await lookupAssetsByIp(
          db,
          accessOf(request).org.id,
          request.query.address,
          request.query.timestamp ? new Date(request.query.timestamp) : undefined,
        ),
      }),
    );

    app.get(
      '/api/org/:orgId/mac/assets',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Assets by MAC address',
          description:
            'Batched: repeat `address` (up to 200), in any of the notations aa:bb:cc:dd:ee:ff, aa-bb-cc-dd-ee-ff ' +
            'or aabb.ccdd.eeff. One item per distinct address with the active assets holding it.',
          params: orgParamsSchema,
          querystring: macLookupQuerySchema,
          response: { 200: assetLookupResponseSchema },
        },
      },
      async (request) => ({
        items: await lookupAssetsByMac(db, accessOf(request).org.id, request.query.address),
      }),
    );

    app.get(
      '/api/org/:orgId/hostname/assets',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'Assets by hostname',
          description:
            'Batched: repeat `hostname` (up to 200). One item per distinct hostname with the active assets ' +
            'carrying it, ignoring case.',
          params: orgParamsSchema,
          querystring: hostnameLookupQuerySchema,
          response: { 200: assetLookupResponseSchema },
        },
      },
      async (request) => ({
        items: await lookupAssetsByHostname(db, accessOf(request).org.id, request.query.hostname),
      }),
    );

    app.get(
      '/api/org/:orgId/assets/down',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'High-importance assets without data',
          description:
            'Active, tracked, high-importance assets that sent no data for five minutes (or were seen but never ' +
            'sent any), longest silent first, at most 100 items with the total. Empty when the notice is ' +
            'switched off in the asset settings.',
          params: orgParamsSchema,
          response: { 200: assetsDownResponseSchema },
        },
      },
      async (request) => listDownAssetsFor(db, accessOf(request).org.id, new Date()),
    );

    app.post(
      '/api/org/:orgId/assets/merge',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Merge an untracked asset into a tracked one',
          description:
            'In one transaction the tracked asset gains the hostnames, labels, current and past addresses and ' +
            'software of the untracked one, and the later last-seen and data-last-sent times; the untracked ' +
            'asset is then removed. 400 ASSET_MERGE_SAME_ASSET, ASSET_MERGE_NOT_TRACKED (trackedAsset is ' +
            'untracked), ASSET_MERGE_NOT_UNTRACKED (untrackedAsset is tracked); 404 ASSET_NOT_FOUND; 409 ' +
            'ASSET_DELETED. Answers the merged asset.',
          params: orgParamsSchema,
          body: assetMergeSchema,
          response: { 200: assetSchema },
        },
      },
      async (request) => mergeAssets(db, accessOf(request).org.id, request.body, actorOf(request)),
    );

    app.get(
      '/api/org/:orgId/asset-upload',
      {
        config: ASSET_VIEW,
        schema: {
          tags,
          summary: 'May a file of this size be uploaded',
          description: `Files are at most ${ASSET_UPLOAD_MAX_FILE_BYTES} bytes, at most ${ASSET_UPLOAD_MAX_FILES} per upload.`,
          params: orgParamsSchema,
          querystring: assetUploadCheckQuerySchema,
          response: { 200: assetUploadCheckResponseSchema },
        },
      },
      async (request) => ({
        allowed: request.query.size <= ASSET_UPLOAD_MAX_FILE_BYTES,
        maxFileBytes: ASSET_UPLOAD_MAX_FILE_BYTES,
        maxFiles: ASSET_UPLOAD_MAX_FILES,
      }),
    );

    app.post(
      '/api/org/:orgId/asset-upload',
      {
        config: ASSET_EDIT,
        schema: {
          tags,
          summary: 'Upload assets from CSV files',
          description:
            `multipart/form-data with 1 to ${ASSET_UPLOAD_MAX_FILES} CSV files (UTF-8, comma separated) of at most ` +
            `${ASSET_UPLOAD_MAX_FILE_BYTES} bytes each (400 ASSET_UPLOAD_NO_FILES, 400 ASSET_UPLOAD_TOO_MANY_FILES, ` +
            '413 ASSET_UPLOAD_FILE_TOO_LARGE with params.0 the file name). The header line names the columns ' +
            'name, id, hostname, ip, mac, importance and label in any order and case (others are ignored; 400 ' +
            'ASSET_UPLOAD_MISSING_COLUMNS with params.0 the file and params.columns what is missing); a file ' +
            'that cannot be read as CSV answers 400 ASSET_UPLOAD_MALFORMED. hostname, ip, mac and label may ' +
            "hold several values separated by ';', the n-th ip pairing with the n-th mac. A line with an id " +
            'replaces the name, importance, hostnames, pairs and labels of that asset; others create tracked ' +
            'assets. A blank importance means low. Line errors: nameRequired, identifierRequired, badId, ' +
            'unknownId, duplicateId, badIp, duplicateIp, ipInUse, badMac, duplicateMac, macInUse, ' +
            'ipMacMismatch, emptyHostname, badImportance, badLabel, tooLong; `line` counts the header as 1. ' +
            '`mode`: validate (default) stores nothing; all stores every line, only when no line has an error; ' +
            'valid stores the valid lines; storing is one transaction. The answer lists the first 100 line ' +
            'errors; errors-csv instead streams every line error as text/csv (file, line, field, error, value) ' +
            'and stores nothing.',
          params: orgParamsSchema,
          querystring: assetUploadQuerySchema,
          response: { 200: assetUploadResultSchema },
        },
      },
      async (request, reply) => {
        const orgId = accessOf(request).org.id;
        let upload: SpooledUpload;
        try {
          upload = await spoolUploadedFiles(request, 'vigil-asset-upload');
        } catch (error) {
          throw error instanceof UploadRefusedError ? uploadRefusal(error) : error;
        }
        let handedOver = false;
        try {
          if (upload.files.length === 0) throw noFiles();
          const { mode } = request.query;
          if (mode !== 'errors-csv')
            return await uploadAssets(db, orgId, upload.files, mode, actorOf(request));
          const csvPath = path.join(upload.folder, 'errors.csv');
          await writeUploadErrorsCsv(db, orgId, upload.files, csvPath);
          const stream = createReadStream(csvPath);
          stream.on('close', () => void upload.remove());
          handedOver = true;
          return (
            reply
              .header('content-type', 'text/csv; charset=utf-8')
              .header('content-disposition', 'attachment; filename="asset-upload-errors.csv"')
              // A stream is sent as it is; the JSON schema of 200 describes the other modes.
              .send(stream as never)
          );
        } finally {
          if (!handedOver) await upload.remove();
        }
      },
    );
  };

const byText = (a: string, b: string) => a.localeCompare(b, 'en') || (a < b ? -1 : a > b ? 1 : 0);
