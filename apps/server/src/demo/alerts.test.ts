import { eq } from 'drizzle-orm';
import { ALERT_STATES } from '@vigil/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { alerts, alertStateChanges } from '../modules/alerts/tables';
import { insertEvents } from '../modules/events/store';
import { triggers } from '../modules/triggers/tables';
import { seedAlertsDemo } from './alerts';

let database: Database;
let harborOrgId: string;
let wireTriggerId: string;
beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  harborOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_PREMIUM'] })).id;
  const analyst = await seedUser(db, { homeOrgId: harborOrgId, permissions: ['ALERT_INBOX_EDIT'] });
  const [trigger] = await db
    .insert(triggers)
    .values({
      orgId: harborOrgId,
      domain: 'fraud',
      name: 'Large wire transfer',
      type: 'THRESHOLD',
      intervalSeconds: 300,
    })
    .returning();
  wireTriggerId = trigger!.id;
  const at = new Date(Date.now() - 48 * 3_600_000).toISOString();
  await insertEvents(
    db,
    harborOrgId,
    Array.from({ length: 20 }, (_, index) => ({
      timestamp: at,
      dataSource: 'core-banking',
      message: `wire of ${index}000.00 USD via branch`,
      fields: { transactionType: 'wire', amount: index * 1000 },
    })),
  );
  await seedAlertsDemo(db, harborOrgId, analyst.id);
});
afterAll(() => database.close());

describe('demo alerts', () => {
  it('give First Harbor alerts in every state, on its triggers and events, with their history', async () => {
    const db = database.db;
    const rows = await db.select().from(alerts).where(eq(alerts.orgId, harborOrgId));
    expect(new Set(rows.map((row) => row.state))).toEqual(new Set(ALERT_STATES));
    expect(rows.filter((row) => row.state === 'FRAUD_FLAGGED').every((row) => row.domain === 'fraud')).toBe(
      true,
    );
    const wires = rows.filter((row) => row.title.startsWith('Large wire transfer'));
    expect(wires.every((row) => row.triggerId === wireTriggerId)).toBe(true);
    // An alert points at up to three events from before it fired.
    expect(wires.some((row) => row.events.length === 3)).toBe(true);
    expect(
      rows.filter((row) => row.title.startsWith('Brute-force')).every((row) => row.triggerId === null),
    ).toBe(true);
    const changes = await db.select().from(alertStateChanges);
    expect(changes).toHaveLength(rows.filter((row) => row.state !== 'NEW').length);
  });
});
