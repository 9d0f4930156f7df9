import {
  inventoryCreateSchema,
  inventoryDetailSchema,
  inventoryListQuerySchema,
  inventoryListSchema,
  inventoryUpdateSchema,
  libraryInventoryListSchema,
} from '@vigil/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { accessOf } from '../../platform/access';
import { orgParamsSchema } from '../../platform/http';
import {
  copyLibraryInventory,
  createInventoryItem,
  getInventoryItem,
  listInventory,
  updateInventoryItem,
} from './inventory';
import {
  actorOf,
  libraryRoutes,
  REGISTER_EDIT,
  REGISTER_VIEW,
  refParams,
  TAGS,
  VERSION,
} from './library-routes';
import { LIBRARY, orgScope } from './service';
import { riskInventoryItems } from './tables';

const FILTERS =
  '`kind` SYSTEM, APPLICATION or VENDOR, `systemType`, `incomplete` (a question unanswered), `q` (public id, ' +
  'name, definition); `sortBy` number, name, dataSensitivity, businessCriticality, modifiedOn with `desc`; ' +
  'paged by pageSize and pageNumber.';
const RULES =
  'Systems and applications need the Systems & Applications module, vendors Third-Party Risk (400 ' +
  'RISK_MODULE_NOT_ENTITLED, field kind). `vendorId` and `assetTypeId` name items of the VENDOR and ASSET_TYPE custom lists (400 ' +
  'RISK_INVALID_LIST_ITEM); `businessOwnerId`, `systemAdminId`, `authorizedPeopleIds` and ' +
  '`userAdministratorIds` active people of the organisation (400 RISK_INVALID_PERSON). `answers` maps question ' +
  'ids of the sensitivity (S1-S4), criticality (C1-C4), parameter (P1-P3), access (A1-A3) and security ' +
  'management (M1-M3) sets, and for vendors the due-diligence questionnaire (D1-D8), to YES, NO or null; ' +
  'another question answers 400 RISK_QUESTION_UNANSWERABLE and another value 400 RISK_ANSWER_TYPE_UNRECOGNISED. ' +
  'Data sensitivity and business criticality are derived from their four answers (each YES one level above ' +
  "Insignificant), inherent risk is the higher of the two, and a vendor's due-diligence strength (every two YES " +
  'one level) lowers it to its residual risk. `lineItems` replaces the line items (an `id` keeps one and its risk ' +
  'links). Nothing is written on an error.';
const ONE =
  '`ref` is the id or public id (S-0003). 404 RISK_INVENTORY_NOT_FOUND for missing items and those of other organisations.';

/** The inventory of systems, applications and vendors: register and library. */
export function inventoryRoutes(app: FastifyInstance, db: Db) {
  const typed = app.withTypeProvider<ZodTypeProvider>();

  typed.get(
    '/api/org/:orgId/inventory',
    {
      config: REGISTER_VIEW,
      schema: {
        tags: TAGS,
        summary: "The organisation's inventory of systems, applications and vendors",
        description: FILTERS,
        params: orgParamsSchema,
        querystring: inventoryListQuerySchema,
        response: { 200: inventoryListSchema },
      },
    },
    async (request) => listInventory(db, orgScope(accessOf(request)), request.query),
  );

  typed.post(
    '/api/org/:orgId/inventory-item',
    {
      config: REGISTER_EDIT,
      schema: {
        tags: TAGS,
        summary: 'Add a system, application or vendor to the inventory',
        description: `The item takes the next public id of the organisation (S-0001). ${RULES}`,
        params: orgParamsSchema,
        body: inventoryCreateSchema,
        response: { 201: inventoryDetailSchema },
      },
    },
    async (request, reply) =>
      reply.status(201).send(await createInventoryItem(db, actorOf(request), request.body)),
  );

  typed.get(
    '/api/org/:orgId/inventory-item/:ref',
    {
      config: REGISTER_VIEW,
      schema: {
        tags: TAGS,
        summary: 'One inventory item with its answers, people, line items and risks',
        description: ONE,
        params: refParams,
        response: { 200: inventoryDetailSchema },
      },
    },
    async (request) => {
      const access = accessOf(request);
      return getInventoryItem(db, access, orgScope(access), request.params.ref);
    },
  );

  typed.patch(
    '/api/org/:orgId/inventory-item/:ref',
    {
      config: REGISTER_EDIT,
      schema: {
        tags: TAGS,
        summary: 'Change an inventory item or answer its questions',
        description: `${RULES} ${VERSION} ${ONE}`,
        params: refParams,
        body: inventoryUpdateSchema,
        response: { 200: inventoryDetailSchema },
      },
    },
    async (request) =>
      updateInventoryItem(
        db,
        actorOf(request),
        orgScope(accessOf(request)),
        request.params.ref,
        request.body,
      ),
  );

  libraryRoutes(app, db, {
    path: 'inventory',
    table: riskInventoryItems,
    one: 'inventory item',
    many: 'systems, applications and vendors',
    query: inventoryListQuerySchema,
    list: libraryInventoryListSchema,
    create: inventoryCreateSchema,
    update: inventoryUpdateSchema,
    detail: inventoryDetailSchema,
    describe: {
      list: FILTERS,
      one: '`ref` is the id or public id (LS-0001).',
      create: 'Library items name no lists or people.',
      copy:
        'Items come with their answers and line items. 404 RISK_INVENTORY_NOT_FOUND for ids not in the library; ' +
        '400 RISK_MODULE_NOT_ENTITLED for a kind of a module the organisation lacks.',
    },
    listItems: (db, _access, query) => listInventory(db, LIBRARY, query),
    getItem: getInventoryItem,
    createItem: createInventoryItem,
    updateItem: updateInventoryItem,
    copyItems: copyLibraryInventory,
  });
}
