import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../db/client';
import { createTestDatabase } from '../../../test/database';
import { seedEvents, seedManyEvents } from '../../../test/events';
import { seedOrg } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import type { JobRunner } from '../../platform/jobs';
import { runJobOnce, startJobServer } from '../../../test/jobs';
import { createMailTransport } from '../../platform/mail';
import { alerts } from '../alerts/tables';
import { savedQueries } from '../saved-queries/tables';
import { defineTriggerJobs, INGEST_DELAY_MS, runDueTriggers, TRIGGER_TICK_JOB } from './engine';
import { MAX_GROUP_VALUES } from './evaluate';
import { triggerRuns, triggers, triggerSchedules } from './tables';

const MINUTE = 60_000;
/** A Monday, 10:00 UTC: windows of the tests start here. */
const T0 = new Date('2026-03-02T10:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);
/** The `now` at which the window [T0, T0 + minutes) is due. */
const dueAfter = (minutes: number) => at(minutes * MINUTE + INGEST_DELAY_MS);

let database: Database;
let db: Db;
let smtp: TestSmtpServer;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await smtp.close();
  await database.close();
});

async function setUp() {
  const org = await seedOrg(db);
  const query = async (text: string, aggregation?: { type: string; field?: string }) => {
    const [saved] = await db
      .insert(savedQueries)
      .values({ orgId: org.id, name: `Query ${Math.random()}`, query: text, aggregation })
      .returning();
    return saved!.id;
  };
  const trigger = async (
    values: Partial<typeof triggers.$inferInsert> & { savedQueryId?: string | null },
  ) => {
    const [row] = await db
      .insert(triggers)
      .values({
        orgId: org.id,
        name: 'Failed logins',
        type: 'THRESHOLD',
        intervalSeconds: 300,
        lastWindowEnd: T0,
        nextRunAt: at(5 * MINUTE + INGEST_DELAY_MS),
        ...values,
      })
      .returning();
    return row!;
  };
  return { org, query, trigger };
}

const runsOf = (triggerId: string) =>
  db
    .select()
    .from(triggerRuns)
    .where(eq(triggerRuns.triggerId, triggerId))
    .orderBy(asc(triggerRuns.windowEnd));
const alertsOf = (triggerId: string) =>
  db
    .select()
    .from(alerts)
    .where(eq(alerts.triggerId, triggerId))
    .orderBy(asc(alerts.title), asc(alerts.windowEnd));
const triggerRow = async (id: string) => (await db.select().from(triggers).where(eq(triggers.id, id)))[0]!;

describe('threshold triggers', () => {
  it('fires when the count in the window reaches min match, counting [start, end) only', async () => {
    const { org, query, trigger } = await setUp();
    const failed = await query('login failed');
    const fires = await trigger({ savedQueryId: failed, minMatch: 3, severity: 'HIGH' });
    await seedEvents(db, org.id, [
      { timestamp: at(0), message: 'login failed' },
      { timestamp: at(MINUTE), message: 'login failed' },
      { timestamp: at(4 * MINUTE + 59_999), message: 'login failed' },
      { timestamp: at(2 * MINUTE), message: 'login succeeded' },
      // The next window's first instant.
      { timestamp: at(5 * MINUTE), message: 'login failed' },
    ]);

    await runDueTriggers(db, dueAfter(5));

    const [run] = await runsOf(fires.id);
    expect(run).toMatchObject({
      windowStart: T0,
      windowEnd: at(5 * MINUTE),
      matched: 3,
      alertsRaised: 1,
      error: null,
    });
    const [alert] = await alertsOf(fires.id);
    expect(alert).toMatchObject({
      orgId: org.id,
      kind: 'TRIGGER',
      state: 'NEW',
      title: 'Failed logins',
      severity: 'HIGH',
      matchCount: 3,
      groupKey: fires.id,
      windowStart: T0,
      windowEnd: at(5 * MINUTE),
      firedAt: dueAfter(5),
    });
    expect(alert!.events.map((event) => event.ts)).toEqual([
      '2026-03-02T10:00:00.000000Z',
      '2026-03-02T10:01:00.000000Z',
      '2026-03-02T10:04:59.999000Z',
    ]);
    expect(await triggerRow(fires.id)).toMatchObject({
      lastWindowEnd: at(5 * MINUTE),
      nextRunAt: at(10 * MINUTE + INGEST_DELAY_MS),
    });
  });

  it('does not fire below min match or above max match', async () => {
    const { org, query, trigger } = await setUp();
    const failed = await query('login failed');
    const below = await trigger({ savedQueryId: failed, minMatch: 4 });
    const above = await trigger({ savedQueryId: failed, minMatch: 1, maxMatch: 2 });
    await seedManyEvents(db, org.id, 3, at(MINUTE), { message: 'login failed' });

    await runDueTriggers(db, dueAfter(5));

    for (const quiet of [below, above]) {
      expect(await runsOf(quiet.id)).toMatchObject([{ matched: 3, alertsRaised: 0, error: null }]);
      expect(await alertsOf(quiet.id)).toEqual([]);
    }
  });

  it('raises one alert per group crossing min match', async () => {
    const { org, query, trigger } = await setUp();
    const grouped = await trigger({
      savedQueryId: await query('login failed'),
      minMatch: 2,
      aggregation: { type: 'terms', field: 'user_name' },
    });
    await seedEvents(db, org.id, [
      ...Array.from({ length: 3 }, (_, index) => ({
        timestamp: at(index * 1000),
        userName: 'alice',
        message: 'login failed',
      })),
      ...Array.from({ length: 2 }, (_, index) => ({
        timestamp: at(index * 1000),
        userName: 'bob',
        message: 'login failed',
      })),
      { timestamp: at(1000), userName: 'carol', message: 'login failed' },
    ]);

    await runDueTriggers(db, dueAfter(5));

    const raised = await alertsOf(grouped.id);
    expect(
      raised.map((alert) => [alert.title, alert.matchCount, alert.groupKey, alert.events.length]),
    ).toEqual([
      ['Failed logins: alice', 3, `${grouped.id}:alice`, 3],
      ['Failed logins: bob', 2, `${grouped.id}:bob`, 2],
    ]);
    expect(await runsOf(grouped.id)).toMatchObject([{ matched: 6, alertsRaised: 2 }]);
  });
});

describe('every-event triggers', () => {
  it('raises one alert per event up to 100 and summarises the rest in one alert', async () => {
    const { org, query, trigger } = await setUp();
    const every = await trigger({ type: 'EVERY_EVENT', savedQueryId: await query('malware') });
    await seedManyEvents(db, org.id, 105, at(0), { message: 'malware found' });

    await runDueTriggers(db, dueAfter(5));

    const raised = await alertsOf(every.id);
    expect(raised).toHaveLength(101);
    const summary = raised.find((alert) => alert.title === 'Failed logins: 5 more events')!;
    expect(summary.matchCount).toBe(5);
    expect(summary.events.map((event) => event.ts)).toEqual(
      Array.from({ length: 5 }, (_, index) =>
        at((100 + index) * 1000)
          .toISOString()
          .replace('Z', '000Z'),
      ),
    );
    const single = raised.filter((alert) => alert !== summary);
    expect(single.every((alert) => alert.matchCount === 1 && alert.events.length === 1)).toBe(true);
    expect(new Set(single.map((alert) => alert.events[0]!.id)).size).toBe(100);
    expect(await runsOf(every.id)).toMatchObject([{ matched: 105, alertsRaised: 101 }]);
  });
});

describe('aggregation triggers', () => {
  it('compares the aggregation of the window with min and max match', async () => {
    const { org, query, trigger } = await setUp();
    const transfers = await query('transfer');
    const large = await trigger({
      type: 'AGGREGATION',
      savedQueryId: transfers,
      aggregation: { type: 'sum', field: 'bytes' },
      minMatch: 1000,
    });
    const small = await trigger({
      type: 'AGGREGATION',
      savedQueryId: transfers,
      aggregation: { type: 'sum', field: 'bytes' },
      maxMatch: 500,
    });
    const fromSaved = await trigger({
      type: 'AGGREGATION',
      savedQueryId: await query('transfer', { type: 'count_distinct', field: 'host' }),
      minMatch: 2,
      maxMatch: 2,
    });
    await seedEvents(db, org.id, [
      { timestamp: at(0), host: 'a', message: 'transfer', fields: { bytes: 700 } },
      { timestamp: at(MINUTE), host: 'b', message: 'transfer', fields: { bytes: '400' } },
    ]);

    await runDueTriggers(db, dueAfter(5));

    expect(await alertsOf(large.id)).toMatchObject([{ matchCount: 2 }]);
    expect(await alertsOf(small.id)).toEqual([]);
    expect(await alertsOf(fromSaved.id)).toMatchObject([{ matchCount: 2 }]);
  });

  it('records an error run for a trigger without aggregation', async () => {
    const { org, query, trigger } = await setUp();
    const missing = await trigger({
      type: 'AGGREGATION',
      savedQueryId: await query('transfer'),
      minMatch: 1,
    });
    await seedEvents(db, org.id, [{ timestamp: at(0), message: 'transfer' }]);

    await runDueTriggers(db, dueAfter(5));

    expect(await runsOf(missing.id)).toMatchObject([{ error: 'Missing aggregation', alertsRaised: 0 }]);
    expect((await triggerRow(missing.id)).state).toBe('ACTIVE');
  });

  it('disables a trigger whose grouped field has too many unique values', async () => {
    const { org, query, trigger } = await setUp();
    const wide = await trigger({
      type: 'AGGREGATION',
      savedQueryId: await query('scan'),
      aggregation: { type: 'terms', field: 'n' },
      minMatch: 1,
    });
    // seedManyEvents numbers the events in fields.n, a second apart: MAX_GROUP_VALUES + 1 values.
    const many = MAX_GROUP_VALUES + 1;
    const start = new Date(T0.getTime() - 24 * 3600 * 1000);
    await seedManyEvents(db, org.id, many, start, { message: 'scan' });
    await db
      .update(triggers)
      .set({ intervalSeconds: 86_400, lastWindowEnd: start, nextRunAt: start })
      .where(eq(triggers.id, wide.id));

    await runDueTriggers(db, at(INGEST_DELAY_MS));

    expect(await runsOf(wide.id)).toMatchObject([
      {
        alertsRaised: 0,
        error: `Cardinality too high: n has about ${many} unique values, the maximum is ${MAX_GROUP_VALUES}`,
      },
    ]);
    expect(await alertsOf(wide.id)).toEqual([]);
    expect(await triggerRow(wide.id)).toMatchObject({ state: 'DISABLED', disabledReason: 'CARDINALITY' });
    // A disabled trigger is not run again.
    await runDueTriggers(db, at(2 * 86_400_000));
    expect(await runsOf(wide.id)).toHaveLength(1);
  }, 60_000);
});

describe('sequence triggers', () => {
  it('fires for steps in order within the interval and not for steps out of order', async () => {
    const { org, query, trigger } = await setUp();
    const sequence = await trigger({
      type: 'SEQUENCE',
      intervalSeconds: 300,
      aggregation: { type: 'terms', field: 'user_name' },
      sequence: [{ savedQueryId: await query('failed') }, { savedQueryId: await query('succeeded') }],
    });
    await seedEvents(db, org.id, [
      // alice: failed, then succeeded (in order).
      { timestamp: at(MINUTE), userName: 'alice', message: 'login failed' },
      { timestamp: at(2 * MINUTE), userName: 'alice', message: 'login succeeded' },
      // bob: succeeded, then failed (out of order).
      { timestamp: at(MINUTE), userName: 'bob', message: 'login succeeded' },
      { timestamp: at(2 * MINUTE), userName: 'bob', message: 'login failed' },
      // carol: in order, but the second step is in the next window.
      { timestamp: at(4 * MINUTE), userName: 'carol', message: 'login failed' },
      { timestamp: at(6 * MINUTE), userName: 'carol', message: 'login succeeded' },
    ]);

    await runDueTriggers(db, dueAfter(5));
    expect(
      (await alertsOf(sequence.id)).map((alert) => [alert.title, alert.matchCount, alert.events.length]),
    ).toEqual([['Failed logins: alice', 1, 2]]);

    // carol's sequence completes in the next window, its first step read from before the window.
    await runDueTriggers(db, dueAfter(10));
    expect((await alertsOf(sequence.id)).map((alert) => alert.title)).toEqual([
      'Failed logins: alice',
      'Failed logins: carol',
    ]);
  });

  it('does not fire when the steps are further apart than the interval', async () => {
    const { org, query, trigger } = await setUp();
    const sequence = await trigger({
      type: 'SEQUENCE',
      intervalSeconds: 60,
      nextRunAt: T0,
      sequence: [{ savedQueryId: await query('failed') }, { savedQueryId: await query('succeeded') }],
    });
    await seedEvents(db, org.id, [
      { timestamp: at(0), host: 'web', message: 'login failed' },
      { timestamp: at(61_000), host: 'web', message: 'login succeeded' },
    ]);

    await runDueTriggers(db, dueAfter(2));

    expect(await alertsOf(sequence.id)).toEqual([]);
    expect(await runsOf(sequence.id)).toMatchObject([{ windowEnd: at(2 * MINUTE), error: null }]);
  });
});

describe('periodic triggers', () => {
  const PERIOD = 30 * MINUTE;

  it('dynamic threshold fires on a spike after 100 quiet periods, not on a quiet period', async () => {
    const { org, query, trigger } = await setUp();
    const dynamic = await trigger({
      type: 'DYNAMIC_THRESHOLD',
      intervalSeconds: 1800,
      savedQueryId: await query('denied'),
      lastWindowEnd: T0,
    });
    // 100 quiet periods before T0 with one or two events each, then a spike of 12 in [T0, T0 + 30 min).
    await seedEvents(db, org.id, [
      ...Array.from({ length: 100 }, (_, index) => ({
        timestamp: at(-(index + 1) * PERIOD),
        message: 'access denied',
      })),
      ...Array.from({ length: 50 }, (_, index) => ({
        timestamp: at(-(index * 2 + 1) * PERIOD + MINUTE),
        message: 'access denied',
      })),
      ...Array.from({ length: 12 }, (_, index) => ({
        timestamp: at(index * MINUTE),
        message: 'access denied',
      })),
      { timestamp: at(PERIOD + MINUTE), message: 'access denied' },
    ]);

    await runDueTriggers(db, dueAfter(30));
    expect(await alertsOf(dynamic.id)).toMatchObject([
      { matchCount: 12, windowStart: T0, windowEnd: at(PERIOD) },
    ]);

    await runDueTriggers(db, dueAfter(60));
    expect(await alertsOf(dynamic.id)).toHaveLength(1);
    expect(await runsOf(dynamic.id)).toMatchObject([
      { matched: 12, alertsRaised: 1 },
      { windowStart: at(PERIOD), windowEnd: at(2 * PERIOD), matched: 1, alertsRaised: 0 },
    ]);
  });

  it('temporal anomaly fires when a half hour is far above the same half hour of past weeks', async () => {
    const { org, query, trigger } = await setUp();
    const temporal = await trigger({
      type: 'TEMPORAL_ANOMALY',
      intervalSeconds: 1800,
      savedQueryId: await query('export'),
      lastWindowEnd: T0,
    });
    const WEEK = 7 * 24 * 60 * MINUTE;
    await seedEvents(db, org.id, [
      ...Array.from({ length: 8 }, (_, week) => ({
        timestamp: at(-(week + 1) * WEEK),
        message: 'data export',
      })),
      ...Array.from({ length: 6 }, (_, index) => ({ timestamp: at(index * MINUTE), message: 'data export' })),
    ]);

    await runDueTriggers(db, dueAfter(30));

    expect(await alertsOf(temporal.id)).toMatchObject([{ matchCount: 6, windowEnd: at(PERIOD) }]);
  });
});

describe('schedules, notifications and state', () => {
  it('passes over windows outside the trigger schedule, in its time zone', async () => {
    const { org, query, trigger } = await setUp();
    // 10:00 UTC is 11:00 in Berlin in March: the window 11:00-12:00 Monday to Friday.
    const [schedule] = await db
      .insert(triggerSchedules)
      .values({
        orgId: org.id,
        name: `Business ${Math.random()}`,
        timezone: 'Europe/Berlin',
        windows: [{ days: [1, 2, 3, 4, 5], startMinute: 11 * 60 + 5, endMinute: 12 * 60 }],
      })
      .returning();
    const scheduled = await trigger({ savedQueryId: await query('login failed'), scheduleId: schedule!.id });
    await seedManyEvents(db, org.id, 4, at(0), { message: 'login failed' });
    await seedManyEvents(db, org.id, 4, at(5 * MINUTE), { message: 'login failed' });

    await runDueTriggers(db, dueAfter(5));
    expect(await runsOf(scheduled.id)).toEqual([]);
    expect(await triggerRow(scheduled.id)).toMatchObject({ lastWindowEnd: at(5 * MINUTE) });

    await runDueTriggers(db, dueAfter(10));
    expect(await runsOf(scheduled.id)).toMatchObject([{ windowStart: at(5 * MINUTE), matched: 4 }]);
    expect(await alertsOf(scheduled.id)).toHaveLength(1);
  });

  it('e-mails each alert with the custom headers, or one digest per run', async () => {
    const { org, query, trigger } = await setUp();
    const sendMail = createMailTransport({ smtpUrl: smtp.url, outboxDir: '/nonexistent' });
    const grouped = {
      savedQueryId: await query('login failed'),
      aggregation: { type: 'terms', field: 'host' },
    };
    const single = await trigger({
      ...grouped,
      name: 'Per alert',
      emailRecipients: ['soc@example.com'],
      customHeaders: { 'X-Ticket-Queue': 'soc' },
    });
    const digest = await trigger({
      ...grouped,
      name: 'Digest',
      emailRecipients: ['digest@example.com'],
      emailDigest: true,
    });
    const notifyOnly = await trigger({
      ...grouped,
      name: 'Notify only',
      emailRecipients: ['quiet@example.com'],
      notifyOnly: true,
    });
    await seedEvents(db, org.id, [
      { timestamp: at(0), host: 'web-1', message: 'login failed' },
      { timestamp: at(0), host: 'web-2', message: 'login failed' },
    ]);

    await runDueTriggers(db, dueAfter(5), { sendMail });

    const perAlert = () =>
      smtp.messages.filter((mail) => mail.subject?.startsWith('[Vigil] MEDIUM alert: Per alert'));
    await smtp.waitForMessage('soc@example.com');
    await expect.poll(() => perAlert().length).toBe(2);
    expect(
      perAlert()
        .map((mail) => mail.subject)
        .sort(),
    ).toEqual(['[Vigil] MEDIUM alert: Per alert: web-1', '[Vigil] MEDIUM alert: Per alert: web-2']);
    expect(perAlert()[0]!.headers.get('x-ticket-queue')).toBe('soc');
    const digestMail = await smtp.waitForMessage('digest@example.com');
    expect(digestMail.subject).toBe('[Vigil] Digest: 2 alerts');
    expect(digestMail.text).toContain('Digest: web-1');
    expect(digestMail.text).toContain('Digest: web-2');
    expect(smtp.messages.filter((mail) => mail.subject?.startsWith('[Vigil] Digest'))).toHaveLength(1);
    // Notify only: e-mailed, not in the inbox.
    expect((await smtp.waitForMessage('quiet@example.com')).subject).toContain('Notify only');
    expect(await alertsOf(notifyOnly.id)).toEqual([]);
    expect(await runsOf(notifyOnly.id)).toMatchObject([{ alertsRaised: 2 }]);
    expect(await alertsOf(single.id)).toHaveLength(2);
    expect(await alertsOf(digest.id)).toHaveLength(2);
  });

  it('leaves paused and library triggers alone and reactivates temporarily disabled ones when due', async () => {
    const { org, query, trigger } = await setUp();
    const failed = await query('login failed');
    const paused = await trigger({ savedQueryId: failed, state: 'PAUSED' });
    const library = await trigger({ savedQueryId: failed, orgId: null });
    const disabled = await trigger({
      savedQueryId: failed,
      state: 'DISABLED',
      disabledReason: 'TEMPORARY',
      disabledUntil: at(7 * MINUTE),
    });
    await seedManyEvents(db, org.id, 2, at(MINUTE), { message: 'login failed' });
    await seedManyEvents(db, org.id, 2, at(11 * MINUTE), { message: 'login failed' });

    await runDueTriggers(db, dueAfter(5));
    for (const idle of [paused, library, disabled]) expect(await runsOf(idle.id)).toEqual([]);

    await runDueTriggers(db, dueAfter(15));
    expect(await triggerRow(disabled.id)).toMatchObject({
      state: 'ACTIVE',
      disabledReason: null,
      disabledUntil: null,
    });
    // Reactivated from that tick on: the disabled time is not caught up.
    await runDueTriggers(db, dueAfter(20));
    expect(await runsOf(disabled.id)).toMatchObject([
      { windowStart: dueAfter(15), windowEnd: at(20 * MINUTE), matched: 0 },
    ]);
    for (const idle of [paused, library]) expect(await runsOf(idle.id)).toEqual([]);
  });
});

describe('durable runs', () => {
  it('runs a window once however often the tick repeats for the same time', async () => {
    const { org, query, trigger } = await setUp();
    const once = await trigger({ savedQueryId: await query('login failed'), minMatch: 1 });
    await seedManyEvents(db, org.id, 2, at(0), { message: 'login failed' });

    await runDueTriggers(db, dueAfter(5));
    await runDueTriggers(db, dueAfter(5));
    await runDueTriggers(db, at(5 * MINUTE + INGEST_DELAY_MS + 30_000));

    expect(await runsOf(once.id)).toHaveLength(1);
    expect(await alertsOf(once.id)).toHaveLength(1);
  });

  it('two servers ticking at once run each window once', async () => {
    const { org, query, trigger } = await setUp();
    const failed = await query('login failed');
    const both = await Promise.all([1, 2, 3].map(() => trigger({ savedQueryId: failed })));
    await seedManyEvents(db, org.id, 2, at(0), { message: 'login failed' });
    // A second handle on the same database, as a second server process opens it.
    const other = database.connectionString
      ? await openDatabase({ databaseUrl: database.connectionString })
      : null;
    try {
      await Promise.all([runDueTriggers(db, dueAfter(5)), runDueTriggers(other?.db ?? db, dueAfter(5))]);
    } finally {
      await other?.close();
    }
    for (const row of both) {
      expect(await runsOf(row.id)).toHaveLength(1);
      expect(await alertsOf(row.id)).toHaveLength(1);
    }
  });

  it('catches up a gap once after downtime, at most 24 hours back', async () => {
    const { org, query, trigger } = await setUp();
    const gap = await trigger({ savedQueryId: await query('login failed'), minMatch: 3 });
    await seedManyEvents(db, org.id, 2, at(0), { message: 'login failed' });
    await runDueTriggers(db, dueAfter(5));
    // The server is down from 10:06 to 10:33; events keep arriving.
    await seedManyEvents(db, org.id, 3, at(12 * MINUTE), { message: 'login failed' });
    await seedManyEvents(db, org.id, 1, at(29 * MINUTE), { message: 'login failed' });

    await runDueTriggers(db, at(33 * MINUTE));

    expect(await runsOf(gap.id)).toMatchObject([
      { windowStart: T0, windowEnd: at(5 * MINUTE), matched: 2, alertsRaised: 0 },
      { windowStart: at(5 * MINUTE), windowEnd: at(30 * MINUTE), matched: 4, alertsRaised: 1 },
    ]);
    expect(await triggerRow(gap.id)).toMatchObject({ nextRunAt: at(35 * MINUTE + INGEST_DELAY_MS) });

    // Down for two days: the catch-up covers the last 24 hours only.
    await runDueTriggers(db, at(2 * 86_400_000 + 30 * MINUTE + INGEST_DELAY_MS));
    expect((await runsOf(gap.id)).at(-1)).toMatchObject({
      windowStart: at(86_400_000 + 30 * MINUTE),
      windowEnd: at(2 * 86_400_000 + 30 * MINUTE),
    });
  });

  it('records a failing evaluation as an error run and moves on', async () => {
    const { org, query, trigger } = await setUp();
    const broken = await trigger({ savedQueryId: await query('host:(') });
    // A failing statement (a step id that is no uuid): the run's transaction must survive it.
    const failingSql = await trigger({
      type: 'SEQUENCE',
      sequence: [{ savedQueryId: 'not-a-uuid' }, { savedQueryId: 'not-a-uuid' }],
    });
    const healthy = await trigger({ savedQueryId: await query('login failed') });
    await seedManyEvents(db, org.id, 2, at(0), { message: 'login failed' });

    await runDueTriggers(db, dueAfter(5));
    await runDueTriggers(db, dueAfter(10));

    for (const failing of [broken, failingSql]) {
      const runs = await runsOf(failing.id);
      expect(runs.map((run) => run.windowEnd)).toEqual([at(5 * MINUTE), at(10 * MINUTE)]);
      expect(runs.every((run) => run.error !== null && run.alertsRaised === 0)).toBe(true);
      expect(await triggerRow(failing.id)).toMatchObject({ state: 'ACTIVE', lastWindowEnd: at(10 * MINUTE) });
    }
    expect(await alertsOf(healthy.id)).toHaveLength(1);
  });
});

describe('the triggers.tick job', () => {
  it('runs due triggers, and a restarted server neither repeats nor skips a window', async () => {
    // A database that outlives the server process: a directory for PGlite, a second handle on the server.
    const dataDir = database.connectionString ? null : await mkdtemp(path.join(tmpdir(), 'vigil-engine-'));
    const open = () => openDatabase(dataDir ? { dataDir } : { databaseUrl: database.connectionString! });
    const startServer = (handle: Database) =>
      startJobServer(handle, (jobs) => defineTriggerJobs(jobs, handle.db, async () => {}));
    const tick = (jobs: JobRunner) => runJobOnce(jobs, TRIGGER_TICK_JOB);
    try {
      const first = await open();
      const minute = Math.floor(Date.now() / MINUTE) * MINUTE;
      const org = await seedOrg(first.db);
      const [saved] = await first.db
        .insert(savedQueries)
        .values({ orgId: org.id, name: 'Failed', query: 'login failed' })
        .returning();
      const [row] = await first.db
        .insert(triggers)
        .values({
          orgId: org.id,
          name: 'Failed logins',
          type: 'THRESHOLD',
          intervalSeconds: 60,
          savedQueryId: saved!.id,
          lastWindowEnd: new Date(minute - 10 * MINUTE),
          nextRunAt: new Date(minute - 10 * MINUTE),
        })
        .returning();
      await seedManyEvents(first.db, org.id, 2, new Date(minute - 5 * MINUTE), { message: 'login failed' });

      const before = await startServer(first);
      await tick(before);
      await before.stop();
      if (dataDir) await first.close();

      const second = await open();
      try {
        const after = await startServer(second);
        try {
          await tick(after);
        } finally {
          await after.stop();
        }
        const runs = await second.db
          .select()
          .from(triggerRuns)
          .where(eq(triggerRuns.triggerId, row!.id))
          .orderBy(asc(triggerRuns.windowEnd));
        // One catch-up run over the missed ten minutes, then (if a minute passed) the next window only.
        expect(runs[0]!.windowStart).toEqual(new Date(minute - 10 * MINUTE));
        expect(runs[0]!.matched).toBe(2);
        runs.slice(1).forEach((run, index) => expect(run.windowStart).toEqual(runs[index]!.windowEnd));
        expect(await second.db.select().from(alerts).where(eq(alerts.triggerId, row!.id))).toHaveLength(1);
      } finally {
        if (dataDir) await second.close();
      }
    } finally {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
