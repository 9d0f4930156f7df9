import {
  AUTO_EVIDENCE_HISTORY_LENGTH,
  AUTO_EVIDENCE_LIMITS,
  AUTO_EVIDENCE_SOURCES_LIMIT,
  DEFAULT_ORG_SETTINGS,
  todayIn,
  type AutoEvidenceHistory,
  type AutoEvidenceInput,
  type AutoEvidenceKind,
  type AutoEvidenceSource,
  type AutoEvidenceState,
} from '@vigil/contracts';
import { and, asc, count, desc, eq, getTableColumns, inArray, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { AppError, validationFailed } from '../../platform/errors';
import type { JobRunner } from '../../platform/jobs';
import { ownedAssetShare } from '../assets/repo';
import { findOrg } from '../orgs/repo';
import { reviewSchedulesNotLate } from '../risk/reviews';
import { ticketsDoneInTime } from '../tickets/summaries';
import { currentTriggerVersions } from '../triggers/service';
import { triggerRunsSince } from '../triggers/summaries';
import { policyReviewsNotLate } from './policies';
import { audit, changePeriod, controlOfPeriod, periodView, type Actor } from './service';
import { counted, days } from './wording';
import { governanceEvidenceEvaluations, governanceEvidenceSources, governancePeriods } from './tables';

type SourceRow = typeof governanceEvidenceSources.$inferSelect;
interface Measured {
  state: AutoEvidenceState;
  reason: string;
  figures: Record<string, number | string | null>;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Incidents without an SLA or due date count against a deadline this many days after creation. */
const INCIDENT_DEFAULT_DAYS = 30;

const sourceNotFound = () =>
  new AppError(
    'NotFoundException',
    'GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND',
    'Automatic evidence source not found',
  );

function assertInRange(
  field: 'window' | 'threshold',
  value: number | null,
  range: { min: number; max: number },
) {
  if (value === null || value < range.min || value > range.max) {
    throw validationFailed(
      'GOVERNANCE_AUTO_EVIDENCE_INVALID',
      `${field} must be ${range.min} to ${range.max}`,
      {
        field,
        params: { field, ...range },
      },
    );
  }
}

const percent = (part: number, whole: number) => Math.floor((part * 100) / whole);

/** Measures one source on Vigil's data now. */
export async function measure(db: Db, source: SourceRow, now = new Date()): Promise<Measured> {
  const kind = source.kind as AutoEvidenceKind;
  if (kind === 'TRIGGER_ACTIVE') {
    // The trigger's current version, its runs counted with those of the versions before it in the window.
    const version = source.triggerId
      ? (await currentTriggerVersions(db, source.orgId, [source.triggerId])).get(source.triggerId)
      : undefined;
    if (!version) return { state: 'FAILING', reason: 'The trigger no longer exists.', figures: {} };
    const { view } = version;
    const runs = await triggerRunsSince(
      db,
      version.versionIds,
      new Date(now.getTime() - source.window * HOUR_MS),
    );
    const figures = {
      trigger: view.row.name,
      state: view.row.state,
      runs: runs.runs,
      failedRuns: runs.failed,
      alertsRaised: runs.alertsRaised,
      lastRunAt: runs.lastRunAt?.toISOString() ?? null,
    };
    if (view.row.state === 'DELETED')
      return { state: 'FAILING', reason: `${view.row.name} was deleted.`, figures };
    if (view.row.state !== 'ACTIVE')
      return { state: 'FAILING', reason: `${view.row.name} is ${view.row.state}, not active.`, figures };
    if (runs.runs === 0)
      return {
        state: 'FAILING',
        reason: `${view.row.name} has not run in the last ${source.window} h.`,
        figures,
      };
    if (runs.failed > 0)
      return {
        state: 'FAILING',
        reason: `${runs.failed} of ${counted(runs.runs, 'run', 'runs')} of ${view.row.name} failed in the last ${source.window} h: ${runs.lastError}`,
        figures,
      };
    return {
      state: 'PASSING',
      reason: `${view.row.name} is active and ran ${runs.runs === 1 ? 'once' : `${runs.runs} times`} without error in the last ${source.window} h.`,
      figures,
    };
  }
  if (kind === 'REVIEWS_DONE') {
    // Review schedules of risks and risk controls, and the review intervals of policies: a policy
    // whose review is overdue counts as a review not done.
    const org = await findOrg(db, source.orgId);
    const today = todayIn(org?.settings.emailTimezone ?? DEFAULT_ORG_SETTINGS.emailTimezone, now);
    const [risk, policies] = await Promise.all([
      reviewSchedulesNotLate(db, source.orgId, today),
      policyReviewsNotLate(db, source.orgId, today),
    ]);
    const total = risk.total + policies.total;
    const late = total - risk.onTime - policies.onTime;
    const figures = { schedules: risk.total, policies: policies.total, late };
    if (total === 0) return { state: 'UNKNOWN', reason: 'No review schedule is set.', figures };
    if (late > 0) {
      const reason = `${late} of ${counted(total, 'review', 'reviews')} ${late === 1 ? 'is' : 'are'} late.`;
      return { state: 'FAILING', reason, figures };
    }
    const reason = total === 1 ? 'The one review is not late.' : `None of ${total} reviews is late.`;
    return { state: 'PASSING', reason, figures };
  }
  const since = new Date(now.getTime() - source.window * DAY_MS);
  const threshold = source.threshold ?? 100;
  const [part, whole, what] =
    kind === 'INCIDENTS_WITHIN_SLA'
      ? await ticketsDoneInTime(db, {
          orgId: source.orgId,
          kind: 'incident',
          since,
          defaultDays: INCIDENT_DEFAULT_DAYS,
          doneStates: ['RESOLVED', 'CLOSED', 'INVALID'],
        }).then((done) => [done.onTime, done.total, ['incident due', 'incidents due']] as const)
      : await ownedAssetShare(db, source.orgId, since).then(
          (share) => [share.owned, share.seen, ['asset seen', 'assets seen']] as const,
        );
  const label = kind === 'INCIDENTS_WITHIN_SLA' ? 'within their SLA' : 'with an owner';
  if (whole === 0)
    return {
      state: 'UNKNOWN',
      reason: `No ${what[1]} in the last ${days(source.window)}.`,
      figures: { total: 0, met: 0, percent: null, threshold },
    };
  const share = percent(part, whole);
  const figures = { total: whole, met: part, percent: share, threshold };
  const text =
    `${part} of ${counted(whole, what[0], what[1])} in the last ${days(source.window)} ${label} ` +
    `(${share}%, threshold ${threshold}%).`;
  return { state: share >= threshold ? 'PASSING' : 'FAILING', reason: text, figures };
}

/** Measures a source now and records the evaluation. */
export async function evaluateSource(db: Db, source: SourceRow, now = new Date()) {
  const result = await measure(db, source, now);
  await db.insert(governanceEvidenceEvaluations).values({ sourceId: source.id, ...result });
}

const evaluationJson = (evaluation: typeof governanceEvidenceEvaluations.$inferSelect) => ({
  state: evaluation.state as AutoEvidenceState,
  reason: evaluation.reason,
  figures: evaluation.figures,
  evaluatedOn: evaluation.evaluatedOn.toISOString(),
});

const newestFirst = [desc(governanceEvidenceEvaluations.evaluatedOn), desc(governanceEvidenceEvaluations.id)];

async function sourcesJson(db: Db, rows: SourceRow[]): Promise<AutoEvidenceSource[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id);
  // Only the latest evaluations of each source are read; older ones are paged (`autoEvidenceHistory`).
  const ranked = db
    .select({
      ...getTableColumns(governanceEvidenceEvaluations),
      rank: sql<number>`row_number() over (partition by ${governanceEvidenceEvaluations.sourceId} order by ${governanceEvidenceEvaluations.evaluatedOn} desc, ${governanceEvidenceEvaluations.id} desc)`.as(
        'rank',
      ),
    })
    .from(governanceEvidenceEvaluations)
    .where(inArray(governanceEvidenceEvaluations.sourceId, ids))
    .as('ranked');
  const [evaluations, totals, triggers] = await Promise.all([
    db
      .select()
      .from(ranked)
      .where(lte(ranked.rank, AUTO_EVIDENCE_HISTORY_LENGTH))
      .orderBy(asc(ranked.sourceId), asc(ranked.rank)),
    db
      .select({ sourceId: governanceEvidenceEvaluations.sourceId, total: count() })
      .from(governanceEvidenceEvaluations)
      .where(inArray(governanceEvidenceEvaluations.sourceId, ids))
      .groupBy(governanceEvidenceEvaluations.sourceId),
    currentTriggerVersions(
      db,
      rows[0]!.orgId,
      rows.map((row) => row.triggerId),
    ),
  ]);
  const totalOf = new Map(totals.map((row) => [row.sourceId, row.total]));
  return rows.map((row) => ({
    id: row.id,
    controlId: row.controlId,
    kind: row.kind as AutoEvidenceKind,
    triggerId: (row.triggerId && triggers.get(row.triggerId)?.view.row.id) ?? row.triggerId,
    triggerName: (row.triggerId && triggers.get(row.triggerId)?.view.row.name) ?? null,
    window: row.window,
    threshold: row.threshold,
    history: evaluations.filter((evaluation) => evaluation.sourceId === row.id).map(evaluationJson),
    historyTotal: totalOf.get(row.id) ?? 0,
  }));
}

const sourcesOf = (db: Db, orgId: string, periodId: string, controlId?: string) =>
  db
    .select()
    .from(governanceEvidenceSources)
    .where(
      and(
        eq(governanceEvidenceSources.orgId, orgId),
        eq(governanceEvidenceSources.periodId, periodId),
        controlId ? eq(governanceEvidenceSources.controlId, controlId) : undefined,
      ),
    )
    .orderBy(asc(governanceEvidenceSources.createdOn), asc(governanceEvidenceSources.id));

/** What a source measures, in words (the evidence report). */
export function describeSource(source: AutoEvidenceSource): string {
  switch (source.kind) {
    case 'TRIGGER_ACTIVE':
      return `${source.triggerName ?? 'A removed trigger'} active and running (last ${source.window} h)`;
    case 'INCIDENTS_WITHIN_SLA':
      return `Incidents within SLA at least ${source.threshold}% (last ${days(source.window)})`;
    case 'ASSETS_INVENTORIED':
      return `Assets with an owner at least ${source.threshold}% (seen in the last ${days(source.window)})`;
    case 'REVIEWS_DONE':
      return 'No risk, control or policy review late';
  }
}

/** The automatic evidence sources of a period (of one control when given), each with its latest evaluations. */
export async function listAutoEvidence(db: Db, orgId: string, periodId: string, controlId?: string) {
  await periodView(db, orgId, periodId);
  return sourcesJson(db, await sourcesOf(db, orgId, periodId, controlId));
}

/** One page of a source's evaluations, newest first, with how many it holds in all. */
export async function autoEvidenceHistory(
  db: Db,
  orgId: string,
  periodId: string,
  sourceId: string,
  page: { pageSize: number; pageNumber: number },
): Promise<AutoEvidenceHistory> {
  await periodView(db, orgId, periodId);
  const source = await sourceOfPeriod(db, orgId, periodId, sourceId);
  const ofSource = eq(governanceEvidenceEvaluations.sourceId, source.id);
  const [items, [counted]] = await Promise.all([
    db
      .select()
      .from(governanceEvidenceEvaluations)
      .where(ofSource)
      .orderBy(...newestFirst)
      .limit(page.pageSize)
      .offset((page.pageNumber - 1) * page.pageSize),
    db.select({ total: count() }).from(governanceEvidenceEvaluations).where(ofSource),
  ]);
  return { items: items.map(evaluationJson), total: counted?.total ?? 0 };
}

export async function insertSource(db: Db, values: typeof governanceEvidenceSources.$inferInsert) {
  const [created] = await db.insert(governanceEvidenceSources).values(values).returning();
  return created!;
}

/**
 * Adds a source to a control of a period in progress and evaluates it at once. TRIGGER_ACTIVE names an
 * active or paused trigger of the organisation and looks back 1–720 hours; the others look back 1–365 days,
 * INCIDENTS_WITHIN_SLA and ASSETS_INVENTORIED with a threshold of 1–100 percent.
 */
export async function addAutoEvidence(
  db: Db,
  actor: Actor,
  periodId: string,
  controlId: string,
  input: AutoEvidenceInput,
): Promise<AutoEvidenceSource> {
  const orgId = actor.access.org.id;
  const row = await changePeriod(db, actor, periodId, async (tx, period) => {
    await controlOfPeriod(tx, period, controlId);
    const hours = input.kind === 'TRIGGER_ACTIVE';
    assertInRange(
      'window',
      input.window,
      hours ? AUTO_EVIDENCE_LIMITS.windowHours : AUTO_EVIDENCE_LIMITS.windowDays,
    );
    const measuresShare = input.kind === 'INCIDENTS_WITHIN_SLA' || input.kind === 'ASSETS_INVENTORIED';
    if (measuresShare) assertInRange('threshold', input.threshold, AUTO_EVIDENCE_LIMITS.threshold);
    let triggerId: string | null = null;
    if (hours) {
      const view = input.triggerId
        ? (await currentTriggerVersions(tx, orgId, [input.triggerId])).get(input.triggerId)?.view
        : undefined;
      if (!view || !['ACTIVE', 'PAUSED'].includes(view.row.state)) {
        throw validationFailed('GOVERNANCE_AUTO_EVIDENCE_TRIGGER_NOT_FOUND', 'No such trigger', {
          field: 'triggerId',
        });
      }
      triggerId = view.row.id;
    }
    const [held] = await tx
      .select({ count: count() })
      .from(governanceEvidenceSources)
      .where(
        and(
          eq(governanceEvidenceSources.periodId, periodId),
          eq(governanceEvidenceSources.controlId, controlId),
        ),
      );
    if ((held?.count ?? 0) >= AUTO_EVIDENCE_SOURCES_LIMIT) {
      throw validationFailed('GOVERNANCE_AUTO_EVIDENCE_TOO_MANY', 'Too many automatic evidence sources', {
        params: { limit: AUTO_EVIDENCE_SOURCES_LIMIT },
      });
    }
    const created = await insertSource(tx, {
      orgId,
      periodId,
      controlId,
      kind: input.kind,
      triggerId,
      window: input.window,
      threshold: measuresShare ? input.threshold : null,
      createdBy: actor.access.user.id,
    });
    await audit(tx, actor, 'governance.auto-evidence.added', 'evaluation-period', periodId, {
      controlId,
      ...input,
    });
    return created;
  });
  await evaluateSource(db, row);
  const [json] = await sourcesJson(db, [row]);
  return json!;
}

async function sourceOfPeriod(tx: Db, orgId: string, periodId: string, sourceId: string) {
  const [row] = await tx
    .select()
    .from(governanceEvidenceSources)
    .where(
      and(
        eq(governanceEvidenceSources.orgId, orgId),
        eq(governanceEvidenceSources.periodId, periodId),
        eq(governanceEvidenceSources.id, sourceId),
      ),
    );
  if (!row) throw sourceNotFound();
  return row;
}

/** Removes a source and its history from a period in progress. */
export async function removeAutoEvidence(db: Db, actor: Actor, periodId: string, sourceId: string) {
  await changePeriod(db, actor, periodId, async (tx) => {
    const row = await sourceOfPeriod(tx, actor.access.org.id, periodId, sourceId);
    await tx.delete(governanceEvidenceSources).where(eq(governanceEvidenceSources.id, row.id));
    await audit(tx, actor, 'governance.auto-evidence.removed', 'evaluation-period', periodId, {
      controlId: row.controlId,
      kind: row.kind,
    });
  });
}

/** Evaluates a source now ("Evaluate now"), while its period is in progress. */
export async function evaluateAutoEvidence(db: Db, actor: Actor, periodId: string, sourceId: string) {
  const row = await changePeriod(db, actor, periodId, (tx) =>
    sourceOfPeriod(tx, actor.access.org.id, periodId, sourceId),
  );
  await evaluateSource(db, row);
  const [json] = await sourcesJson(db, [row]);
  return json!;
}

/** Evaluates every source of the periods in progress; the daily job. */
export async function evaluateAllAutoEvidence(db: Db, now = new Date()) {
  const rows = await db
    .select({ source: governanceEvidenceSources })
    .from(governanceEvidenceSources)
    .innerJoin(governancePeriods, eq(governancePeriods.id, governanceEvidenceSources.periodId))
    .where(eq(governancePeriods.state, 'IN_PROGRESS'));
  for (const { source } of rows) await evaluateSource(db, source, now);
  return rows.length;
}

/** Daily evaluation of the automatic evidence of periods in progress. */
export function defineAutoEvidenceJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: 'governance.auto-evidence',
    cron: '41 4 * * *',
    handler: async () => void (await evaluateAllAutoEvidence(db)),
  });
}
