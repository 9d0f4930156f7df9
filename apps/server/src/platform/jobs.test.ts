import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../db/client';
import { createTestDatabase } from '../../test/database';
import { JobRunner } from './jobs';

const onServer = process.env.VIGIL_TEST_DB === 'postgres';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()!();
});

async function testDatabase() {
  const database = await createTestDatabase();
  cleanups.push(() => database.close());
  return database;
}

function runner(database: Database) {
  const jobs = new JobRunner(database, { pollingIntervalSeconds: 0.5 });
  cleanups.push(() => jobs.stop());
  return jobs;
}

/** A second handle on the same database, as a second server process would open it. */
async function secondHandle(database: Database): Promise<Database> {
  if (!database.connectionString) return database;
  const other = await openDatabase({ databaseUrl: database.connectionString });
  cleanups.push(() => other.close());
  return other;
}

describe('durable jobs', () => {
  it('runs a one-off job with its data', async () => {
    const jobs = runner(await testDatabase());
    const seen: unknown[] = [];
    jobs.define<{ reportId: string }>({
      name: 'report.build',
      handler: async (data) => void seen.push(data),
    });
    await jobs.start();
    await jobs.send('report.build', { reportId: 'r-1' });
    await vi.waitFor(() => expect(seen).toEqual([{ reportId: 'r-1' }]), { timeout: 15_000, interval: 100 });
  });

  it('takes a job sent while the runner is still starting, as a request right after listen does', async () => {
    const jobs = runner(await testDatabase());
    const seen: unknown[] = [];
    jobs.define<{ reportId: string }>({
      name: 'report.build',
      handler: async (data) => void seen.push(data),
    });
    const started = jobs.start();
    await jobs.send('report.build', { reportId: 'r-2' });
    await started;
    await vi.waitFor(() => expect(seen).toEqual([{ reportId: 'r-2' }]), { timeout: 15_000, interval: 100 });
  });

  it('retries a failing job with back-off until it succeeds', async () => {
    const jobs = runner(await testDatabase());
    const attempts: number[] = [];
    jobs.define({
      name: 'mail.send',
      retry: { retryLimit: 3, retryDelay: 1, retryBackoff: true },
      handler: async () => {
        attempts.push(Date.now());
        if (attempts.length < 3) throw new Error('SMTP server unavailable');
      },
    });
    await jobs.start();
    await jobs.send('mail.send', {});
    await vi.waitFor(() => expect(attempts).toHaveLength(3), { timeout: 25_000, interval: 100 });
    // Back-off: the second wait is longer than the first.
    expect(attempts[2]! - attempts[1]!).toBeGreaterThan(attempts[1]! - attempts[0]! - 500);
    expect(attempts[1]! - attempts[0]!).toBeGreaterThanOrEqual(900);
  });

  it('never gives one job to two workers sharing the database', async () => {
    const database = await testDatabase();
    const runs: string[] = [];
    const workers = [runner(database), runner(await secondHandle(database))];
    for (const jobs of workers) {
      jobs.define<{ n: number }>({
        name: 'trigger.run',
        handler: async (_data, job) => {
          runs.push(job.id);
          await new Promise((resolve) => setTimeout(resolve, 20));
        },
      });
      await jobs.start();
    }
    const ids = await Promise.all(
      Array.from({ length: 20 }, (_, n) => workers[n % 2]!.send('trigger.run', { n })),
    );
    await vi.waitFor(() => expect(runs).toHaveLength(20), { timeout: 30_000, interval: 100 });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(runs.sort()).toEqual([...ids].sort());
  });

  it('lets a running job finish when the runner stops', async () => {
    const jobs = new JobRunner(await testDatabase(), { pollingIntervalSeconds: 0.5 });
    let started = false;
    let finished = false;
    jobs.define({
      name: 'cleanup.slow',
      handler: async () => {
        started = true;
        await new Promise((resolve) => setTimeout(resolve, 1500));
        finished = true;
      },
    });
    await jobs.start();
    await jobs.send('cleanup.slow', {});
    await vi.waitFor(() => expect(started).toBe(true), { timeout: 15_000, interval: 50 });
    await jobs.stop();
    expect(finished).toBe(true);
  });

  it('keeps queued jobs and schedules across a restart', async () => {
    let dataDir: string | undefined;
    let open: () => Promise<Database>;
    if (onServer) {
      const database = await testDatabase();
      open = async () => secondHandle(database);
    } else {
      dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-jobs-'));
      cleanups.push(() => rm(dataDir!, { recursive: true, force: true }));
      open = () => openDatabase({ dataDir });
    }

    const first = await open();
    const before = new JobRunner(first, { pollingIntervalSeconds: 0.5 });
    const seen: unknown[] = [];
    before.define({ name: 'schedule.run', handler: async (data) => void seen.push(data) });
    await before.start();
    await before.send('schedule.run', { id: 'after-restart' }, { startAfter: 3 });
    await before.schedule('schedule.run', '0 6 * * 1', { id: 'weekly' });
    await before.stop();
    if (dataDir) await first.close();
    expect(seen).toEqual([]);

    const second = await open();
    if (dataDir) cleanups.push(() => second.close());
    const after = runner(second);
    after.define({ name: 'schedule.run', handler: async (data) => void seen.push(data) });
    await after.start();
    expect((await after.boss.getSchedules()).map((entry) => [entry.name, entry.cron])).toEqual([
      ['schedule.run', '0 6 * * 1'],
    ]);
    await vi.waitFor(() => expect(seen).toEqual([{ id: 'after-restart' }]), {
      timeout: 20_000,
      interval: 100,
    });
  });
});
