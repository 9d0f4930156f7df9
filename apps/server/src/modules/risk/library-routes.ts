import { riskCopyInputSchema, riskCopyResultSchema, type RiskCopyResult } from '@vigil/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { accessOf, type AccessContext } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import { withInRegister, type Registered, type Scope } from './repo';
import { LIBRARY, type Actor } from './service';

// What the risk area's routes share.

export const TAGS = ['risk'];
export const refParams = orgParamsSchema.extend({ ref: z.string().min(1).max(64) });
export const actorOf = (request: FastifyRequest): Actor => ({ access: accessOf(request), ip: request.ip });

/** The register needs a risk product; the library is open to every holder of RISK_VIEW. */
export const REGISTER_VIEW = { access: { permission: 'RISK_VIEW' as const, sku: 'risk' as const } };
export const REGISTER_EDIT = { access: { permission: 'RISK_EDIT' as const, sku: 'risk' as const } };
export const LIBRARY_VIEW = { access: { permission: 'RISK_VIEW' as const } };
export const LIBRARY_EDIT = { access: { permission: 'RISK_EDIT' as const } };

export const VERSION =
  '`version` is the version read: 409 RISK_MODIFIED when it changed meanwhile, and nothing is written.';
export const LIBRARY_ADMIN = 'Provider administrators only (403 LIBRARY_COPY_DENIED).';
const IN_REGISTER = "Each item's `inRegister` says whether the organisation's register holds a copy.";
const COPY =
  '`ids` of library items. Those the register already holds (one copy per library item) are skipped and ' +
  'listed in `alreadyInRegister`; 409 RISK_COPY_ALREADY_IN_REGISTER when every one was. Copies take the next ' +
  'public ids and the history entry COPIED.';

/** One provider library of the risk area: its path, schemas, texts and service functions. */
export interface Library<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType> {
  /** Below /api/org/:orgId/, before /library. */
  path: 'risks' | 'controls' | 'inventory';
  table: Registered;
  /** How the summaries name one item and the items. */
  one: string;
  many: string;
  query: Q;
  list: z.ZodType;
  create: C;
  update: U;
  detail: z.ZodType;
  /** Each route's own sentences. */
  describe: { list: string; one: string; create: string; copy: string };
  /** A page of the library. */
  listItems: (
    db: Db,
    access: AccessContext,
    query: z.output<Q>,
  ) => Promise<{ items: { id: string }[]; total: number }>;
  /** The register's service functions, called here for the library. */
  getItem: (db: Db, access: AccessContext, scope: Scope, ref: string) => Promise<unknown>;
  createItem: (db: Db, actor: Actor, input: z.output<C>, library: boolean) => Promise<unknown>;
  updateItem: (db: Db, actor: Actor, scope: Scope, ref: string, input: z.output<U>) => Promise<unknown>;
  copyItems: (db: Db, actor: Actor, ids: string[]) => Promise<RiskCopyResult>;
}

/**
 * The routes of a provider library: read by every holder of RISK_VIEW, written by provider
 * administrators, copied into the register by organisations with a risk product.
 */
export function libraryRoutes<Q extends z.ZodType, C extends z.ZodType, U extends z.ZodType>(
  app: FastifyInstance,
  db: Db,
  library: Library<Q, C, U>,
) {
  const typed = app.withTypeProvider<ZodTypeProvider>();
  const path = `/api/org/:orgId/${library.path}/library`;
  const { describe } = library;

  typed.get(
    path,
    {
      config: LIBRARY_VIEW,
      schema: {
        tags: TAGS,
        summary: `The provider's library of ${library.many}`,
        description: `Readable without a risk product. ${IN_REGISTER} ${describe.list}`,
        params: orgParamsSchema,
        querystring: library.query,
        response: { 200: library.list },
      },
    },
    async (request) => {
      const access = accessOf(request);
      const page = await library.listItems(db, access, request.query as z.output<Q>);
      return withInRegister(db, library.table, access.org.id, page);
    },
  );

  typed.get(
    `${path}/:ref`,
    {
      config: LIBRARY_VIEW,
      schema: {
        tags: TAGS,
        summary: `One library ${library.one}`,
        description: `\`inRegister\` says whether the organisation holds a copy. ${describe.one}`,
        params: refParams,
        response: { 200: library.detail },
      },
    },
    async (request) => library.getItem(db, accessOf(request), LIBRARY, request.params.ref),
  );

  typed.post(
    path,
    {
      config: LIBRARY_EDIT,
      schema: {
        tags: TAGS,
        summary: `Add a ${library.one} to the library`,
        description: `${LIBRARY_ADMIN} ${describe.create}`,
        params: orgParamsSchema,
        body: library.create,
        response: { 201: library.detail },
      },
    },
    async (request, reply) =>
      reply
        .status(201)
        .send(await library.createItem(db, actorOf(request), request.body as z.output<C>, true)),
  );

  typed.patch(
    `${path}/:ref`,
    {
      config: LIBRARY_EDIT,
      schema: {
        tags: TAGS,
        summary: `Change a library ${library.one}`,
        description: `${LIBRARY_ADMIN} ${VERSION}`,
        params: refParams,
        body: library.update,
        response: { 200: library.detail },
      },
    },
    async (request) =>
      library.updateItem(db, actorOf(request), LIBRARY, request.params.ref, request.body as z.output<U>),
  );

  typed.post(
    `${path}/copy`,
    {
      config: REGISTER_EDIT,
      schema: {
        tags: TAGS,
        summary: `Copy library ${library.many} into the register`,
        description: `${COPY} ${describe.copy}`,
        params: orgParamsSchema,
        body: riskCopyInputSchema,
        response: { 200: riskCopyResultSchema },
      },
    },
    async (request) => library.copyItems(db, actorOf(request), request.body.ids),
  );
}
