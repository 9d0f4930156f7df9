import { and, count, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { integrations, s3LogObjects, s3LogSources } from './tables';

export type IntegrationRow = typeof integrations.$inferSelect;
export type S3LogSourceRow = typeof s3LogSources.$inferSelect;
export type S3LogObjectRow = typeof s3LogObjects.$inferSelect;

export async function listIntegrations(db: Db, orgId: string, kind?: string): Promise<IntegrationRow[]> {
  return db
    .select()
    .from(integrations)
    .where(and(eq(integrations.orgId, orgId), kind ? eq(integrations.kind, kind) : undefined))
    .orderBy(integrations.kind, sql`lower(${integrations.name})`);
}

export async function findIntegration(
  db: Db,
  orgId: string,
  id: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(and(eq(integrations.orgId, orgId), eq(integrations.id, id)));
  return row;
}

/** Another integration of the kind with the name, compared case-insensitively. */
export async function findIntegrationNamed(
  db: Db,
  orgId: string,
  kind: string,
  name: string,
  exceptId?: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.orgId, orgId),
        eq(integrations.kind, kind),
        sql`lower(${integrations.name}) = lower(${name})`,
        exceptId ? ne(integrations.id, exceptId) : undefined,
      ),
    );
  return row;
}

/** Another AWS integration for the account id. */
export async function findAwsAccount(
  db: Db,
  orgId: string,
  accountId: string,
  exceptId?: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .select()
    .from(integrations)
    .where(
      and(
        eq(integrations.orgId, orgId),
        eq(integrations.kind, 'AWS'),
        sql`${integrations.settings}->>'accountId' = ${accountId}`,
        exceptId ? ne(integrations.id, exceptId) : undefined,
      ),
    );
  return row;
}

export async function insertIntegration(
  db: Db,
  orgId: string,
  values: Omit<typeof integrations.$inferInsert, 'id' | 'orgId'>,
): Promise<IntegrationRow> {
  const [row] = await db
    .insert(integrations)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updateIntegration(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<typeof integrations.$inferInsert, 'id' | 'orgId' | 'kind'>>,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .update(integrations)
    .set(values)
    .where(and(eq(integrations.orgId, orgId), eq(integrations.id, id)))
    .returning();
  return row;
}

export async function deleteIntegration(
  db: Db,
  orgId: string,
  id: string,
): Promise<IntegrationRow | undefined> {
  const [row] = await db
    .delete(integrations)
    .where(and(eq(integrations.orgId, orgId), eq(integrations.id, id)))
    .returning();
  return row;
}

export async function listLogSources(
  db: Db,
  orgId: string,
  integrationIds?: readonly string[],
): Promise<S3LogSourceRow[]> {
  if (integrationIds && integrationIds.length === 0) return [];
  return db
    .select()
    .from(s3LogSources)
    .where(
      and(
        eq(s3LogSources.orgId, orgId),
        integrationIds ? inArray(s3LogSources.integrationId, [...integrationIds]) : undefined,
      ),
    )
    .orderBy(s3LogSources.bucket);
}

export async function findLogSource(db: Db, orgId: string, id: string): Promise<S3LogSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(s3LogSources)
    .where(and(eq(s3LogSources.orgId, orgId), eq(s3LogSources.id, id)));
  return row;
}

export async function findLogSourceByBucket(
  db: Db,
  orgId: string,
  bucket: string,
  exceptId?: string,
): Promise<S3LogSourceRow | undefined> {
  const [row] = await db
    .select()
    .from(s3LogSources)
    .where(
      and(
        eq(s3LogSources.orgId, orgId),
        eq(s3LogSources.bucket, bucket),
        exceptId ? ne(s3LogSources.id, exceptId) : undefined,
      ),
    );
  return row;
}

export async function insertLogSource(
  db: Db,
  orgId: string,
  values: Omit<typeof s3LogSources.$inferInsert, 'id' | 'orgId'>,
): Promise<S3LogSourceRow> {
  const [row] = await db
    .insert(s3LogSources)
    .values({ ...values, orgId })
    .returning();
  return row!;
}

export async function updateLogSource(
  db: Db,
  orgId: string,
  id: string,
  values: Partial<Omit<typeof s3LogSources.$inferInsert, 'id' | 'orgId' | 'integrationId'>>,
): Promise<S3LogSourceRow | undefined> {
  const [row] = await db
    .update(s3LogSources)
    .set(values)
    .where(and(eq(s3LogSources.orgId, orgId), eq(s3LogSources.id, id)))
    .returning();
  return row;
}

export async function deleteLogSource(
  db: Db,
  orgId: string,
  id: string,
): Promise<S3LogSourceRow | undefined> {
  const [row] = await db
    .delete(s3LogSources)
    .where(and(eq(s3LogSources.orgId, orgId), eq(s3LogSources.id, id)))
    .returning();
  return row;
}

/** Enabled log sources of every organisation, for the collection job. */
export async function listEnabledLogSourcesOfAllOrgs(db: Db): Promise<S3LogSourceRow[]> {
  return db.select().from(s3LogSources).where(eq(s3LogSources.enabled, true));
}

/** Keys and ETags the source has read, of those in `keys`. */
export async function readObjectKeys(
  db: Db,
  orgId: string,
  sourceId: string,
  keys: readonly string[],
): Promise<Set<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db
    .select({ key: s3LogObjects.key, etag: s3LogObjects.etag })
    .from(s3LogObjects)
    .where(
      and(
        eq(s3LogObjects.orgId, orgId),
        eq(s3LogObjects.sourceId, sourceId),
        inArray(s3LogObjects.key, [...keys]),
      ),
    );
  return new Set(rows.map((row) => `${row.key}\n${row.etag}`));
}

export async function insertLogObject(
  db: Db,
  orgId: string,
  values: Omit<typeof s3LogObjects.$inferInsert, 'id' | 'orgId'>,
): Promise<void> {
  await db
    .insert(s3LogObjects)
    .values({ ...values, orgId })
    .onConflictDoNothing();
}

export async function listLogObjects(
  db: Db,
  orgId: string,
  sourceId: string,
  page: { limit: number; offset: number; failedOnly?: boolean },
): Promise<{ items: S3LogObjectRow[]; total: number }> {
  const where = and(
    eq(s3LogObjects.orgId, orgId),
    eq(s3LogObjects.sourceId, sourceId),
    page.failedOnly ? sql`${s3LogObjects.error} is not null` : undefined,
  );
  const [items, [total]] = await Promise.all([
    db
      .select()
      .from(s3LogObjects)
      .where(where)
      .orderBy(desc(s3LogObjects.readAt), s3LogObjects.key)
      .limit(page.limit)
      .offset(page.offset),
    db.select({ total: count() }).from(s3LogObjects).where(where),
  ]);
  return { items, total: total?.total ?? 0 };
}

/** Takes the source for one poll until `until`; undefined when another poll holds it. */
export async function claimLogSource(
  db: Db,
  orgId: string,
  id: string,
  now: Date,
  until: Date,
): Promise<S3LogSourceRow | undefined> {
  const [row] = await db
    .update(s3LogSources)
    .set({ pollingUntil: until })
    .where(
      and(
        eq(s3LogSources.orgId, orgId),
        eq(s3LogSources.id, id),
        eq(s3LogSources.enabled, true),
        sql`(${s3LogSources.pollingUntil} is null or ${s3LogSources.pollingUntil} < ${now})`,
      ),
    )
    .returning();
  return row;
}

/** Records the outcome of one poll and releases the source. */
export async function finishLogSourcePoll(
  db: Db,
  orgId: string,
  id: string,
  outcome: {
    polledAt: Date;
    objects: number;
    failed: number;
    events: number;
    dataAt: Date | null;
    error: string | null;
    errorKey: string | null;
  },
): Promise<void> {
  await db
    .update(s3LogSources)
    .set({
      pollingUntil: null,
      lastPolledAt: outcome.polledAt,
      lastError: outcome.error,
      lastErrorKey: outcome.errorKey,
      objectsRead: sql`${s3LogSources.objectsRead} + ${outcome.objects}`,
      failedObjects: sql`${s3LogSources.failedObjects} + ${outcome.failed}`,
      eventsIngested: sql`${s3LogSources.eventsIngested} + ${outcome.events}`,
      ...(outcome.dataAt && { lastDataAt: outcome.dataAt }),
    })
    .where(and(eq(s3LogSources.orgId, orgId), eq(s3LogSources.id, id)));
  if (outcome.dataAt) {
    await db
      .update(integrations)
      .set({ lastDataAt: outcome.dataAt })
      .where(
        and(
          eq(integrations.orgId, orgId),
          sql`${integrations.id} = (select ${s3LogSources.integrationId} from ${s3LogSources} where ${s3LogSources.id} = ${id})`,
        ),
      );
  }
}
