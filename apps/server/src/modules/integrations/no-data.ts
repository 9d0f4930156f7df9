import { and, eq, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { insertAlerts } from '../alerts/repo';
import { integrations } from './tables';

export const NO_DATA_JOB = 'integrations.no-data';
const HOUR_MS = 3_600_000;

/**
 * Alert on no data (spec 2: Azure/Office 365 accounts): an integration set to alert that has received
 * nothing for longer than its threshold (counted from its creation until data first arrives) raises
 * one NO_DATA alert in the security inbox per silence. Data arriving after the alert clears it, so the
 * next silence raises a new one. The mark is set with the alert in one transaction and only where it
 * was unset, so two servers never raise the same silence twice. Answers the alerts raised.
 */
export async function checkNoData(db: Db, now = new Date(), log?: FastifyBaseLogger): Promise<number> {
  const watched = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.kind, 'AZURE'), sql`(${integrations.settings}->>'alertOnNoData')::boolean`));
  let raised = 0;
  for (const row of watched) {
    const alertedAt = row.noDataAlertedAt;
    if (alertedAt && row.lastDataAt && row.lastDataAt > alertedAt) {
      await db.update(integrations).set({ noDataAlertedAt: null }).where(eq(integrations.id, row.id));
      continue;
    }
    if (alertedAt) continue;
    const hours = Number(row.settings.noDataThresholdHours ?? 24);
    const since = row.lastDataAt ?? row.createdOn;
    if (now.getTime() - since.getTime() <= hours * HOUR_MS) continue;
    try {
      const alerted = await db.transaction(async (tx) => {
        const [marked] = await tx
          .update(integrations)
          .set({ noDataAlertedAt: now })
          .where(and(eq(integrations.id, row.id), isNull(integrations.noDataAlertedAt)))
          .returning({ id: integrations.id });
        if (!marked) return false;
        await insertAlerts(tx, [
          {
            orgId: row.orgId,
            domain: 'security',
            kind: 'NO_DATA',
            title: `No data from ${row.name} for over ${hours} hours`,
            severity: 'MEDIUM',
            firedAt: now,
            windowStart: since,
            windowEnd: now,
            groupKey: `no-data:${row.id}`,
            details: {
              integrationId: row.id,
              integrationKind: row.kind,
              lastDataAt: row.lastDataAt?.toISOString() ?? null,
              thresholdHours: hours,
            },
          },
        ]);
        return true;
      });
      if (alerted) raised++;
    } catch (error) {
      log?.error({ err: error, integrationId: row.id }, 'no-data alert not raised');
    }
  }
  return raised;
}

/** The `integrations.no-data` job, every five minutes. */
export function defineNoDataJobs(jobs: JobRunner, db: Db) {
  jobs.define({
    name: NO_DATA_JOB,
    cron: '*/5 * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 600,
    handler: async () => void (await checkNoData(db, new Date(), jobs.logger)),
  });
}
