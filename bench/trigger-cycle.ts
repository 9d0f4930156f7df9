import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import type { Db } from '../apps/server/src/db/client';
import * as schema from '../apps/server/src/db/schema';
import { alerts } from '../apps/server/src/modules/alerts/tables';
import { savedQueries } from '../apps/server/src/modules/saved-queries/tables';
import { INGEST_DELAY_MS, runDueTriggers } from '../apps/server/src/modules/triggers/engine';
import {
  evaluateTrigger,
  PERIOD_SECONDS,
  type TriggerRow,
} from '../apps/server/src/modules/triggers/evaluate';
import { triggerRuns, triggers } from '../apps/server/src/modules/triggers/tables';
import { seedEvents } from './event-data';
import { scratchDatabase, type BenchResult, type Scratch } from './support';

const TRIGGER_COUNT = 200;
/** Interval of the triggers that choose theirs (the periodic types always run on 30 minutes). */
const INTERVAL_SECONDS = 300;
const ROUNDS = 3;

type NewTrigger = typeof triggers.$inferInsert;

/** Saved queries of the bench events' shapes, by name. */
const QUERIES: Record<string, string> = {
  failedLogon: 'outcome:failure',
  logon: 'eventId:4624',
  denied: 'action:deny',
  deniedSsh: 'action:deny AND dstPort:22',
  blocked: 'category:risky',
  wire: 'transactionType:wire',
  payments: 'dataSource:core-banking',
  nxdomain: 'rcode:NXDOMAIN',
  timeout: 'timeout',
  noMfa: 'dataSource:vpn AND mfa:false',
};

/**
 * The 200 triggers, mixed as an organisation would have them: every-event alerts on rare events,
 * thresholds (whole window and per host or user), aggregations (terms, count distinct, sum, avg,
 * max), sequences (failed then successful logon of a user), dynamic thresholds and temporal anomalies.
 */
function triggerMix(orgId: string, query: (name: string) => string): NewTrigger[] {
  const kinds: ((n: number) => Omit<NewTrigger, 'orgId' | 'name' | 'intervalSeconds'>)[] = [
    (n) => ({
      type: 'EVERY_EVENT',
      savedQueryId: query(['deniedSsh', 'timeout', 'noMfa'][n % 3]!),
    }),
    (n) => ({
      type: 'THRESHOLD',
      savedQueryId: query(['failedLogon', 'denied', 'blocked'][n % 3]!),
      minMatch: 50,
    }),
    (n) => ({
      type: 'THRESHOLD',
      savedQueryId: query(['failedLogon', 'denied', 'nxdomain'][n % 3]!),
      aggregation: { type: 'terms', field: n % 2 ? 'host' : 'userName' },
      minMatch: 3,
    }),
    (n) => ({
      type: 'AGGREGATION',
      savedQueryId: query(['payments', 'wire', 'denied'][n % 3]!),
      aggregation: [
        { type: 'terms', field: 'userName' },
        { type: 'count_distinct', field: 'userName' },
        { type: 'sum', field: 'amount' },
        { type: 'avg', field: 'amount' },
        { type: 'max', field: 'amount' },
      ][n % 5]!,
      minMatch: 1,
    }),
    () => ({
      type: 'SEQUENCE',
      sequence: [{ savedQueryId: query('failedLogon') }, { savedQueryId: query('logon') }],
      aggregation: { type: 'terms', field: 'userName' },
    }),
    (n) => ({ type: 'DYNAMIC_THRESHOLD', savedQueryId: query(['failedLogon', 'wire', 'blocked'][n % 3]!) }),
    (n) => ({ type: 'TEMPORAL_ANOMALY', savedQueryId: query(['denied', 'payments', 'nxdomain'][n % 3]!) }),
  ];
  return Array.from({ length: TRIGGER_COUNT }, (_, n) => ({
    ...kinds[n % kinds.length]!(Math.floor(n / kinds.length)),
    orgId,
    name: `Bench trigger ${n + 1}`,
    intervalSeconds: INTERVAL_SECONDS,
  }));
}

interface Statement {
  text: string;
  params: unknown[];
  /** The type of the trigger whose evaluation ran it. */
  type?: string;
}

/** A second drizzle handle on the same database that records every statement it runs. */
function recordingDb(scratch: Scratch, pool: pg.Pool | undefined, statements: Statement[]): Db {
  const logger = { logQuery: (text: string, params: unknown[]) => void statements.push({ text, params }) };
  const db = pool
    ? drizzlePg({ client: pool, schema, casing: 'snake_case', logger })
    : drizzlePglite({ client: scratch.database.pglite!, schema, casing: 'snake_case', logger });
  return db as unknown as Db;
}

/** The window the engine runs for a trigger at `now` (see runTrigger in the engine). */
function windowOf(trigger: Pick<TriggerRow, 'type' | 'intervalSeconds'>, now: number) {
  const periodic = trigger.type === 'DYNAMIC_THRESHOLD' || trigger.type === 'TEMPORAL_ANOMALY';
  const intervalMs = (periodic ? PERIOD_SECONDS : trigger.intervalSeconds) * 1000;
  const end = Math.floor((now - INGEST_DELAY_MS) / intervalMs) * intervalMs;
  return { start: new Date(end - intervalMs), end: new Date(end) };
}

/**
 * One evaluation cycle of the trigger engine (issue 8): 200 active triggers of every type on one
 * organisation with BENCH_EVENTS events (10,000,000 unless told) over 30 days, each due for its
 * latest window. The engine's cycle (`runDueTriggers`: claiming each trigger, evaluating it, storing
 * its run, alerts and cursor) against the evaluation statements themselves, recorded from the engine's
 * own code and run directly one after another on a connection of the same settings. Best of 3 each.
 */
export async function triggerCycleBenchmark(): Promise<BenchResult> {
  const eventCount = Number(process.env.BENCH_EVENTS ?? 10_000_000);
  const scratch = await scratchDatabase();
  const { database, orgId } = scratch;
  const db = database.db;
  // Same session settings as the engine's connections (the scratch's pool runs without JIT).
  const pool = database.connectionString
    ? new pg.Pool({ connectionString: database.connectionString, max: 1 })
    : undefined;
  // An idle connection ended by the server is replaced by the pool, not a crash.
  pool?.on('error', () => {});
  try {
    // Windows fall on the last seeded minutes: the events end at `now`, the cycle runs a minute later.
    const now = Date.now();
    const seeded = await seedEvents(scratch, eventCount, now);
    const cycleAt = new Date(now + INGEST_DELAY_MS);

    const ids = new Map<string, string>();
    for (const [name, text] of Object.entries(QUERIES)) {
      const [saved] = await db
        .insert(savedQueries)
        .values({ orgId, name, query: text, createdBy: scratch.userId })
        .returning({ id: savedQueries.id });
      ids.set(name, saved!.id);
    }
    const created = await db
      .insert(triggers)
      .values(triggerMix(orgId, (name) => ids.get(name)!))
      .returning();

    const reset = async () => {
      await db.delete(alerts);
      await db.delete(triggerRuns);
      for (const trigger of created) {
        const window = windowOf(trigger, cycleAt.getTime());
        await db
          .update(triggers)
          .set({ state: 'ACTIVE', nextRunAt: null, lastWindowEnd: window.start })
          .where(eq(triggers.id, trigger.id));
      }
    };

    // The evaluation statements, recorded once from the engine's own evaluation of each window.
    const statements: Statement[] = [];
    const recording = recordingDb(scratch, pool, statements);
    const byType = new Map<string, number>();
    for (const trigger of created) {
      const from = statements.length;
      await evaluateTrigger(recording, trigger, windowOf(trigger, cycleAt.getTime()));
      for (const statement of statements.slice(from)) statement.type = trigger.type;
      byType.set(trigger.type, (byType.get(trigger.type) ?? 0) + 1);
    }
    /** Time of the direct statements by trigger type, of the last round. */
    const typeMs = new Map<string, number>();
    const direct = async () => {
      const started = performance.now();
      for (const { text, params, type } of statements) {
        const at = performance.now();
        if (pool) await pool.query(text, params);
        else await database.pglite!.query(text, params);
        typeMs.set(type!, (typeMs.get(type!) ?? 0) + performance.now() - at);
      }
      return performance.now() - started;
    };
    const cycle = async () => {
      await reset();
      const started = performance.now();
      const ran = await runDueTriggers(db, cycleAt);
      const ms = performance.now() - started;
      if (ran !== TRIGGER_COUNT) throw new Error(`the cycle ran ${ran} triggers of ${TRIGGER_COUNT}`);
      return ms;
    };
    const cycles: number[] = [];
    const directs: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      cycles.push(await cycle());
      typeMs.clear();
      directs.push(await direct());
    }
    const runs = await db.select().from(triggerRuns);
    const failed = runs.filter((run) => run.error !== null);
    const raised = (await db.select({ id: alerts.id }).from(alerts)).length;
    const engineMs = Math.min(...cycles);
    const directMs = Math.min(...directs);
    return {
      name: `trigger cycle: ${TRIGGER_COUNT} triggers on ${eventCount} events, ${scratch.where}`,
      lines: [
        seeded,
        `triggers: ${[...byType].map(([type, count]) => `${count} ${type}`).join(', ')}; interval ${INTERVAL_SECONDS} s`,
        `engine  ${(engineMs / 1000).toFixed(2)} s per cycle (rounds: ${cycles.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s); ${raised} alerts, ${failed.length} failed runs${failed[0] ? ` (${failed[0].error})` : ''}`,
        `direct  ${(directMs / 1000).toFixed(2)} s for its ${statements.length} statements (rounds: ${directs.map((ms) => (ms / 1000).toFixed(2)).join(', ')} s)`,
        `direct by type (last round): ${[...typeMs].map(([type, ms]) => `${type} ${(ms / 1000).toFixed(2)} s`).join(', ')}`,
        `ratio engine/direct  ${(engineMs / directMs).toFixed(2)}`,
      ],
    };
  } finally {
    await pool?.end();
    await scratch.close();
  }
}
