import type {
  inventoryCreateSchema,
  inventoryListQuerySchema,
  inventoryUpdateSchema,
} from '@vigil/contracts';
import {
  INVENTORY_ANSWERS,
  INVENTORY_KIND_MODULES,
  inventoryScores,
  publicIdOf,
  questionsOf,
  type InventoryAnswer,
  type InventoryDetail,
  type InventoryItem,
  type InventoryKind,
  type InventoryList,
  type RiskCopyResult,
  type RiskLevel,
} from '@vigil/contracts';
import { and, asc, eq, ilike, inArray, or, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { escapeLike } from '../../db/like';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { assertProviderAdmin } from '../dashboards/service';
import {
  copiedIds,
  itemsByIds,
  libraryCopyPlan,
  nextNumber,
  peopleByIds,
  refWhere,
  scopeWhere,
  type Scope,
} from './repo';
import { assertActivePeople, assertModulesEntitled, LIBRARY, orgScope, type Actor } from './service';
import {
  riskInventoryItems,
  riskInventoryLineItems,
  riskLineItemLinks,
  risks,
  riskSystemLinks,
} from './tables';

type CreateInput = z.output<typeof inventoryCreateSchema>;
type UpdateInput = z.output<typeof inventoryUpdateSchema>;
type ListQuery = z.output<typeof inventoryListQuerySchema>;
export type InventoryRow = typeof riskInventoryItems.$inferSelect;

export const inventoryNotFound = () =>
  new AppError('NotFoundException', 'RISK_INVENTORY_NOT_FOUND', 'System, application or vendor not found');

// ---------------------------------------------------------------------------------------------------
// Reading

const LEVEL_ORDER = (column: AnyColumn) =>
  sql`array_position(ARRAY['INSIGNIFICANT','LOW','MODERATE','HIGH','EXTREME'], ${column})`;
const SORTS: Record<string, SQL> = {
  number: sql`${riskInventoryItems.number}`,
  name: sql`lower(${riskInventoryItems.name})`,
  dataSensitivity: LEVEL_ORDER(riskInventoryItems.dataSensitivity),
  businessCriticality: LEVEL_ORDER(riskInventoryItems.businessCriticality),
  modifiedOn: sql`${riskInventoryItems.modifiedOn}`,
};

const riskCount = sql<number>`(SELECT count(*)::int FROM ${riskSystemLinks} WHERE ${riskSystemLinks.itemId} = ${riskInventoryItems.id})`;

async function toItems(db: Db, rows: { row: InventoryRow; riskCount: number }[]): Promise<InventoryItem[]> {
  const orgId = rows.find(({ row }) => row.orgId)?.row.orgId;
  const listIds = [
    ...new Set(rows.flatMap(({ row }) => [row.vendorId, row.assetTypeId].filter((id) => id !== null))),
  ];
  const personIds = [
    ...new Set(
      rows.flatMap(({ row }) => [row.businessOwnerId, row.systemAdminId].filter((id) => id !== null)),
    ),
  ];
  const [vendors, assetTypes, people] = await Promise.all([
    orgId ? itemsByIds(db, orgId, 'VENDOR', listIds) : [],
    orgId ? itemsByIds(db, orgId, 'ASSET_TYPE', listIds) : [],
    peopleByIds(db, personIds),
  ]);
  const names = new Map([...vendors, ...assetTypes, ...people].map((item) => [item.id, item.name]));
  const ref = (id: string | null) => (id ? { id, name: names.get(id) ?? '' } : null);
  return rows.map(({ row, riskCount: count }) => ({
    id: row.id,
    publicId: row.publicId,
    kind: row.kind as InventoryKind,
    name: row.name,
    library: row.library,
    copiedFromId: row.copiedFromId,
    definition: row.definition,
    vendor: ref(row.vendorId),
    goLiveDate: row.goLiveDate,
    versionNumber: row.versionNumber,
    dataLocation: row.dataLocation,
    systemType: row.systemType as InventoryItem['systemType'],
    businessOwner: ref(row.businessOwnerId),
    systemAdmin: ref(row.systemAdminId),
    assetType: ref(row.assetTypeId),
    dataSensitivity: row.dataSensitivity as InventoryItem['dataSensitivity'],
    businessCriticality: row.businessCriticality as InventoryItem['businessCriticality'],
    inherentRisk: row.inherentRisk as InventoryItem['inherentRisk'],
    dueDiligenceStrength: row.dueDiligenceStrength as InventoryItem['dueDiligenceStrength'],
    residualRisk: row.residualRisk as InventoryItem['residualRisk'],
    unanswered: row.unanswered,
    riskCount: count,
    version: row.version,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  }));
}

export async function listInventory(db: Db, scope: Scope, query: ListQuery): Promise<InventoryList> {
  const pattern = query.q ? `%${escapeLike(query.q)}%` : undefined;
  const where = and(
    scopeWhere(riskInventoryItems, scope),
    query.kind ? eq(riskInventoryItems.kind, query.kind) : undefined,
    query.systemType ? eq(riskInventoryItems.systemType, query.systemType) : undefined,
    query.incomplete === undefined
      ? undefined
      : query.incomplete
        ? sql`${riskInventoryItems.unanswered} > 0`
        : eq(riskInventoryItems.unanswered, 0),
    pattern
      ? or(
          ilike(riskInventoryItems.publicId, pattern),
          ilike(riskInventoryItems.name, pattern),
          ilike(riskInventoryItems.definition, pattern),
        )
      : undefined,
  );
  const direction = query.desc ? sql`DESC NULLS LAST` : sql`ASC NULLS LAST`;
  const [rows, [count]] = await Promise.all([
    db
      .select({ row: riskInventoryItems, riskCount })
      .from(riskInventoryItems)
      .where(where)
      .orderBy(sql`${SORTS[query.sortBy]} ${direction}`, asc(riskInventoryItems.number))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(riskInventoryItems)
      .where(where),
  ]);
  return { items: await toItems(db, rows), total: count!.total };
}

async function findItem(db: Db, scope: Scope, ref: string): Promise<InventoryRow | undefined> {
  const [row] = await db
    .select()
    .from(riskInventoryItems)
    .where(and(scopeWhere(riskInventoryItems, scope), refWhere(riskInventoryItems, ref)));
  return row;
}

export async function inventoryItemIn(db: Db, scope: Scope, ref: string): Promise<InventoryRow> {
  const row = await findItem(db, scope, ref);
  if (!row) throw inventoryNotFound();
  return row;
}

const lineItemsOf = (db: Db, itemId: string) =>
  db
    .select({ id: riskInventoryLineItems.id, name: riskInventoryLineItems.name })
    .from(riskInventoryLineItems)
    .where(eq(riskInventoryLineItems.itemId, itemId))
    .orderBy(asc(riskInventoryLineItems.position));

export async function getInventoryItem(
  db: Db,
  access: AccessContext,
  scope: Scope,
  ref: string,
): Promise<InventoryDetail> {
  const row = await inventoryItemIn(db, scope, ref);
  const [[view], authorizedPeople, userAdministrators, lineItems, linked, copied] = await Promise.all([
    db
      .select({ row: riskInventoryItems, riskCount })
      .from(riskInventoryItems)
      .where(eq(riskInventoryItems.id, row.id))
      .then((rows) => toItems(db, rows)),
    peopleByIds(db, row.authorizedPeopleIds),
    peopleByIds(db, row.userAdministratorIds),
    lineItemsOf(db, row.id),
    db
      .select({ id: risks.id, publicId: risks.publicId, name: risks.name, state: risks.state })
      .from(riskSystemLinks)
      .innerJoin(risks, eq(risks.id, riskSystemLinks.riskId))
      .where(eq(riskSystemLinks.itemId, row.id))
      .orderBy(asc(risks.number)),
    row.library ? copiedIds(db, riskInventoryItems, access.org.id, [row.id]) : new Set<string>(),
  ]);
  return {
    ...view!,
    answers: row.answers,
    authorizedPeople,
    userAdministrators,
    lineItems,
    risks: linked,
    inRegister: copied.has(row.id),
  };
}

// ---------------------------------------------------------------------------------------------------
// Checks

/**
 * The answers after applying `given` to `current`: each key a question of the item's sets (400
 * RISK_QUESTION_UNANSWERABLE, for example a due-diligence question on a system), each value YES, NO or
 * null to clear (400 RISK_ANSWER_TYPE_UNRECOGNISED).
 */
export function applyAnswers(
  kind: InventoryKind,
  current: Record<string, InventoryAnswer>,
  given: Record<string, unknown> | undefined,
): Record<string, InventoryAnswer> {
  const next = { ...current };
  if (!given) return next;
  const questions = questionsOf(kind);
  for (const [question, answer] of Object.entries(given)) {
    if (!questions.includes(question)) {
      throw validationFailed('RISK_QUESTION_UNANSWERABLE', `Question ${question} is not asked of a ${kind}`, {
        field: `answers.${question}`,
        params: { 0: question },
        validValues: questions,
      });
    }
    if (answer === null) {
      delete next[question];
    } else if (INVENTORY_ANSWERS.includes(answer as InventoryAnswer)) {
      next[question] = answer as InventoryAnswer;
    } else {
      throw validationFailed('RISK_ANSWER_TYPE_UNRECOGNISED', `Unrecognised answer for ${question}`, {
        field: `answers.${question}`,
        params: { 0: question },
        validValues: [...INVENTORY_ANSWERS],
      });
    }
  }
  return next;
}

function derivedColumns(kind: InventoryKind, answers: Record<string, InventoryAnswer>) {
  return {
    ...inventoryScores(kind, answers),
    unanswered: questionsOf(kind).filter((question) => answers[question] === undefined).length,
  };
}

type Refs = Pick<
  CreateInput,
  | 'vendorId'
  | 'assetTypeId'
  | 'businessOwnerId'
  | 'systemAdminId'
  | 'authorizedPeopleIds'
  | 'userAdministratorIds'
>;

/** List items of the organisation's lists and active people of it; library items name none. */
async function assertRefs(db: Db, scope: Scope, refs: Refs) {
  const orgId = 'orgId' in scope ? scope.orgId : null;
  for (const [field, kind, list] of [
    ['vendorId', 'VENDOR', 'vendors'],
    ['assetTypeId', 'ASSET_TYPE', 'asset types'],
  ] as const) {
    const id = refs[field];
    if (!id) continue;
    if (!orgId || (await itemsByIds(db, orgId, kind, [id])).length === 0) {
      throw validationFailed('RISK_INVALID_LIST_ITEM', `Unknown ${list}`, { field, params: { list } });
    }
  }
  const people: [string, string, string[]][] = [
    ['businessOwnerId', 'business owner', refs.businessOwnerId ? [refs.businessOwnerId] : []],
    ['systemAdminId', 'system admin', refs.systemAdminId ? [refs.systemAdminId] : []],
    ['authorizedPeopleIds', 'authorized people', refs.authorizedPeopleIds ?? []],
    ['userAdministratorIds', 'user administrators', refs.userAdministratorIds ?? []],
  ];
  for (const [field, label, ids] of people) await assertActivePeople(db, orgId, field, label, ids);
}

async function scopeForWrite(db: Db, access: AccessContext, library: boolean): Promise<Scope> {
  if (!library) return orgScope(access);
  await assertProviderAdmin(db, access);
  return LIBRARY;
}

/**
 * Systems and applications of the register need Systems & Applications, vendors Third-Party Risk (400
 * RISK_MODULE_NOT_ENTITLED, field `kind`); the library is the provider's and open to every kind.
 */
function assertKindsEntitled(access: AccessContext, kinds: readonly string[]) {
  assertModulesEntitled(
    access,
    kinds.map((kind) => INVENTORY_KIND_MODULES[kind as InventoryKind]),
    'kind',
  );
}

/** Replaces the line items: those sent with an id (of this item) are kept and renamed, others removed. */
async function replaceLineItems(tx: Db, itemId: string, lineItems: { id?: string; name: string }[]) {
  const current = await lineItemsOf(tx, itemId);
  const unknown = lineItems.filter((line) => line.id && !current.some((row) => row.id === line.id));
  if (unknown.length > 0) {
    throw validationFailed('RISK_INVALID_LINKS', 'Unknown line items', {
      field: 'lineItems',
      params: { 0: unknown.map((line) => line.id).join(', ') },
    });
  }
  const kept = new Set(lineItems.flatMap((line) => (line.id ? [line.id] : [])));
  const removed = current.filter((row) => !kept.has(row.id)).map((row) => row.id);
  if (removed.length > 0) {
    await tx.delete(riskInventoryLineItems).where(inArray(riskInventoryLineItems.id, removed));
  }
  for (const [position, line] of lineItems.entries()) {
    if (line.id) {
      await tx
        .update(riskInventoryLineItems)
        .set({ name: line.name, position })
        .where(eq(riskInventoryLineItems.id, line.id));
    } else {
      await tx.insert(riskInventoryLineItems).values({ itemId, name: line.name, position });
    }
  }
}

async function audit(tx: Db, actor: Actor, row: InventoryRow, action: string, details = {}) {
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `inventory.${action}`,
    targetType: 'inventory',
    targetId: row.id,
    details: { publicId: row.publicId, ...details },
    ip: actor.ip,
  });
}

// ---------------------------------------------------------------------------------------------------
// Changes

export async function createInventoryItem(
  db: Db,
  actor: Actor,
  input: CreateInput,
  library = false,
): Promise<InventoryDetail> {
  const scope = await scopeForWrite(db, actor.access, library);
  if (!library) assertKindsEntitled(actor.access, [input.kind]);
  await assertRefs(db, scope, input);
  const answers = applyAnswers(input.kind, {}, input.answers);
  const row = await db.transaction(async (tx) => {
    const number = await nextNumber(tx, scope, 'system');
    const [created] = await tx
      .insert(riskInventoryItems)
      .values({
        orgId: 'orgId' in scope ? scope.orgId : null,
        library,
        number,
        publicId: publicIdOf('system', number, library),
        kind: input.kind,
        name: input.name,
        definition: input.definition ?? '',
        vendorId: input.vendorId ?? null,
        goLiveDate: input.goLiveDate ?? null,
        versionNumber: input.versionNumber ?? '',
        dataLocation: input.dataLocation ?? '',
        systemType: input.systemType ?? null,
        businessOwnerId: input.businessOwnerId ?? null,
        systemAdminId: input.systemAdminId ?? null,
        assetTypeId: input.assetTypeId ?? null,
        authorizedPeopleIds: [...new Set(input.authorizedPeopleIds ?? [])],
        userAdministratorIds: [...new Set(input.userAdministratorIds ?? [])],
        answers,
        ...derivedColumns(input.kind, answers),
        createdBy: actor.access.user.id,
      })
      .returning();
    await replaceLineItems(tx, created!.id, input.lineItems ?? []);
    await audit(tx, actor, created!, 'created', { name: created!.name, kind: created!.kind });
    return created!;
  });
  return getInventoryItem(db, actor.access, scope, row.id);
}

const PLAIN_FIELDS = [
  'name',
  'definition',
  'vendorId',
  'goLiveDate',
  'versionNumber',
  'dataLocation',
  'systemType',
  'businessOwnerId',
  'systemAdminId',
  'assetTypeId',
] as const;

export async function updateInventoryItem(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: string,
  input: UpdateInput,
): Promise<InventoryDetail> {
  const current = await inventoryItemIn(db, scope, ref);
  if ('library' in scope) await assertProviderAdmin(db, actor.access);
  else assertKindsEntitled(actor.access, [current.kind]);
  await assertRefs(db, scope, input);
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(riskInventoryItems)
      .where(eq(riskInventoryItems.id, current.id))
      .for('update');
    if (!row) throw inventoryNotFound();
    if (row.version !== input.version) {
      throw conflict('RISK_MODIFIED', 'The item was modified while editing', {
        params: { version: row.version },
      });
    }
    const kind = row.kind as InventoryKind;
    const values: Partial<InventoryRow> = {};
    for (const field of PLAIN_FIELDS) {
      if (input[field] !== undefined && input[field] !== row[field]) {
        (values as Record<string, unknown>)[field] = input[field];
      }
    }
    for (const field of ['authorizedPeopleIds', 'userAdministratorIds'] as const) {
      if (input[field]) values[field] = [...new Set(input[field])];
    }
    const answers = applyAnswers(kind, row.answers, input.answers);
    const answered = JSON.stringify(answers) !== JSON.stringify(row.answers);
    if (answered) Object.assign(values, { answers, ...derivedColumns(kind, answers) });
    if (input.lineItems) await replaceLineItems(tx, row.id, input.lineItems);
    await tx
      .update(riskInventoryItems)
      .set({ ...values, version: sql`${riskInventoryItems.version} + 1`, modifiedOn: new Date() })
      .where(eq(riskInventoryItems.id, row.id));
    await audit(tx, actor, row, 'updated', {
      fields: Object.keys(values).filter((key) => key in input),
      ...(answered && {
        scores: {
          dataSensitivity: { from: row.dataSensitivity, to: values.dataSensitivity },
          businessCriticality: { from: row.businessCriticality, to: values.businessCriticality },
        },
      }),
    });
  });
  return getInventoryItem(db, actor.access, scope, current.id);
}

const COPIED_CONTENT = [
  'kind',
  'name',
  'definition',
  'versionNumber',
  'dataLocation',
  'systemType',
  'goLiveDate',
  'answers',
  'dataSensitivity',
  'businessCriticality',
  'inherentRisk',
  'dueDiligenceStrength',
  'residualRisk',
  'unanswered',
] as const;

/**
 * Copies library items into the register with their line items, skipping those it holds (one copy
 * per library item); 409 RISK_COPY_ALREADY_IN_REGISTER when every one was there already.
 */
export async function copyLibraryInventory(db: Db, actor: Actor, ids: string[]): Promise<RiskCopyResult> {
  const { access } = actor;
  const wanted = [...new Set(ids)];
  const sources = await Promise.all(wanted.map((id) => findItem(db, LIBRARY, id)));
  if (sources.some((source) => !source)) throw inventoryNotFound();
  const { alreadyInRegister, toCopy } = await libraryCopyPlan(
    db,
    riskInventoryItems,
    access.org.id,
    sources as InventoryRow[],
  );
  assertKindsEntitled(
    access,
    toCopy.map((source) => source.kind),
  );
  const copied = await db.transaction(async (tx) => {
    const out: RiskCopyResult['copied'] = [];
    for (const source of toCopy) {
      const number = await nextNumber(tx, orgScope(access), 'system');
      const content = Object.fromEntries(COPIED_CONTENT.map((field) => [field, source[field]]));
      const [row] = await tx
        .insert(riskInventoryItems)
        .values({
          ...(content as Pick<InventoryRow, (typeof COPIED_CONTENT)[number]>),
          orgId: access.org.id,
          copiedFromId: source.id,
          number,
          publicId: publicIdOf('system', number),
          createdBy: access.user.id,
        })
        .returning();
      const lines = await lineItemsOf(tx, source.id);
      await replaceLineItems(
        tx,
        row!.id,
        lines.map((line) => ({ name: line.name })),
      );
      await audit(tx, actor, row!, 'copied', { from: source.publicId });
      out.push({ id: row!.id, publicId: row!.publicId, name: row!.name });
    }
    return out;
  });
  return { copied, alreadyInRegister };
}

// ---------------------------------------------------------------------------------------------------
// Links from risks

const systemRefColumns = {
  id: riskInventoryItems.id,
  publicId: riskInventoryItems.publicId,
  name: riskInventoryItems.name,
  kind: riskInventoryItems.kind,
  dataSensitivity: riskInventoryItems.dataSensitivity,
  businessCriticality: riskInventoryItems.businessCriticality,
};

const lineItemRefColumns = {
  id: riskInventoryLineItems.id,
  name: riskInventoryLineItems.name,
  itemId: riskInventoryItems.id,
  itemPublicId: riskInventoryItems.publicId,
  itemName: riskInventoryItems.name,
};

/** The ids of `systemIds` and `lineItemIds` that are not of the scope's inventory. */
export async function invalidInventoryLinks(
  db: Db,
  scope: Scope,
  systemIds: string[],
  lineItemIds: string[],
): Promise<string[]> {
  const [systems, lines] = await Promise.all([
    systemIds.length === 0
      ? []
      : db
          .select({ id: riskInventoryItems.id })
          .from(riskInventoryItems)
          .where(and(scopeWhere(riskInventoryItems, scope), inArray(riskInventoryItems.id, systemIds))),
    lineItemIds.length === 0
      ? []
      : db
          .select({ id: riskInventoryLineItems.id })
          .from(riskInventoryLineItems)
          .innerJoin(riskInventoryItems, eq(riskInventoryItems.id, riskInventoryLineItems.itemId))
          .where(and(scopeWhere(riskInventoryItems, scope), inArray(riskInventoryLineItems.id, lineItemIds))),
  ]);
  const found = new Set([...systems, ...lines].map((row) => row.id));
  return [...systemIds, ...lineItemIds].filter((id) => !found.has(id));
}

export async function systemsOfRisk(db: Db, riskId: string) {
  const rows = await db
    .select(systemRefColumns)
    .from(riskSystemLinks)
    .innerJoin(riskInventoryItems, eq(riskInventoryItems.id, riskSystemLinks.itemId))
    .where(eq(riskSystemLinks.riskId, riskId))
    .orderBy(asc(riskInventoryItems.number));
  return rows.map((row) => ({
    ...row,
    kind: row.kind as InventoryKind,
    dataSensitivity: row.dataSensitivity as InventoryItem['dataSensitivity'],
    businessCriticality: row.businessCriticality as InventoryItem['businessCriticality'],
  }));
}

type ImpactScores = { dataSensitivity: RiskLevel | null; businessCriticality: RiskLevel | null };

/** The scores a risk's potential impact is recommended from, of the given inventory items. */
export async function impactScoresOf(db: Db, itemIds: string[]): Promise<ImpactScores[]> {
  if (itemIds.length === 0) return [];
  return (await db
    .select({
      dataSensitivity: riskInventoryItems.dataSensitivity,
      businessCriticality: riskInventoryItems.businessCriticality,
    })
    .from(riskInventoryItems)
    .where(inArray(riskInventoryItems.id, itemIds))) as ImpactScores[];
}

/** The same, of the items linked to each risk. */
export async function impactScoresOfRisks(db: Db, riskIds: string[]): Promise<Map<string, ImpactScores[]>> {
  const out = new Map<string, ImpactScores[]>(riskIds.map((id) => [id, []]));
  if (riskIds.length === 0) return out;
  const rows = await db
    .select({
      riskId: riskSystemLinks.riskId,
      dataSensitivity: riskInventoryItems.dataSensitivity,
      businessCriticality: riskInventoryItems.businessCriticality,
    })
    .from(riskSystemLinks)
    .innerJoin(riskInventoryItems, eq(riskInventoryItems.id, riskSystemLinks.itemId))
    .where(inArray(riskSystemLinks.riskId, riskIds));
  for (const { riskId, ...scores } of rows) out.get(riskId)!.push(scores as ImpactScores);
  return out;
}

export function lineItemsOfRisk(db: Db, riskId: string) {
  return db
    .select(lineItemRefColumns)
    .from(riskLineItemLinks)
    .innerJoin(riskInventoryLineItems, eq(riskInventoryLineItems.id, riskLineItemLinks.lineItemId))
    .innerJoin(riskInventoryItems, eq(riskInventoryItems.id, riskInventoryLineItems.itemId))
    .where(eq(riskLineItemLinks.riskId, riskId))
    .orderBy(asc(riskInventoryItems.number), asc(riskInventoryLineItems.position));
}

export async function replaceInventoryLinksOfRisk(
  tx: Db,
  riskId: string,
  links: { systemIds?: string[]; lineItemIds?: string[] },
) {
  if (links.systemIds) {
    await tx.delete(riskSystemLinks).where(eq(riskSystemLinks.riskId, riskId));
    if (links.systemIds.length > 0) {
      await tx.insert(riskSystemLinks).values(links.systemIds.map((itemId) => ({ riskId, itemId })));
    }
  }
  if (links.lineItemIds) {
    await tx.delete(riskLineItemLinks).where(eq(riskLineItemLinks.riskId, riskId));
    if (links.lineItemIds.length > 0) {
      await tx
        .insert(riskLineItemLinks)
        .values(links.lineItemIds.map((lineItemId) => ({ riskId, lineItemId })));
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Chart data (dashboards)

/** Inventory items of an organisation's register per kind (SYSTEM, APPLICATION, VENDOR). */
export async function inventoryCountsByKind(
  db: Db,
  orgId: string,
): Promise<{ key: string; count: number }[]> {
  return db
    .select({ key: riskInventoryItems.kind, count: sql<number>`count(*)::int` })
    .from(riskInventoryItems)
    .where(scopeWhere(riskInventoryItems, { orgId }))
    .groupBy(riskInventoryItems.kind)
    .orderBy(riskInventoryItems.kind);
}

/**
 * Contextual scoring of the inventory: each item with its derived scores and the number of risks
 * linked to it, the highest inherent risk first, at most `limit` rows.
 */
export async function inventoryScoring(db: Db, orgId: string, limit: number) {
  const where = scopeWhere(riskInventoryItems, { orgId });
  const [rows, [count]] = await Promise.all([
    db
      .select({ row: riskInventoryItems, riskCount })
      .from(riskInventoryItems)
      .where(where)
      .orderBy(
        sql`${LEVEL_ORDER(riskInventoryItems.inherentRisk)} DESC NULLS LAST`,
        asc(riskInventoryItems.number),
      )
      .limit(limit),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(riskInventoryItems)
      .where(where),
  ]);
  return { rows, total: count!.total };
}
