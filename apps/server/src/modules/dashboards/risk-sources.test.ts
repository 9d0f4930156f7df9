import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { insertControl, insertRisk } from '../risk/repo';
import { riskAssessments } from '../risk/tables';

/**
 * The risk register families of charts: risks by residual risk, controls by overall score, assessments
 * by state.
 */
let ctx: TestContext;
let orgId: string;
let noRiskOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let noRiskEditor: SeededUser;

const EDIT = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'RISK_VIEW',
] as const;
const WEEK = { begin: new Date(Date.now() - 7 * 86_400_000).toISOString(), end: new Date().toISOString() };

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
  noRiskOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['CHART_VIEW'] });
  noRiskEditor = await seedUser(db, { homeOrgId: noRiskOrgId, permissions: [...EDIT] });
  let number = 0;
  const risk = (residualRisk: string | null, state = 'ACTIVE', org = orgId) => {
    number += 1;
    return insertRisk(db, {
      orgId: org,
      number,
      publicId: `R-${number}`,
      name: `Risk ${number}`,
      modules: ['INFORMATION_SECURITY'],
      residualRisk,
      state,
    });
  };
  await risk('HIGH');
  await risk('HIGH');
  await risk('LOW');
  await risk(null);
  await risk('EXTREME', 'INACTIVE');
  await risk('EXTREME', 'ACTIVE', noRiskOrgId);
  const control = (overallScore: string | null) => {
    number += 1;
    return insertControl(db, {
      orgId,
      number,
      publicId: `C-${number}`,
      name: `Control ${number}`,
      overallScore,
    });
  };
  await control('STRONG');
  await control('COMPLETE');
  await control('COMPLETE');
  const assessment = (state: string, org = orgId) => {
    number += 1;
    return db.insert(riskAssessments).values({
      orgId: org,
      number,
      publicId: `A-${number}`,
      kind: 'RISK',
      name: `Assessment ${number}`,
      state,
    });
  };
  await assessment('DRAFT');
  await assessment('COMPLETED');
  await assessment('COMPLETED');
  await assessment('COMPLETED', noRiskOrgId);
});
afterAll(() => ctx.close());

async function drawn(family: string, type: string, user = editor, org = orgId) {
  const created = await orgRequest(ctx, org, 'POST', '/chart', user, { name: family, type, family });
  expect(created.statusCode, created.body).toBe(201);
  return orgRequest(ctx, org, 'POST', `/chart/${created.json().id}/data`, user, WEEK);
}

describe('risk register families', () => {
  it('count the active risks of the register per residual risk level', async () => {
    const data = (await drawn('RISKS', 'bar')).json();
    expect(data.categories).toEqual(['Insignificant', 'Low', 'Moderate', 'High', 'Very High', 'Not scored']);
    expect(data.series[0].values).toEqual([0, 1, 0, 2, 0, 1]);
    expect((await drawn('RISKS', 'badge')).json().value).toBe(4);
  });

  it('count the controls per overall score', async () => {
    const data = (await drawn('CONTROLS', 'pie')).json();
    expect(data.categories).toEqual([
      'Ineffective',
      'Weak',
      'Moderate',
      'Strong',
      'Very Strong',
      'Not scored',
    ]);
    expect(data.series[0].values).toEqual([0, 0, 0, 1, 2, 0]);
  });

  it("count the organisation's assessments per state", async () => {
    const data = (await drawn('ASSESSMENTS', 'bar')).json();
    expect(data.categories).toEqual(['Draft', 'Saved as draft', 'Completed']);
    expect(data.series[0].values).toEqual([1, 0, 2]);
    expect((await drawn('ASSESSMENTS', 'badge')).json().value).toBe(3);
  });

  it('need RISK_VIEW and a risk product', async () => {
    const created = await orgRequest(ctx, orgId, 'POST', '/chart', editor, {
      name: 'Risks',
      type: 'table',
      family: 'RISKS',
    });
    const refused = await orgRequest(ctx, orgId, 'POST', `/chart/${created.json().id}/data`, viewer, WEEK);
    expect([refused.statusCode, refused.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const chart = await orgRequest(ctx, noRiskOrgId, 'POST', '/chart', noRiskEditor, {
      name: 'Risks',
      type: 'table',
      family: 'RISKS',
    });
    const data = await orgRequest(
      ctx,
      noRiskOrgId,
      'POST',
      `/chart/${chart.json().id}/data`,
      noRiskEditor,
      WEEK,
    );
    expect([data.statusCode, data.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
  });

  it('refuse types they cannot draw', async () => {
    const refused = await orgRequest(ctx, orgId, 'POST', '/chart', editor, {
      name: 'Risks',
      type: 'line',
      family: 'RISKS',
    });
    expect(refused.statusCode).toBe(400);
  });
});
