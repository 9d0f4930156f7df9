import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { getSchedule, listOutOfOfficeRows, listSteps } from '../modules/metadata/escalation';
import { seedEscalationDemo } from './escalation';

let database: Database;
let orgId: string;
let analystId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  orgId = (await seedOrg(database.db)).id;
  analystId = (await seedUser(database.db, { homeOrgId: orgId, permissions: ['INCIDENT_EDIT'] })).id;
  const adminId = (await seedUser(database.db, { homeOrgId: orgId, permissions: ['ESCALATION_EDIT'] })).id;
  await seedEscalationDemo(database.db, { orgId, analystId, adminId });
});
afterAll(() => database.close());

describe('demo escalation', () => {
  it('gives First Harbor three contact steps, business hours in New York and an offsite', async () => {
    const steps = await listSteps(database.db, orgId);
    expect(steps.map((step) => [step.position, step.name, step.hours, step.active])).toEqual([
      [1, 'SOC on-call analyst', 'ALWAYS', true],
      [2, 'Security administrator', 'ALWAYS', true],
      [3, 'Chief information security officer', 'BUSINESS_HOURS', true],
    ]);
    expect(steps[0]!.userId).toBe(analystId);
    expect(steps[2]!.email).toBe('ciso@firstharbor.example');
    const schedule = await getSchedule(database.db, orgId);
    expect(schedule).toMatchObject({ mode: 'CUSTOM', timezone: 'America/New_York' });
    expect(schedule.days).toHaveLength(5);
    const [offsite] = await listOutOfOfficeRows(database.db, orgId);
    expect(offsite!.note).toBe('Security team offsite');
    expect(offsite!.startsAt.getTime()).toBeGreaterThan(Date.now());
  });
});
