import { expect, vi } from 'vitest';
import type { Database } from '../src/db/client';
import { JobRunner } from '../src/platform/jobs';

/**
 * A job runner on a database handle, as a server process starts one, with the jobs `define` adds;
 * `tick` sends one job of `name` and waits until it completed.
 */
export async function startJobServer(handle: Database, define: (jobs: JobRunner) => void) {
  const jobs = new JobRunner(handle, { pollingIntervalSeconds: 0.5 });
  define(jobs);
  await jobs.start();
  return jobs;
}

export async function runJobOnce(jobs: JobRunner, name: string) {
  const id = (await jobs.send(name, {}))!;
  await vi.waitFor(async () => expect((await jobs.boss.getJobById(name, id))?.state).toBe('completed'), {
    timeout: 20_000,
    interval: 200,
  });
}
