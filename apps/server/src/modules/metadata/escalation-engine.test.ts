import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { insertTestAlert } from '../../../test/alerts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { queueMailWith, runEscalationTick, type TickDeps } from './escalation-engine';
import { escalationNotifications, escalationOutOfOffice, escalationSteps } from './escalation-tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let analyst: SeededUser;
let onCall: SeededUser;
let deps: TickDeps;
let run = 0;

const MINUTE = 60_000;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, {
    config: { SMTP_URL: smtp.url, PUBLIC_URL: 'https://vigil.example' },
    startJobs: true,
  });
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor Test Bank' })).id;
  analyst = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['ALERT_INBOX_EDIT', 'INCIDENT_EDIT', 'ESCALATION_EDIT'],
  });
  onCall = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW'] });
  deps = { queueMail: queueMailWith(ctx.jobs), publicUrl: 'https://vigil.example' };
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

/** Fresh addresses per test, so the SMTP server's messages of one test never answer another. */
let addresses: { second: string; third: string };
beforeEach(async () => {
  run++;
  const db = ctx.database.db;
  await db.delete(escalationNotifications);
  await db.delete(escalationSteps);
  await db.delete(escalationOutOfOffice);
  addresses = { second: `duty${run}@bank.example`, third: `ciso${run}@bank.example` };
  for (const step of [
    { name: 'SOC on-call', userId: onCall.id },
    { name: 'Duty manager', email: addresses.second, hours: 'BUSINESS_HOURS' },
    { name: 'CISO', email: addresses.third },
  ]) {
    expect((await call('POST', '/escalation/step', step)).statusCode).toBe(201);
  }
  // Business hours all week, so every step runs unless a test says otherwise.
  await call('PUT', '/escalation/schedule', {
    mode: 'CUSTOM',
    timezone: 'UTC',
    days: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, start: '00:00', end: '24:00' })),
  });
});

const call = (method: HttpMethod, path: string, payload?: object, user = analyst) =>
  orgRequest(ctx, orgId, method, path, user, payload);

/** Escalates a fresh alert to a new incident; answers the incident and the escalation's time. */
async function escalate() {
  const alert = await insertTestAlert(ctx.database.db, orgId, { severity: 'HIGH' });
  const before = Date.now();
  const response = await call('POST', '/alerts/escalate', { ids: [alert.id], title: `Wire fraud ${run}` });
  expect(response.statusCode).toBe(201);
  const incident = response.json() as { id: string; slug: string };
  return { ...incident, at: before };
}

const noticesOf = (ticketId: string) =>
  ctx.database.db
    .select()
    .from(escalationNotifications)
    .where(eq(escalationNotifications.ticketId, ticketId))
    .orderBy(asc(escalationNotifications.position));

const tick = (at: number, with_ = deps) => runEscalationTick(ctx.database.db, new Date(at), with_);

/** Mail jobs queued for a notice (the job id is the notice's id). */
async function mailJobs(noticeId: string): Promise<number> {
  const result = await ctx.database.db.execute(
    sql`SELECT count(*)::int AS n FROM pgboss.job WHERE name = 'mail.send' AND id = ${noticeId}`,
  );
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
}

const subjectFor = (slug: string) => (mail: { subject?: string }) => Boolean(mail.subject?.includes(slug));

describe('escalation notices', () => {
  it('e-mails the steps in order, 10 minutes apart, while the incident waits in Triage', async () => {
    const incident = await escalate();
    const notices = await noticesOf(incident.id);
    expect(notices.map((notice) => [notice.position, notice.status])).toEqual([
      [1, 'PENDING'],
      [2, 'PENDING'],
      [3, 'PENDING'],
    ]);
    const start = notices[0]!.dueAt.getTime();
    expect(notices.map((notice) => notice.dueAt.getTime() - start)).toEqual([0, 10 * MINUTE, 20 * MINUTE]);

    expect(await tick(start)).toBe(1);
    const first = await smtp.waitForMessage(onCall.email, 20_000, subjectFor(incident.slug));
    expect(first.subject).toBe(`[Vigil] Escalation ${incident.slug} Wire fraud ${run}: contact step 1`);
    expect(first.text).toContain('Organisation: Harbor Test Bank');
    expect(first.text).toContain(`https://vigil.example/tickets/incident/${incident.slug}?orgId=${orgId}`);
    expect(await tick(start + 9 * MINUTE)).toBe(0);
    expect(await tick(start + 10 * MINUTE)).toBe(1);
    await smtp.waitForMessage(addresses.second, 20_000, subjectFor(incident.slug));
    expect(await tick(start + 20 * MINUTE)).toBe(1);
    const third = await smtp.waitForMessage(addresses.third, 20_000, subjectFor(incident.slug));
    expect(third.subject).toContain('contact step 3');
    const sent = await noticesOf(incident.id);
    expect(sent.map((notice) => [notice.status, notice.sentTo])).toEqual([
      ['SENT', onCall.email],
      ['SENT', addresses.second],
      ['SENT', addresses.third],
    ]);
    expect(await tick(start + 60 * MINUTE)).toBe(0);
  });

  it('stops once the incident has an owner, and starts nothing for an incident already taken', async () => {
    const incident = await escalate();
    const start = (await noticesOf(incident.id))[0]!.dueAt.getTime();
    await tick(start);
    const detail = (await call('GET', `/incident/${incident.slug}`)).json();
    const owned = await call('PATCH', `/incident/${incident.slug}`, {
      ownerId: analyst.id,
      version: detail.version,
    });
    expect(owned.json().state).toBe('ANALYSIS');
    expect(await tick(start + 30 * MINUTE)).toBe(1);
    const after = await noticesOf(incident.id);
    expect(after.map((notice) => notice.status)).toEqual(['SENT', 'CANCELLED', 'CANCELLED']);
    expect(after[1]!.reason).toBe('ACKNOWLEDGED');
    expect(await mailJobs(after[2]!.id)).toBe(0);

    // Another alert escalated to the taken incident starts no new steps.
    const alert = await insertTestAlert(ctx.database.db, orgId, { severity: 'LOW' });
    await call('PUT', `/alert/${alert.id}/state`, { state: 'ESCALATED', ticketSlug: incident.slug });
    expect((await noticesOf(incident.id)).map((notice) => notice.status)).toEqual([
      'SENT',
      'CANCELLED',
      'CANCELLED',
    ]);
  });

  it('passes over business-hours steps during out of office and keeps the rest 10 minutes apart', async () => {
    await call('PUT', '/escalation/schedule', { mode: 'WEEKDAYS', timezone: 'UTC' });
    await call('POST', '/escalation/out-of-office', {
      startsAt: new Date(Date.now() - 3_600_000).toISOString(),
      endsAt: new Date(Date.now() + 3_600_000).toISOString(),
      note: 'Offsite',
    });
    const incident = await escalate();
    const notices = await noticesOf(incident.id);
    expect(notices.map((notice) => [notice.position, notice.status, notice.reason])).toEqual([
      [1, 'PENDING', null],
      [2, 'SKIPPED', 'OUTSIDE_BUSINESS_HOURS'],
      [3, 'PENDING', null],
    ]);
    expect(notices[2]!.dueAt.getTime() - notices[0]!.dueAt.getTime()).toBe(10 * MINUTE);
  });

  it('neither loses nor repeats an e-mail when a run dies before its commit, or when two run at once', async () => {
    const incident = await escalate();
    const [first] = await noticesOf(incident.id);
    const start = first!.dueAt.getTime();
    const crashing: TickDeps = {
      ...deps,
      queueMail: async (tx, message, id) => {
        await deps.queueMail(tx, message, id);
        throw new Error('process killed');
      },
    };
    await expect(tick(start, crashing)).rejects.toThrow('process killed');
    expect((await noticesOf(incident.id))[0]!.status).toBe('PENDING');
    expect(await mailJobs(first!.id)).toBe(0);

    const handled = await Promise.all([tick(start), tick(start), tick(start)]);
    expect(handled.reduce((sum, count) => sum + count, 0)).toBe(1);
    expect(await mailJobs(first!.id)).toBe(1);
    await smtp.waitForMessage(onCall.email, 20_000, subjectFor(incident.slug));
    // A tick long after the server was down sends the next step only, then waits 10 minutes again.
    expect(await tick(start + 120 * MINUTE)).toBe(1);
    const late = await noticesOf(incident.id);
    expect(late.map((notice) => notice.status)).toEqual(['SENT', 'SENT', 'PENDING']);
    expect(late[2]!.dueAt.getTime()).toBe(start + 130 * MINUTE);
    const copies = smtp.messages.filter(
      (mail) => mail.subject?.includes(incident.slug) && mail.subject.includes('contact step 1'),
    );
    expect(copies).toHaveLength(1);
    const rows = await ctx.database.db
      .select()
      .from(escalationNotifications)
      .where(
        and(eq(escalationNotifications.ticketId, incident.id), eq(escalationNotifications.status, 'SENT')),
      );
    expect(rows).toHaveLength(2);
  });
});
