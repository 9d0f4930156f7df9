import type { controlCreateSchema, controlListQuerySchema, controlUpdateSchema } from '@vigil/contracts';
import {
  CONTROL_EVIDENCE_LIMIT,
  CONTROL_STRENGTH_LABELS,
  publicIdOf,
  recommendedOverallScore,
  type Control,
  type ControlDetail,
  type ControlStrength,
  type RiskCopyResult,
  type RiskHistoryKind,
} from '@vigil/contracts';
import { readFile } from 'node:fs/promises';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';
import { assertProviderAdmin } from '../dashboards/service';
import { checkedContentType, safeFileName } from '../tickets/file-types';
import { triggersByIds } from '../triggers/summaries';
import {
  controlView,
  copiedIds,
  libraryCopyPlan,
  countEvidence,
  deleteEvidence,
  findControl,
  findEvidence,
  insertControl,
  insertEvidence,
  listControlRows,
  listEvidence,
  listHistory,
  lockControl,
  nextNumber,
  replaceRisksOfControl,
  riskIdsOfControl,
  risksByIds,
  risksOfControl,
  updateControlRow,
  type ControlRow,
  type Scope,
} from './repo';
import { assertActivePeople, LIBRARY, orgScope, recordControl, type Actor } from './service';
import { riskControls } from './tables';

type CreateInput = z.output<typeof controlCreateSchema>;
type UpdateInput = z.output<typeof controlUpdateSchema>;
type ListQuery = z.output<typeof controlListQuerySchema>;

export const controlNotFound = () =>
  new AppError('NotFoundException', 'RISK_CONTROL_NOT_FOUND', 'Control not found');

type ControlViewRow = Awaited<ReturnType<typeof controlView>>;

function toControl({ row, ownerName, riskCount }: ControlViewRow): Control {
  return {
    id: row.id,
    publicId: row.publicId,
    name: row.name,
    library: row.library,
    copiedFromId: row.copiedFromId,
    definition: row.definition,
    keyControl: row.keyControl,
    owner: row.ownerId ? { id: row.ownerId, name: ownerName ?? '' } : null,
    type: row.type as Control['type'],
    category: row.category as Control['category'],
    configuration: row.configuration as Control['configuration'],
    designEffectiveness: row.designEffectiveness as ControlStrength | null,
    operatingEffectiveness: row.operatingEffectiveness as ControlStrength | null,
    overallScore: {
      value: row.overallScore as ControlStrength | null,
      recommended: recommendedOverallScore(
        row.designEffectiveness as ControlStrength | null,
        row.operatingEffectiveness as ControlStrength | null,
      ),
      overrideReason: row.overallScoreReason,
    },
    riskCount,
    version: row.version,
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

export async function listControls(db: Db, scope: Scope, query: ListQuery) {
  const { rows, total } = await listControlRows(db, scope, query, query, {
    limit: query.pageSize,
    offset: (query.pageNumber - 1) * query.pageSize,
  });
  return { items: rows.map(toControl), total };
}

export async function controlIn(db: Db, scope: Scope, ref: string): Promise<ControlRow> {
  const row = await findControl(db, scope, ref);
  if (!row) throw controlNotFound();
  return row;
}

export async function getControl(
  db: Db,
  access: AccessContext,
  scope: Scope,
  ref: string,
): Promise<ControlDetail> {
  const row = await controlIn(db, scope, ref);
  const [view, linked, triggers, evidence, history, copied] = await Promise.all([
    controlView(db, row.id),
    risksOfControl(db, row.id),
    row.orgId ? triggersByIds(db, row.orgId, row.triggerIds) : [],
    listEvidence(db, row.id),
    listHistory(db, { controlId: row.id }),
    row.library ? copiedIds(db, riskControls, access.org.id, [row.id]) : new Set<string>(),
  ]);
  return {
    ...toControl(view),
    risks: linked.map((risk) => ({ ...risk, state: risk.state as 'ACTIVE' | 'INACTIVE' })),
    triggers,
    evidence: evidence.map((file) => ({ ...file, createdOn: file.createdOn.toISOString() })),
    inRegister: copied.has(row.id),
    history: history.map(({ entry, actorName }) => ({
      id: entry.id,
      kind: entry.kind as RiskHistoryKind,
      actorName,
      details: entry.details,
      at: entry.at.toISOString(),
    })),
  };
}

async function scopeForWrite(db: Db, access: AccessContext, library: boolean): Promise<Scope> {
  if (!library) return orgScope(access);
  await assertProviderAdmin(db, access);
  return LIBRARY;
}

async function assertOwner(db: Db, scope: Scope, ownerId: string | null | undefined) {
  if (!ownerId) return;
  await assertActivePeople(db, 'orgId' in scope ? scope.orgId : null, 'ownerId', 'owner', [ownerId]);
}

async function risksFor(db: Db, scope: Scope, ids: string[]) {
  const wanted = [...new Set(ids)];
  const found = await risksByIds(db, scope, wanted);
  const missing = wanted.filter((id) => !found.some((risk) => risk.id === id));
  if (missing.length > 0) {
    throw validationFailed(
      'RISK_INVALID_LINKS',
      `Could not link to some invalid risks: ${missing.join(', ')}`,
      {
        field: 'riskIds',
        params: { 0: missing.join(', ') },
      },
    );
  }
  return wanted;
}

/**
 * Triggers of the organisation (any state but deleted) related to a register control; library controls
 * have none. 400 RISK_INVALID_TRIGGERS names the others.
 */
async function triggersFor(db: Db, scope: Scope, ids: string[]) {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return wanted;
  const found = 'orgId' in scope ? await triggersByIds(db, scope.orgId, wanted) : [];
  const missing = wanted.filter((id) => !found.some((trigger) => trigger.id === id));
  if (missing.length > 0) {
    throw validationFailed(
      'RISK_INVALID_TRIGGERS',
      `Not triggers of the organisation: ${missing.join(', ')}`,
      {
        field: 'triggerIds',
        params: { 0: missing.join(', ') },
      },
    );
  }
  return wanted;
}

interface OverallState {
  designEffectiveness: string | null;
  operatingEffectiveness: string | null;
  overallScore: string | null;
  overallScoreReason: string | null;
}

/** The overall score as recommended from design and operating effectiveness, or overridden with a reason. */
function applyOverall(current: OverallState, input: CreateInput | UpdateInput): OverallState {
  const next = { ...current };
  if (input.designEffectiveness !== undefined) next.designEffectiveness = input.designEffectiveness;
  if (input.operatingEffectiveness !== undefined) next.operatingEffectiveness = input.operatingEffectiveness;
  const given = input.overallScore;
  if (!given) return next;
  const recommended = recommendedOverallScore(
    next.designEffectiveness as ControlStrength | null,
    next.operatingEffectiveness as ControlStrength | null,
  );
  if (given.recommended) {
    if (!recommended) {
      throw validationFailed('RISK_SCORE_NEEDS_INPUTS', 'A recommended overall score needs its inputs', {
        field: 'overallScore',
        params: { score: 'overall score', needs: 'design and operating effectiveness' },
      });
    }
    return { ...next, overallScore: recommended, overallScoreReason: null };
  }
  if (given.value === undefined) return next;
  const reason = given.overrideReason?.trim() || null;
  if (given.value !== null && recommended && given.value !== recommended) {
    const kept = reason ?? (given.value === next.overallScore ? next.overallScoreReason : null);
    if (!kept) {
      throw validationFailed(
        'RISK_SCORE_OVERRIDE_REASON_REQUIRED',
        'Overriding the overall score needs a reason',
        {
          field: 'overallScore.overrideReason',
          params: { score: 'overall score', recommended: CONTROL_STRENGTH_LABELS[recommended] },
        },
      );
    }
    return { ...next, overallScore: given.value, overallScoreReason: kept };
  }
  return { ...next, overallScore: given.value, overallScoreReason: null };
}

export async function createControl(
  db: Db,
  actor: Actor,
  input: CreateInput,
  library = false,
): Promise<ControlDetail> {
  const scope = await scopeForWrite(db, actor.access, library);
  await assertOwner(db, scope, input.ownerId);
  const riskIds = await risksFor(db, scope, input.riskIds ?? []);
  const triggerIds = await triggersFor(db, scope, input.triggerIds ?? []);
  const overall = applyOverall(
    { designEffectiveness: null, operatingEffectiveness: null, overallScore: null, overallScoreReason: null },
    input,
  );
  const row = await db.transaction(async (tx) => {
    const number = await nextNumber(tx, scope, 'control');
    const created = await insertControl(tx, {
      orgId: 'orgId' in scope ? scope.orgId : null,
      library,
      number,
      publicId: publicIdOf('control', number, library),
      name: input.name,
      definition: input.definition ?? '',
      keyControl: input.keyControl ?? false,
      ownerId: input.ownerId ?? null,
      type: input.type ?? null,
      category: input.category ?? null,
      configuration: input.configuration ?? null,
      triggerIds,
      ...overall,
      createdBy: actor.access.user.id,
    });
    await replaceRisksOfControl(tx, created.id, riskIds);
    await recordControl(tx, actor, created, 'CREATED', { name: created.name });
    return created;
  });
  return getControl(db, actor.access, scope, row.id);
}

const CONTROL_FIELDS = ['definition', 'keyControl', 'ownerId', 'type', 'category', 'configuration'] as const;

export async function updateControl(
  db: Db,
  actor: Actor,
  scope: Scope,
  ref: string,
  input: UpdateInput,
): Promise<ControlDetail> {
  const current = await controlIn(db, scope, ref);
  if ('library' in scope) await assertProviderAdmin(db, actor.access);
  await assertOwner(db, scope, input.ownerId);
  const riskIds = input.riskIds && (await risksFor(db, scope, input.riskIds));
  const triggerIds = input.triggerIds && (await triggersFor(db, scope, input.triggerIds));
  await db.transaction(async (tx) => {
    const row = await lockControl(tx, scope, current.id);
    if (!row) throw controlNotFound();
    if (row.version !== input.version) {
      throw conflict('RISK_MODIFIED', 'The control was modified while editing', {
        params: { version: row.version },
      });
    }
    const values: Partial<ControlRow> = {};
    const fields: string[] = [];
    for (const field of CONTROL_FIELDS) {
      if (input[field] !== undefined && input[field] !== row[field]) {
        (values as Record<string, unknown>)[field] = input[field];
        fields.push(field);
      }
    }
    const overall = applyOverall(row, input);
    const scoreChanges: Record<string, unknown> = {};
    for (const key of ['designEffectiveness', 'operatingEffectiveness', 'overallScore'] as const) {
      if (overall[key] !== row[key]) {
        scoreChanges[key] = { from: row[key], to: overall[key] };
        values[key] = overall[key];
      }
    }
    if (overall.overallScoreReason !== row.overallScoreReason) {
      values.overallScoreReason = overall.overallScoreReason;
      scoreChanges.reason = overall.overallScoreReason;
    }
    if (input.name !== undefined && input.name !== row.name) values.name = input.name;
    let linkChange: Record<string, unknown> | null = null;
    if (riskIds) {
      const before = await riskIdsOfControl(tx, row.id);
      if ([...before].sort().join() !== [...riskIds].sort().join()) {
        await replaceRisksOfControl(tx, row.id, riskIds);
        linkChange = {
          riskIds: {
            added: riskIds.filter((id) => !before.includes(id)),
            removed: before.filter((id) => !riskIds.includes(id)),
          },
        };
      }
    }
    if (triggerIds && [...row.triggerIds].sort().join() !== [...triggerIds].sort().join()) {
      values.triggerIds = triggerIds;
      linkChange = {
        ...linkChange,
        triggerIds: {
          added: triggerIds.filter((id) => !row.triggerIds.includes(id)),
          removed: row.triggerIds.filter((id) => !triggerIds.includes(id)),
        },
      };
    }
    if (Object.keys(values).length === 0 && !linkChange) return;
    await updateControlRow(tx, row.id, values);
    if (values.name !== undefined)
      await recordControl(tx, actor, row, 'NAME', { from: row.name, to: values.name });
    if (Object.keys(scoreChanges).length > 0) await recordControl(tx, actor, row, 'SCORE', scoreChanges);
    if (fields.length > 0) await recordControl(tx, actor, row, 'FIELDS', { fields });
    if (linkChange) await recordControl(tx, actor, row, 'LINKS', linkChange);
  });
  return getControl(db, actor.access, scope, current.id);
}

const CONTROL_CONTENT = [
  'definition',
  'keyControl',
  'type',
  'category',
  'configuration',
  'designEffectiveness',
  'operatingEffectiveness',
  'overallScore',
  'overallScoreReason',
] as const;

/** Copies library controls into the register, skipping those it holds (as for risks). */
export async function copyLibraryControls(db: Db, actor: Actor, ids: string[]): Promise<RiskCopyResult> {
  const { access } = actor;
  const wanted = [...new Set(ids)];
  const sources = await Promise.all(wanted.map((id) => findControl(db, LIBRARY, id)));
  if (sources.some((source) => !source)) throw controlNotFound();
  const { alreadyInRegister, toCopy } = await libraryCopyPlan(
    db,
    riskControls,
    access.org.id,
    sources as ControlRow[],
  );
  const copied = await db.transaction(async (tx) => {
    const out: RiskCopyResult['copied'] = [];
    for (const source of toCopy) {
      const number = await nextNumber(tx, orgScope(access), 'control');
      const content = Object.fromEntries(CONTROL_CONTENT.map((field) => [field, source[field]]));
      const row = await insertControl(tx, {
        ...(content as Partial<ControlRow>),
        name: source.name,
        orgId: access.org.id,
        copiedFromId: source.id,
        number,
        publicId: publicIdOf('control', number),
        createdBy: access.user.id,
      });
      await recordControl(tx, actor, row, 'COPIED', { from: source.publicId });
      out.push({ id: row.id, publicId: row.publicId, name: row.name });
    }
    return out;
  });
  return { copied, alreadyInRegister };
}

// ---------------------------------------------------------------------------------------------------
// Evidence files

/**
 * Stores evidence files on a register control: every file's bytes must match its type or nothing is
 * stored (415 RISK_EVIDENCE_UNSUPPORTED_TYPE); a control keeps fewer than 50 files.
 */
export async function addEvidence(db: Db, actor: Actor, ref: string, files: SpooledFile[]) {
  const scope = orgScope(actor.access);
  const control = await controlIn(db, scope, ref);
  if (files.length === 0) {
    throw validationFailed('RISK_EVIDENCE_NO_FILE', 'No file', { field: 'file' });
  }
  const checked: { name: string; contentType: string; content: Buffer }[] = [];
  for (const file of files) {
    const content = await readFile(file.path);
    const contentType = checkedContentType(file.filename, content);
    if (!contentType) {
      throw new AppError(
        'UnsupportedMediaTypeException',
        'RISK_EVIDENCE_UNSUPPORTED_TYPE',
        'Unsupported file',
        {
          params: { 0: file.filename },
          field: 'file',
        },
      );
    }
    checked.push({ name: safeFileName(file.filename), contentType, content });
  }
  await db.transaction(async (tx) => {
    const row = await lockControl(tx, scope, control.id);
    if (!row) throw controlNotFound();
    if ((await countEvidence(tx, row.id)) + checked.length >= CONTROL_EVIDENCE_LIMIT) {
      throw validationFailed('RISK_EVIDENCE_TOO_MANY', 'Too many evidence files', {
        field: 'file',
        params: { limit: CONTROL_EVIDENCE_LIMIT },
      });
    }
    for (const file of checked) {
      await insertEvidence(tx, {
        controlId: row.id,
        ...file,
        size: file.content.length,
        createdBy: actor.access.user.id,
      });
    }
    await recordControl(tx, actor, row, 'EVIDENCE', { added: checked.map((file) => file.name) });
  });
  return getControl(db, actor.access, scope, control.id);
}

export const evidenceNotFound = () =>
  new AppError('NotFoundException', 'RISK_EVIDENCE_NOT_FOUND', 'Evidence file not found');

export async function evidenceContent(db: Db, orgId: string, ref: string, fileId: string) {
  const control = await controlIn(db, { orgId }, ref);
  const file = await findEvidence(db, control.id, fileId);
  if (!file) throw evidenceNotFound();
  return file;
}

export async function removeEvidence(db: Db, actor: Actor, ref: string, fileId: string) {
  const scope = orgScope(actor.access);
  const control = await controlIn(db, scope, ref);
  await db.transaction(async (tx) => {
    const removed = await deleteEvidence(tx, control.id, fileId);
    if (!removed) throw evidenceNotFound();
    await recordControl(tx, actor, control, 'EVIDENCE', { removed: [removed.name] });
  });
  return getControl(db, actor.access, scope, control.id);
}
