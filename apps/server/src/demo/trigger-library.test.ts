import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { evaluateTrigger } from '../modules/triggers/evaluate';
import { triggerLibraryGroups, triggers } from '../modules/triggers/tables';
import { seedAssetsDemo } from './assets';
import { seedEventsDemo } from './events';
import { seedTriggerLibraryDemo, type TriggerLibraryDemoOrgs } from './trigger-library';

let database: Database;
let orgs: TriggerLibraryDemoOrgs;
const now = new Date();
const HOUR = 3_600_000;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  orgs = {
    harbor: (await seedOrg(db, { productSkus: ['CYBERFRAUD_PREMIUM'] })).id,
    prairie: (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id,
    coastal: (await seedOrg(db)).id,
  };
  const admin = await seedUser(db, { homeOrgId: orgs.harbor, permissions: ['TRIGGER_EDIT'] });
  await seedAssetsDemo(db, orgs);
  await seedEventsDemo(db, [orgs.harbor], now);
  await seedTriggerLibraryDemo(db, orgs, admin.id, now);
});
afterAll(() => database.close());

const copyOf = async (name: string, orgId: string) => {
  const [row] = await database.db
    .select()
    .from(triggers)
    .where(and(eq(triggers.name, name), eq(triggers.orgId, orgId)));
  return row!;
};

describe('demo trigger library', () => {
  it('holds two groups with base queries and four library triggers, copied to the demo banks', async () => {
    const db = database.db;
    const groups = await db.select().from(triggerLibraryGroups);
    expect(groups.map((group) => [group.name, group.domain, group.baseQuery]).sort()).toEqual([
      ['Identity and access', 'security', 'data_source:windows-security'],
      ['Payments', 'fraud', 'data_source:core-banking'],
    ]);
    const library = await db.select().from(triggers).where(isNull(triggers.orgId));
    expect(library.map((row) => [row.name, row.type]).sort()).toEqual([
      ['Brute-force logins', 'THRESHOLD'],
      ['Impossible travel', 'SEQUENCE'],
      ['Large wire transfer', 'EVERY_EVENT'],
      ['New payee then transfer', 'SEQUENCE'],
    ]);
    const copies = await db.select().from(triggers).where(eq(triggers.state, 'ACTIVE'));
    const held = copies
      .filter((row) => row.copiedFromId)
      .map((row) => [row.name, row.orgId, row.managedBy, row.libraryVersion]);
    expect(held.sort()).toEqual(
      [
        ['Brute-force logins', orgs.prairie, 'OPS', 1],
        ['Brute-force logins', orgs.coastal, 'CLIENT', 1],
        ['Impossible travel', orgs.harbor, 'OPS', 1],
        ['Large wire transfer', orgs.prairie, 'OPS', 1],
        ['New payee then transfer', orgs.harbor, 'OPS', 1],
      ].sort(),
    );
  });

  it('fires on the demo events: impossible travel and new payee then transfer at First Harbor', async () => {
    const db = database.db;
    const travel = await copyOf('Impossible travel', orgs.harbor);
    expect(travel.baseQuery).toBe('data_source:windows-security');
    const travelled = await evaluateTrigger(db, travel, {
      start: new Date(now.getTime() - 3 * HOUR),
      end: now,
    });
    expect(travelled.alerts.map((alert) => alert.group)).toEqual(['dlee']);

    const payee = await copyOf('New payee then transfer', orgs.harbor);
    const paid = await evaluateTrigger(db, payee, {
      start: new Date(now.getTime() - 5 * HOUR),
      end: new Date(now.getTime() - 4 * HOUR),
    });
    expect(paid.alerts.map((alert) => alert.group)).toEqual(['ACCT-448120']);
  });

  it('matches the generated demo events with the brute-force and large wire queries', async () => {
    const db = database.db;
    const month = { start: new Date(now.getTime() - 31 * 24 * HOUR), end: now };
    // Prairie's copies, run over First Harbor's month of events.
    const bruteForce = {
      ...(await copyOf('Brute-force logins', orgs.prairie)),
      orgId: orgs.harbor,
      minMatch: 1,
    };
    expect((await evaluateTrigger(db, bruteForce, month)).matched).toBeGreaterThan(0);
    const wires = { ...(await copyOf('Large wire transfer', orgs.prairie)), orgId: orgs.harbor };
    const evaluation = await evaluateTrigger(db, wires, month);
    expect(evaluation.matched).toBeGreaterThan(0);
    expect(evaluation.alerts.length).toBeGreaterThan(0);
  });
});
