import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import type { Database } from '../db/client';
import { recommendedRiskImpact, reviewStatus, todayIn, type ReviewUnit } from '@vigil/contracts';
import { impactScoresOfRisks } from '../modules/risk/inventory';
import {
  reviewSchedules,
  riskControlLinks,
  riskControls,
  riskInventoryItems,
  riskLinks,
  riskAssessments,
  riskListItems,
  risks,
  riskSystemLinks,
} from '../modules/risk/tables';
import { seedRiskDemo } from './risk';

let database: Database;
let orgId: string;

beforeAll(async () => {
  database = await createTestDatabase();
  const db = database.db;
  orgId = (await seedOrg(db)).id;
  const adminId = (await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT'] })).id;
  const analystId = (await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] })).id;
  await seedRiskDemo(db, { orgId, adminId, analystId }, adminId);
});
afterAll(() => database.close());

describe('risk demo data', () => {
  it('gives the bank 30 risks across the three modules and 20 linked controls', async () => {
    const db = database.db;
    const register = await db.select().from(risks).where(eq(risks.orgId, orgId));
    expect(register).toHaveLength(30);
    for (const module of ['INFORMATION_SECURITY', 'SYSTEMS_AND_APPLICATIONS', 'THIRD_PARTY_RISK']) {
      expect(register.filter((risk) => risk.modules.includes(module)).length).toBeGreaterThan(5);
    }
    expect(register.map((risk) => risk.publicId)).toContain('R-0030');
    expect(register.filter((risk) => risk.state === 'INACTIVE')).toHaveLength(2);
    expect(register.filter((risk) => risk.exception).length).toBeGreaterThan(0);
    expect(register.filter((risk) => risk.copiedFromId)).toHaveLength(5);
    const overridden = register.find((risk) => risk.residualRiskReason);
    expect(overridden).toMatchObject({ name: 'Ransomware encrypts core servers', residualRisk: 'HIGH' });

    const controls = await db.select().from(riskControls).where(eq(riskControls.orgId, orgId));
    expect(controls).toHaveLength(20);
    expect((await db.select().from(riskControlLinks)).length).toBeGreaterThan(30);
    expect((await db.select().from(riskLinks)).length).toBe(4);
    expect((await db.select().from(riskListItems).where(eq(riskListItems.orgId, orgId))).length).toBe(22);
  });

  it('has 15 systems and applications and 5 scored vendors, linked to risks', async () => {
    const items = await database.db
      .select()
      .from(riskInventoryItems)
      .where(eq(riskInventoryItems.orgId, orgId));
    expect(items.filter((item) => item.kind !== 'VENDOR')).toHaveLength(15);
    const vendors = items.filter((item) => item.kind === 'VENDOR');
    expect(vendors).toHaveLength(5);
    expect(vendors.find((item) => item.name === 'CardLink Networks')).toMatchObject({
      dataSensitivity: 'EXTREME',
      businessCriticality: 'HIGH',
      dueDiligenceStrength: 'MODERATE',
      residualRisk: 'HIGH',
    });
    expect(items.filter((item) => item.unanswered > 0)).toHaveLength(3);
    expect((await database.db.select().from(riskSystemLinks)).length).toBeGreaterThan(10);
  });

  it('gives a reason wherever a potential impact differs from the one its systems recommend', async () => {
    const register = await database.db.select().from(risks).where(eq(risks.orgId, orgId));
    const systemScores = await impactScoresOfRisks(
      database.db,
      register.map((risk) => risk.id),
    );
    const recommended = register.filter((risk) => recommendedRiskImpact(systemScores.get(risk.id)!));
    expect(recommended.length).toBeGreaterThan(5);
    for (const risk of recommended) {
      if (risk.potentialImpact !== recommendedRiskImpact(systemScores.get(risk.id)!)) {
        expect(risk.potentialImpactReason, risk.publicId).not.toBeNull();
      }
    }
  });

  it('has review schedules early, almost due and late', async () => {
    const rows = await database.db.select().from(reviewSchedules).where(eq(reviewSchedules.orgId, orgId));
    const today = todayIn('America/New_York');
    expect(
      rows.map((row) => reviewStatus(row.nextReview, today, row.every, row.unit as ReviewUnit)).sort(),
    ).toEqual(['ALMOST_DUE', 'EARLY', 'EARLY', 'LATE']);
  });

  it('has a completed risk assessment and an inventory assessment saved as a draft', async () => {
    const assessments = await database.db
      .select()
      .from(riskAssessments)
      .where(eq(riskAssessments.orgId, orgId))
      .orderBy(riskAssessments.number);
    expect(assessments.map((row) => [row.publicId, row.kind, row.state])).toEqual([
      ['A-0001', 'RISK', 'COMPLETED'],
      ['A-0002', 'INVENTORY', 'SAVED'],
    ]);
    const [completed, draft] = assessments;
    expect(completed!.executiveSummary).not.toBe('');
    expect(completed!.inherentRisk).not.toBeNull();
    expect(completed!.residualRisk).not.toBeNull();
    expect(completed!.completedItems).toHaveLength(8);
    expect(draft!.itemIds).toHaveLength(6);
  });

  it('fills a small library', async () => {
    const db = database.db;
    const library = await db
      .select()
      .from(risks)
      .where(and(isNull(risks.orgId), eq(risks.library, true)));
    expect(library).toHaveLength(8);
    expect(library[0]!.publicId).toMatch(/^LR-/);
    expect(await db.select().from(riskControls).where(isNull(riskControls.orgId))).toHaveLength(8);
  });
});
