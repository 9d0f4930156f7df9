import type {
  assessmentCreateSchema,
  assessmentListQuerySchema,
  assessmentUpdateSchema,
} from '@vigil/contracts';
import {
  ASSESSMENT_AGGREGATE_SCORES,
  ASSESSMENT_STATE_LABELS,
  ASSESSMENT_STATES,
  publicIdOf,
  recommendedAggregate,
  RISK_LEVEL_LABELS,
  RISK_MODULE_LABELS,
  unansweredMandatoryQuestions,
  type Assessment,
  type AssessmentDetail,
  type AssessmentItem,
  type AssessmentKind,
  type AssessmentList,
  type AssessmentState,
  type InventoryKind,
  type RiskLevel,
  type RiskModule,
} from '@vigil/contracts';
import { and, desc, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { z } from 'zod';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { PdfBuilder } from '../../platform/pdf/document';
import { nextNumber, peopleByIds, refWhere, scopeWhere } from './repo';
import type { AccessContext } from '../../platform/access';
import { assertModulesEntitled, modulesOf, type Actor } from './service';
import { riskAssessments, riskInventoryItems, risks } from './tables';

type CreateInput = z.output<typeof assessmentCreateSchema>;
type UpdateInput = z.output<typeof assessmentUpdateSchema>;
type ListQuery = z.output<typeof assessmentListQuerySchema>;
type AssessmentRow = typeof riskAssessments.$inferSelect;

export const assessmentNotFound = () =>
  new AppError('NotFoundException', 'RISK_ASSESSMENT_NOT_FOUND', 'Assessment not found');

// ---------------------------------------------------------------------------------------------------
// Covered items

/** The register items of an assessment's kind among `ids`, with their scores, in public-id order. */
export async function coveredItems(db: Db, orgId: string, kind: AssessmentKind, ids: string[]) {
  if (ids.length === 0) return [];
  const table = kind === 'RISK' ? risks : riskInventoryItems;
  const rows = await db
    .select({
      id: table.id,
      publicId: table.publicId,
      name: table.name,
      inherentRisk: table.inherentRisk,
      residualRisk: table.residualRisk,
    })
    .from(table)
    .where(and(scopeWhere(table, { orgId }), inArray(table.id, ids)))
    .orderBy(table.number);
  return rows as AssessmentItem[];
}

/** The inventory kinds an inventory assessment of a module covers: vendors for third-party risk. */
const inventoryKindsOf = (module: RiskModule) =>
  module === 'THIRD_PARTY_RISK' ? ['VENDOR'] : ['SYSTEM', 'APPLICATION'];

/**
 * Register items of the kind (400 RISK_INVALID_LINKS naming the others) in the assessment's module:
 * risks of that module, or inventory items of its kinds (400 RISK_ASSESSMENT_ITEM_OUTSIDE_MODULE).
 */
async function checkItems(db: Db, orgId: string, kind: AssessmentKind, module: RiskModule, ids: string[]) {
  const unique = [...new Set(ids)];
  const found = new Set((await coveredItems(db, orgId, kind, unique)).map((item) => item.id));
  const invalid = unique.filter((id) => !found.has(id));
  if (invalid.length > 0) {
    throw validationFailed('RISK_INVALID_LINKS', `Unknown ${kind === 'RISK' ? 'risks' : 'inventory items'}`, {
      field: 'itemIds',
      params: { 0: invalid.join(', ') },
    });
  }
  if (unique.length === 0) return unique;
  const outside =
    kind === 'RISK'
      ? await db
          .select({ publicId: risks.publicId })
          .from(risks)
          .where(and(inArray(risks.id, unique), sql`NOT (${module} = ANY(${risks.modules}))`))
      : await db
          .select({ publicId: riskInventoryItems.publicId })
          .from(riskInventoryItems)
          .where(
            and(
              inArray(riskInventoryItems.id, unique),
              notInArray(riskInventoryItems.kind, inventoryKindsOf(module)),
            ),
          );
  if (outside.length > 0) {
    const publicIds = outside.map((item) => item.publicId).join(', ');
    throw validationFailed(
      'RISK_ASSESSMENT_ITEM_OUTSIDE_MODULE',
      `Not in the ${module} module: ${publicIds}`,
      {
        field: 'itemIds',
        params: { 0: publicIds, module: RISK_MODULE_LABELS[module] },
      },
    );
  }
  return unique;
}

/**
 * An inventory assessment is completed only when each covered item has answered its mandatory questions
 * (400 RISK_MANDATORY_ITEM_INVALID naming the items, field `itemIds`).
 */
async function assertMandatoryAnswered(db: Db, orgId: string, ids: string[]) {
  if (ids.length === 0) return;
  const rows = await db
    .select({
      publicId: riskInventoryItems.publicId,
      kind: riskInventoryItems.kind,
      answers: riskInventoryItems.answers,
    })
    .from(riskInventoryItems)
    .where(and(scopeWhere(riskInventoryItems, { orgId }), inArray(riskInventoryItems.id, ids)))
    .orderBy(riskInventoryItems.number);
  const invalid = rows.filter(
    (row) => unansweredMandatoryQuestions(row.kind as InventoryKind, row.answers).length > 0,
  );
  if (invalid.length > 0) {
    const publicIds = invalid.map((row) => row.publicId).join(', ');
    throw validationFailed(
      'RISK_MANDATORY_ITEM_INVALID',
      `Mandatory questions are unanswered by ${publicIds}`,
      {
        field: 'itemIds',
        params: { 0: publicIds },
        validValues: invalid.map((row) => row.publicId),
      },
    );
  }
}

/** The organisation's assessments of the modules it holds (others are as good as absent). */
const assessmentsOf = (access: AccessContext, modules: readonly RiskModule[] = modulesOf(access)) =>
  and(eq(riskAssessments.orgId, access.org.id), inArray(riskAssessments.module, [...modules]));

// ---------------------------------------------------------------------------------------------------
// Reading

function aggregateOf(row: AssessmentRow, items: AssessmentItem[], score: 'inherentRisk' | 'residualRisk') {
  const recommended = recommendedAggregate(items.map((item) => item[score]));
  const override = row[score] as RiskLevel | null;
  if (row.state === 'COMPLETED')
    return { value: override, recommended, overridden: override !== recommended };
  return { value: override ?? recommended, recommended, overridden: override !== null };
}

async function toDetails(db: Db, rows: AssessmentRow[]): Promise<AssessmentDetail[]> {
  const people = await peopleByIds(db, [
    ...new Set(rows.flatMap((row) => (row.completedBy ? [row.completedBy] : []))),
  ]);
  return Promise.all(
    rows.map(async (row) => {
      const kind = row.kind as AssessmentKind;
      const items = row.completedItems
        ? (row.completedItems as AssessmentItem[])
        : await coveredItems(db, row.orgId, kind, row.itemIds);
      const completedBy = people.find((person) => person.id === row.completedBy);
      return {
        id: row.id,
        publicId: row.publicId,
        kind,
        module: row.module as RiskModule,
        name: row.name,
        state: row.state as AssessmentState,
        executiveSummary: row.executiveSummary,
        itemCount: items.length,
        items,
        inherentRisk: aggregateOf(row, items, 'inherentRisk'),
        residualRisk: aggregateOf(row, items, 'residualRisk'),
        completedOn: row.completedOn?.toISOString() ?? null,
        completedBy: completedBy ? { id: completedBy.id, name: completedBy.name } : null,
        version: row.version,
        createdOn: row.createdOn.toISOString(),
        modifiedOn: row.modifiedOn.toISOString(),
      };
    }),
  );
}

export async function listAssessments(
  db: Db,
  access: AccessContext,
  query: ListQuery,
): Promise<AssessmentList> {
  const held = modulesOf(access);
  const where = and(
    assessmentsOf(
      access,
      (query.modules ?? held).filter((module) => held.includes(module)),
    ),
    query.kind ? eq(riskAssessments.kind, query.kind) : undefined,
    query.state ? eq(riskAssessments.state, query.state) : undefined,
  );
  const [rows, [count]] = await Promise.all([
    db
      .select()
      .from(riskAssessments)
      .where(where)
      .orderBy(desc(riskAssessments.number))
      .limit(query.pageSize)
      .offset((query.pageNumber - 1) * query.pageSize),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(riskAssessments)
      .where(where),
  ]);
  const details = await toDetails(db, rows);
  return {
    items: details.map(
      ({ executiveSummary: _summary, items: _items, ...assessment }): Assessment => assessment,
    ),
    total: count?.total ?? 0,
  };
}

export async function getAssessment(db: Db, access: AccessContext, ref: string): Promise<AssessmentDetail> {
  const [row] = await db
    .select()
    .from(riskAssessments)
    .where(and(assessmentsOf(access), refWhere(riskAssessments, ref)));
  if (!row) throw assessmentNotFound();
  return (await toDetails(db, [row]))[0]!;
}

// ---------------------------------------------------------------------------------------------------
// Writing

async function record(
  tx: Db,
  actor: Actor,
  action: string,
  row: Pick<AssessmentRow, 'id' | 'publicId'>,
  details: object = {},
) {
  await recordActivity(tx, {
    orgId: actor.access.org.id,
    actorUserId: actor.access.user.id,
    action: `assessment.${action}`,
    targetType: 'assessment',
    targetId: row.id,
    details: { publicId: row.publicId, ...details },
    ip: actor.ip,
  });
}

/**
 * A new DRAFT assessment with the next public id of the organisation (A-0001), of a module it holds
 * (400 RISK_MODULE_NOT_ENTITLED; default the first it holds).
 */
export async function createAssessment(db: Db, actor: Actor, input: CreateInput): Promise<AssessmentDetail> {
  const orgId = actor.access.org.id;
  const module = input.module ?? modulesOf(actor.access)[0] ?? 'INFORMATION_SECURITY';
  assertModulesEntitled(actor.access, [module]);
  const itemIds = await checkItems(db, orgId, input.kind, module, input.itemIds);
  const row = await db.transaction(async (tx) => {
    const number = await nextNumber(tx, { orgId }, 'assessment');
    const [created] = await tx
      .insert(riskAssessments)
      .values({
        orgId,
        number,
        publicId: publicIdOf('assessment', number),
        kind: input.kind,
        module,
        name: input.name,
        executiveSummary: input.executiveSummary,
        itemIds,
        inherentRisk: input.inherentRisk,
        residualRisk: input.residualRisk,
        createdBy: actor.access.user.id,
      })
      .returning();
    await record(tx, actor, 'created', created!, { kind: input.kind, name: input.name });
    return created!;
  });
  return (await toDetails(db, [row]))[0]!;
}

/** Locks an editable assessment at the version the caller read. */
async function lockEditable(tx: Db, access: AccessContext, ref: string, version: number) {
  const [row] = await tx
    .select()
    .from(riskAssessments)
    .where(and(assessmentsOf(access), refWhere(riskAssessments, ref)))
    .for('update');
  if (!row) throw assessmentNotFound();
  if (row.state === 'COMPLETED') {
    throw conflict('RISK_ASSESSMENT_COMPLETED', 'A completed assessment is published read-only');
  }
  if (row.version !== version) {
    throw conflict('RISK_MODIFIED', 'The assessment was modified while editing', {
      params: { version: row.version },
    });
  }
  return row;
}

/** Saves changes of a draft: the assessment is then SAVED (saved as draft). */
export async function updateAssessment(
  db: Db,
  actor: Actor,
  ref: string,
  input: UpdateInput,
): Promise<AssessmentDetail> {
  const orgId = actor.access.org.id;
  const row = await db.transaction(async (tx) => {
    const current = await lockEditable(tx, actor.access, ref, input.version);
    const itemIds = input.itemIds
      ? await checkItems(
          tx,
          orgId,
          current.kind as AssessmentKind,
          current.module as RiskModule,
          input.itemIds,
        )
      : undefined;
    const changes = {
      name: input.name,
      executiveSummary: input.executiveSummary,
      itemIds,
      inherentRisk: input.inherentRisk,
      residualRisk: input.residualRisk,
    };
    const [updated] = await tx
      .update(riskAssessments)
      .set({ ...changes, state: 'SAVED', version: current.version + 1, modifiedOn: new Date() })
      .where(eq(riskAssessments.id, current.id))
      .returning();
    await record(tx, actor, 'saved', updated!, {
      changed: Object.entries(changes)
        .filter(([, value]) => value !== undefined)
        .map(([key]) => key),
    });
    return updated!;
  });
  return (await toDetails(db, [row]))[0]!;
}

/**
 * Completes and publishes the assessment: both aggregate scores (the override, else the
 * recommendation) and the executive summary are needed (400 RISK_ASSESSMENT_SCORE_REQUIRED,
 * RISK_ASSESSMENT_SUMMARY_REQUIRED with the field), and an inventory assessment's items must have
 * answered their mandatory questions (400 RISK_MANDATORY_ITEM_INVALID). The aggregates and the covered
 * items' scores are kept as they stand.
 */
export async function completeAssessment(
  db: Db,
  actor: Actor,
  ref: string,
  version: number,
): Promise<AssessmentDetail> {
  const row = await db.transaction(async (tx) => {
    const current = await lockEditable(tx, actor.access, ref, version);
    if (current.kind === 'INVENTORY') await assertMandatoryAnswered(tx, current.orgId, current.itemIds);
    const [detail] = await toDetails(tx, [current]);
    for (const score of ASSESSMENT_AGGREGATE_SCORES) {
      if (detail![score].value === null) {
        throw validationFailed('RISK_ASSESSMENT_SCORE_REQUIRED', `The aggregate ${score} is not set`, {
          field: score,
          params: { 0: score === 'inherentRisk' ? 'inherent risk' : 'residual risk' },
        });
      }
    }
    if (current.executiveSummary.trim() === '') {
      throw validationFailed('RISK_ASSESSMENT_SUMMARY_REQUIRED', 'The executive summary is empty', {
        field: 'executiveSummary',
      });
    }
    const [completed] = await tx
      .update(riskAssessments)
      .set({
        state: 'COMPLETED',
        inherentRisk: detail!.inherentRisk.value,
        residualRisk: detail!.residualRisk.value,
        completedItems: detail!.items,
        completedOn: new Date(),
        completedBy: actor.access.user.id,
        version: current.version + 1,
        modifiedOn: new Date(),
      })
      .where(eq(riskAssessments.id, current.id))
      .returning();
    await record(tx, actor, 'completed', completed!, {
      inherentRisk: detail!.inherentRisk.value,
      residualRisk: detail!.residualRisk.value,
    });
    return completed!;
  });
  return (await toDetails(db, [row]))[0]!;
}

// ---------------------------------------------------------------------------------------------------
// PDF

const levelLabel = (level: RiskLevel | null) => (level ? RISK_LEVEL_LABELS[level] : 'Not scored');

/** The assessment as a PDF: cover, executive summary, aggregate scores and the covered items. */
export async function assessmentPdf(db: Db, actor: Actor, ref: string) {
  const assessment = await getAssessment(db, actor.access, ref);
  const title = `${assessment.publicId} ${assessment.name}`;
  const kindLabel = assessment.kind === 'RISK' ? 'Risk assessment' : 'Inventory assessment';
  const pdf = new PdfBuilder({ title })
    .cover({
      title: assessment.name,
      subtitle: kindLabel,
      facts: [
        { label: 'Organisation', value: actor.access.org.name },
        { label: 'Assessment', value: assessment.publicId },
        { label: 'State', value: ASSESSMENT_STATE_LABELS[assessment.state] },
        ...(assessment.completedOn
          ? [
              {
                label: 'Completed',
                value: `${assessment.completedOn.slice(0, 10)}${assessment.completedBy ? ` by ${assessment.completedBy.name}` : ''}`,
              },
            ]
          : []),
        { label: 'Generated', value: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' },
      ],
    })
    .heading('Executive summary')
    .paragraph(assessment.executiveSummary || 'No executive summary yet.', {
      muted: !assessment.executiveSummary,
    })
    .heading('Aggregate risk scores')
    .table(
      ['Score', 'Aggregate', 'Recommended'],
      [
        [
          'Inherent risk',
          levelLabel(assessment.inherentRisk.value),
          levelLabel(assessment.inherentRisk.recommended),
        ],
        [
          'Residual risk',
          levelLabel(assessment.residualRisk.value),
          levelLabel(assessment.residualRisk.recommended),
        ],
      ],
    )
    .heading(assessment.kind === 'RISK' ? 'Risks assessed' : 'Systems, applications and vendors assessed');
  if (assessment.items.length === 0) pdf.paragraph('No items are covered.', { muted: true });
  else {
    pdf.table(
      ['Id', 'Name', 'Inherent risk', 'Residual risk'],
      assessment.items.map((item) => [
        item.publicId,
        item.name,
        levelLabel(item.inherentRisk),
        levelLabel(item.residualRisk),
      ]),
    );
  }
  const content = await pdf.finish();
  // Exporting is a step of the assessment's life (spec 3: completed and exported), kept in the activity log.
  await record(db, actor, 'exported', assessment, { state: assessment.state });
  return { name: `${assessment.publicId}.pdf`, content };
}

// ---------------------------------------------------------------------------------------------------
// Figures for other areas

/** Assessments of an organisation per state, for dashboard charts. */
export async function assessmentCountsByState(db: Db, orgId: string) {
  const rows = await db
    .select({ state: riskAssessments.state, count: sql<number>`count(*)::int` })
    .from(riskAssessments)
    .where(eq(riskAssessments.orgId, orgId))
    .groupBy(riskAssessments.state);
  return ASSESSMENT_STATES.map((state) => ({
    key: ASSESSMENT_STATE_LABELS[state],
    count: rows.find((row) => row.state === state)?.count ?? 0,
  }));
}

/** Assessments of an organisation completed since a time. */
export async function completedAssessmentCount(db: Db, orgId: string, since: Date): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(riskAssessments)
    .where(
      and(
        eq(riskAssessments.orgId, orgId),
        eq(riskAssessments.state, 'COMPLETED'),
        sql`${riskAssessments.completedOn} >= ${since.toISOString()}`,
      ),
    );
  return row?.count ?? 0;
}
