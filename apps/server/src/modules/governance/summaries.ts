import { CONTROL_ANSWER_STATUSES, type ControlAnswerStatus } from '@vigil/contracts';
import { and, asc, eq, isNotNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { listPeriodRows, type FrameworkRow, type PeriodRow } from './repo';
import { governanceAnswers, governanceControls, governanceFrameworks, governanceSections } from './tables';

/**
 * Summaries of an organisation's framework work for dashboard charts: each framework as its current
 * evaluation period stands (the newest in progress, else the newest finalized), whatever the range.
 */

const ANSWER_STATUS_LABELS: Record<ControlAnswerStatus, string> = {
  IMPLEMENTED: 'Implemented',
  PARTIALLY_IMPLEMENTED: 'Partially implemented',
  NOT_IMPLEMENTED: 'Not implemented',
  NOT_APPLICABLE: 'Not applicable',
};
const NOT_ANSWERED = 'Not answered';
export const NOT_ASSESSED = 'Not assessed';

const CAT_LIBRARY_KEY = 'ffiec-cat';

/** The period a chart reads for each framework: the newest in progress, else the newest finalized. */
async function currentPeriods(db: Db, orgId: string): Promise<Map<string, PeriodRow>> {
  const current = new Map<string, PeriodRow>();
  // Newest first; an in-progress period replaces a finalized one found before it.
  for (const { row } of await listPeriodRows(db, orgId)) {
    const found = current.get(row.frameworkId);
    if (!found || (found.state !== 'IN_PROGRESS' && row.state === 'IN_PROGRESS')) {
      current.set(row.frameworkId, row);
    }
  }
  return current;
}

/** Every control of a framework with its section and its answer's status in the period (null: none). */
async function controlStatuses(db: Db, orgId: string, frameworkId: string, periodId: string | null) {
  return db
    .select({ sectionId: governanceControls.sectionId, status: governanceAnswers.status })
    .from(governanceControls)
    .leftJoin(
      governanceAnswers,
      and(
        eq(governanceAnswers.controlId, governanceControls.id),
        periodId ? eq(governanceAnswers.periodId, periodId) : sql`false`,
        isNotNull(governanceAnswers.status),
      ),
    )
    .where(and(eq(governanceControls.orgId, orgId), eq(governanceControls.frameworkId, frameworkId)));
}

type Status = ControlAnswerStatus | null;
const tally = (statuses: Status[]) =>
  [...CONTROL_ANSWER_STATUSES, null].map((status) => statuses.filter((item) => item === status).length);

/**
 * Every framework of the organisation with its controls per answer status in its current period
 * (all not answered when it has no period): one category per framework, one series per status.
 */
export async function frameworkStatus(db: Db, orgId: string) {
  const [frameworks, periods] = await Promise.all([
    db
      .select()
      .from(governanceFrameworks)
      .where(eq(governanceFrameworks.orgId, orgId))
      .orderBy(asc(governanceFrameworks.name)),
    currentPeriods(db, orgId),
  ]);
  const counts = await Promise.all(
    frameworks.map(async (framework) => {
      const period = periods.get(framework.id) ?? null;
      const controls = await controlStatuses(db, orgId, framework.id, period?.id ?? null);
      return tally(controls.map((control) => control.status as Status));
    }),
  );
  return {
    categories: frameworks.map((framework) => framework.name),
    series: [...CONTROL_ANSWER_STATUSES.map((status) => ANSWER_STATUS_LABELS[status]), NOT_ANSWERED].map(
      (name, index) => ({ name, values: counts.map((row) => row[index]!) }),
    ),
    periods: frameworks.map((framework) => periods.get(framework.id)?.name ?? null),
  };
}

/** The organisation's FFIEC CAT framework and its current period, if it has adopted the CAT. */
async function catFramework(
  db: Db,
  orgId: string,
): Promise<{ framework: FrameworkRow; period: PeriodRow | null } | null> {
  const [framework] = await db
    .select()
    .from(governanceFrameworks)
    .where(and(eq(governanceFrameworks.orgId, orgId), eq(governanceFrameworks.libraryKey, CAT_LIBRARY_KEY)));
  if (!framework) return null;
  return { framework, period: (await currentPeriods(db, orgId)).get(framework.id) ?? null };
}

export interface CatDomainSummary {
  ref: string;
  title: string;
  /** The maturity level the period records for the domain, if any. */
  assessedMaturity: string | null;
  implemented: number;
  controls: number;
}

/**
 * The FFIEC CAT summary of the current period: per domain, the maturity level assessed and how many
 * of its maturity statements are implemented. Null when the organisation has not adopted the CAT.
 */
export async function catSummary(
  db: Db,
  orgId: string,
): Promise<{ period: string | null; domains: CatDomainSummary[] } | null> {
  const cat = await catFramework(db, orgId);
  if (!cat) return null;
  const sections = await db
    .select({
      id: governanceSections.id,
      parentId: governanceSections.parentId,
      ref: governanceSections.ref,
      title: governanceSections.title,
    })
    .from(governanceSections)
    .where(and(eq(governanceSections.orgId, orgId), eq(governanceSections.frameworkId, cat.framework.id)))
    .orderBy(asc(governanceSections.position));
  const domains = sections.filter((section) => section.parentId === null);
  const parentOf = new Map(sections.map((section) => [section.id, section.parentId]));
  const domainOf = (sectionId: string): string => {
    let id = sectionId;
    for (let parent = parentOf.get(id); parent; parent = parentOf.get(id)) id = parent;
    return id;
  };
  const controls = await controlStatuses(db, orgId, cat.framework.id, cat.period?.id ?? null);
  return {
    period: cat.period?.name ?? null,
    domains: domains.map((domain) => {
      const own = controls.filter((control) => domainOf(control.sectionId) === domain.id);
      return {
        ref: domain.ref,
        title: domain.title,
        assessedMaturity: cat.period?.tiers[domain.id] ?? null,
        implemented: own.filter((control) => control.status === 'IMPLEMENTED').length,
        controls: own.length,
      };
    }),
  };
}

/**
 * The FFIEC CAT inherent risk profile of the current period: each category with the level the period
 * records for it. Null when the organisation has not adopted the CAT.
 */
export async function catRiskProfile(
  db: Db,
  orgId: string,
): Promise<{
  period: string | null;
  levels: string[];
  categories: { title: string; level: string | null }[];
} | null> {
  const cat = await catFramework(db, orgId);
  if (!cat) return null;
  const profile = cat.framework.riskProfile;
  return {
    period: cat.period?.name ?? null,
    levels: profile?.levels ?? [],
    categories: (profile?.categories ?? []).map((category) => ({
      title: category.title,
      level: cat.period?.riskProfile[category.ref] ?? null,
    })),
  };
}
