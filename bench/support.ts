import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp } from '../apps/server/src/app';
import { bootstrap } from '../apps/server/src/bootstrap/bootstrap';
import { openDatabase, type Database } from '../apps/server/src/db/client';
import { createSession } from '../apps/server/src/modules/auth/sessions';
import { users } from '../apps/server/src/modules/users/tables';
import { SESSION_COOKIE } from '../apps/server/src/platform/access';
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

export type Query = (text: string, params?: unknown[]) => Promise<{ rows: unknown[] }>;

export interface Scratch {
  database: Database;
  /** Raw SQL on a second connection (the server), or on the same PGlite. */
  query: Query;
  /** The second connection's pool on the server; undefined on PGlite. */
  pool?: pg.Pool;
  /** Where the figures come from, for the benchmark's name. */
  where: string;
  /** The bootstrap administrator, their organisation and a session cookie for them. */
  orgId: string;
  userId: string;
  cookie: string;
  close(): Promise<void>;
}

/**
 * A migrated, bootstrapped database to benchmark in: a scratch database beside BENCH_DATABASE_URL
 * (dropped by `close`), else an in-memory PGlite.
 */
export async function scratchDatabase(): Promise<Scratch> {
  const serverUrl = process.env.BENCH_DATABASE_URL;
  let scratchUrl: string | undefined;
  let admin: pg.Client | undefined;
  if (serverUrl) {
    admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    const name = `vigil_bench_${randomBytes(4).toString('hex')}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    scratchUrl = url.toString();
  }
  // Dropping the scratch database ends idle connections: an error to ignore, not to crash on.
  const ignore = () => {};
  const database = await openDatabase(
    scratchUrl ? { databaseUrl: scratchUrl, onConnectionError: ignore } : {},
  );
  // The server's search transactions run without JIT; the hand-written baselines must plan alike.
  const pool = scratchUrl
    ? new pg.Pool({ connectionString: scratchUrl, max: 2, options: '-c jit=off' })
    : undefined;
  pool?.on('error', ignore);
  const close = async () => {
    await pool?.end();
    await database.close();
    if (admin && scratchUrl) {
      await admin.query(`DROP DATABASE ${new URL(scratchUrl).pathname.slice(1)} WITH (FORCE)`);
      await admin.end();
    }
  };
  try {
    await bootstrap(database.db, {
      adminEmail: 'bench@vigil.example',
      adminPassword: 'bench-password',
      demoData: false,
    });
    const [user] = await database.db.select().from(users).limit(1);
    return {
      database,
      query: async (text, params = []) =>
        pool ? pool.query(text, params) : database.pglite!.query(text, params),
      pool,
      where: pool ? 'PostgreSQL server' : 'PGlite (set BENCH_DATABASE_URL for the server)',
      orgId: user!.homeOrgId,
      userId: user!.id,
      cookie: `${SESSION_COOKIE}=${await createSession(database.db, { userId: user!.id })}`,
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
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

/** p50 and p99 of the API and of the SQL baseline, and their ratios. */
export const apiVsSql = (api: number[], raw: number[]) => [
  `API  p50 ${ms(percentile(api, 50))}  p99 ${ms(percentile(api, 99))}`,
  `SQL  p50 ${ms(percentile(raw, 50))}  p99 ${ms(percentile(raw, 99))}`,
  `ratio API/SQL  p50 ${(percentile(api, 50) / percentile(raw, 50)).toFixed(2)}  p99 ${(percentile(api, 99) / percentile(raw, 99)).toFixed(2)}`,
];
export const seconds = (fromMs: number) => `${((Date.now() - fromMs) / 1000).toFixed(1)} s`;
