import type { Db } from '../db/client';
import {
  escalationOutOfOffice,
  escalationSettings,
  escalationSteps,
} from '../modules/metadata/escalation-tables';

const DAY_MS = 86_400_000;

/**
 * First Harbor's escalation: its analyst first, then the administrator, then the bank's CISO by
 * address during business hours only; business hours Monday to Friday 08:00 to 18:00 in New York,
 * and an out-of-office day for the staff offsite in three weeks.
 */
export async function seedEscalationDemo(
  db: Db,
  ids: { orgId: string; analystId: string; adminId: string },
  now = new Date(),
) {
  await db.insert(escalationSteps).values([
    { orgId: ids.orgId, position: 1, name: 'SOC on-call analyst', userId: ids.analystId },
    { orgId: ids.orgId, position: 2, name: 'Security administrator', userId: ids.adminId },
    {
      orgId: ids.orgId,
      position: 3,
      name: 'Chief information security officer',
      email: 'ciso@firstharbor.example',
      hours: 'BUSINESS_HOURS',
    },
  ]);
  await db.insert(escalationSettings).values({
    orgId: ids.orgId,
    mode: 'CUSTOM',
    timezone: 'America/New_York',
    days: [1, 2, 3, 4, 5].map((day) => ({ day, start: '08:00', end: '18:00' })),
    updatedAt: now,
  });
  const offsite = new Date(Math.floor(now.getTime() / DAY_MS) * DAY_MS + 21 * DAY_MS);
  await db.insert(escalationOutOfOffice).values({
    orgId: ids.orgId,
    startsAt: offsite,
    endsAt: new Date(offsite.getTime() + DAY_MS),
    note: 'Security team offsite',
    createdBy: ids.adminId,
  });
}
