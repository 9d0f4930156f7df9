import {
  hasSkuGate,
  onTimeMet,
  overallReadiness,
  READINESS_ALERT_SLA_HOURS,
  READINESS_ASSESSMENT_MONTHS,
  READINESS_INCIDENT_DEFAULT_DAYS,
  READINESS_TASK_DEFAULT_DAYS,
  READINESS_WINDOW_DAYS,
  readinessScore,
  todayIn,
  type Readiness,
  type ReadinessCategory,
  type ReadinessCategoryResult,
  type ReadinessCheck,
  type ReadinessCheckId,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import type { AccessContext } from '../../platform/access';
import { accessDenied } from '../../platform/errors';
import { alertsWorkedInTime } from '../alerts/summaries';
import { completedAssessmentCount } from '../risk/assessments';
import { reviewSchedulesNotLate } from '../risk/reviews';
import { activeScheduleCount, scheduledTasksDoneInTime } from '../schedules/summaries';
import { sourcesInUseCount } from '../threat/summaries';
import { ticketsDoneInTime } from '../tickets/summaries';
import { activeTriggerCount } from '../triggers/summaries';

/**
 * The cyber risk readiness dashboard: one scoring function per category, each judging what the
 * organisation has in place through the owning areas' figures. A category scores the percent of its
 * checks met; the overall score is the mean of the categories.
 */

interface Scope {
  orgId: string;
  productSkus: readonly string[];
  /** Start of the window alerts and tickets are judged over. */
  since: Date;
  now: Date;
  /** Today (yyyy-mm-dd) in the organisation's time zone, for review dates. */
  today: string;
}

const HOUR_MS = 3_600_000;

/** At least one of something. */
const present = (id: ReadinessCheckId, value: number, fixPath: string): ReadinessCheck => ({
  id,
  met: value > 0,
  value,
  total: null,
  fixPath,
});

/** A share handled in time. */
const onTime = (
  id: ReadinessCheckId,
  figures: { onTime: number; total: number },
  fixPath: string,
): ReadinessCheck => ({
  id,
  met: onTimeMet(figures.onTime, figures.total),
  value: figures.onTime,
  total: figures.total,
  fixPath,
});

const scored = (
  category: ReadinessCategory,
  path: string,
  checks: ReadinessCheck[],
): ReadinessCategoryResult => ({ category, score: readinessScore(checks), checks, path });

const alertSlaMs = READINESS_ALERT_SLA_HOURS * HOUR_MS;

/** Fraud Prevention: the fraud product, running fraud triggers, fraud threat sources, fraud alerts worked in SLA. */
async function fraudPrevention(db: Db, scope: Scope): Promise<ReadinessCategoryResult> {
  const entitled = hasSkuGate(scope.productSkus, 'fraud');
  const [triggers, sources, alerts] = await Promise.all([
    activeTriggerCount(db, scope.orgId, 'fraud'),
    sourcesInUseCount(db, scope.orgId, 'fraud'),
    alertsWorkedInTime(db, scope.orgId, 'fraud', scope.since, alertSlaMs),
  ]);
  return scored('FRAUD_PREVENTION', '/fraud/inbox', [
    present('FRAUD_PRODUCT', entitled ? 1 : 0, '/fraud/offering'),
    present('FRAUD_TRIGGERS_ACTIVE', triggers, '/fraud/triggers'),
    present('FRAUD_SOURCES_IN_USE', sources, '/fraud/threat'),
    onTime('FRAUD_ALERTS_WORKED_IN_SLA', alerts, '/fraud/inbox'),
  ]);
}

/** Threat Surveillance: running triggers, threat sources, security alerts worked in SLA, incidents closed in time. */
async function threatSurveillance(db: Db, scope: Scope): Promise<ReadinessCategoryResult> {
  const [triggers, sources, alerts, incidents] = await Promise.all([
    activeTriggerCount(db, scope.orgId, 'security'),
    sourcesInUseCount(db, scope.orgId, 'security'),
    alertsWorkedInTime(db, scope.orgId, 'security', scope.since, alertSlaMs),
    ticketsDoneInTime(db, {
      orgId: scope.orgId,
      kind: 'incident',
      since: scope.since,
      defaultDays: READINESS_INCIDENT_DEFAULT_DAYS,
      doneStates: ['RESOLVED', 'CLOSED', 'INVALID'],
    }),
  ]);
  return scored('THREAT_SURVEILLANCE', '/alerts/inbox', [
    present('THREAT_TRIGGERS_ACTIVE', triggers, '/triggers'),
    present('THREAT_SOURCES_IN_USE', sources, '/threat'),
    onTime('SECURITY_ALERTS_WORKED_IN_SLA', alerts, '/alerts/inbox'),
    onTime('INCIDENTS_CLOSED_IN_TIME', incidents, '/tickets/incident'),
  ]);
}

/** Governance Program: running task schedules, and their tasks closed by their due dates. */
async function governanceProgram(db: Db, scope: Scope): Promise<ReadinessCategoryResult> {
  const [schedules, tasks] = await Promise.all([
    activeScheduleCount(db, scope.orgId),
    scheduledTasksDoneInTime(db, scope.orgId, scope.since, READINESS_TASK_DEFAULT_DAYS),
  ]);
  return scored('GOVERNANCE_PROGRAM', '/governance/tasks', [
    present('TASK_SCHEDULES_ACTIVE', schedules, '/task-schedules'),
    onTime('SCHEDULED_TASKS_ON_TIME', tasks, '/governance/tasks'),
  ]);
}

/**
 * Risk Assessment: a risk or inventory assessment completed within the last 12 months, and the review
 * schedules of risks and controls not late.
 */
async function riskAssessment(db: Db, scope: Scope): Promise<ReadinessCategoryResult> {
  const since = new Date(scope.now);
  since.setUTCMonth(since.getUTCMonth() - READINESS_ASSESSMENT_MONTHS);
  const [assessments, reviews] = await Promise.all([
    completedAssessmentCount(db, scope.orgId, since),
    reviewSchedulesNotLate(db, scope.orgId, scope.today),
  ]);
  return scored('RISK_ASSESSMENT', '/risk/assessments', [
    present('RISK_ASSESSMENT_COMPLETED', assessments, '/risk/assessments'),
    onTime('RISK_REVIEWS_NOT_LATE', reviews, '/risk/risks/register'),
  ]);
}

const CATEGORY_SCORERS: Record<
  ReadinessCategory,
  (db: Db, scope: Scope) => Promise<ReadinessCategoryResult>
> = {
  FRAUD_PREVENTION: fraudPrevention,
  THREAT_SURVEILLANCE: threatSurveillance,
  GOVERNANCE_PROGRAM: governanceProgram,
  RISK_ASSESSMENT: riskAssessment,
};

/**
 * The organisation's readiness now. Open to every member of an organisation with either readiness
 * flag (the dashboard at /home, or the banner on the dashboards): it shows counts, never records.
 */
export async function readiness(db: Db, access: AccessContext, now = new Date()): Promise<Readiness> {
  if (!access.features.cyberRiskReadinessDashboard && !access.features.cyberRiskReadinessBanner) {
    throw accessDenied('FEATURE_NOT_ENABLED', 'Cyber risk readiness is not enabled for this organisation');
  }
  const scope: Scope = {
    orgId: access.org.id,
    productSkus: access.org.productSkus,
    since: new Date(now.getTime() - READINESS_WINDOW_DAYS * 24 * HOUR_MS),
    now,
    today: todayIn(access.org.settings.emailTimezone, now),
  };
  const categories = await Promise.all(
    Object.values(CATEGORY_SCORERS).map((scoreCategory) => scoreCategory(db, scope)),
  );
  return {
    score: overallReadiness(categories),
    categories,
    windowDays: READINESS_WINDOW_DAYS,
    computedAt: now.toISOString(),
  };
}
