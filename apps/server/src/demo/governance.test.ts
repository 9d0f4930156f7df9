import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { listAnswers, listFrameworkRows, listPeriodRows } from '../modules/governance/repo';
import { listDeletedPolicies, listPolicies } from '../modules/governance/policies';
import type { AccessContext } from '../platform/access';
import { listAutoEvidence } from '../modules/governance/auto-evidence';
import { seedGovernanceDemo } from './governance';
import { seedTriggersDemo } from './triggers';

let database: Database;
let orgId: string;
let ids: Awaited<ReturnType<typeof seedGovernanceDemo>>;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  orgId = (await seedOrg(db)).id;
  const analystId = (await seedUser(db, { homeOrgId: orgId, permissions: ['POLICY_FRAMEWORK_EDIT'] })).id;
  const adminId = (await seedUser(db, { homeOrgId: orgId, permissions: ['POLICY_FRAMEWORK_EDIT'] })).id;
  await seedTriggersDemo(db, orgId, adminId);
  ids = await seedGovernanceDemo(db, { orgId, analystId, adminId }, new Date('2026-03-04T12:00:00.000Z'));
});
afterAll(() => database.close());

describe('governance demo data', () => {
  it('adopts CSF 2.0 with a period in progress half answered, and keeps a finalized CAT period', async () => {
    const db = database.db;
    const frameworks = await listFrameworkRows(db, orgId);
    expect(frameworks.map(({ row, controlCount }) => [row.libraryKey, controlCount])).toEqual([
      ['ffiec-cat', 150],
      ['nist-csf-2.0', 106],
    ]);
    const periods = await listPeriodRows(db, orgId);
    expect(periods.map(({ row, answered }) => [row.name, row.state, answered])).toEqual([
      ['CSF 2026', 'IN_PROGRESS', 53],
      ['CAT 2025', 'FINALIZED', 150],
    ]);
    const catAnswers = await listAnswers(db, orgId, ids.catPeriodId);
    expect(new Set(catAnswers.map((answer) => answer.status)).size).toBeGreaterThan(1);
    const csfAnswers = await listAnswers(db, orgId, ids.currentPeriodId);
    const suggested = csfAnswers.filter(
      (answer) => answer.status === null && answer.suggestedStatus !== null,
    );
    expect(suggested.length).toBeGreaterThan(10);
  });

  it('holds three policies: one current with a version waiting, one overdue for review, one CAT', async () => {
    const access = {
      org: { id: orgId },
      user: { id: 'nobody' },
    } as unknown as AccessContext;
    const custom = await listPolicies(database.db, access, 'CUSTOM');
    expect(
      custom.map((policy) => [policy.name, policy.currentVersion?.number, policy.latestVersionNumber]),
    ).toEqual([
      ['Acceptable Use Policy', 1, 1],
      ['Information Security Policy', 1, 2],
    ]);
    expect(custom[0]!.reviewOverdue).toBe(true);
    expect(custom[1]!.acknowledgedCount).toBe(1);
    const cat = await listPolicies(database.db, access, 'CAT');
    expect(cat.map((policy) => [policy.name, policy.catRefs])).toEqual([
      ['Cyber Risk Oversight Policy', ['D1']],
    ]);
    const deleted = await listDeletedPolicies(database.db, access, 'CUSTOM');
    expect(deleted.map((policy) => policy.name)).toEqual(['Clean Desk Policy']);
  });

  it('points a monitoring control at an active trigger and incident response at the SLA', async () => {
    const sources = await listAutoEvidence(database.db, orgId, ids.currentPeriodId);
    expect(sources.map((source) => [source.kind, source.history.length])).toEqual([
      ['TRIGGER_ACTIVE', 1],
      ['INCIDENTS_WITHIN_SLA', 1],
    ]);
    expect(sources[0]!.triggerName).not.toBeNull();
  });
});
