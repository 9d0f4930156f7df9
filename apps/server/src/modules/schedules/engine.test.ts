import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database, type Db } from '../../db/client';
import { createTestDatabase } from '../../../test/database';
import { seedOrg, seedUser } from '../../../test/fixtures';
import type { JobRunner } from '../../platform/jobs';
import { runJobOnce, startJobServer } from '../../../test/jobs';
import { tickets, ticketWatchers } from '../tickets/tables';
import { defineScheduleJobs, runDueSchedules, TASK_SCHEDULE_TICK_JOB } from './engine';
import { taskScheduleRuns, taskSchedules } from './tables';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
/** A Monday, 09:00 UTC. */
const T0 = new Date('2026-03-02T09:00:00.000Z');
const at = (ms: number) => new Date(T0.getTime() + ms);

let database: Database;
let db: Db;

beforeAll(async () => {
  database = await createTestDatabase();
  db = database.db;
});
afterAll(() => database.close());

async function setUp() {
  const org = await seedOrg(db);
  const schedule = async (values: Partial<typeof taskSchedules.$inferInsert> = {}) => {
    const [row] = await db
      .insert(taskSchedules)
      .values({
        orgId: org.id,
        name: 'Daily review',
        intervalCount: 1,
        intervalUnit: 'day',
        nextRunAt: T0,
        runAt: T0,
        taskTitle: 'Review',
        ...values,
      })
      .returning();
    return row!;
  };
  return { org, schedule };
}

const runsOf = (id: string) =>
  db
    .select()
    .from(taskScheduleRuns)
    .where(eq(taskScheduleRuns.scheduleId, id))
    .orderBy(asc(taskScheduleRuns.scheduledFor));

const tasksOf = async (orgId: string) =>
  db.select().from(tickets).where(eq(tickets.orgId, orgId)).orderBy(asc(tickets.number));

const scheduleRow = async (id: string) =>
  (await db.select().from(taskSchedules).where(eq(taskSchedules.id, id)))[0]!;

describe('the task schedule engine', () => {
  it('creates a task at its time, not before, and moves the next run on', async () => {
    const { org, schedule } = await setUp();
    const user = await seedUser(db, { homeOrgId: org.id, permissions: ['TASK_VIEW'] });
    const row = await schedule({
      taskDescription: 'Check every admin account',
      queries: [{ id: '00000000-0000-4000-8000-000000000001', name: 'Privileged sign-ins' }],
      ownerId: user.id,
      watcherIds: [user.id],
      dueCount: 2,
      dueUnit: 'day',
    });
    expect(await runDueSchedules(db, at(-MINUTE))).toBe(0);
    expect(await runDueSchedules(db, at(MINUTE))).toBe(1);
    // A second tick in the same minute finds nothing due.
    expect(await runDueSchedules(db, at(2 * MINUTE))).toBe(0);

    const [task] = await tasksOf(org.id);
    expect(task).toMatchObject({
      kind: 'task',
      slug: 'TASK-1',
      state: 'OPEN',
      title: 'Review',
      ownerId: user.id,
      dueDate: at(2 * DAY),
    });
    expect(task!.description).toBe('Check every admin account\n\nSaved queries:\n- Privileged sign-ins');
    expect(await db.select().from(ticketWatchers).where(eq(ticketWatchers.ticketId, task!.id))).toHaveLength(
      1,
    );
    expect(await runsOf(row.id)).toMatchObject([{ scheduledFor: T0, ticketId: task!.id, missed: 0 }]);
    expect(await scheduleRow(row.id)).toMatchObject({
      nextRunAt: at(DAY),
      runAt: at(DAY),
      lastRanAt: at(MINUTE),
    });
  });

  it('never runs paused, deleted or library schedules', async () => {
    const { org, schedule } = await setUp();
    await schedule({ state: 'PAUSED' });
    await schedule({ state: 'DELETED' });
    await db.insert(taskSchedules).values({
      orgId: null,
      name: 'Library',
      intervalCount: 1,
      intervalUnit: 'day',
      nextRunAt: T0,
      runAt: T0,
      taskTitle: 'Library task',
    });
    await runDueSchedules(db, at(MINUTE));
    expect(await tasksOf(org.id)).toHaveLength(0);
    expect(
      (await db.select().from(taskSchedules).where(eq(taskSchedules.name, 'Library')))[0]!.lastRanAt,
    ).toBeNull();
  });

  it('catches up runs missed while down once, for the latest of them', async () => {
    const { org, schedule } = await setUp();
    const hourly = await schedule({ intervalUnit: 'hour' });
    // Down from 08:59 to 14:30: the 09:00 to 14:00 runs were missed.
    await runDueSchedules(db, at(5 * HOUR + 30 * MINUTE));
    expect(await runsOf(hourly.id)).toMatchObject([{ scheduledFor: at(5 * HOUR), missed: 5 }]);
    expect(await tasksOf(org.id)).toHaveLength(1);
    expect(await scheduleRow(hourly.id)).toMatchObject({ nextRunAt: at(6 * HOUR) });
    await runDueSchedules(db, at(6 * HOUR + MINUTE));
    expect((await runsOf(hourly.id)).map((run) => run.scheduledFor)).toEqual([at(5 * HOUR), at(6 * HOUR)]);
  });

  it('moves weekend runs to Monday when weekends are skipped', async () => {
    const { org, schedule } = await setUp();
    // Friday 09:00, daily: Saturday's and Sunday's runs become one on Monday.
    const friday = at(4 * DAY);
    const row = await schedule({ nextRunAt: friday, runAt: friday, skipWeekends: true });
    await runDueSchedules(db, at(4 * DAY + MINUTE));
    expect(await scheduleRow(row.id)).toMatchObject({ nextRunAt: at(5 * DAY), runAt: at(7 * DAY) });
    await runDueSchedules(db, at(5 * DAY + MINUTE));
    await runDueSchedules(db, at(6 * DAY + MINUTE));
    expect(await tasksOf(org.id)).toHaveLength(1);
    await runDueSchedules(db, at(7 * DAY + MINUTE));
    expect((await runsOf(row.id)).map((run) => run.scheduledFor)).toEqual([friday, at(7 * DAY)]);
    expect(await tasksOf(org.id)).toHaveLength(2);
    expect(await scheduleRow(row.id)).toMatchObject({ nextRunAt: at(8 * DAY), runAt: at(8 * DAY) });
  });

  it('runs monthly schedules on the 1st and the 15th', async () => {
    const { schedule } = await setUp();
    const first = new Date('2026-03-01T09:00:00.000Z');
    const fifteenth = new Date('2026-03-15T09:00:00.000Z');
    const begin = await schedule({ intervalUnit: 'month_begin', nextRunAt: first, runAt: first });
    const middle = await schedule({
      intervalUnit: 'month_15',
      intervalCount: 2,
      nextRunAt: fifteenth,
      runAt: fifteenth,
    });
    await runDueSchedules(db, new Date('2026-03-15T09:05:00.000Z'));
    expect((await scheduleRow(begin.id)).nextRunAt).toEqual(new Date('2026-04-01T09:00:00.000Z'));
    expect((await scheduleRow(middle.id)).nextRunAt).toEqual(new Date('2026-05-15T09:00:00.000Z'));
  });

  it("makes a child's task a subtask of its parent schedule's latest task", async () => {
    const { org, schedule } = await setUp();
    const parent = await schedule({ name: 'Parent', intervalUnit: 'week', taskTitle: 'Weekly' });
    await schedule({
      name: 'Child',
      parentId: parent.id,
      taskTitle: 'Daily',
      nextRunAt: at(HOUR),
      runAt: at(HOUR),
    });
    await runDueSchedules(db, at(HOUR + MINUTE));
    const [weekly, daily] = await tasksOf(org.id);
    expect(weekly!.title).toBe('Weekly');
    expect(daily).toMatchObject({ title: 'Daily', parentId: weekly!.id });
  });

  it('two servers ticking at once create each task once', async () => {
    const { org, schedule } = await setUp();
    await Promise.all([1, 2, 3].map(() => schedule()));
    const other = database.connectionString
      ? await openDatabase({ databaseUrl: database.connectionString })
      : null;
    try {
      await Promise.all([runDueSchedules(db, at(MINUTE)), runDueSchedules(other?.db ?? db, at(MINUTE))]);
    } finally {
      await other?.close();
    }
    expect(await tasksOf(org.id)).toHaveLength(3);
  });
});

describe('the schedules.tick job', () => {
  it('creates due tasks, and a restarted server neither repeats nor skips a run', async () => {
    const dataDir = database.connectionString ? null : await mkdtemp(path.join(tmpdir(), 'vigil-schedules-'));
    const open = () => openDatabase(dataDir ? { dataDir } : { databaseUrl: database.connectionString! });
    const startServer = (handle: Database) =>
      startJobServer(handle, (jobs) => defineScheduleJobs(jobs, handle.db));
    const tick = (jobs: JobRunner) => runJobOnce(jobs, TASK_SCHEDULE_TICK_JOB);
    try {
      const first = await open();
      const org = await seedOrg(first.db);
      const due = new Date(Date.now() - 10 * MINUTE);
      const later = new Date(Date.now() + 10 * MINUTE);
      const [row] = await first.db
        .insert(taskSchedules)
        .values([
          {
            orgId: org.id,
            name: 'Hourly',
            intervalCount: 1,
            intervalUnit: 'hour',
            nextRunAt: due,
            runAt: due,
            taskTitle: 'Hourly check',
          },
        ])
        .returning();

      const before = await startServer(first);
      await tick(before);
      await before.stop();
      if (dataDir) await first.close();

      const second = await open();
      try {
        // Its next run comes while the server is down: the restarted server makes it up once.
        await second.db
          .update(taskSchedules)
          .set({ nextRunAt: new Date(Date.now() - MINUTE), runAt: new Date(Date.now() - MINUTE) })
          .where(eq(taskSchedules.id, row!.id));
        const after = await startServer(second);
        try {
          await tick(after);
          await tick(after);
        } finally {
          await after.stop();
        }
        const runs = await second.db
          .select()
          .from(taskScheduleRuns)
          .where(eq(taskScheduleRuns.scheduleId, row!.id))
          .orderBy(asc(taskScheduleRuns.scheduledFor));
        expect(runs.map((run) => run.scheduledFor.getTime() < later.getTime())).toEqual([true, true]);
        expect(await second.db.select().from(tickets).where(eq(tickets.orgId, org.id))).toHaveLength(2);
      } finally {
        if (dataDir) await second.close();
      }
    } finally {
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
    }
  }, 60_000);
});
