import { addReviewInterval, todayIn } from '@vigil/contracts';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { runJobOnce } from '../../../test/jobs';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { tickets } from '../tickets/tables';
import { userOrgs, users } from '../users/tables';
import { queueMailWith } from '../metadata/escalation-engine';
import { REVIEW_REMINDER_JOB, runReviewReminders, type ReminderDeps } from './reminders';
import { reviewReminders, reviewSchedules } from './tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let watcher: SeededUser;
let leaver: SeededUser;
let visitor: SeededUser;
let stranger: SeededUser;
let deps: ReminderDeps;
const PUBLIC_URL = 'https://vigil.example';

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, {
    config: { SMTP_URL: smtp.url, PUBLIC_URL },
    startJobs: true,
  });
  const db = ctx.database.db;
  const skus = {
    productSkus: ['RISK_INFORMATION_SECURITY' as const],
    settings: { emailTimezone: 'UTC' as const },
  };
  orgId = (await seedOrg(db, { name: 'Harbor Test Bank', ...skus })).id;
  otherOrgId = (await seedOrg(db, { name: 'Other Bank', ...skus })).id;
  const providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT', 'TASK_EDIT'] });
  watcher = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
  leaver = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
  visitor = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['RISK_VIEW', 'TRAC_USER'],
    authorisedOrgIds: [orgId],
  });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['RISK_EDIT', 'TASK_EDIT'] });
  deps = { queueMail: queueMailWith(ctx.jobs), publicUrl: PUBLIC_URL };
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const call = (method: HttpMethod, path: string, payload?: object, user = editor, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const today = () => todayIn('UTC');
/** Noon UTC of a yyyy-mm-dd day: the job's clock in these tests. */
const noon = (date: string) => new Date(`${date}T12:00:00Z`);
const run = (date: string) => runReviewReminders(ctx.database.db, noon(date), deps);

interface Schedule {
  id: string;
  nextReview: string;
  status: string;
  lastReminder: {
    stage: string;
    cycle: string;
    sentOn: string;
    recipients: number;
    openTask: { id: string; slug: string; title: string } | null;
  } | null;
}

let names = 0;
async function scheduledRisk(
  schedule: { every: number; unit: string; nextReview: string; watcherIds?: string[] },
  user = editor,
  org = orgId,
) {
  const created = await call(
    'POST',
    '/risk',
    { name: `Reviewed risk ${++names}`, modules: ['INFORMATION_SECURITY'] },
    user,
    org,
  );
  expect(created.statusCode).toBe(201);
  const risk = created.json() as { id: string; publicId: string; name: string; version: number };
  const path = `/risk/${risk.publicId}/review-schedule`;
  const added = await call('POST', path, { watcherIds: [watcher.id], ...schedule }, user, org);
  expect(added.statusCode).toBe(201);
  return { risk, path, schedule: added.json() as Schedule };
}

const remindersOf = (scheduleId: string) =>
  ctx.database.db
    .select()
    .from(reviewReminders)
    .where(eq(reviewReminders.scheduleId, scheduleId))
    .orderBy(reviewReminders.sentOn);

/** The review e-mails queued for an object, by its public id in the subject. */
async function mailJobs(
  publicId: string,
  org = 'Harbor Test Bank',
): Promise<{ to: string; subject: string }[]> {
  const result = await ctx.database.db.execute(
    sql`SELECT data->>'to' AS "to", data->>'subject' AS subject FROM pgboss.job
        WHERE name = 'mail.send' AND data->>'subject' LIKE ${`%Review of % ${publicId} %`}
          AND data->>'text' LIKE ${`%Organisation: ${org}%`}
        ORDER BY created_on, data->>'to'`,
  );
  return (result as unknown as { rows: { to: string; subject: string }[] }).rows;
}

const forRisk = (publicId: string) => (mail: { subject?: string }) =>
  Boolean(mail.subject?.includes(` ${publicId} `));

describe('review reminders', () => {
  it('e-mail the watchers and open one task when almost due and again when late, each once', async () => {
    const due = addReviewInterval(today(), 7, 'day');
    const { risk, path, schedule } = await scheduledRisk({
      every: 1,
      unit: 'year',
      nextReview: due,
      watcherIds: [watcher.id, editor.id],
    });
    expect(schedule.lastReminder).toBeNull();

    // Almost due (the last 30 days of a yearly review): both watchers hear of it, a task is opened.
    expect(await run(addReviewInterval(due, -31, 'day'))).toBe(0);
    await run(today());
    const first = await smtp.waitForMessage(watcher.email, 20_000, forRisk(risk.publicId));
    expect(first.subject).toBe(`[Vigil] Review of risk ${risk.publicId} ${risk.name} is almost due (${due})`);
    expect(first.text).toContain('Organisation: Harbor Test Bank');
    expect(first.text).toContain(`${PUBLIC_URL}/risk/risks/register/${risk.publicId}?orgId=${orgId}`);
    await smtp.waitForMessage(editor.email, 20_000, forRisk(risk.publicId));

    const almost = (await call('GET', path)).json() as Schedule;
    expect(almost.lastReminder).toMatchObject({ stage: 'ALMOST_DUE', cycle: due, recipients: 2 });
    const task = almost.lastReminder!.openTask!;
    expect(task.title).toBe(`Review risk ${risk.publicId} ${risk.name}`);
    expect(first.text).toContain(`Task ${task.slug}`);
    const detail = (await call('GET', `/task/${task.slug}`)).json() as {
      state: string;
      ownerId: string | null;
      description: string;
      dueDate: string;
      watchers: { id: string }[];
    };
    // A risk's owner is a list item, not a person: the task goes to the first watcher.
    expect(detail).toMatchObject({ state: 'OPEN', ownerId: watcher.id });
    expect(detail.watchers.map((person) => person.id).sort()).toEqual([watcher.id, editor.id].sort());
    expect(detail.description).toContain(`/risk/risks/register/${risk.publicId}?orgId=${orgId}`);
    expect(detail.dueDate.slice(0, 10)).toBe(due);

    // Later runs the same day, or days later while still almost due, send nothing more.
    expect(await run(today())).toBe(0);
    await run(addReviewInterval(due, -1, 'day'));
    await runJobOnce(ctx.jobs, REVIEW_REMINDER_JOB);
    expect((await mailJobs(risk.publicId)).map((mail) => mail.to).sort()).toEqual(
      [watcher.email, editor.email].sort(),
    );

    // Late: e-mailed again, the same task carried on.
    await run(addReviewInterval(due, 1, 'day'));
    await run(addReviewInterval(due, 2, 'day'));
    const late = await smtp.waitForMessage(watcher.email, 20_000, (mail) =>
      Boolean(mail.subject?.includes(`${risk.publicId} ${risk.name} is late`)),
    );
    expect(late.text).toContain(`Task ${task.slug}`);
    expect(await mailJobs(risk.publicId)).toHaveLength(4);
    const rows = await remindersOf(schedule.id);
    expect(rows.map((row) => [row.stage, row.cycle, row.taskId])).toEqual([
      ['ALMOST_DUE', due, task.id],
      ['LATE', due, task.id],
    ]);
    expect(((await call('GET', path)).json() as Schedule).lastReminder).toMatchObject({
      stage: 'LATE',
      openTask: { slug: task.slug },
    });

    // Marking reviewed closes the task and starts a new cycle, which reminds again.
    const reviewed = await call('POST', `${path}/reviewed`);
    expect(reviewed.statusCode).toBe(200);
    const next = reviewed.json() as Schedule;
    expect(next.nextReview).toBe(addReviewInterval(today(), 1, 'year'));
    expect(next.lastReminder).toMatchObject({ stage: 'LATE', cycle: due, openTask: null });
    const closed = (await call('GET', `/task/${task.slug}`)).json() as {
      state: string;
      history: { action: string; actorId?: string | null }[];
    };
    expect(closed.state).toBe('CLOSED');
    await run(addReviewInterval(next.nextReview, -3, 'day'));
    const again = ((await call('GET', path)).json() as Schedule).lastReminder!;
    expect(again).toMatchObject({ stage: 'ALMOST_DUE', cycle: next.nextReview });
    expect(again.openTask!.slug).not.toBe(task.slug);
    expect(await mailJobs(risk.publicId)).toHaveLength(6);
  });

  it('fall due across month ends and leap days as the schedule says', async () => {
    // Monthly, due 31 March 2027: the interval began 28 February (31 days), so it is almost due from
    // 23 March (a quarter of the interval, rounded up: 8 days).
    const monthEnd = await scheduledRisk({ every: 1, unit: 'month', nextReview: '2027-03-31' });
    await run('2027-03-22');
    expect(await remindersOf(monthEnd.schedule.id)).toHaveLength(0);
    await run('2027-03-23');
    expect((await remindersOf(monthEnd.schedule.id)).map((row) => row.stage)).toEqual(['ALMOST_DUE']);
    await run('2027-03-31');
    expect(await remindersOf(monthEnd.schedule.id)).toHaveLength(1);
    await run('2027-04-01');
    expect((await remindersOf(monthEnd.schedule.id)).map((row) => row.stage)).toEqual(['ALMOST_DUE', 'LATE']);

    // Monthly, due on the leap day 29 February 2028: the interval began 29 January (31 days).
    const leapMonth = await scheduledRisk({ every: 1, unit: 'month', nextReview: '2028-02-29' });
    await run('2028-02-20');
    expect(await remindersOf(leapMonth.schedule.id)).toHaveLength(0);
    await run('2028-02-21');
    await run('2028-02-29');
    expect((await remindersOf(leapMonth.schedule.id)).map((row) => row.stage)).toEqual(['ALMOST_DUE']);
    await run('2028-03-01');
    expect((await remindersOf(leapMonth.schedule.id)).map((row) => row.stage)).toEqual([
      'ALMOST_DUE',
      'LATE',
    ]);

    // Yearly, due 29 February 2028: almost due for the last 30 days, from 30 January.
    const leapYear = await scheduledRisk({ every: 1, unit: 'year', nextReview: '2028-02-29' });
    await run('2028-01-29');
    expect(await remindersOf(leapYear.schedule.id)).toHaveLength(0);
    await run('2028-01-30');
    expect((await remindersOf(leapYear.schedule.id)).map((row) => [row.stage, row.cycle])).toEqual([
      ['ALMOST_DUE', '2028-02-29'],
    ]);
  });

  it("go only to the organisation's active users, never for inactive risks, and never half-written", async () => {
    const late = addReviewInterval(today(), -2, 'day');
    const { risk, schedule } = await scheduledRisk({
      every: 3,
      unit: 'month',
      nextReview: late,
      watcherIds: [leaver.id, visitor.id, watcher.id],
    });
    // The leaver is made inactive, the provider's visitor loses access to the organisation.
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, leaver.id));
    await ctx.database.db
      .delete(userOrgs)
      .where(and(eq(userOrgs.userId, visitor.id), eq(userOrgs.orgId, orgId)));

    // A failure while queueing the e-mails leaves nothing behind; the next run sends it all.
    let calls = 0;
    const failing: ReminderDeps = {
      ...deps,
      queueMail: async () => {
        calls++;
        throw new Error('queue unavailable');
      },
    };
    await runReviewReminders(ctx.database.db, noon(today()), failing);
    expect(calls).toBeGreaterThan(0);
    expect(await remindersOf(schedule.id)).toHaveLength(0);
    const tasks = await ctx.database.db
      .select()
      .from(tickets)
      .where(and(eq(tickets.orgId, orgId), sql`${tickets.title} LIKE ${`%${risk.publicId} %`}`));
    expect(tasks).toHaveLength(0);

    await run(today());
    const [row] = await remindersOf(schedule.id);
    expect(row).toMatchObject({ stage: 'LATE', sentTo: [watcher.email] });
    const task = (await call('GET', `/task/${row!.taskId}`)).json() as {
      ownerId: string;
      watchers: { id: string }[];
    };
    expect(task.ownerId).toBe(watcher.id);
    expect(task.watchers.map((person) => person.id)).toEqual([watcher.id]);
    expect((await mailJobs(risk.publicId)).map((mail) => mail.to)).toEqual([watcher.email]);

    // An inactive risk is not reminded of.
    const quiet = await scheduledRisk({ every: 1, unit: 'month', nextReview: late });
    const state = await call('PUT', `/risk/${quiet.risk.publicId}/state`, {
      version: quiet.risk.version,
      state: 'INACTIVE',
    });
    expect(state.statusCode).toBe(200);
    await run(today());
    expect(await remindersOf(quiet.schedule.id)).toHaveLength(0);

    // Another organisation's schedule reminds its own people, with a task of its own.
    const other = await scheduledRisk(
      { every: 1, unit: 'month', nextReview: late, watcherIds: [stranger.id] },
      stranger,
      otherOrgId,
    );
    await run(today());
    const [otherRow] = await remindersOf(other.schedule.id);
    expect(otherRow).toMatchObject({ orgId: otherOrgId, sentTo: [stranger.email] });
    expect((await call('GET', `/task/${otherRow!.taskId}`)).statusCode).toBe(404);
    expect((await call('GET', `/task/${otherRow!.taskId}`, undefined, stranger, otherOrgId)).statusCode).toBe(
      200,
    );
    expect(await mailJobs(other.risk.publicId, 'Other Bank')).toEqual([
      expect.objectContaining({ to: stranger.email }),
    ]);
  });

  it("assign a control's task to its owner and close it when the schedule is deleted", async () => {
    const control = (
      await call('POST', '/control', { name: 'Quarterly access review', ownerId: editor.id })
    ).json() as { publicId: string };
    const path = `/control/${control.publicId}/review-schedule`;
    const added = await call('POST', path, {
      every: 3,
      unit: 'month',
      nextReview: addReviewInterval(today(), 3, 'day'),
      watcherIds: [watcher.id],
    });
    expect(added.statusCode).toBe(201);
    await run(today());
    const mail = await smtp.waitForMessage(watcher.email, 20_000, (message) =>
      Boolean(message.subject?.includes(`Review of control ${control.publicId} `)),
    );
    expect(mail.text).toContain(`${PUBLIC_URL}/risk/controls/register?orgId=${orgId}`);
    const reminder = ((await call('GET', path)).json() as Schedule).lastReminder!;
    const task = (await call('GET', `/task/${reminder.openTask!.slug}`)).json() as { ownerId: string };
    expect(task.ownerId).toBe(editor.id);

    expect((await call('DELETE', path)).statusCode).toBe(204);
    const closed = (await call('GET', `/task/${reminder.openTask!.slug}`)).json() as { state: string };
    expect(closed.state).toBe('CLOSED');
    const schedules = await ctx.database.db
      .select()
      .from(reviewSchedules)
      .where(eq(reviewSchedules.id, added.json().id));
    expect(schedules).toHaveLength(0);
  });
});
