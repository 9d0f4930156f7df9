import { eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { scheduleTaskCounts } from '../modules/schedules/service';
import { taskSchedules } from '../modules/schedules/tables';
import { seedGovernanceCalendarDemo, seedTaskSchedulesDemo } from './schedules';

let database: Database;
let harborOrgId: string;
let coastalOrgId: string;
// A Wednesday.
const NOW = new Date('2026-03-04T12:00:00.000Z');

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  harborOrgId = (await seedOrg(db)).id;
  const analystId = (await seedUser(db, { homeOrgId: harborOrgId, permissions: ['TASK_EDIT'] })).id;
  const adminId = (await seedUser(db, { homeOrgId: harborOrgId, permissions: ['TASK_EDIT'] })).id;
  await seedTaskSchedulesDemo(db, { orgId: harborOrgId, analystId, adminId }, adminId, NOW);
  coastalOrgId = (await seedOrg(db)).id;
  const coastal = {
    orgId: coastalOrgId,
    analystId: (await seedUser(db, { homeOrgId: coastalOrgId, permissions: ['TASK_EDIT'] })).id,
    adminId: (await seedUser(db, { homeOrgId: coastalOrgId, permissions: ['TASK_EDIT'] })).id,
  };
  await seedGovernanceCalendarDemo(db, [coastal], NOW);
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

describe('governance calendar demo data', () => {
  const counts = async (timeframe: Parameters<typeof scheduleTaskCounts>[2]) =>
    (await scheduleTaskCounts(database.db, coastalOrgId, timeframe, NOW)).items.map((item) => [
      item.name,
      item.created,
      item.open,
      item.closed,
      item.overdue,
    ]);

  it('runs the weekly, monthly, quarterly and annual schedules through the engine over past months', async () => {
    // Name, created, open, closed, overdue.
    expect(await counts('LAST_90_DAYS')).toEqual([
      ['Annual policy review', 1, 0, 1, 0],
      ['Monthly vendor check', 3, 2, 1, 1],
      ['Quarterly access review', 1, 1, 0, 0],
      ['Weekly backup check', 5, 0, 5, 0],
    ]);
    // Monday 2 March: the weekly check, this month's vendor check and the quarter's access review.
    expect(await counts('LAST_7_DAYS')).toEqual([
      ['Annual policy review', 0, 0, 0, 0],
      ['Monthly vendor check', 1, 1, 0, 0],
      ['Quarterly access review', 1, 1, 0, 0],
      ['Weekly backup check', 1, 0, 1, 0],
    ]);
  });

  it("leaves the schedules active with their next run after now, and First Harbor's schedule alone", async () => {
    const rows = await database.db.select().from(taskSchedules).where(eq(taskSchedules.orgId, coastalOrgId));
    expect(rows).toHaveLength(4);
    for (const row of rows) {
      expect(row.state).toBe('ACTIVE');
      expect(row.runAt.getTime()).toBeGreaterThan(NOW.getTime());
    }
    const [harbor] = await database.db
      .select()
      .from(taskSchedules)
      .where(eq(taskSchedules.orgId, harborOrgId));
    expect(harbor?.lastRanAt).toBeNull();
  });
});
