import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { taskSchedules } from '../modules/schedules/tables';
import { seedTaskSchedulesDemo } from './schedules';

let database: Database;
let harborOrgId: string;
// A Wednesday.
const NOW = new Date('2026-03-04T12:00:00.000Z');

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  harborOrgId = (await seedOrg(db)).id;
  const analystId = (await seedUser(db, { homeOrgId: harborOrgId, permissions: ['TASK_EDIT'] })).id;
  const adminId = (await seedUser(db, { homeOrgId: harborOrgId, permissions: ['TASK_EDIT'] })).id;
  await seedTaskSchedulesDemo(db, { orgId: harborOrgId, analystId, adminId }, adminId, NOW);
});
afterAll(() => database.close());

describe('task schedule demo data', () => {
  it('gives First Harbor a weekly review next Monday and the library a quarterly schedule', async () => {
    const [weekly] = await database.db
      .select()
      .from(taskSchedules)
      .where(eq(taskSchedules.orgId, harborOrgId));
    expect(weekly).toMatchObject({
      name: 'Weekly review of privileged accounts',
      intervalUnit: 'week',
      state: 'ACTIVE',
      nextRunAt: new Date('2026-03-09T09:00:00.000Z'),
    });
    const [library] = await database.db.select().from(taskSchedules).where(isNull(taskSchedules.orgId));
    expect(library).toMatchObject({
      intervalUnit: 'month_begin',
      nextRunAt: new Date('2026-04-01T09:00:00.000Z'),
    });
  });
});
