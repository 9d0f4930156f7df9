import {
  CUSTOM_PARSER_MAX_MAPPINGS,
  CUSTOM_PARSERS_MAX_PER_ORG,
  customParserInputSchema,
  customParserListQuerySchema,
  customParserListSchema,
  customParserSchema,
} from '@vigil/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import { listCustomParsers } from './repo';
import {
  createCustomParser,
  getCustomParser,
  removeCustomParser,
  replaceCustomParser,
  toJson,
  type Actor,
} from './service';

const idParams = orgParamsSchema.extend({ id: z.uuid() });
const VIEW = { access: { permission: 'CUSTOM_PARSER_VIEW' as const, sku: 'customParsers' as const } };
const EDIT = { access: { permission: 'CUSTOM_PARSER_EDIT' as const, sku: 'customParsers' as const } };
const TAGS = ['custom-parsers'];

const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

const GATE_NOTE =
  'Needs the CUSTOM_PARSERS product (403 PRODUCT_NOT_ENTITLED otherwise). Parsers of other ' +
  'organisations answer 404 CUSTOM_PARSER_NOT_FOUND.';

const WRITE_NOTE =
  'The data source (the app name) is required (400 CUSTOM_PARSER_DATA_SOURCE_REQUIRED) and has one ' +
  'parser per organisation, any case (409 CUSTOM_PARSER_DATA_SOURCE_TAKEN). Mappings apply in order at ' +
  `ingest: at least one (400 CUSTOM_PARSER_MAPPING_REQUIRED), at most ${CUSTOM_PARSER_MAX_MAPPINGS} ` +
  '(400 CUSTOM_PARSER_TOO_MANY_MAPPINGS). A from-field is a dotted path of letters, digits, ' +
  'underscores and spaces, no part empty or with a space at either end (400 ' +
  'CUSTOM_PARSER_INVALID_FROM_FIELD); a to-field is letters, digits and underscores (400 ' +
  'CUSTOM_PARSER_INVALID_TO_FIELD), not a name the event keeps (ts, received_at, id, data_source, ip, ' +
  'timestamp, user: 400 CUSTOM_PARSER_RESERVED_TO_FIELD) and not written twice (400 ' +
  'CUSTOM_PARSER_DUPLICATE_TO_FIELD); an empty one answers 400 CUSTOM_PARSER_FIELD_REQUIRED. Field ' +
  'errors name `mappings.<index>.from|to`. ' +
  GATE_NOTE;

/** Custom parsers (spec 3): per data source, field remappings applied at ingest. */
export const customParserRoutes =
  (db: Db): FastifyPluginAsyncZod =>
  async (app) => {
    app.get(
      '/api/org/:orgId/custom-parsers',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: "The organisation's custom parsers",
          description: `By data source, any case; paged by pageSize and pageNumber. ${GATE_NOTE}`,
          params: orgParamsSchema,
          querystring: customParserListQuerySchema,
          response: { 200: customParserListSchema },
        },
      },
      async (request) => {
        const { pageSize, pageNumber } = request.query;
        const { items, total } = await listCustomParsers(db, accessOf(request).org.id, {
          limit: pageSize,
          offset: (pageNumber - 1) * pageSize,
        });
        return { items: items.map(toJson), total };
      },
    );

    app.get(
      '/api/org/:orgId/custom-parser/:id',
      {
        config: VIEW,
        schema: {
          tags: TAGS,
          summary: 'A custom parser',
          description: GATE_NOTE,
          params: idParams,
          response: { 200: customParserSchema },
        },
      },
      async (request) => getCustomParser(db, accessOf(request).org.id, request.params.id),
    );

    app.post(
      '/api/org/:orgId/custom-parser',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Create a custom parser',
          description:
            `An organisation has at most ${CUSTOM_PARSERS_MAX_PER_ORG} parsers (409 ` +
            `CUSTOM_PARSER_LIMIT_REACHED). ${WRITE_NOTE}`,
          params: orgParamsSchema,
          body: customParserInputSchema,
          response: { 201: customParserSchema },
        },
      },
      async (request, reply) => {
        const created = await createCustomParser(db, actorOf(request), request.body);
        return reply.status(201).send(created);
      },
    );

    app.put(
      '/api/org/:orgId/custom-parser/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Change a custom parser',
          description: `Replaces the data source and every mapping. ${WRITE_NOTE}`,
          params: idParams,
          body: customParserInputSchema,
          response: { 200: customParserSchema },
        },
      },
      async (request) => replaceCustomParser(db, actorOf(request), request.params.id, request.body),
    );

    app.delete(
      '/api/org/:orgId/custom-parser/:id',
      {
        config: EDIT,
        schema: {
          tags: TAGS,
          summary: 'Delete a custom parser',
          description: `For good; events already stored keep their fields. ${GATE_NOTE}`,
          params: idParams,
          response: { 204: z.null() },
        },
      },
      async (request, reply) => {
        await removeCustomParser(db, actorOf(request), request.params.id);
        return reply.status(204).send(null);
      },
    );
  };
