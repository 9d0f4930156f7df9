import type {
  riskCreateSchema,
  riskListQuerySchema,
  riskStateInputSchema,
  riskUpdateSchema,
} from '@vigil/contracts';
import {
  dueDateStatus,
  entitledRiskModules,
  publicIdOf,
  RECOMMENDATION_NEEDS,
  RISK_LEVEL_LABELS,
  CONTROL_STRENGTH_LABELS,
  RISK_MODULE_LABELS,
  RISK_MODULES,
  riskRecommendations,
  todayIn,
  type ControlStrength,
  type RiskCopyResult,
  type RecommendedRiskScore,
  type Risk,
  type RiskDetail,
  type RiskHistoryKind,
  type RiskLevel,
  type RiskList,
  type RiskModule,
  type RiskScoreValues,
  type SystemImpactScores,
} from '@vigil/contracts';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { assertProviderAdmin } from '../dashboards/service';
import { isTimeZone } from '../metadata/escalation-hours';
import { mayHoldTickets } from '../tickets/service';
import { triggersByIds } from '../triggers/summaries';
import {
  controlScoresOfRisks,
  controlsByIds,
  controlsOfRisk,
  copiedIds,
  libraryCopyPlan,
  findRisk,
  homePersonEmail,
  insertHistory,
  insertRisk,
  itemsByIds,
  listHistory,
  listRelated,
  listRiskRows,
  lockRisk,
  nextNumber,
  peopleByIds,
  removeAllLinks,
  replaceControlsOfRisk,
  replaceRelated,
  riskSelectionWhere,
  risksByIds,
  tagsByIds,
  updateRiskRow,
  type RiskRow,
  type Scope,
} from './repo';
import { incidentsOfRisk } from './incidents';
import {
  impactScoresOf,
  impactScoresOfRisks,
  invalidInventoryLinks,
  lineItemsOfRisk,
  replaceInventoryLinksOfRisk,
  systemsOfRisk,
} from './inventory';
import { risks } from './tables';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

type CreateInput = z.output<typeof riskCreateSchema>;
type UpdateInput = z.output<typeof riskUpdateSchema>;
type ListQuery = z.output<typeof riskListQuerySchema>;
type StateInput = z.output<typeof riskStateInputSchema>;

export const riskNotFound = () => new AppError('NotFoundException', 'RISK_NOT_FOUND', 'Risk not found');

export const orgScope = (access: AccessContext): Scope => ({ orgId: access.org.id });
export const LIBRARY: Scope = { library: true };

/** The modules the caller's organisation holds. */
export const modulesOf = (access: AccessContext) => entitledRiskModules(access.org.productSkus);

export function assertModulesEntitled(
  access: AccessContext,
  modules: readonly RiskModule[],
  field = 'modules',
) {
  const held = modulesOf(access);
  const missing = modules.find((module) => !held.includes(module));
  if (missing) {
    throw validationFailed('RISK_MODULE_NOT_ENTITLED', `The organisation lacks the module ${missing}`, {
      field,
      params: { module: RISK_MODULE_LABELS[missing] },
      validValues: held,
    });
  }
}

async function record(
  tx: Db,
  actor: Actor,
  target: { riskId: string } | { controlId: string },
  kind: RiskHistoryKind,
  details: Record<string, unknown>,
  label: { type: string; id: string; publicId: string },
) {
  await insertHistory(tx, { ...target, actorId: actor.access.user.id, kind, details });
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `${label.type}.${kind.toLowerCase()}`,
    targetType: label.type,
    targetId: label.id,
    details: { publicId: label.publicId, ...details },
    ip: actor.ip,
  });
}

export const recordRisk = (tx: Db, actor: Actor, row: RiskRow, kind: RiskHistoryKind, details = {}) =>
  record(tx, actor, { riskId: row.id }, kind, details, { type: 'risk', id: row.id, publicId: row.publicId });
export const recordControl = (
  tx: Db,
  actor: Actor,
  row: { id: string; publicId: string },
  kind: RiskHistoryKind,
  details = {},
) =>
  record(tx, actor, { controlId: row.id }, kind, details, {
    type: 'control',
    id: row.id,
    publicId: row.publicId,
  });

// ---------------------------------------------------------------------------------------------------
// Reading

const iso = (date: Date) => date.toISOString();

function toRisk(
  row: RiskRow,
  ownerNames: Map<string, string>,
  controlScores: (string | null)[],
  systemScores: SystemImpactScores[],
  now: Date,
): Risk {
  const scores = scoreValues(row);
  const recommended = riskRecommendations(scores, controlScores as (ControlStrength | null)[], systemScores);
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    state: row.state as Risk['state'],
    library: row.library,
    copiedFromId: row.copiedFromId,
    definition: row.definition,
    keyRisk: row.keyRisk,
    showInPreview: row.showInPreview,
    riskEventType: row.riskEventType as Risk['riskEventType'],
    riskEventSubType: row.riskEventSubType,
    causeCategory: row.causeCategory as Risk['causeCategory'],
    causeSubType: row.causeSubType,
    consequence: row.consequence as Risk['consequence'],
    consequenceSubType: row.consequenceSubType,
    ermConnections: row.ermConnections as Risk['ermConnections'],
    response: row.response as Risk['response'],
    mitigationPlan: row.mitigationPlan,
    businessOwner: row.businessOwnerId
      ? { id: row.businessOwnerId, name: ownerNames.get(row.businessOwnerId) ?? '' }
      : null,
    modules: row.modules as RiskModule[],
    exception: row.exception,
    dueDate: row.dueDate,
    timeZoneId: row.timeZoneId,
    dueDateStatus: row.dueDate ? dueDateStatus(row.dueDate, todayIn(row.timeZoneId ?? 'UTC', now)) : null,
    potentialImpact: {
      value: scores.potentialImpact,
      recommended: recommended.potentialImpact,
      overrideReason: row.potentialImpactReason,
    },
    likelihood: scores.likelihood,
    inherentRisk: {
      value: scores.inherentRisk,
      recommended: recommended.inherentRisk,
      overrideReason: row.inherentRiskReason,
    },
    controlStrength: {
      value: scores.controlStrength,
      recommended: recommended.controlStrength,
      overrideReason: row.controlStrengthReason,
    },
    residualRisk: {
      value: scores.residualRisk,
      recommended: recommended.residualRisk,
      overrideReason: row.residualRiskReason,
    },
    riskDirection: row.riskDirection as Risk['riskDirection'],
    revisitScores: row.revisitScores ?? null,
    version: row.version,
    createdOn: iso(row.createdOn),
    modifiedOn: iso(row.modifiedOn),
  };
}

const scoreValues = (row: RiskRow): RiskScoreValues => ({
  potentialImpact: row.potentialImpact as RiskLevel | null,
  likelihood: row.likelihood as RiskLevel | null,
  inherentRisk: row.inherentRisk as RiskLevel | null,
  controlStrength: row.controlStrength as ControlStrength | null,
  residualRisk: row.residualRisk as RiskLevel | null,
});

async function toRisks(db: Db, rows: RiskRow[]): Promise<Risk[]> {
  const ownerIds = [...new Set(rows.flatMap((row) => (row.businessOwnerId ? [row.businessOwnerId] : [])))];
  const orgId = rows.find((row) => row.orgId)?.orgId;
  const riskIds = rows.map((row) => row.id);
  const [owners, scores, systemScores] = await Promise.all([
    orgId ? itemsByIds(db, orgId, 'RISK_OWNER', ownerIds) : [],
    controlScoresOfRisks(db, riskIds),
    impactScoresOfRisks(db, riskIds),
  ]);
  const names = new Map(owners.map((owner) => [owner.id, owner.name]));
  const now = new Date();
  return rows.map((row) => toRisk(row, names, scores.get(row.id) ?? [], systemScores.get(row.id) ?? [], now));
}

/** The register (or the library) filtered to the chosen modules the organisation holds. */
export async function listRisks(
  db: Db,
  access: AccessContext,
  scope: Scope,
  query: ListQuery,
): Promise<RiskList> {
  // The register shows the modules the organisation holds; the library shows every module.
  const held = 'orgId' in scope ? modulesOf(access) : [...RISK_MODULES];
  const modules = (query.modules ?? held).filter((module) => held.includes(module));
  const { rows, total } = await listRiskRows(db, riskSelectionWhere(scope, { ...query, modules }), query, {
    limit: query.pageSize,
    offset: (query.pageNumber - 1) * query.pageSize,
  });
  return { items: await toRisks(db, rows), total };
}

export async function riskIn(db: Db, scope: Scope, ref: string): Promise<RiskRow> {
  const row = await findRisk(db, scope, ref);
  if (!row) throw riskNotFound();
  return row;
}

export async function getRisk(db: Db, access: AccessContext, scope: Scope, ref: string): Promise<RiskDetail> {
  const row = await riskIn(db, scope, ref);
  const orgId = access.org.id;
  const [
    [risk],
    businessUnits,
    watchers,
    audits,
    policies,
    tags,
    controls,
    relatedRisks,
    systems,
    lineItems,
    incidents,
    history,
    copied,
  ] = await Promise.all([
    toRisks(db, [row]),
    itemsByIds(db, orgId, 'BUSINESS_UNIT', row.businessUnitIds),
    peopleByIds(db, row.watcherIds),
    itemsByIds(db, orgId, 'AUDIT', row.auditIds),
    itemsByIds(db, orgId, 'POLICY', row.policyIds),
    tagsByIds(db, orgId, row.tagIds),
    controlsOfRisk(db, row.id),
    listRelated(db, row.id),
    systemsOfRisk(db, row.id),
    lineItemsOfRisk(db, row.id),
    row.library ? [] : incidentsOfRisk(db, orgId, row.id),
    listHistory(db, { riskId: row.id }),
    row.library ? copiedIds(db, risks, orgId, [row.id]) : new Set<string>(),
  ]);
  const triggers =
    row.library || controls.length === 0
      ? []
      : await triggersByIds(db, orgId, [...new Set(controls.flatMap((control) => control.triggerIds))]);
  return {
    ...risk!,
    businessUnits,
    watchers,
    audits,
    policies,
    tags,
    controls: controls.map(({ triggerIds, ...control }) => ({
      ...control,
      overallScore: control.overallScore as ControlStrength | null,
      triggers: triggers.filter((trigger) => triggerIds.includes(trigger.id)),
    })),
    relatedRisks: relatedRisks.map((related) => ({ ...related, state: related.state as Risk['state'] })),
    systems,
    lineItems,
    incidents,
    inRegister: copied.has(row.id),
    history: history.map(({ entry, actorName }) => ({
      id: entry.id,
      kind: entry.kind as RiskHistoryKind,
      actorName,
      details: entry.details,
      at: iso(entry.at),
    })),
  };
}

// ---------------------------------------------------------------------------------------------------
// Checks shared by create and update

type Refs = Pick<
  CreateInput,
  'businessOwnerId' | 'businessUnitIds' | 'watcherIds' | 'auditIds' | 'policyIds' | 'tagIds'
>;

const unique = (ids: string[] | undefined) => ids && [...new Set(ids)];

/** Each named list item, tag and person is the organisation's; library items name none. */
async function assertRefs(db: Db, scope: Scope, refs: Refs) {
  const orgId = 'orgId' in scope ? scope.orgId : null;
  const lists: [keyof Refs, string, string][] = [
    ['businessUnitIds', 'BUSINESS_UNIT', 'business units'],
    ['auditIds', 'AUDIT', 'audits'],
    ['policyIds', 'POLICY', 'policies'],
  ];
  const invalid = (field: string, list: string) =>
    validationFailed('RISK_INVALID_LIST_ITEM', `Unknown ${list}`, { field, params: { list } });
  if (refs.businessOwnerId) {
    const found = orgId ? await itemsByIds(db, orgId, 'RISK_OWNER', [refs.businessOwnerId]) : [];
    if (found.length === 0) throw invalid('businessOwnerId', 'risk owners');
  }
  for (const [field, kind, list] of lists) {
    const ids = unique(refs[field] as string[] | undefined) ?? [];
    if (ids.length === 0) continue;
    const found = orgId ? await itemsByIds(db, orgId, kind, ids) : [];
    if (found.length !== ids.length) throw invalid(field, list);
  }
  const tagIds = unique(refs.tagIds) ?? [];
  if (tagIds.length > 0) {
    const found = orgId ? await tagsByIds(db, orgId, tagIds) : [];
    if (found.length !== tagIds.length) throw invalid('tagIds', 'tags');
  }
  await assertActivePeople(db, orgId, 'watcherIds', 'watchers', refs.watcherIds ?? []);
}

/**
 * Each of `ids` is an active person of the organisation (library items name none); otherwise 400
 * RISK_INVALID_PERSON naming the field, and the person by e-mail when they are of the organisation.
 */
export async function assertActivePeople(
  db: Db,
  orgId: string | null,
  field: string,
  label: string,
  ids: Iterable<string>,
) {
  for (const id of new Set(ids)) {
    if (orgId && (await mayHoldTickets(db, orgId, id))) continue;
    const email = orgId ? await homePersonEmail(db, orgId, id) : null;
    throw validationFailed(
      'RISK_INVALID_PERSON',
      `${email ?? 'A person'} chosen as ${label} is not an active user of the organisation`,
      { field, params: { field: label, person: email ?? 'the chosen person' } },
    );
  }
}

function assertTimeZone(timeZoneId: string | null | undefined) {
  if (timeZoneId && !isTimeZone(timeZoneId)) {
    throw validationFailed('RISK_INVALID_TIME_ZONE', `Unknown time zone ${timeZoneId}`, {
      field: 'timeZoneId',
      params: { 0: timeZoneId },
    });
  }
}

function assertMitigation(response: string | null, plan: string) {
  if (response === 'MITIGATE' && plan.trim() === '') {
    throw validationFailed('RISK_MITIGATION_PLAN_REQUIRED', 'Mitigate needs a mitigation plan', {
      field: 'mitigationPlan',
    });
  }
}

const invalidLinks = (ids: string[]) =>
  validationFailed('RISK_INVALID_LINKS', `Could not link to some invalid risks/systems: ${ids.join(', ')}`, {
    field: 'relatedRiskIds',
    params: { 0: ids.join(', ') },
  });

/** Related risks of the same register, active, never the risk itself. */
async function relatedFor(db: Db, scope: Scope, selfId: string | null, ids: string[]) {
  const wanted = [...new Set(ids)];
  const found = await risksByIds(db, scope, wanted);
  const missing = wanted.filter((id) => id === selfId || !found.some((risk) => risk.id === id));
  if (missing.length > 0) throw invalidLinks(missing);
  const inactive = found.filter((risk) => risk.state === 'INACTIVE');
  if (inactive.length > 0) throw relatedOnInactive(inactive.map((risk) => risk.publicId));
  return wanted;
}

const relatedOnInactive = (publicIds: string[]) =>
  validationFailed('RISK_RELATED_ON_INACTIVE', 'Related risks cannot be added to inactive risks', {
    field: 'relatedRiskIds',
    params: { 0: publicIds.join(', ') },
  });

/** Systems and line items of the same register's inventory (400 RISK_INVALID_LINKS naming the others). */
async function inventoryLinksFor(
  db: Db,
  scope: Scope,
  input: Pick<CreateInput, 'systemIds' | 'lineItemIds'>,
) {
  const links = { systemIds: unique(input.systemIds), lineItemIds: unique(input.lineItemIds) };
  const invalid = await invalidInventoryLinks(db, scope, links.systemIds ?? [], links.lineItemIds ?? []);
  if (invalid.length > 0) {
    throw validationFailed(
      'RISK_INVALID_LINKS',
      `Could not link to some invalid risks/systems: ${invalid.join(', ')}`,
      {
        field: links.systemIds?.includes(invalid[0]!) ? 'systemIds' : 'lineItemIds',
        params: { 0: invalid.join(', ') },
      },
    );
  }
  return links;
}

async function controlsFor(db: Db, scope: Scope, ids: string[]) {
  const wanted = [...new Set(ids)];
  const found = await controlsByIds(db, scope, wanted);
  const missing = wanted.filter((id) => !found.some((control) => control.id === id));
  if (missing.length > 0) {
    throw validationFailed('RISK_INVALID_LINKS', `Unknown controls ${missing.join(', ')}`, {
      field: 'controlIds',
      params: { 0: missing.join(', ') },
    });
  }
  return found;
}

// ---------------------------------------------------------------------------------------------------
// Scores

type ScoresInput = NonNullable<CreateInput['scores']>;
type ScoreInput = ScoresInput['inherentRisk'] | ScoresInput['controlStrength'];
const SCORE_LABELS: Record<RecommendedRiskScore, string> = {
  potentialImpact: 'potential impact',
  inherentRisk: 'inherent risk',
  controlStrength: 'control strength',
  residualRisk: 'residual risk',
};
const labelOf = (score: RecommendedRiskScore, value: string) =>
  score === 'controlStrength'
    ? CONTROL_STRENGTH_LABELS[value as ControlStrength]
    : RISK_LEVEL_LABELS[value as RiskLevel];

interface ScoreState extends RiskScoreValues {
  potentialImpactReason: string | null;
  inherentRiskReason: string | null;
  controlStrengthReason: string | null;
  residualRiskReason: string | null;
  riskDirection: string | null;
}

/**
 * Applies the scores sent to the current ones in dependency order: potential impact (recommended from
 * the linked systems) and likelihood, then inherent risk (recommended from them), control strength (from the linked controls), residual risk
 * (from inherent risk and control strength). A recommended score taken needs its inputs (400
 * RISK_SCORE_NEEDS_INPUTS); one set to another level than recommended needs a reason, which is kept
 * (400 RISK_SCORE_OVERRIDE_REASON_REQUIRED).
 */
export function applyScores(
  current: ScoreState,
  input: ScoresInput | undefined,
  controlScores: (ControlStrength | null)[],
  systemScores: SystemImpactScores[],
): ScoreState {
  const next: ScoreState = { ...current };
  if (!input) return next;
  if (input.likelihood !== undefined) next.likelihood = input.likelihood;
  if (input.riskDirection !== undefined) next.riskDirection = input.riskDirection;
  const apply = (score: RecommendedRiskScore, given: ScoreInput) => {
    const recommended = riskRecommendations(next, controlScores, systemScores)[score];
    const reasonKey = `${score}Reason` as const;
    if (!given) return;
    if (given.recommended) {
      if (!recommended) {
        throw validationFailed('RISK_SCORE_NEEDS_INPUTS', `A recommended ${score} needs its inputs`, {
          field: `scores.${score}`,
          params: { score: SCORE_LABELS[score], needs: RECOMMENDATION_NEEDS[score] },
        });
      }
      (next as unknown as Record<string, string | null>)[score] = recommended;
      next[reasonKey] = null;
      return;
    }
    if (given.value === undefined) return;
    const value = given.value;
    const reason = given.overrideReason?.trim() || null;
    if (value !== null && recommended && value !== recommended) {
      const kept = reason ?? (value === next[score] ? next[reasonKey] : null);
      if (!kept) {
        throw validationFailed('RISK_SCORE_OVERRIDE_REASON_REQUIRED', `Overriding ${score} needs a reason`, {
          field: `scores.${score}.overrideReason`,
          params: {
            score: SCORE_LABELS[score],
            recommended: labelOf(score, recommended),
          },
        });
      }
      next[reasonKey] = kept;
    } else {
      next[reasonKey] = null;
    }
    (next as unknown as Record<string, string | null>)[score] = value;
  };
  apply('potentialImpact', input.potentialImpact);
  apply('inherentRisk', input.inherentRisk);
  apply('controlStrength', input.controlStrength);
  apply('residualRisk', input.residualRisk);
  return next;
}

const SCORE_COLUMNS = [
  'potentialImpact',
  'potentialImpactReason',
  'likelihood',
  'inherentRisk',
  'inherentRiskReason',
  'controlStrength',
  'controlStrengthReason',
  'residualRisk',
  'residualRiskReason',
  'riskDirection',
] as const;

const scoreStateOf = (row: Pick<RiskRow, (typeof SCORE_COLUMNS)[number]>): ScoreState =>
  Object.fromEntries(SCORE_COLUMNS.map((column) => [column, row[column]])) as unknown as ScoreState;

const EMPTY_SCORES: ScoreState = scoreStateOf(
  Object.fromEntries(SCORE_COLUMNS.map((column) => [column, null])) as Pick<
    RiskRow,
    (typeof SCORE_COLUMNS)[number]
  >,
);

// ---------------------------------------------------------------------------------------------------
// Changes

async function scopeForWrite(db: Db, access: AccessContext, library: boolean): Promise<Scope> {
  if (!library) return orgScope(access);
  await assertProviderAdmin(db, access);
  return LIBRARY;
}

export async function createRisk(
  db: Db,
  actor: Actor,
  input: CreateInput,
  library = false,
): Promise<RiskDetail> {
  const { access } = actor;
  const scope = await scopeForWrite(db, access, library);
  if (!library) assertModulesEntitled(access, input.modules);
  await assertRefs(db, scope, input);
  assertTimeZone(input.timeZoneId);
  assertMitigation(input.response ?? null, input.mitigationPlan ?? '');
  const relatedIds = await relatedFor(db, scope, null, input.relatedRiskIds ?? []);
  const controls = await controlsFor(db, scope, input.controlIds ?? []);
  const inventoryLinks = await inventoryLinksFor(db, scope, input);
  const scores = applyScores(
    EMPTY_SCORES,
    input.scores,
    controls.map((control) => control.overallScore as ControlStrength | null),
    await impactScoresOf(db, inventoryLinks.systemIds ?? []),
  );
  const row = await db.transaction(async (tx) => {
    const number = await nextNumber(tx, scope, 'risk');
    const created = await insertRisk(tx, {
      orgId: 'orgId' in scope ? scope.orgId : null,
      library,
      number,
      publicId: publicIdOf('risk', number, library),
      name: input.name,
      definition: input.definition ?? '',
      keyRisk: input.keyRisk ?? false,
      showInPreview: input.showInPreview ?? false,
      riskEventType: input.riskEventType ?? null,
      riskEventSubType: input.riskEventSubType || null,
      causeCategory: input.causeCategory ?? null,
      causeSubType: input.causeSubType || null,
      consequence: input.consequence ?? null,
      consequenceSubType: input.consequenceSubType || null,
      ermConnections: [...new Set(input.ermConnections ?? [])],
      response: input.response ?? null,
      mitigationPlan: input.mitigationPlan ?? '',
      businessOwnerId: input.businessOwnerId ?? null,
      businessUnitIds: unique(input.businessUnitIds) ?? [],
      watcherIds: unique(input.watcherIds) ?? [],
      auditIds: unique(input.auditIds) ?? [],
      policyIds: unique(input.policyIds) ?? [],
      tagIds: unique(input.tagIds) ?? [],
      modules: [...new Set(input.modules)],
      exception: input.exception ?? false,
      dueDate: input.dueDate ?? null,
      timeZoneId: input.dueDate
        ? (input.timeZoneId ?? access.org.settings.emailTimezone)
        : (input.timeZoneId ?? null),
      ...scores,
      createdBy: access.user.id,
    });
    await replaceRelated(tx, created.id, relatedIds);
    await replaceControlsOfRisk(
      tx,
      created.id,
      controls.map((control) => control.id),
    );
    await replaceInventoryLinksOfRisk(tx, created.id, inventoryLinks);
    await recordRisk(tx, actor, created, 'CREATED', { name: created.name });
    return created;
  });
  return getRisk(db, access, scope, row.id);
}

/** Locks the risk and checks the version read: 409 RISK_MODIFIED when it moved on. */
async function lockedAt(tx: Db, scope: Scope, id: string, version: number): Promise<RiskRow> {
  const row = await lockRisk(tx, scope, id);
  if (!row) throw riskNotFound();
  if (row.version !== version) {
    throw conflict('RISK_MODIFIED', 'The risk was modified while editing', {
      params: { version: row.version },
    });
  }
  return row;
}

const sameList = (a: readonly string[], b: readonly string[]) =>
  [...a].sort().join() === [...b].sort().join();

const PLAIN_FIELDS = [
  'keyRisk',
  'showInPreview',
  'riskEventType',
  'riskEventSubType',
  'causeCategory',
  'causeSubType',
  'consequence',
  'consequenceSubType',
  'mitigationPlan',
  'businessOwnerId',
  'exception',
  'dueDate',
  'timeZoneId',
] as const;
const LIST_FIELDS = [
  'ermConnections',
  'businessUnitIds',
  'watcherIds',
  'auditIds',
  'policyIds',
  'tagIds',
  'modules',
] as const;

export async function updateRisk(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: string,
  input: UpdateInput,
): Promise<RiskDetail> {
  const { access } = actor;
  const current = await riskIn(db, scope, ref);
  if ('library' in scope) await assertProviderAdmin(db, access);
  else if (input.modules) assertModulesEntitled(access, input.modules);
  await assertRefs(db, scope, input);
  assertTimeZone(input.timeZoneId);
  const relatedIds = input.relatedRiskIds && (await relatedFor(db, scope, current.id, input.relatedRiskIds));
  const controls = input.controlIds && (await controlsFor(db, scope, input.controlIds));
  const inventoryLinks = await inventoryLinksFor(db, scope, input);

  await db.transaction(async (tx) => {
    const row = await lockedAt(tx, scope, current.id, input.version);
    const values: Partial<RiskRow> = {};
    const fields: string[] = [];
    for (const field of PLAIN_FIELDS) {
      const given = input[field];
      if (given === undefined) continue;
      const value = typeof given === 'string' && field.endsWith('SubType') ? given || null : given;
      if (value !== row[field]) {
        (values as Record<string, unknown>)[field] = value;
        fields.push(field);
      }
    }
    for (const field of LIST_FIELDS) {
      const given = unique(input[field] as string[] | undefined);
      if (given && !sameList(given, row[field])) {
        (values as Record<string, unknown>)[field] = given;
        fields.push(field);
      }
    }
    if (values.dueDate && !(values.timeZoneId ?? row.timeZoneId)) {
      values.timeZoneId = access.org.settings.emailTimezone;
    }
    const response = input.response === undefined ? row.response : input.response;
    assertMitigation(response, values.mitigationPlan ?? row.mitigationPlan);

    // Links first: control strength is recommended from the controls linked after this change.
    let linkChange: Record<string, unknown> | null = null;
    if (relatedIds) {
      const before = (await listRelated(tx, row.id)).map((risk) => risk.id);
      const added = relatedIds.filter((id) => !before.includes(id));
      if (added.length > 0 && row.state === 'INACTIVE') throw relatedOnInactive([row.publicId]);
      if (!sameList(before, relatedIds)) {
        await replaceRelated(tx, row.id, relatedIds);
        linkChange = { relatedRiskIds: { added, removed: before.filter((id) => !relatedIds.includes(id)) } };
      }
    }
    if (controls) {
      const before = (await controlsOfRisk(tx, row.id)).map((control) => control.id);
      const ids = controls.map((control) => control.id);
      if (!sameList(before, ids)) {
        await replaceControlsOfRisk(tx, row.id, ids);
        linkChange = {
          ...linkChange,
          controlIds: {
            added: ids.filter((id) => !before.includes(id)),
            removed: before.filter((id) => !ids.includes(id)),
          },
        };
      }
    }
    const linkedSystems = {
      systemIds: (await systemsOfRisk(tx, row.id)).map((system) => system.id),
      lineItemIds: (await lineItemsOfRisk(tx, row.id)).map((line) => line.id),
    };
    for (const key of ['systemIds', 'lineItemIds'] as const) {
      const ids = inventoryLinks[key];
      const before = linkedSystems[key];
      if (!ids || sameList(before, ids)) continue;
      await replaceInventoryLinksOfRisk(tx, row.id, { [key]: ids });
      linkChange = {
        ...linkChange,
        [key]: {
          added: ids.filter((id) => !before.includes(id)),
          removed: before.filter((id) => !ids.includes(id)),
        },
      };
    }
    const controlScores = (await controlsOfRisk(tx, row.id)).map(
      (control) => control.overallScore as ControlStrength | null,
    );
    const before = scoreStateOf(row);
    const systemScores = await impactScoresOf(tx, inventoryLinks.systemIds ?? linkedSystems.systemIds);
    const after = applyScores(before, input.scores, controlScores, systemScores);
    const scoreChanges: Record<string, { from: unknown; to: unknown; reason?: string | null }> = {};
    for (const column of SCORE_COLUMNS) {
      if (column.endsWith('Reason') || after[column] === before[column]) continue;
      const reasonKey = `${column}Reason` as keyof ScoreState;
      scoreChanges[column] = {
        from: before[column],
        to: after[column],
        ...(reasonKey in after && { reason: after[reasonKey] }),
      };
    }
    for (const column of SCORE_COLUMNS) {
      if (after[column] !== before[column]) (values as Record<string, unknown>)[column] = after[column];
    }

    // Saving the scores (changed or confirmed as they are) answers a request to revisit them.
    const revisited = input.scores !== undefined && row.revisitScores !== null;
    if (revisited) values.revisitScores = null;

    if (input.name !== undefined && input.name !== row.name) values.name = input.name;
    if (input.definition !== undefined && input.definition !== row.definition)
      values.definition = input.definition;
    if (input.response !== undefined && input.response !== row.response) values.response = input.response;
    if (Object.keys(values).length === 0 && !linkChange) return;
    await updateRiskRow(tx, row.id, values);
    if (values.name !== undefined)
      await recordRisk(tx, actor, row, 'NAME', { from: row.name, to: values.name });
    if (values.definition !== undefined) await recordRisk(tx, actor, row, 'DEFINITION', {});
    if (values.response !== undefined) {
      await recordRisk(tx, actor, row, 'RESPONSE', { from: row.response, to: values.response });
    }
    if (Object.keys(scoreChanges).length > 0) await recordRisk(tx, actor, row, 'SCORE', scoreChanges);
    if (revisited) {
      await recordRisk(tx, actor, row, 'REVISIT', {
        done: true,
        incidents: row.revisitScores!.incidents.map((incident) => incident.slug),
      });
    }
    if (fields.length > 0) await recordRisk(tx, actor, row, 'FIELDS', { fields });
    if (linkChange) await recordRisk(tx, actor, row, 'LINKS', linkChange);
  });
  return getRisk(db, access, scope, current.id);
}

/**
 * Active or inactive. Deactivating a risk linked to other risks needs `confirmRemoveLinks` (409
 * RISK_DEACTIVATE_CONFIRM_LINKS names them); the links are then removed.
 */
export async function changeRiskState(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: string,
  input: StateInput,
): Promise<RiskDetail> {
  const current = await riskIn(db, scope, ref);
  if ('library' in scope) await assertProviderAdmin(db, actor.access);
  await db.transaction(async (tx) => {
    const row = await lockedAt(tx, scope, current.id, input.version);
    if (row.state === input.state) {
      throw conflict('RISK_SAME_STATE', `The risk is already ${input.state}`, {
        params: { state: input.state },
      });
    }
    const related = input.state === 'INACTIVE' ? await listRelated(tx, row.id) : [];
    if (related.length > 0 && !input.confirmRemoveLinks) {
      throw conflict('RISK_DEACTIVATE_CONFIRM_LINKS', 'Deactivating removes the links to other risks', {
        params: { 0: related.map((risk) => risk.publicId).join(', '), count: related.length },
        validValues: related.map((risk) => risk.publicId),
      });
    }
    if (related.length > 0) await removeAllLinks(tx, row.id);
    await updateRiskRow(tx, row.id, { state: input.state });
    await recordRisk(tx, actor, row, 'STATE', {
      from: row.state,
      to: input.state,
      ...(related.length > 0 && { removedLinks: related.map((risk) => risk.publicId) }),
    });
  });
  return getRisk(db, actor.access, scope, current.id);
}

const LIBRARY_CONTENT = [
  'name',
  'definition',
  'keyRisk',
  'showInPreview',
  'riskEventType',
  'riskEventSubType',
  'causeCategory',
  'causeSubType',
  'consequence',
  'consequenceSubType',
  'ermConnections',
  'response',
  'mitigationPlan',
  ...SCORE_COLUMNS,
] as const;

/**
 * Copies library risks into the organisation's register, skipping those it already holds (one copy
 * per library risk); only the modules the organisation holds come along. 409
 * RISK_COPY_ALREADY_IN_REGISTER when every one was there already.
 */
export async function copyLibraryRisks(db: Db, actor: Actor, ids: string[]): Promise<RiskCopyResult> {
  const { access } = actor;
  const held = modulesOf(access);
  const wanted = [...new Set(ids)];
  const sources = await Promise.all(wanted.map((id) => findRisk(db, LIBRARY, id)));
  const missing = wanted.filter((_, index) => !sources[index]);
  if (missing.length > 0) throw riskNotFound();
  const { alreadyInRegister, toCopy } = await libraryCopyPlan(db, risks, access.org.id, sources as RiskRow[]);
  for (const source of toCopy) {
    if (!source.modules.some((module) => held.includes(module as RiskModule))) {
      assertModulesEntitled(access, source.modules as RiskModule[]);
    }
  }
  const copied = await db.transaction(async (tx) => {
    const out: RiskCopyResult['copied'] = [];
    for (const source of toCopy) {
      const number = await nextNumber(tx, orgScope(access), 'risk');
      const content = Object.fromEntries(LIBRARY_CONTENT.map((field) => [field, source[field]]));
      const row = await insertRisk(tx, {
        ...(content as Partial<RiskRow>),
        name: source.name,
        orgId: access.org.id,
        library: false,
        copiedFromId: source.id,
        number,
        publicId: publicIdOf('risk', number),
        modules: source.modules.filter((module) => held.includes(module as RiskModule)),
        createdBy: access.user.id,
      });
      await recordRisk(tx, actor, row, 'COPIED', { from: source.publicId });
      out.push({ id: row.id, publicId: row.publicId, name: row.name });
    }
    return out;
  });
  return { copied, alreadyInRegister };
}

/** Takes the library risk's current content again, keeping the register's links, people and lists. */
export async function resyncRisk(db: Db, actor: Actor, ref: string, version: number): Promise<RiskDetail> {
  const current = await riskIn(db, orgScope(actor.access), ref);
  const source = current.copiedFromId ? await findRisk(db, LIBRARY, current.copiedFromId) : undefined;
  if (!source) {
    throw validationFailed('RISK_NOT_COPIED_FROM_LIBRARY', 'The risk was not copied from the library');
  }
  await db.transaction(async (tx) => {
    const row = await lockedAt(tx, orgScope(actor.access), current.id, version);
    const content = Object.fromEntries(LIBRARY_CONTENT.map((field) => [field, source[field]]));
    await updateRiskRow(tx, row.id, content as Partial<RiskRow>);
    await recordRisk(tx, actor, row, 'COPIED', { from: source.publicId, resync: true });
  });
  return getRisk(db, actor.access, orgScope(actor.access), current.id);
}
