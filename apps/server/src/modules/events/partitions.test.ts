import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../test/database';
import { seedEvents } from '../../../test/events';
import { seedOrg } from '../../../test/fixtures';
import type { Database } from '../../db/client';
import {
  dropExpiredPartitions,
  ensurePartitions,
  listPartitions,
  partitionName,
  retentionPolicy,
} from './partitions';

let database: Database;
const DAY_MS = 86_400_000;
const now = new Date('2025-03-10T15:30:00.000Z');
const today = Date.UTC(2025, 2, 10);

const count = async (table: string, where = 'TRUE') => {
  const result = await database.db.execute(sql.raw(`SELECT count(*)::int AS n FROM ${table} WHERE ${where}`));
  return (result as unknown as { rows: { n: number }[] }).rows[0]!.n;
};

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('partitions', () => {
  let orgId: string;
  let shortOrgId: string;

  it('creates daily partitions from yesterday ahead and moves rows out of the default partition', async () => {
    const db = database.db;
    orgId = (await seedOrg(db)).id;
    shortOrgId = (await seedOrg(db)).id;
    await seedEvents(db, orgId, [
      { timestamp: '2025-03-10T00:00:00.000Z', message: 'today start' },
      { timestamp: '2025-03-10T23:59:59.999Z', message: 'today end' },
      { timestamp: '2025-03-09T08:00:00.000Z', message: 'yesterday' },
      { timestamp: '2025-03-01T08:00:00.000Z', message: 'older, stays in default' },
    ]);
    expect(await count('events_default')).toBe(4);
    // Classifier flags travel with the row when it moves to its day's partition.
    await database.db.execute(
      sql.raw(`UPDATE events_default SET flags = '{skipThreatMatch}' WHERE message = 'yesterday'`),
    );

    const created = await ensurePartitions(db, { daysAhead: 2, now });
    expect(created).toEqual(['events_p20250309', 'events_p20250310', 'events_p20250311', 'events_p20250312']);
    expect(partitionName(today)).toBe('events_p20250310');
    expect(await count('events_p20250310')).toBe(2);
    expect(await count('events_p20250309', "flags = '{skipThreatMatch}'")).toBe(1);
    expect(await count('events_default')).toBe(1);
    expect(await count('events')).toBe(4);
    // New events of those days go to their partition; searching the parent still finds everything.
    await seedEvents(db, orgId, [{ timestamp: '2025-03-11T01:00:00.000Z', message: 'tomorrow' }]);
    expect(await count('events_p20250311')).toBe(1);
    expect(await count('events', "search @@ plainto_tsquery('simple', 'today')")).toBe(2);

    expect(await ensurePartitions(db, { daysAhead: 2, now })).toEqual([]);
  });

  it('drops partitions older than the longest retention and deletes rows of shorter retention', async () => {
    const db = database.db;
    const old = new Date(today - 100 * DAY_MS);
    await seedEvents(db, orgId, [{ timestamp: new Date(old.getTime() + 3_600_000), message: 'old' }]);
    await seedEvents(db, shortOrgId, [
      { timestamp: new Date(today - 5 * DAY_MS), message: 'short, five days old' },
      { timestamp: '2025-03-10T01:00:00.000Z', message: 'short, today' },
    ]);
    // A partition for the old day (as if created 100 days ago); the old row moves into it.
    expect(await ensurePartitions(db, { daysAhead: 0, now: old })).toHaveLength(2);
    expect(await count(partitionName(old.getTime()))).toBe(1);

    const result = await dropExpiredPartitions(db, { defaultDays: 90, byOrg: { [shortOrgId]: 3 } }, now);
    expect(result.dropped).toEqual([partitionName(old.getTime() - DAY_MS), partitionName(old.getTime())]);
    expect((await listPartitions(db)).map((partition) => partition.name)).not.toContain(
      partitionName(old.getTime()),
    );
    expect(await count('events', "message = 'old'")).toBe(0);
    expect(await count('events', `org_id = '${shortOrgId}'`)).toBe(1);
    // Rows kept: today's, yesterday's, tomorrow's and the 9-day-old one of the default partition.
    expect(await count('events', `org_id = '${orgId}'`)).toBe(5);
    expect(result.deletedRows).toBe(1);
  });

  it("reads each organisation's retention from its settings", async () => {
    const db = database.db;
    await db.execute(
      sql`UPDATE orgs SET settings = settings || '{"eventRetentionDays": 3}'::jsonb WHERE id = ${shortOrgId}`,
    );
    const keepsDefault = await seedOrg(db);
    await db.execute(
      sql`UPDATE orgs SET settings = settings || '{"eventRetentionDays": 90}'::jsonb WHERE id = ${keepsDefault.id}`,
    );
    expect(await retentionPolicy(db)).toEqual({ defaultDays: 90, byOrg: { [shortOrgId]: 3 } });
  });

  it('deletes rows older than every retention from the default partition', async () => {
    const db = database.db;
    await seedEvents(db, orgId, [{ timestamp: new Date(today - 400 * DAY_MS), message: 'ancient' }]);
    expect(await count('events_default', "message = 'ancient'")).toBe(1);
    const result = await dropExpiredPartitions(db, 90, now);
    expect(result).toEqual({ dropped: [], deletedRows: 1 });
    expect(await count('events', "message = 'ancient'")).toBe(0);
  });
});
