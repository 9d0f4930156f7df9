import { PgBoss, fromPglite, type Job, type QueueOptions, type SendOptions } from 'pg-boss';
import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../db/client';

export type JobHandler<T extends object> = (data: T, job: Job<T>) => Promise<void>;

export interface JobDefinition<T extends object> {
  name: string;
  handler: JobHandler<T>;
  /** Retries with exponential back-off by default: 3 more tries, starting 5 seconds apart. */
  retry?: Pick<QueueOptions, 'retryLimit' | 'retryDelay' | 'retryBackoff' | 'retryDelayMax'>;
  /** How long one run may take before it counts as failed. */
  expireInSeconds?: number;
  /** Runs the job on this cron schedule (UTC) as well. */
  cron?: string;
}

export interface JobRunnerOptions {
  /** How often an idle worker looks for new jobs. */
  pollingIntervalSeconds?: number;
}

const DEFAULT_RETRY = { retryLimit: 3, retryDelay: 5, retryBackoff: true } as const;

/**
 * Durable jobs stored in the database (pg-boss): one-off and cron-scheduled work survives restarts,
 * failed runs retry with back-off, and workers of several server processes never take the same job
 * (rows are claimed with FOR UPDATE SKIP LOCKED).
 */
export class JobRunner {
  readonly boss: PgBoss;
  private readonly definitions = new Map<string, JobDefinition<object>>();
  private started = false;
  private starting?: Promise<void>;
  /** Set once the HTTP server's logger exists. */
  logger?: FastifyBaseLogger;

  constructor(
    database: Database,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.boss = database.pglite
      ? new PgBoss({ db: fromPglite(database.pglite), backend: 'pglite' })
      : new PgBoss({ connectionString: database.connectionString, max: 4 });
    this.boss.on('error', (error) => this.logger?.error({ err: error }, 'job runner error'));
  }

  /** Declares a job kind; its queue and worker start with `start()`. */
  define<T extends object>(definition: JobDefinition<T>): void {
    if (this.started) throw new Error(`Job ${definition.name} defined after the runner started`);
    this.definitions.set(definition.name, definition as unknown as JobDefinition<object>);
  }

  /**
   * The server listens before its jobs start; a request that sends a job in between waits for the
   * queues instead of failing.
   */
  start(): Promise<void> {
    this.starting ??= this.startQueues();
    return this.starting;
  }

  private async startQueues(): Promise<void> {
    await this.boss.start();
    for (const definition of this.definitions.values()) {
      await this.boss.createQueue(definition.name, {
        ...DEFAULT_RETRY,
        ...definition.retry,
        ...(definition.expireInSeconds && { expireInSeconds: definition.expireInSeconds }),
      });
      await this.boss.work<object>(
        definition.name,
        { pollingIntervalSeconds: this.options.pollingIntervalSeconds ?? 2 },
        async (jobs) => {
          for (const job of jobs) {
            try {
              await definition.handler(job.data, job);
            } catch (error) {
              this.logger?.warn({ err: error, job: job.name, jobId: job.id }, 'job failed');
              throw error;
            }
          }
        },
      );
      if (definition.cron) await this.boss.schedule(definition.name, definition.cron, {}, { tz: 'UTC' });
    }
    this.started = true;
  }

  async send<T extends object>(name: string, data: T, options?: SendOptions): Promise<string | null> {
    this.assertDefined(name);
    await this.starting;
    return this.boss.send(name, data, options ?? {});
  }

  /** Runs `name` on a cron schedule (one schedule per name; calling again replaces it). */
  async schedule<T extends object>(name: string, cron: string, data?: T, tz = 'UTC'): Promise<void> {
    this.assertDefined(name);
    await this.starting;
    await this.boss.schedule(name, cron, data ?? {}, { tz });
  }

  /** Stops taking jobs and waits for running ones to finish. */
  async stop(): Promise<void> {
    if (!this.started) return;
    this.started = false;
    this.starting = undefined;
    await this.boss.stop({ graceful: true, close: true, timeout: 30_000 });
  }

  private assertDefined(name: string) {
    if (!this.definitions.has(name)) throw new Error(`Unknown job ${name}`);
  }
}
