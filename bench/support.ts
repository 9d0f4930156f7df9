import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../apps/server/src/app';
import type { Database } from '../apps/server/src/db/client';
import { createSecretBox } from '../apps/server/src/platform/crypto';
import { JobRunner } from '../apps/server/src/platform/jobs';

export interface BenchResult {
  name: string;
  lines: string[];
}

/** The API server over an open database, quiet and without scheduled jobs. */
export async function benchApp(database: Database): Promise<FastifyInstance> {
  const app = await buildApp({
    config: { LOG_LEVEL: 'silent', NODE_ENV: 'production', DATA_DIR: tmpdir() },
    database,
    jobs: new JobRunner(database),
    secrets: createSecretBox(randomBytes(32)),
    webDist: '/none',
    logger: false,
  });
  await app.ready();
  return app;
}

/** Runs `send` `warmUp` times unmeasured, then `count` times, and answers each duration in ms. */
export async function sample(count: number, send: () => Promise<unknown>, warmUp = 50): Promise<number[]> {
  for (let i = 0; i < warmUp; i++) await send();
  const durations: number[] = [];
  for (let i = 0; i < count; i++) {
    const start = process.hrtime.bigint();
    await send();
    durations.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return durations;
}

export function percentile(durations: number[], p: number): number {
  const sorted = [...durations].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

export const mean = (durations: number[]) =>
  durations.reduce((sum, value) => sum + value, 0) / durations.length;
export const ms = (value: number) => `${value.toFixed(2)} ms`;
