import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { ticketRefs } from '../tickets/repo';
import { users } from '../users/tables';
import {
  governanceAnswers,
  governanceControls,
  governanceEvidence,
  governanceFrameworks,
  governancePeriods,
  governanceSections,
} from './tables';
import type { FrameworkTemplate } from './template';

export type FrameworkRow = typeof governanceFrameworks.$inferSelect;
export type SectionRow = typeof governanceSections.$inferSelect;
export type ControlRow = typeof governanceControls.$inferSelect;
export type PeriodRow = typeof governancePeriods.$inferSelect;
export type AnswerRow = typeof governanceAnswers.$inferSelect;
export type EvidenceRow = Omit<typeof governanceEvidence.$inferSelect, 'content'>;

const INSERT_CHUNK = 500;

async function insertChunked<T>(rows: T[], insert: (chunk: T[]) => Promise<unknown>) {
  for (let start = 0; start < rows.length; start += INSERT_CHUNK) {
    await insert(rows.slice(start, start + INSERT_CHUNK));
  }
}

/** Stores a framework of the organisation with all its sections and controls; call in a transaction. */
export async function insertFramework(
  db: Db,
  orgId: string,
  values: { libraryKey: string | null; source: string; createdBy: string },
  template: FrameworkTemplate,
): Promise<string> {
  const [framework] = await db
    .insert(governanceFrameworks)
    .values({
      orgId,
      ...values,
      name: template.name,
      version: template.version,
      description: template.description,
      tiers: template.tiers,
      riskProfile: template.riskProfile,
    })
    .returning({ id: governanceFrameworks.id });
  const frameworkId = framework!.id;
  const sectionRows: (typeof governanceSections.$inferInsert)[] = [];
  const controlRows: (typeof governanceControls.$inferInsert)[] = [];
  let position = 0;
  const walk = (sections: FrameworkTemplate['sections'], parentId: string | null) => {
    for (const section of sections) {
      // Ids are made here so that children name their parent before anything is stored.
      const id = randomUUID();
      sectionRows.push({
        id,
        orgId,
        frameworkId,
        parentId,
        position: position++,
        ref: section.ref,
        title: section.title,
        description: section.description,
      });
      for (const control of section.controls) {
        controlRows.push({
          orgId,
          frameworkId,
          sectionId: id,
          position: position++,
          ref: control.ref,
          title: control.title,
          statement: control.statement,
          examples: control.examples,
          mandatory: control.mandatory,
        });
      }
      walk(section.sections, id);
    }
  };
  walk(template.sections, null);
  await insertChunked(sectionRows, (chunk) => db.insert(governanceSections).values(chunk));
  await insertChunked(controlRows, (chunk) => db.insert(governanceControls).values(chunk));
  return frameworkId;
}

export async function listFrameworkRows(db: Db, orgId: string) {
  const sectionCount = db
    .select({ count: sql<number>`count(*)::int` })
    .from(governanceSections)
    .where(eq(governanceSections.frameworkId, governanceFrameworks.id));
  const controlCount = db
    .select({ count: sql<number>`count(*)::int` })
    .from(governanceControls)
    .where(eq(governanceControls.frameworkId, governanceFrameworks.id));
  return db
    .select({
      row: governanceFrameworks,
      sectionCount: sql<number>`(${sectionCount})`,
      controlCount: sql<number>`(${controlCount})`,
    })
    .from(governanceFrameworks)
    .where(eq(governanceFrameworks.orgId, orgId))
    .orderBy(asc(sql`lower(${governanceFrameworks.name})`), asc(governanceFrameworks.id));
}

export async function findFramework(db: Db, orgId: string, id: string): Promise<FrameworkRow | undefined> {
  const [row] = await db
    .select()
    .from(governanceFrameworks)
    .where(and(eq(governanceFrameworks.orgId, orgId), eq(governanceFrameworks.id, id)));
  return row;
}

export async function lockFramework(db: Db, orgId: string, id: string): Promise<FrameworkRow | undefined> {
  const [row] = await db
    .select()
    .from(governanceFrameworks)
    .where(and(eq(governanceFrameworks.orgId, orgId), eq(governanceFrameworks.id, id)))
    .for('update');
  return row;
}

export async function adoptedLibraryKeys(db: Db, orgId: string): Promise<Map<string, string>> {
  const rows = await db
    .select({ id: governanceFrameworks.id, key: governanceFrameworks.libraryKey })
    .from(governanceFrameworks)
    .where(and(eq(governanceFrameworks.orgId, orgId), isNotNull(governanceFrameworks.libraryKey)));
  return new Map(rows.map((row) => [row.key!, row.id]));
}

export async function updateFramework(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Pick<FrameworkRow, 'targetTier' | 'name' | 'description' | 'tiers'>>,
) {
  await db
    .update(governanceFrameworks)
    .set(values)
    .where(and(eq(governanceFrameworks.orgId, orgId), eq(governanceFrameworks.id, id)));
}

/** Deletes a framework; its sections, controls and periods (answers, evidence) go with it. */
export async function deleteFrameworkRow(db: Db, orgId: string, id: string) {
  await db
    .delete(governanceFrameworks)
    .where(and(eq(governanceFrameworks.orgId, orgId), eq(governanceFrameworks.id, id)));
}

/** Locks the periods of a framework, so that none is changed or finalized while the framework changes. */
export async function lockFrameworkPeriods(db: Db, orgId: string, frameworkId: string): Promise<PeriodRow[]> {
  return db
    .select()
    .from(governancePeriods)
    .where(and(eq(governancePeriods.orgId, orgId), eq(governancePeriods.frameworkId, frameworkId)))
    .for('update');
}

export async function listSections(db: Db, orgId: string, frameworkId: string): Promise<SectionRow[]> {
  return db
    .select()
    .from(governanceSections)
    .where(and(eq(governanceSections.orgId, orgId), eq(governanceSections.frameworkId, frameworkId)))
    .orderBy(asc(governanceSections.position));
}

export async function updateSection(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Pick<SectionRow, 'targetTier'>>,
) {
  await db
    .update(governanceSections)
    .set(values)
    .where(and(eq(governanceSections.orgId, orgId), eq(governanceSections.id, id)));
}

/** The controls of a framework in order. */
export function listControls(db: Db, orgId: string, frameworkId: string): Promise<ControlRow[]> {
  return db
    .select()
    .from(governanceControls)
    .where(and(eq(governanceControls.orgId, orgId), eq(governanceControls.frameworkId, frameworkId)))
    .orderBy(asc(governanceControls.position));
}

export async function findControl(
  db: Db,
  orgId: string,
  frameworkId: string,
  id: string,
): Promise<ControlRow | undefined> {
  const [row] = await db
    .select()
    .from(governanceControls)
    .where(
      and(
        eq(governanceControls.orgId, orgId),
        eq(governanceControls.frameworkId, frameworkId),
        eq(governanceControls.id, id),
      ),
    );
  return row;
}

export async function updateControl(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Pick<ControlRow, 'mandatory' | 'alertable' | 'triggerId'>>,
) {
  await db
    .update(governanceControls)
    .set(values)
    .where(and(eq(governanceControls.orgId, orgId), eq(governanceControls.id, id)));
}

/** Periods of a framework, newest start first, with how many controls each has answered. */
export async function listPeriodRows(db: Db, orgId: string, frameworkId?: string) {
  const answered = db
    .select({ count: sql<number>`count(*)::int` })
    .from(governanceAnswers)
    .where(and(eq(governanceAnswers.periodId, governancePeriods.id), isNotNull(governanceAnswers.status)));
  return db
    .select({ row: governancePeriods, answered: sql<number>`(${answered})` })
    .from(governancePeriods)
    .where(
      and(
        eq(governancePeriods.orgId, orgId),
        frameworkId ? eq(governancePeriods.frameworkId, frameworkId) : undefined,
      ),
    )
    .orderBy(desc(governancePeriods.startsOn), desc(governancePeriods.createdOn));
}

export async function findPeriod(
  db: Db,
  orgId: string,
  id: string,
  lock = false,
): Promise<PeriodRow | undefined> {
  const query = db
    .select()
    .from(governancePeriods)
    .where(and(eq(governancePeriods.orgId, orgId), eq(governancePeriods.id, id)));
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

/**
 * The names of a framework's periods in progress that answer a control N/A, oldest first. The periods
 * in progress are locked first, so that no answer turns N/A before the caller's change is committed.
 */
export async function periodsAnsweringNotApplicable(
  db: Db,
  orgId: string,
  frameworkId: string,
  controlId: string,
): Promise<string[]> {
  const inProgress = and(
    eq(governancePeriods.orgId, orgId),
    eq(governancePeriods.frameworkId, frameworkId),
    eq(governancePeriods.state, 'IN_PROGRESS'),
  );
  await db.select({ id: governancePeriods.id }).from(governancePeriods).where(inProgress).for('update');
  const rows = await db
    .select({ name: governancePeriods.name })
    .from(governanceAnswers)
    .innerJoin(governancePeriods, eq(governancePeriods.id, governanceAnswers.periodId))
    .where(
      and(
        inProgress,
        eq(governanceAnswers.controlId, controlId),
        eq(governanceAnswers.status, 'NOT_APPLICABLE'),
      ),
    )
    .orderBy(asc(governancePeriods.startsOn), asc(governancePeriods.id));
  return rows.map((row) => row.name);
}

export async function insertPeriod(
  db: Db,
  values: typeof governancePeriods.$inferInsert,
): Promise<PeriodRow> {
  const [row] = await db.insert(governancePeriods).values(values).returning();
  return row!;
}

export async function updatePeriod(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<PeriodRow, 'id' | 'orgId' | 'frameworkId'>>,
) {
  await db
    .update(governancePeriods)
    .set(values)
    .where(and(eq(governancePeriods.orgId, orgId), eq(governancePeriods.id, id)));
}

export async function countControls(db: Db, orgId: string, frameworkId: string): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(governanceControls)
    .where(and(eq(governanceControls.orgId, orgId), eq(governanceControls.frameworkId, frameworkId)));
  return row?.count ?? 0;
}

export async function listAnswers(db: Db, orgId: string, periodId: string, controlId?: string) {
  return db
    .select()
    .from(governanceAnswers)
    .where(
      and(
        eq(governanceAnswers.orgId, orgId),
        eq(governanceAnswers.periodId, periodId),
        controlId ? eq(governanceAnswers.controlId, controlId) : undefined,
      ),
    );
}

export async function upsertAnswer(db: Db, values: typeof governanceAnswers.$inferInsert) {
  await db
    .insert(governanceAnswers)
    .values(values)
    .onConflictDoUpdate({
      target: [governanceAnswers.periodId, governanceAnswers.controlId],
      set: {
        status: values.status,
        ownerId: values.ownerId,
        notes: values.notes,
        suggestedStatus: values.suggestedStatus,
        suggestedFrom: values.suggestedFrom,
        modifiedBy: values.modifiedBy,
        modifiedOn: values.modifiedOn,
      },
    });
}

const evidenceColumns = {
  id: governanceEvidence.id,
  orgId: governanceEvidence.orgId,
  periodId: governanceEvidence.periodId,
  controlId: governanceEvidence.controlId,
  kind: governanceEvidence.kind,
  name: governanceEvidence.name,
  url: governanceEvidence.url,
  ticketId: governanceEvidence.ticketId,
  contentType: governanceEvidence.contentType,
  size: governanceEvidence.size,
  createdBy: governanceEvidence.createdBy,
  createdOn: governanceEvidence.createdOn,
};

/** Evidence of a period (of one control when given), oldest first, with the tickets it names. */
export async function listEvidence(db: Db, orgId: string, periodId: string, controlId?: string) {
  const rows = await db
    .select(evidenceColumns)
    .from(governanceEvidence)
    .where(
      and(
        eq(governanceEvidence.orgId, orgId),
        eq(governanceEvidence.periodId, periodId),
        controlId ? eq(governanceEvidence.controlId, controlId) : undefined,
      ),
    )
    .orderBy(asc(governanceEvidence.createdOn), asc(governanceEvidence.id));
  const refs = await ticketRefs(
    db,
    orgId,
    rows.map((row) => row.ticketId),
  );
  return rows.map((row) => {
    const ticket = row.ticketId ? refs.get(row.ticketId) : undefined;
    return { row, ticketSlug: ticket?.slug ?? null, ticketKind: ticket?.kind ?? null };
  });
}

export async function countEvidenceFiles(db: Db, orgId: string, periodId: string, controlId: string) {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(governanceEvidence)
    .where(
      and(
        eq(governanceEvidence.orgId, orgId),
        eq(governanceEvidence.periodId, periodId),
        eq(governanceEvidence.controlId, controlId),
        eq(governanceEvidence.kind, 'file'),
      ),
    );
  return row?.count ?? 0;
}

export async function insertEvidence(db: Db, values: typeof governanceEvidence.$inferInsert) {
  await db.insert(governanceEvidence).values(values);
}

export async function findEvidence(db: Db, orgId: string, periodId: string, id: string) {
  const [row] = await db
    .select()
    .from(governanceEvidence)
    .where(
      and(
        eq(governanceEvidence.orgId, orgId),
        eq(governanceEvidence.periodId, periodId),
        eq(governanceEvidence.id, id),
      ),
    );
  return row;
}

export async function deleteEvidence(db: Db, orgId: string, id: string) {
  await db
    .delete(governanceEvidence)
    .where(and(eq(governanceEvidence.orgId, orgId), eq(governanceEvidence.id, id)));
}

/** Display names of users by id. */
export async function userNames(db: Db, ids: (string | null)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((id): id is string => id !== null))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((row) => [row.id, `${row.firstName} ${row.lastName}`.trim()]));
}

/**
 * Records a suggested answer for a control not answered yet in a period; answered controls and their
 * owner and notes are left as they are.
 */
export async function suggestAnswer(
  db: Db,
  values: { orgId: string; periodId: string; controlId: string; status: string; from: string },
): Promise<boolean> {
  const rows = await db
    .insert(governanceAnswers)
    .values({
      orgId: values.orgId,
      periodId: values.periodId,
      controlId: values.controlId,
      suggestedStatus: values.status,
      suggestedFrom: values.from,
    })
    .onConflictDoUpdate({
      target: [governanceAnswers.periodId, governanceAnswers.controlId],
      set: { suggestedStatus: values.status, suggestedFrom: values.from },
      setWhere: isNull(governanceAnswers.status),
    })
    .returning({ controlId: governanceAnswers.controlId });
  return rows.length > 0;
}
