import { readFile } from 'node:fs/promises';
import {
  CROSSWALK_TARGET,
  EVIDENCE_FILES_LIMIT,
  type ControlAnswer,
  type ControlAnswerStatus,
  type FrameworkControlUpdate,
  type EvaluationPeriod,
  type EvaluationPeriodInput,
  type EvaluationPeriodState,
  type Evidence,
  type EvidenceInput,
  type FrameworkDetail,
  type FrameworkSource,
  type FrameworkUpdate,
  type FrameworkSummary,
  type LibraryFramework,
  type CarryOverResult,
  type PeriodComparison,
  type TicketKind,
  type TriggerDomain,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { recordActivity } from '../../platform/audit/audit';
import { accessDenied, AppError, conflict, validationFailed } from '../../platform/errors';
import type { SpooledFile } from '../../platform/uploads';
import { getReport, reportPdf } from '../reports/service';
import { checkedContentType, safeFileName } from '../tickets/file-types';
import { mayHoldTickets, ticketView } from '../tickets/service';
import { currentTriggerVersions, triggerView } from '../triggers/service';
import { crosswalkSources, crosswalkSuggestions } from './crosswalk';
import { frameworkLibrary, libraryEntry } from './library';
import {
  adoptedLibraryKeys,
  countControls,
  countEvidenceFiles,
  deleteEvidence,
  deleteFrameworkRow,
  findControl,
  findEvidence,
  findFramework,
  findPeriod,
  insertEvidence,
  insertFramework,
  insertPeriod,
  listAnswers,
  listControls,
  listEvidence,
  listFrameworkRows,
  listPeriodRows,
  listSections,
  lockFramework,
  periodsAnsweringNotApplicable,
  lockFrameworkPeriods,
  updateControl as updateControlRow,
  updateFramework,
  updatePeriod,
  updateSection,
  suggestAnswer,
  upsertAnswer,
  userNames,
  type AnswerRow,
  type FrameworkRow,
  type PeriodRow,
} from './repo';
import type { FrameworkTemplate } from './template';

export interface Actor {
  access: AccessContext;
  ip?: string;
}

const orgOf = (actor: Actor) => actor.access.org.id;

export const frameworkNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_FRAMEWORK_NOT_FOUND', 'Framework not found');
export const periodNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_PERIOD_NOT_FOUND', 'Evaluation period not found');
const controlNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_CONTROL_NOT_FOUND', 'Control not found');
const evidenceNotFound = () =>
  new AppError('NotFoundException', 'GOVERNANCE_EVIDENCE_NOT_FOUND', 'Evidence not found');

export async function audit(
  db: Db,
  actor: Actor,
  action: string,
  targetType: string,
  id: string,
  details = {},
) {
  await recordActivity(db, {
    orgId: orgOf(actor),
    actorUserId: actor.access.user.id,
    action,
    targetType,
    targetId: id,
    details,
    ip: actor.ip,
  });
}

// Frameworks

export async function listLibrary(db: Db, orgId: string): Promise<LibraryFramework[]> {
  const adopted = await adoptedLibraryKeys(db, orgId);
  return frameworkLibrary().map((item) => ({
    key: item.key,
    name: item.template.name,
    version: item.template.version,
    description: item.template.description,
    publisher: item.publisher,
    sectionCount: item.sectionCount,
    controlCount: item.controlCount,
    adoptedId: adopted.get(item.key) ?? null,
  }));
}

async function storeFramework(
  db: Db,
  actor: Actor,
  source: FrameworkSource,
  libraryKey: string | null,
  template: FrameworkTemplate,
): Promise<FrameworkDetail> {
  const id = await db.transaction(async (tx) => {
    const frameworkId = await insertFramework(
      tx,
      orgOf(actor),
      { libraryKey, source, createdBy: actor.access.user.id },
      template,
    );
    await audit(tx, actor, 'governance.framework.added', 'framework', frameworkId, {
      name: template.name,
      source,
      libraryKey,
    });
    return frameworkId;
  });
  return getFramework(db, orgOf(actor), id);
}

/** Adopts a library framework; an organisation holds each library framework once. */
export async function adoptFramework(db: Db, actor: Actor, key: string): Promise<FrameworkDetail> {
  const item = libraryEntry(key);
  if (!item) {
    throw new AppError(
      'NotFoundException',
      'GOVERNANCE_LIBRARY_FRAMEWORK_NOT_FOUND',
      `No library framework ${key}`,
    );
  }
  if ((await adoptedLibraryKeys(db, orgOf(actor))).has(key)) {
    throw conflict('GOVERNANCE_FRAMEWORK_ALREADY_ADOPTED', `${key} is adopted already`);
  }
  try {
    return await storeFramework(db, actor, 'library', key, item.template);
  } catch (error) {
    // Two adoptions at once: the unique index lets one through.
    if (
      (error as { cause?: { code?: string } }).cause?.code === '23505' ||
      (error as { code?: string }).code === '23505'
    ) {
      throw conflict('GOVERNANCE_FRAMEWORK_ALREADY_ADOPTED', `${key} is adopted already`);
    }
    throw error;
  }
}

export const importFramework = (db: Db, actor: Actor, template: FrameworkTemplate) =>
  storeFramework(db, actor, 'oscal', null, template);

function summaryOf(
  row: FrameworkRow,
  counts: { sectionCount: number; controlCount: number },
  periods: { row: PeriodRow; answered: number }[],
): FrameworkSummary {
  const current = periods.find(
    (period) => period.row.frameworkId === row.id && period.row.state === 'IN_PROGRESS',
  );
  return {
    id: row.id,
    name: row.name,
    version: row.version,
    description: row.description,
    source: row.source as FrameworkSource,
    libraryKey: row.libraryKey,
    tiers: row.tiers,
    targetTier: row.targetTier,
    sectionCount: counts.sectionCount,
    controlCount: counts.controlCount,
    currentPeriod: current
      ? { id: current.row.id, name: current.row.name, endsOn: current.row.endsOn, answered: current.answered }
      : null,
    createdOn: row.createdOn.toISOString(),
  };
}

export async function listFrameworks(db: Db, orgId: string): Promise<FrameworkSummary[]> {
  const [rows, periods] = await Promise.all([listFrameworkRows(db, orgId), listPeriodRows(db, orgId)]);
  return rows.map(({ row, ...counts }) => summaryOf(row, counts, periods));
}

async function frameworkOf(db: Db, orgId: string, id: string): Promise<FrameworkRow> {
  const row = await findFramework(db, orgId, id);
  if (!row) throw frameworkNotFound();
  return row;
}

export async function getFramework(db: Db, orgId: string, id: string): Promise<FrameworkDetail> {
  const row = await frameworkOf(db, orgId, id);
  const [sections, controls, periods] = await Promise.all([
    listSections(db, orgId, id),
    listControls(db, orgId, id),
    listPeriodRows(db, orgId, id),
  ]);
  // An alertable control follows its trigger across versions (an edit of its alert conditions).
  const triggers = await currentTriggerVersions(
    db,
    orgId,
    controls.map((control) => control.triggerId),
  );
  return {
    ...summaryOf(row, { sectionCount: sections.length, controlCount: controls.length }, periods),
    riskProfile: row.riskProfile ?? null,
    sections: sections.map((section) => ({
      id: section.id,
      parentId: section.parentId,
      ref: section.ref,
      title: section.title,
      description: section.description,
      targetTier: section.targetTier,
    })),
    controls: controls.map((control) => {
      const trigger = control.triggerId ? triggers.get(control.triggerId)?.view.row : undefined;
      return {
        id: control.id,
        sectionId: control.sectionId,
        ref: control.ref,
        title: control.title,
        statement: control.statement,
        examples: control.examples,
        mandatory: control.mandatory,
        alertable: control.alertable,
        triggerId: trigger?.id ?? control.triggerId,
        triggerName: trigger?.name ?? null,
        triggerDomain: (trigger?.domain as TriggerDomain | undefined) ?? null,
      };
    }),
  };
}

function assertTier(framework: FrameworkRow, tier: string) {
  if (!framework.tiers.includes(tier)) {
    throw validationFailed('GOVERNANCE_TIER_UNKNOWN', `${tier} is not a tier of the framework`, {
      field: 'targetTier',
      params: { tier },
      validValues: framework.tiers,
    });
  }
}

const targetExists = () =>
  conflict('GOVERNANCE_TIER_TARGET_EXISTS', 'A tier target exists for the framework or a parent section');

/**
 * Sets or clears a target tier of the framework (`sectionId` null) or of a section. A target is held
 * at one level of a branch only: not on a section when the framework or a section above it has one
 * (the spec's rule), nor on the framework or a section when one below it has one.
 */
export async function setTarget(
  db: Db,
  actor: Actor,
  frameworkId: string,
  sectionId: string | null,
  tier: string | null,
): Promise<FrameworkDetail> {
  const orgId = orgOf(actor);
  await db.transaction(async (tx) => {
    const framework = await lockFramework(tx, orgId, frameworkId);
    if (!framework) throw frameworkNotFound();
    if (tier !== null) assertTier(framework, tier);
    const sections = await listSections(tx, orgId, frameworkId);
    if (sectionId === null) {
      if (tier !== null && sections.some((section) => section.targetTier !== null)) throw targetExists();
      await updateFramework(tx, orgId, frameworkId, { targetTier: tier });
    } else {
      const byId = new Map(sections.map((section) => [section.id, section]));
      const section = byId.get(sectionId);
      if (!section) {
        throw new AppError('NotFoundException', 'GOVERNANCE_SECTION_NOT_FOUND', 'Section not found');
      }
      if (tier !== null) {
        if (framework.targetTier !== null) throw targetExists();
        for (
          let parent = byId.get(section.parentId ?? '');
          parent;
          parent = byId.get(parent.parentId ?? '')
        ) {
          if (parent.targetTier !== null) throw targetExists();
        }
        const below = (id: string): boolean =>
          sections.some((child) => child.parentId === id && (child.targetTier !== null || below(child.id)));
        if (below(sectionId)) throw targetExists();
      }
      await updateSection(tx, orgId, sectionId, { targetTier: tier });
    }
    await audit(tx, actor, 'governance.target.set', 'framework', frameworkId, { sectionId, tier });
  });
  return getFramework(db, orgId, frameworkId);
}

/** Renames a framework or changes its description. */
export async function updateFrameworkDetails(
  db: Db,
  actor: Actor,
  frameworkId: string,
  patch: FrameworkUpdate,
): Promise<FrameworkDetail> {
  const orgId = orgOf(actor);
  await db.transaction(async (tx) => {
    const framework = await lockFramework(tx, orgId, frameworkId);
    if (!framework) throw frameworkNotFound();
    if (Object.keys(patch).length === 0) return;
    await updateFramework(tx, orgId, frameworkId, patch);
    await audit(tx, actor, 'governance.framework.updated', 'framework', frameworkId, {
      before: { name: framework.name, description: framework.description },
      after: patch,
    });
  });
  return getFramework(db, orgId, frameworkId);
}

/**
 * Replaces the maturity tiers (lowest first). A tier held as a target or assessed in any period,
 * finalized ones included, must stay under its name: removing or renaming it would orphan the record.
 */
export async function setFrameworkTiers(
  db: Db,
  actor: Actor,
  frameworkId: string,
  tiers: string[],
): Promise<FrameworkDetail> {
  const orgId = orgOf(actor);
  const seen = new Set<string>();
  for (const tier of tiers) {
    if (seen.has(tier.toLowerCase())) {
      throw validationFailed('GOVERNANCE_TIERS_DUPLICATE', `${tier} is listed twice`, {
        field: 'tiers',
        params: { tier },
      });
    }
    seen.add(tier.toLowerCase());
  }
  await db.transaction(async (tx) => {
    const framework = await lockFramework(tx, orgId, frameworkId);
    if (!framework) throw frameworkNotFound();
    const [sections, periods] = await Promise.all([
      listSections(tx, orgId, frameworkId),
      lockFrameworkPeriods(tx, orgId, frameworkId),
    ]);
    const used = [
      framework.targetTier,
      ...sections.map((section) => section.targetTier),
      ...periods.flatMap((period) => Object.values(period.tiers)),
    ];
    const orphaned = used.find((tier) => tier !== null && !tiers.includes(tier));
    if (orphaned) {
      throw conflict('GOVERNANCE_TIER_IN_USE', `${orphaned} is a target or an assessed tier`, {
        field: 'tiers',
        params: { tier: orphaned },
      });
    }
    await updateFramework(tx, orgId, frameworkId, { tiers });
    await audit(tx, actor, 'governance.framework.tiers', 'framework', frameworkId, {
      before: framework.tiers,
      after: tiers,
    });
  });
  return getFramework(db, orgId, frameworkId);
}

/**
 * Deletes a framework with its sections, controls and periods in progress (answers, evidence and
 * automatic evidence). A finalized period is an examiner record: a framework holding one is refused.
 */
export async function deleteFramework(db: Db, actor: Actor, frameworkId: string) {
  const orgId = orgOf(actor);
  await db.transaction(async (tx) => {
    const framework = await lockFramework(tx, orgId, frameworkId);
    if (!framework) throw frameworkNotFound();
    // Locked so that no period is finalized between this check and the delete.
    const periods = await lockFrameworkPeriods(tx, orgId, frameworkId);
    const kept = periods.find((period) => period.state === 'FINALIZED');
    if (kept) {
      throw conflict(
        'GOVERNANCE_FRAMEWORK_HAS_FINALIZED_PERIOD',
        `${framework.name} has the finalized period ${kept.name}`,
        { params: { name: framework.name, period: kept.name } },
      );
    }
    await deleteFrameworkRow(tx, orgId, frameworkId);
    await audit(tx, actor, 'governance.framework.deleted', 'framework', frameworkId, {
      name: framework.name,
      libraryKey: framework.libraryKey,
      periods: periods.map((period) => period.name),
    });
  });
}

/**
 * Marks a control mandatory or alertable; an alertable control names a trigger of the organisation. A
 * control answered N/A in a period in progress cannot become mandatory until that answer changes.
 */
export async function updateControl(
  db: Db,
  actor: Actor,
  frameworkId: string,
  controlId: string,
  patch: FrameworkControlUpdate,
): Promise<FrameworkDetail> {
  const orgId = orgOf(actor);
  await frameworkOf(db, orgId, frameworkId);
  const control = await findControl(db, orgId, frameworkId, controlId);
  if (!control) throw controlNotFound();
  const next = {
    mandatory: patch.mandatory ?? control.mandatory,
    alertable: patch.alertable ?? control.alertable,
    triggerId: patch.triggerId === undefined ? control.triggerId : patch.triggerId,
  };
  if (next.alertable && next.triggerId === null) {
    throw validationFailed('GOVERNANCE_ALERTABLE_NEEDS_TRIGGER', 'An alertable control needs a trigger', {
      field: 'triggerId',
    });
  }
  if (next.triggerId !== null && next.triggerId !== control.triggerId) {
    try {
      await triggerView(db, actor.access, next.triggerId);
    } catch (error) {
      if (error instanceof AppError && error.status < 500) {
        throw validationFailed('GOVERNANCE_INVALID_TRIGGER', 'Not a trigger of the organisation', {
          field: 'triggerId',
        });
      }
      throw error;
    }
  }
  await db.transaction(async (tx) => {
    if (next.mandatory && !control.mandatory) {
      const periods = await periodsAnsweringNotApplicable(tx, orgId, frameworkId, controlId);
      if (periods.length > 0) {
        throw validationFailed(
          'GOVERNANCE_MANDATORY_ANSWERED_NOT_APPLICABLE',
          `The control is answered N/A in ${periods.join(', ')}`,
          { field: 'mandatory', params: { periods: periods.join(', ') } },
        );
      }
    }
    await updateControlRow(tx, orgId, controlId, next);
    await audit(tx, actor, 'governance.control.updated', 'control', controlId, next);
  });
  return getFramework(db, orgId, frameworkId);
}

// Evaluation periods

async function periodJson(
  db: Db,
  orgId: string,
  row: PeriodRow,
  answered: number,
  controlCount?: number,
): Promise<EvaluationPeriod> {
  const names = await userNames(db, [row.finalizedBy, ...row.extensions.map((extension) => extension.by)]);
  return {
    id: row.id,
    frameworkId: row.frameworkId,
    name: row.name,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    state: row.state as EvaluationPeriodState,
    extensions: row.extensions.map((extension) => ({
      months: extension.months,
      at: extension.at,
      byName: extension.by ? (names.get(extension.by) ?? null) : null,
    })),
    finalizedOn: row.finalizedOn?.toISOString() ?? null,
    finalizedByName: row.finalizedBy ? (names.get(row.finalizedBy) ?? null) : null,
    tiers: row.tiers,
    riskProfile: row.riskProfile,
    answered,
    controlCount: controlCount ?? (await countControls(db, orgId, row.frameworkId)),
    createdOn: row.createdOn.toISOString(),
  };
}

export async function listPeriods(db: Db, orgId: string, frameworkId: string): Promise<EvaluationPeriod[]> {
  await frameworkOf(db, orgId, frameworkId);
  const [rows, controlCount] = await Promise.all([
    listPeriodRows(db, orgId, frameworkId),
    countControls(db, orgId, frameworkId),
  ]);
  return Promise.all(rows.map(({ row, answered }) => periodJson(db, orgId, row, answered, controlCount)));
}

export async function getPeriod(db: Db, orgId: string, id: string): Promise<EvaluationPeriod> {
  const row = await findPeriod(db, orgId, id);
  if (!row) throw periodNotFound();
  const answers = await listAnswers(db, orgId, id);
  return periodJson(db, orgId, row, answers.filter((answer) => answer.status !== null).length);
}

function assertDates(startsOn: string, endsOn: string) {
  if (startsOn >= endsOn) {
    throw validationFailed('GOVERNANCE_PERIOD_INVALID_DATES', 'The start must be before the end', {
      field: 'endsOn',
    });
  }
}

export async function createPeriod(
  db: Db,
  actor: Actor,
  frameworkId: string,
  input: EvaluationPeriodInput,
): Promise<EvaluationPeriod> {
  const orgId = orgOf(actor);
  await frameworkOf(db, orgId, frameworkId);
  assertDates(input.startsOn, input.endsOn);
  const row = await db.transaction(async (tx) => {
    const created = await insertPeriod(tx, { orgId, frameworkId, ...input, createdBy: actor.access.user.id });
    await audit(tx, actor, 'governance.period.created', 'evaluation-period', created.id, { ...input });
    return created;
  });
  return periodJson(db, orgId, row, 0);
}

const finalized = () =>
  conflict('GOVERNANCE_PERIOD_FINALIZED', 'The evaluation period is finalized and read-only');

/**
 * Runs a change of a period in progress: the period is locked first, so a change and the period's
 * finalization never cross; a finalized period refuses every change.
 */
export async function changePeriod<T>(
  db: Db,
  actor: Actor,
  periodId: string,
  change: (tx: Db, period: PeriodRow) => Promise<T>,
): Promise<T> {
  return db.transaction(async (tx) => {
    const period = await findPeriod(tx, orgOf(actor), periodId, true);
    if (!period) throw periodNotFound();
    if (period.state === 'FINALIZED') throw finalized();
    return change(tx, period);
  });
}

/** The date `months` after `isoDate` (YYYY-MM-DD), on the month's last day when it has fewer days. */
export function addMonths(isoDate: string, months: number): string {
  const [year, month, day] = isoDate.split('-').map(Number) as [number, number, number];
  const lastDay = new Date(Date.UTC(year, month - 1 + months + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month - 1 + months, Math.min(day, lastDay))).toISOString().slice(0, 10);
}

export async function extendPeriod(db: Db, actor: Actor, periodId: string, months: number) {
  await changePeriod(db, actor, periodId, async (tx, period) => {
    const endsOn = addMonths(period.endsOn, months);
    await updatePeriod(tx, period.orgId, period.id, {
      endsOn,
      extensions: [...period.extensions, { months, at: new Date().toISOString(), by: actor.access.user.id }],
    });
    await audit(tx, actor, 'governance.period.extended', 'evaluation-period', period.id, { months, endsOn });
  });
  return getPeriod(db, orgOf(actor), periodId);
}

export async function finalizePeriod(db: Db, actor: Actor, periodId: string) {
  await changePeriod(db, actor, periodId, async (tx, period) => {
    await updatePeriod(tx, period.orgId, period.id, {
      state: 'FINALIZED',
      finalizedOn: new Date(),
      finalizedBy: actor.access.user.id,
    });
    await audit(tx, actor, 'governance.period.finalized', 'evaluation-period', period.id);
  });
  return getPeriod(db, orgOf(actor), periodId);
}

/** Records the maturity tier assessed in a period for a section, or the framework (`sectionId` null). */
export async function setPeriodTier(
  db: Db,
  actor: Actor,
  periodId: string,
  sectionId: string | null,
  tier: string | null,
) {
  await changePeriod(db, actor, periodId, async (tx, period) => {
    const framework = await frameworkOf(tx, period.orgId, period.frameworkId);
    if (tier !== null) assertTier(framework, tier);
    if (sectionId !== null) {
      const sections = await listSections(tx, period.orgId, period.frameworkId);
      if (!sections.some((section) => section.id === sectionId)) {
        throw new AppError('NotFoundException', 'GOVERNANCE_SECTION_NOT_FOUND', 'Section not found');
      }
    }
    const key = sectionId ?? 'framework';
    const tiers = { ...period.tiers };
    if (tier === null) delete tiers[key];
    else tiers[key] = tier;
    await updatePeriod(tx, period.orgId, period.id, { tiers });
    await audit(tx, actor, 'governance.period.tier', 'evaluation-period', period.id, { sectionId, tier });
  });
  return getPeriod(db, orgOf(actor), periodId);
}

/** Rates the framework's inherent risk profile categories in a period (FFIEC CAT). */
export async function setPeriodRiskProfile(
  db: Db,
  actor: Actor,
  periodId: string,
  levels: Record<string, string>,
) {
  await changePeriod(db, actor, periodId, async (tx, period) => {
    const framework = await frameworkOf(tx, period.orgId, period.frameworkId);
    const profile = framework.riskProfile;
    for (const [category, value] of Object.entries(levels)) {
      if (!profile?.categories.some((item) => item.ref === category) || !profile.levels.includes(value)) {
        throw validationFailed('GOVERNANCE_RISK_PROFILE_INVALID', `Invalid level for ${category}`, {
          field: 'levels',
          params: { category, value },
          validValues: profile?.levels ?? [],
        });
      }
    }
    await updatePeriod(tx, period.orgId, period.id, { riskProfile: levels });
    await audit(tx, actor, 'governance.period.risk-profile', 'evaluation-period', period.id, { levels });
  });
  return getPeriod(db, orgOf(actor), periodId);
}

// Answers and evidence

async function answersJson(
  db: Db,
  orgId: string,
  periodId: string,
  controlId?: string,
): Promise<ControlAnswer[]> {
  const [answers, evidence] = await Promise.all([
    listAnswers(db, orgId, periodId, controlId),
    listEvidence(db, orgId, periodId, controlId),
  ]);
  const names = await userNames(db, [
    ...answers.flatMap((answer) => [answer.ownerId, answer.modifiedBy]),
    ...evidence.map((item) => item.row.createdBy),
  ]);
  const name = (id: string | null) => (id ? (names.get(id) ?? null) : null);
  const byControl = new Map<string, Evidence[]>();
  for (const { row, ticketSlug, ticketKind } of evidence) {
    const list = byControl.get(row.controlId) ?? [];
    list.push({
      id: row.id,
      kind: row.kind as Evidence['kind'],
      name: row.name,
      url: row.url,
      ticket:
        row.ticketId && ticketSlug && ticketKind
          ? { id: row.ticketId, kind: ticketKind, slug: ticketSlug }
          : null,
      contentType: row.contentType,
      size: row.size,
      createdByName: name(row.createdBy),
      createdOn: row.createdOn.toISOString(),
    });
    byControl.set(row.controlId, list);
  }
  const answered = new Map(answers.map((answer) => [answer.controlId, answer]));
  const controlIds = new Set([...answered.keys(), ...byControl.keys()]);
  return [...controlIds].map((id) => {
    const answer = answered.get(id);
    return {
      controlId: id,
      status: (answer?.status as ControlAnswerStatus | null) ?? null,
      ownerId: answer?.ownerId ?? null,
      ownerName: name(answer?.ownerId ?? null),
      notes: answer?.notes ?? '',
      suggestion:
        answer?.suggestedStatus && answer.suggestedFrom
          ? { status: answer.suggestedStatus as ControlAnswerStatus, from: answer.suggestedFrom }
          : null,
      evidence: byControl.get(id) ?? [],
      modifiedByName: name(answer?.modifiedBy ?? null),
      modifiedOn: answer?.modifiedOn?.toISOString() ?? null,
    };
  });
}

export async function periodView(db: Db, orgId: string, periodId: string) {
  const period = await findPeriod(db, orgId, periodId);
  if (!period) throw periodNotFound();
  return period;
}

/** The answers of a period: every control answered or holding evidence. */
export async function listPeriodAnswers(db: Db, orgId: string, periodId: string) {
  await periodView(db, orgId, periodId);
  return answersJson(db, orgId, periodId);
}

const emptyAnswer = (controlId: string): ControlAnswer => ({
  controlId,
  status: null,
  ownerId: null,
  ownerName: null,
  notes: '',
  suggestion: null,
  evidence: [],
  modifiedByName: null,
  modifiedOn: null,
});

async function controlAnswer(db: Db, orgId: string, periodId: string, controlId: string) {
  const [answer] = await answersJson(db, orgId, periodId, controlId);
  return answer ?? emptyAnswer(controlId);
}

export async function controlOfPeriod(db: Db, period: PeriodRow, controlId: string) {
  const control = await findControl(db, period.orgId, period.frameworkId, controlId);
  if (!control) throw controlNotFound();
  return control;
}

/** Answers a control in a period in progress; a mandatory control cannot be N/A. Clears any suggestion. */
export async function answerControl(
  db: Db,
  actor: Actor,
  periodId: string,
  controlId: string,
  input: { status: ControlAnswerStatus | null; ownerId: string | null; notes: string },
): Promise<ControlAnswer> {
  const orgId = orgOf(actor);
  await changePeriod(db, actor, periodId, async (tx, period) => {
    const control = await controlOfPeriod(tx, period, controlId);
    if (control.mandatory && input.status === 'NOT_APPLICABLE') {
      throw validationFailed('GOVERNANCE_MANDATORY_NOT_APPLICABLE', 'A mandatory control cannot be N/A', {
        field: 'status',
      });
    }
    if (input.ownerId !== null && !(await mayHoldTickets(tx, orgId, input.ownerId))) {
      throw validationFailed('GOVERNANCE_INVALID_OWNER', 'The owner is not a user of the organisation', {
        field: 'ownerId',
      });
    }
    await upsertAnswer(tx, {
      periodId,
      controlId,
      orgId,
      ...input,
      suggestedStatus: null,
      suggestedFrom: null,
      modifiedBy: actor.access.user.id,
      modifiedOn: new Date(),
    });
    await audit(tx, actor, 'governance.answer.saved', 'evaluation-period', periodId, { controlId, ...input });
  });
  return controlAnswer(db, orgId, periodId, controlId);
}

/** A ticket of the organisation by slug, of either kind. */
async function ticketBySlug(db: Db, orgId: string, slug: string) {
  for (const kind of ['incident', 'task'] as TicketKind[]) {
    try {
      return (await ticketView(db, orgId, kind, slug)).row;
    } catch (error) {
      if (!(error instanceof AppError && error.key === 'TICKET_NOT_FOUND')) throw error;
    }
  }
  throw validationFailed('GOVERNANCE_EVIDENCE_TICKET_NOT_FOUND', `No ticket ${slug}`, {
    field: 'slug',
    params: { slug },
  });
}

/**
 * A completed report of the organisation, read with REPORT_VIEW, named with its range: its PDF is
 * copied into the evidence, so that the evidence stays as it was whatever becomes of the report.
 */
async function completedReport(db: Db, access: AccessContext, reportId: string) {
  if (!access.permissions.has('REPORT_VIEW')) {
    throw accessDenied('PERMISSION_DENIED', 'Attaching a report needs the REPORT_VIEW permission');
  }
  const report = await getReport(db, access.org.id, reportId).catch((error: unknown) => {
    if (error instanceof AppError && error.key === 'REPORT_NOT_FOUND') {
      throw validationFailed('GOVERNANCE_EVIDENCE_REPORT_NOT_FOUND', 'No such report', { field: 'reportId' });
    }
    throw error;
  });
  if (report.state !== 'COMPLETED') {
    throw validationFailed('GOVERNANCE_EVIDENCE_REPORT_NOT_COMPLETED', `${report.name} is not completed`, {
      field: 'reportId',
      params: { name: report.name },
    });
  }
  const { content } = await reportPdf(db, access.org.id, reportId);
  return { name: `${report.name} (${report.begin.slice(0, 10)} to ${report.end.slice(0, 10)})`, content };
}

/** Adds a link, a ticket or a report as evidence of a control in a period in progress. */
export async function addEvidence(
  db: Db,
  actor: Actor,
  periodId: string,
  controlId: string,
  input: EvidenceInput,
): Promise<ControlAnswer> {
  const orgId = orgOf(actor);
  await changePeriod(db, actor, periodId, async (tx, period) => {
    await controlOfPeriod(tx, period, controlId);
    const base = { orgId, periodId, controlId, createdBy: actor.access.user.id };
    if (input.kind === 'link') {
      await insertEvidence(tx, { ...base, kind: 'link', name: input.name, url: input.url });
    } else if (input.kind === 'report') {
      const report = await completedReport(tx, actor.access, input.reportId);
      await insertEvidence(tx, {
        ...base,
        kind: 'report',
        name: report.name,
        contentType: 'application/pdf',
        size: report.content.length,
        content: report.content,
      });
    } else {
      const ticket = await ticketBySlug(tx, orgId, input.slug);
      await insertEvidence(tx, { ...base, kind: 'ticket', name: ticket.title, ticketId: ticket.id });
    }
    await audit(tx, actor, 'governance.evidence.added', 'evaluation-period', periodId, {
      controlId,
      ...input,
    });
  });
  return controlAnswer(db, orgId, periodId, controlId);
}

/**
 * Attaches uploaded files as evidence, with the rules of ticket files: each file's bytes must match an
 * accepted type (415 TICKET_FILE_UNSUPPORTED_TYPE naming it), and a control keeps fewer than 50 files
 * per period. Nothing is written when one is refused.
 */
export async function addEvidenceFiles(
  db: Db,
  actor: Actor,
  periodId: string,
  controlId: string,
  uploaded: SpooledFile[],
): Promise<ControlAnswer> {
  const orgId = orgOf(actor);
  if (uploaded.length === 0)
    throw validationFailed('TICKET_FILE_NO_FILE', 'No file uploaded', { field: 'file' });
  const checked: { file: SpooledFile; name: string; contentType: string }[] = [];
  for (const file of uploaded) {
    const name = safeFileName(file.filename);
    const contentType = checkedContentType(name, await readFile(file.path));
    if (!contentType) {
      throw new AppError(
        'UnsupportedMediaTypeException',
        'TICKET_FILE_UNSUPPORTED_TYPE',
        `${name} is not accepted`,
        {
          field: 'file',
          params: { 0: name },
        },
      );
    }
    checked.push({ file, name, contentType });
  }
  await changePeriod(db, actor, periodId, async (tx, period) => {
    await controlOfPeriod(tx, period, controlId);
    if ((await countEvidenceFiles(tx, orgId, periodId, controlId)) + checked.length >= EVIDENCE_FILES_LIMIT) {
      throw validationFailed('GOVERNANCE_EVIDENCE_TOO_MANY_FILES', 'Too many evidence files', {
        field: 'file',
        params: { limit: EVIDENCE_FILES_LIMIT },
      });
    }
    for (const { file, name, contentType } of checked) {
      await insertEvidence(tx, {
        orgId,
        periodId,
        controlId,
        kind: 'file',
        name,
        contentType,
        size: file.bytes,
        content: await readFile(file.path),
        createdBy: actor.access.user.id,
      });
    }
    await audit(tx, actor, 'governance.evidence.added', 'evaluation-period', periodId, {
      controlId,
      files: checked.map((item) => item.name),
    });
  });
  return controlAnswer(db, orgId, periodId, controlId);
}

export async function removeEvidence(db: Db, actor: Actor, periodId: string, evidenceId: string) {
  const orgId = orgOf(actor);
  const controlId = await changePeriod(db, actor, periodId, async (tx) => {
    const evidence = await findEvidence(tx, orgId, periodId, evidenceId);
    if (!evidence) throw evidenceNotFound();
    await deleteEvidence(tx, orgId, evidenceId);
    await audit(tx, actor, 'governance.evidence.removed', 'evaluation-period', periodId, {
      controlId: evidence.controlId,
      name: evidence.name,
    });
    return evidence.controlId;
  });
  return controlAnswer(db, orgId, periodId, controlId);
}

export async function evidenceFile(db: Db, orgId: string, periodId: string, evidenceId: string) {
  const evidence = await findEvidence(db, orgId, periodId, evidenceId);
  if (!evidence || !['file', 'report'].includes(evidence.kind) || !evidence.content) throw evidenceNotFound();
  return {
    name: evidence.kind === 'report' ? `${evidence.name}.pdf` : evidence.name,
    contentType: evidence.contentType ?? 'application/octet-stream',
    content: evidence.content,
  };
}

/** The answers of two periods of one framework side by side, control by control in catalog order. */
export async function comparePeriods(
  db: Db,
  orgId: string,
  fromId: string,
  toId: string,
): Promise<PeriodComparison> {
  const [from, to] = await Promise.all([getPeriod(db, orgId, fromId), getPeriod(db, orgId, toId)]);
  if (from.frameworkId !== to.frameworkId) {
    throw validationFailed('GOVERNANCE_PERIOD_COMPARE_OTHER_FRAMEWORK', 'Periods of different frameworks', {
      field: 'to',
    });
  }
  const [controls, fromAnswers, toAnswers] = await Promise.all([
    listControls(db, orgId, from.frameworkId),
    listAnswers(db, orgId, fromId),
    listAnswers(db, orgId, toId),
  ]);
  const statusOf = (answers: AnswerRow[]) =>
    new Map(answers.map((answer) => [answer.controlId, answer.status as ControlAnswerStatus | null]));
  const fromStatus = statusOf(fromAnswers);
  const toStatus = statusOf(toAnswers);
  return {
    from,
    to,
    rows: controls.map((row) => ({
      controlId: row.id,
      ref: row.ref,
      title: row.title,
      from: fromStatus.get(row.id) ?? null,
      to: toStatus.get(row.id) ?? null,
    })),
  };
}

/**
 * Carries the answers of a CAT or CPG period over to a CSF 2.0 period in progress as suggestions:
 * each CSF control not answered yet gets the weakest mapped answer, to review and save. Nothing is
 * answered on the user's behalf.
 */
export async function carryOverAnswers(
  db: Db,
  actor: Actor,
  periodId: string,
  fromPeriodId: string,
): Promise<CarryOverResult> {
  const orgId = orgOf(actor);
  return changePeriod(db, actor, periodId, async (tx, period) => {
    const source = await findPeriod(tx, orgId, fromPeriodId);
    if (!source) throw periodNotFound();
    const [target, from] = await Promise.all([
      frameworkOf(tx, orgId, period.frameworkId),
      frameworkOf(tx, orgId, source.frameworkId),
    ]);
    if (target.libraryKey !== CROSSWALK_TARGET || !crosswalkSources().includes(from.libraryKey ?? '')) {
      throw validationFailed('GOVERNANCE_CROSSWALK_UNSUPPORTED', 'No crosswalk between these frameworks', {
        field: 'fromPeriodId',
      });
    }
    const [sourceControls, sourceAnswers, targetControls] = await Promise.all([
      listControls(tx, orgId, from.id),
      listAnswers(tx, orgId, source.id),
      listControls(tx, orgId, target.id),
    ]);
    const refOf = new Map(sourceControls.map((row) => [row.id, row.ref]));
    const suggestions = crosswalkSuggestions(
      from.libraryKey!,
      sourceAnswers.flatMap((answer) =>
        answer.status
          ? [{ ref: refOf.get(answer.controlId)!, status: answer.status as ControlAnswerStatus }]
          : [],
      ),
    );
    let suggested = 0;
    let alreadyAnswered = 0;
    for (const row of targetControls) {
      const suggestion = suggestions.get(row.ref);
      if (!suggestion) continue;
      const stored = await suggestAnswer(tx, {
        orgId,
        periodId,
        controlId: row.id,
        status: suggestion.status,
        from: `${source.name} (${from.name}: ${suggestion.from.join(', ')})`,
      });
      if (stored) suggested++;
      else alreadyAnswered++;
    }
    await audit(tx, actor, 'governance.period.carried-over', 'evaluation-period', periodId, {
      fromPeriodId,
      suggested,
    });
    return { suggested, alreadyAnswered };
  });
}
