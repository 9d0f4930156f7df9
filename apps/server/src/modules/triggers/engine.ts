import { and, asc, eq, isNotNull, isNull, lte, or, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import type { SendMail } from '../../platform/mail';
import { alerts } from '../alerts/tables';
import { PENDING_ACTIONS_JOB, queueAlertActions } from '../integrations/actions';
import { SEARCH_STATEMENT_TIMEOUT_MS } from '../events/service';
import {
  EvaluationError,
  evaluateTrigger,
  PERIOD_SECONDS,
  type Evaluation,
  type TriggerRow,
} from './evaluate';
import { notifyRecipients, type NotifiedAlert } from './notify';
import { triggerRuns, triggers, triggerSchedules } from './tables';

/**
 * The trigger engine (spec 3): every minute it runs the triggers that are due. A run covers
 * [last_window_end, scheduled end), the scheduled end being the latest interval boundary (epoch
 * aligned) at least INGEST_DELAY_MS ago, so events still arriving are counted by the window they
 * belong to (windows are on the event time `ts`). Each trigger is claimed with FOR UPDATE SKIP LOCKED
 * and its run row (unique per window), alerts and moved cursor are written in that one transaction:
 * a crash rolls the whole run back and the next tick repeats it, a second server skips the locked
 * row, and a window is never stored twice. A server that was down catches up with one run over the
 * whole gap (at most MAX_CATCH_UP_MS back).
 */

export const TRIGGER_TICK_JOB = 'triggers.tick';
/** How far a window's end lags behind now, for events still on their way. */
export const INGEST_DELAY_MS = 60_000;
/** The longest gap one catch-up run covers; older missed time is not evaluated. */
export const MAX_CATCH_UP_MS = 86_400_000;
/** Triggers one tick runs at most; the rest stay due for the next tick. */
const MAX_TRIGGERS_PER_TICK = 1000;

export interface EngineDeps {
  sendMail?: SendMail;
  log?: FastifyBaseLogger;
  /** Called after a run queued actions, so that they are executed at once rather than at the next minute. */
  actionsQueued?: () => Promise<void>;
}

interface RunOutcome {
  notify: NotifiedAlert[];
  actionsQueued: number;
}

type Schedule = typeof triggerSchedules.$inferSelect;

/** DYNAMIC_THRESHOLD and TEMPORAL_ANOMALY always run on 30-minute periods. */
function intervalMsOf(trigger: Pick<TriggerRow, 'type' | 'intervalSeconds'>): number {
  const periodic = trigger.type === 'DYNAMIC_THRESHOLD' || trigger.type === 'TEMPORAL_ANOMALY';
  return (periodic ? PERIOD_SECONDS : trigger.intervalSeconds) * 1000;
}

const WEEKDAYS: Record<string, number> = { Mon: 1, Tue: 2, Wed: 3, Thu: 4, Fri: 5, Sat: 6, Sun: 7 };

/** Whether an instant falls in one of the schedule's windows, in the schedule's time zone. */
function inSchedule(schedule: Pick<Schedule, 'timezone' | 'windows'>, at: Date): boolean {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone: schedule.timezone,
      weekday: 'short',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
  } catch {
    // An unknown zone (the API validates them) falls back to UTC rather than stopping the trigger.
    return inSchedule({ ...schedule, timezone: 'UTC' }, at);
  }
  const parts = Object.fromEntries(format.formatToParts(at).map((part) => [part.type, part.value]));
  const day = WEEKDAYS[parts.weekday!]!;
  const minute = Number(parts.hour) * 60 + Number(parts.minute);
  return schedule.windows.some(
    (window) => window.days.includes(day) && minute >= window.startMinute && minute < window.endMinute,
  );
}

const titleOf = (trigger: TriggerRow, group: string | null, summary?: boolean, count = 0) =>
  summary
    ? `${trigger.name}: ${count} more events`
    : group === null
      ? trigger.name
      : `${trigger.name}: ${group}`;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * Queues the trigger's actions for the alerts of a run, in a savepoint: a failure is written on the
 * run and in the log, and never undoes the alerts.
 */
async function queueActions(
  tx: Db,
  trigger: TriggerRow,
  runId: string,
  raised: { alertId: string | null; events: { id: string; ts: string }[] }[],
  deps: EngineDeps,
): Promise<number> {
  let problem: string | null = null;
  let queued = 0;
  try {
    const outcome = await tx.transaction(async (inner) =>
      queueAlertActions(inner as unknown as Db, trigger.orgId!, trigger.id, trigger.actionIds, raised),
    );
    queued = outcome.queued;
    if (outcome.featureOff) problem = 'Actions not run: the automatedIntervention feature is off';
    else if (outcome.missing.length > 0) problem = `Actions no longer exist: ${outcome.missing.join(', ')}`;
  } catch (error) {
    deps.log?.error({ err: error, triggerId: trigger.id }, 'trigger actions not queued');
    problem = `Actions not queued: ${errorText(error)}`;
  }
  if (problem) await tx.update(triggerRuns).set({ error: problem }).where(eq(triggerRuns.id, runId));
  return queued;
}

/** Runs one claimed trigger inside the claiming transaction; answers the alerts to e-mail. */
async function runTrigger(tx: Db, trigger: TriggerRow, now: Date, deps: EngineDeps): Promise<RunOutcome> {
  const intervalMs = intervalMsOf(trigger);
  const endMs = Math.floor((now.getTime() - INGEST_DELAY_MS) / intervalMs) * intervalMs;
  const startMs = Math.max(trigger.lastWindowEnd?.getTime() ?? endMs - intervalMs, endMs - MAX_CATCH_UP_MS);
  const nextRunAt = new Date(endMs + intervalMs + INGEST_DELAY_MS);
  const window = { start: new Date(startMs), end: new Date(endMs) };
  const moveOn = (values: Partial<typeof triggers.$inferInsert> = {}) =>
    tx
      .update(triggers)
      .set({ nextRunAt, ...values })
      .where(eq(triggers.id, trigger.id));

  const nothing: RunOutcome = { notify: [], actionsQueued: 0 };
  if (startMs >= endMs) {
    await moveOn();
    return nothing;
  }
  if (trigger.scheduleId) {
    const [schedule] = await tx
      .select()
      .from(triggerSchedules)
      .where(eq(triggerSchedules.id, trigger.scheduleId));
    // The window's last instant decides: outside the schedule it is passed over, no run, no alerts.
    if (schedule && !inSchedule(schedule, new Date(endMs - 1))) {
      await moveOn({ lastWindowEnd: window.end });
      return nothing;
    }
  }

  const started = Date.now();
  let evaluation: Evaluation | null = null;
  let failure: unknown = null;
  try {
    // A savepoint, so that a failing statement leaves the run's transaction usable.
    evaluation = await tx.transaction(async (inner) =>
      evaluateTrigger(inner as unknown as Db, trigger, window),
    );
  } catch (error) {
    failure = error;
    deps.log?.warn({ err: error, triggerId: trigger.id }, 'trigger evaluation failed');
  }
  const raised = evaluation?.alerts ?? [];
  const [run] = await tx
    .insert(triggerRuns)
    .values({
      triggerId: trigger.id,
      windowStart: window.start,
      windowEnd: window.end,
      ranAt: now,
      durationMs: Date.now() - started,
      matched: evaluation?.matched ?? 0,
      alertsRaised: raised.length,
      error: failure === null ? null : errorText(failure),
    })
    .onConflictDoNothing()
    .returning({ id: triggerRuns.id });
  const cardinality = failure instanceof EvaluationError && failure.disable === 'CARDINALITY';
  await moveOn({
    lastWindowEnd: window.end,
    ...(cardinality && {
      state: 'DISABLED',
      disabledReason: 'CARDINALITY',
      disabledUntil: null,
      modifiedOn: now,
    }),
  });
  // The window was stored before (a retry after a commit): nothing is raised again.
  if (!run || raised.length === 0) return nothing;

  const rows = raised.map((alert) => ({
    orgId: trigger.orgId!,
    domain: trigger.domain,
    kind: 'TRIGGER',
    triggerId: trigger.id,
    title: titleOf(trigger, alert.group, alert.summary, alert.matchCount),
    severity: trigger.severity,
    firedAt: now,
    windowStart: alert.windowStart,
    windowEnd: alert.windowEnd,
    matchCount: alert.matchCount,
    groupKey: alert.group === null ? trigger.id : `${trigger.id}:${alert.group}`,
    events: alert.events,
  }));
  // Notify only: the alerts are e-mailed but not put in the inbox.
  const ids = trigger.notifyOnly
    ? rows.map(() => null)
    : (await tx.insert(alerts).values(rows).returning({ id: alerts.id })).map((row) => row.id);
  const actionsQueued =
    trigger.actionIds.length === 0
      ? 0
      : await queueActions(
          tx,
          trigger,
          run.id,
          rows.map((row, index) => ({ alertId: ids[index] ?? null, events: row.events })),
          deps,
        );
  return { notify: rows, actionsQueued };
}

/**
 * Runs every due trigger once for `now` (the `triggers.tick` job; tests call it directly). Temporarily
 * disabled triggers whose time is up become ACTIVE again first, starting from now.
 */
export async function runDueTriggers(db: Db, now: Date, deps: EngineDeps = {}): Promise<number> {
  await db
    .update(triggers)
    .set({
      state: 'ACTIVE',
      disabledReason: null,
      disabledUntil: null,
      lastWindowEnd: now,
      nextRunAt: now,
      modifiedOn: now,
    })
    .where(
      and(
        eq(triggers.state, 'DISABLED'),
        eq(triggers.disabledReason, 'TEMPORARY'),
        lte(triggers.disabledUntil, now),
      ),
    );
  let ran = 0;
  while (ran < MAX_TRIGGERS_PER_TICK) {
    const outcome = await db.transaction(async (tx) => {
      const [trigger] = await tx
        .select()
        .from(triggers)
        .where(
          and(
            eq(triggers.state, 'ACTIVE'),
            isNotNull(triggers.orgId),
            or(isNull(triggers.nextRunAt), lte(triggers.nextRunAt, now)),
          ),
        )
        .orderBy(asc(triggers.nextRunAt))
        .limit(1)
        .for('update', { skipLocked: true });
      if (!trigger) return null;
      await tx.execute(sql.raw(`SET LOCAL statement_timeout = ${SEARCH_STATEMENT_TIMEOUT_MS}`));
      return { trigger, ...(await runTrigger(tx as unknown as Db, trigger, now, deps)) };
    });
    if (!outcome) break;
    ran++;
    if (outcome.actionsQueued > 0 && deps.actionsQueued) {
      try {
        await deps.actionsQueued();
      } catch (error) {
        // The queued actions stay PENDING for the executor's next minute.
        deps.log?.warn({ err: error, triggerId: outcome.trigger.id }, 'action executor not woken');
      }
    }
    if (!deps.sendMail || outcome.notify.length === 0) continue;
    // After the commit: a crash in between loses these e-mails rather than sending them twice.
    try {
      await notifyRecipients(deps.sendMail, outcome.trigger, outcome.notify);
    } catch (error) {
      deps.log?.error({ err: error, triggerId: outcome.trigger.id }, 'trigger e-mail not queued');
    }
  }
  return ran;
}

/** The `triggers.tick` job, every minute; a missed tick is made up by the next one's window. */
export function defineTriggerJobs(jobs: JobRunner, db: Db, sendMail: SendMail) {
  jobs.define({
    name: TRIGGER_TICK_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 900,
    handler: async () =>
      void (await runDueTriggers(db, new Date(), {
        sendMail,
        log: jobs.logger,
        actionsQueued: async () => void (await jobs.send(PENDING_ACTIONS_JOB, {})),
      })),
  });
}
