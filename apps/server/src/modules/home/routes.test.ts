import type { Readiness, ReadinessCheckId } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import type { Db } from '../../db/client';
import { alerts, alertStateChanges } from '../alerts/tables';
import { reviewSchedules, riskAssessments, risks } from '../risk/tables';
import { taskScheduleRuns, taskSchedules } from '../schedules/tables';
import { threatSources, threatSourceSubscriptions } from '../threat/tables';
import { insertTicket } from '../tickets/repo';
import { ticketHistory } from '../tickets/tables';
import { triggers } from '../triggers/tables';

/**
 * GET /home/readiness: every check met in one organisation and not met in another, from the records
 * each has; the readiness flags.
 */
let ctx: TestContext;
let ready: { orgId: string; user: SeededUser };
let unready: { orgId: string; user: SeededUser };

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const now = Date.now();
const ago = (ms: number) => new Date(now - ms);

async function seedTrigger(db: Db, orgId: string, domain: string, state: string) {
  await db.insert(triggers).values({
    orgId,
    domain,
    state,
    name: `${domain} ${state}`,
    type: 'THRESHOLD',
    intervalSeconds: 300,
    nextRunAt: new Date(now),
  });
}

/** An alert fired `firedAgo` ago, taken out of New `workedAfter` later (never when null). */
async function seedAlert(
  db: Db,
  orgId: string,
  domain: string,
  firedAgo: number,
  workedAfter: number | null,
) {
  const firedAt = ago(firedAgo);
  const [alert] = await db
    .insert(alerts)
    .values({
      orgId,
      domain,
      kind: 'TRIGGER',
      title: 'Alert',
      severity: 'HIGH',
      firedAt,
      state: workedAfter === null ? 'NEW' : 'ACKED',
    })
    .returning();
  if (workedAfter !== null) {
    await db.insert(alertStateChanges).values({
      alertId: alert!.id,
      fromState: 'NEW',
      toState: 'ACKED',
      changedAt: new Date(firedAt.getTime() + workedAfter),
    });
  }
}

/** A ticket due `dueAgo` ago, closed `closedAgo` ago (open when null). */
async function seedTicket(
  db: Db,
  orgId: string,
  kind: 'incident' | 'task',
  dueAgo: number,
  closedAgo: number | null,
) {
  const closedState = kind === 'incident' ? 'RESOLVED' : 'CLOSED';
  const ticket = await insertTicket(db, orgId, kind, {
    title: `${kind} due ${dueAgo}`,
    state: closedAgo === null ? (kind === 'incident' ? 'ANALYSIS' : 'OPEN') : closedState,
    createdOn: ago(dueAgo + 5 * DAY),
    modifiedOn: ago(0),
    ...(kind === 'incident' ? { slaDate: ago(dueAgo) } : { dueDate: ago(dueAgo) }),
  });
  if (closedAgo !== null) {
    await db.insert(ticketHistory).values({
      ticketId: ticket.id,
      action: 'state-changed',
      details: { from: 'OPEN', to: closedState },
      at: ago(closedAgo),
    });
  }
  return ticket;
}

async function seedSchedule(db: Db, orgId: string, state: string) {
  const [row] = await db
    .insert(taskSchedules)
    .values({
      orgId,
      name: `Review ${state}`,
      intervalCount: 1,
      intervalUnit: 'week',
      nextRunAt: new Date(now + DAY),
      runAt: new Date(now + DAY),
      taskTitle: 'Review',
      state,
    })
    .returning();
  return row!;
}

async function scheduledTask(
  db: Db,
  orgId: string,
  scheduleId: string,
  dueAgo: number,
  closedAgo: number | null,
) {
  const task = await seedTicket(db, orgId, 'task', dueAgo, closedAgo);
  await db
    .insert(taskScheduleRuns)
    .values({ scheduleId, scheduledFor: ago(dueAgo + DAY), ranAt: ago(dueAgo + DAY), ticketId: task.id });
}

/** A risk assessment completed `completedAgo` ago, and a risk whose review falls due in `dueIn` days. */
async function seedRiskProgramme(db: Db, orgId: string, completedAgo: number, dueIn: number) {
  await db.insert(riskAssessments).values({
    orgId,
    number: 1,
    publicId: 'A-0001',
    kind: 'RISK',
    name: 'Annual assessment',
    state: 'COMPLETED',
    completedOn: ago(completedAgo),
  });
  // Saved but never completed: does not count.
  await db
    .insert(riskAssessments)
    .values({ orgId, number: 2, publicId: 'A-0002', kind: 'RISK', name: 'Next', state: 'SAVED' });
  const [risk] = await db
    .insert(risks)
    .values({ orgId, number: 1, publicId: 'R-0001', name: 'Phishing', modules: ['INFORMATION_SECURITY'] })
    .returning();
  await db.insert(reviewSchedules).values({
    orgId,
    riskId: risk!.id,
    every: 1,
    unit: 'year',
    nextReview: new Date(now + dueIn * DAY).toISOString().slice(0, 10),
    watcherIds: [],
  });
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const [providerFraudFeed] = await db
    .insert(threatSources)
    .values({ orgId: null, domain: 'fraud', name: 'Mule accounts', type: 'IP' })
    .returning();

  // Everything in place: the fraud product, running triggers, sources, alerts and tickets in time.
  const readyOrg = await seedOrg(db, {
    productSkus: ['CYBERFRAUD_STANDARD'],
    featureFlags: { cyberRiskReadinessDashboard: true },
  });
  ready = { orgId: readyOrg.id, user: await seedUser(db, { homeOrgId: readyOrg.id, permissions: [] }) };
  await seedTrigger(db, readyOrg.id, 'fraud', 'ACTIVE');
  await seedTrigger(db, readyOrg.id, 'security', 'ACTIVE');
  await db.insert(threatSourceSubscriptions).values({ orgId: readyOrg.id, sourceId: providerFraudFeed!.id });
  await db
    .insert(threatSources)
    .values({ orgId: readyOrg.id, domain: 'security', name: 'Our blocklist', type: 'IP' });
  await seedAlert(db, readyOrg.id, 'fraud', 3 * DAY, 2 * HOUR);
  await seedAlert(db, readyOrg.id, 'security', 3 * DAY, 20 * HOUR);
  // Fired an hour ago and still New: not due yet, so not counted.
  await seedAlert(db, readyOrg.id, 'security', HOUR, null);
  await seedTicket(db, readyOrg.id, 'incident', 2 * DAY, 3 * DAY);
  const readySchedule = await seedSchedule(db, readyOrg.id, 'ACTIVE');
  await scheduledTask(db, readyOrg.id, readySchedule.id, 4 * DAY, 5 * DAY);
  await scheduledTask(db, readyOrg.id, readySchedule.id, 11 * DAY, 12 * DAY);
  // A task no schedule made, left open: not part of the governance check.
  await seedTicket(db, readyOrg.id, 'task', 2 * DAY, null);
  await seedRiskProgramme(db, readyOrg.id, 30 * DAY, 10);

  // Nothing in place, or nothing in time: no fraud product, paused triggers, a disabled own source,
  // unsubscribed provider sources, alerts left New or worked late, tickets late or still open.
  const unreadyOrg = await seedOrg(db, { featureFlags: { cyberRiskReadinessDashboard: true } });
  unready = {
    orgId: unreadyOrg.id,
    user: await seedUser(db, { homeOrgId: unreadyOrg.id, permissions: [] }),
  };
  await seedTrigger(db, unreadyOrg.id, 'fraud', 'PAUSED');
  await seedTrigger(db, unreadyOrg.id, 'security', 'DISABLED');
  await db
    .insert(threatSources)
    .values({ orgId: unreadyOrg.id, domain: 'security', name: 'Old list', type: 'IP', enabled: false });
  await seedAlert(db, unreadyOrg.id, 'fraud', 3 * DAY, null);
  await seedAlert(db, unreadyOrg.id, 'security', 3 * DAY, 30 * HOUR);
  await seedAlert(db, unreadyOrg.id, 'security', 4 * DAY, HOUR);
  await seedTicket(db, unreadyOrg.id, 'incident', 2 * DAY, DAY);
  await seedTicket(db, unreadyOrg.id, 'incident', 3 * DAY, null);
  const paused = await seedSchedule(db, unreadyOrg.id, 'PAUSED');
  await scheduledTask(db, unreadyOrg.id, paused.id, 4 * DAY, null);
  // Completed 13 months ago, and its review ten days late.
  await seedRiskProgramme(db, unreadyOrg.id, 400 * DAY, -10);
  // Outside the 90-day window: ignored.
  await seedAlert(db, unreadyOrg.id, 'fraud', 100 * DAY, 2 * HOUR);
});

afterAll(async () => {
  await ctx?.close();
});

const readinessOf = async (org: { orgId: string; user: SeededUser }) => {
  const response = await orgRequest(ctx, org.orgId, 'GET', '/home/readiness', org.user);
  expect(response.statusCode).toBe(200);
  return response.json<Readiness>();
};

const checksOf = (readiness: Readiness) =>
  Object.fromEntries(
    readiness.categories.flatMap((category) =>
      category.checks.map((check) => [check.id, { met: check.met, value: check.value, total: check.total }]),
    ),
  ) as Record<ReadinessCheckId, { met: boolean; value: number; total: number | null }>;

describe('cyber risk readiness', () => {
  it('meets every check of an organisation that has everything in place and works it in time', async () => {
    const readiness = await readinessOf(ready);
    expect(checksOf(readiness)).toEqual({
      FRAUD_PRODUCT: { met: true, value: 1, total: null },
      FRAUD_TRIGGERS_ACTIVE: { met: true, value: 1, total: null },
      FRAUD_SOURCES_IN_USE: { met: true, value: 1, total: null },
      FRAUD_ALERTS_WORKED_IN_SLA: { met: true, value: 1, total: 1 },
      THREAT_TRIGGERS_ACTIVE: { met: true, value: 1, total: null },
      THREAT_SOURCES_IN_USE: { met: true, value: 1, total: null },
      SECURITY_ALERTS_WORKED_IN_SLA: { met: true, value: 1, total: 1 },
      INCIDENTS_CLOSED_IN_TIME: { met: true, value: 1, total: 1 },
      TASK_SCHEDULES_ACTIVE: { met: true, value: 1, total: null },
      SCHEDULED_TASKS_ON_TIME: { met: true, value: 2, total: 2 },
      RISK_ASSESSMENT_COMPLETED: { met: true, value: 1, total: null },
      RISK_REVIEWS_NOT_LATE: { met: true, value: 1, total: 1 },
    });
    expect(readiness.categories.map((category) => [category.category, category.score])).toEqual([
      ['FRAUD_PREVENTION', 100],
      ['THREAT_SURVEILLANCE', 100],
      ['GOVERNANCE_PROGRAM', 100],
      ['RISK_ASSESSMENT', 100],
    ]);
    expect(readiness.score).toBe(100);
    expect(readiness.windowDays).toBe(90);
  });

  it('fails every check of an organisation that has nothing in place or works it late', async () => {
    const readiness = await readinessOf(unready);
    expect(checksOf(readiness)).toEqual({
      FRAUD_PRODUCT: { met: false, value: 0, total: null },
      FRAUD_TRIGGERS_ACTIVE: { met: false, value: 0, total: null },
      FRAUD_SOURCES_IN_USE: { met: false, value: 0, total: null },
      FRAUD_ALERTS_WORKED_IN_SLA: { met: false, value: 0, total: 1 },
      THREAT_TRIGGERS_ACTIVE: { met: false, value: 0, total: null },
      THREAT_SOURCES_IN_USE: { met: false, value: 0, total: null },
      SECURITY_ALERTS_WORKED_IN_SLA: { met: false, value: 1, total: 2 },
      INCIDENTS_CLOSED_IN_TIME: { met: false, value: 0, total: 2 },
      TASK_SCHEDULES_ACTIVE: { met: false, value: 0, total: null },
      SCHEDULED_TASKS_ON_TIME: { met: false, value: 0, total: 1 },
      RISK_ASSESSMENT_COMPLETED: { met: false, value: 0, total: null },
      RISK_REVIEWS_NOT_LATE: { met: false, value: 0, total: 1 },
    });
    expect(readiness.score).toBe(0);
    const fraud = readiness.categories.find((category) => category.category === 'FRAUD_PREVENTION')!;
    expect(fraud.checks.map((check) => check.fixPath)).toEqual([
      '/fraud/offering',
      '/fraud/triggers',
      '/fraud/threat',
      '/fraud/inbox',
    ]);
  });

  it('scores Risk Assessment from the risk area, with its fix pages', async () => {
    const { categories } = await readinessOf(unready);
    expect(categories.find((category) => category.category === 'RISK_ASSESSMENT')).toMatchObject({
      score: 0,
      path: '/risk/assessments',
      checks: [{ fixPath: '/risk/assessments' }, { fixPath: '/risk/risks/register' }],
    });
  });

  it('answers organisations with the readiness banner only, and refuses those with neither flag', async () => {
    const db = ctx.database.db;
    const bannerOrg = await seedOrg(db, { featureFlags: { cyberRiskReadinessBanner: true } });
    const bannerUser = await seedUser(db, { homeOrgId: bannerOrg.id, permissions: [] });
    expect((await orgRequest(ctx, bannerOrg.id, 'GET', '/home/readiness', bannerUser)).statusCode).toBe(200);

    const plainOrg = await seedOrg(db);
    const plainUser = await seedUser(db, { homeOrgId: plainOrg.id, permissions: [] });
    const refused = await orgRequest(ctx, plainOrg.id, 'GET', '/home/readiness', plainUser);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ key: 'FEATURE_NOT_ENABLED' });
  });
});
