import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EvaluationPeriod, FrameworkDetail } from '@vigil/contracts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

/** The framework families of charts: controls per answer, the FFIEC CAT summary and risk profile. */
let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let chartOnly: SeededUser;
let stranger: SeededUser;
let csf: FrameworkDetail;
let cat: FrameworkDetail;

const EDIT = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'POLICY_FRAMEWORK_VIEW',
  'POLICY_FRAMEWORK_EDIT',
] as const;
const WEEK = { begin: new Date(Date.now() - 7 * 86_400_000).toISOString(), end: new Date().toISOString() };

async function ok<T>(method: HttpMethod, path: string, payload?: object, status = 200): Promise<T> {
  const response = await orgRequest(ctx, orgId, method, path, editor, payload);
  expect(response.statusCode, response.body).toBe(status);
  return response.json() as T;
}

const period = (framework: FrameworkDetail, name: string, startsOn: string, endsOn: string) =>
  ok<EvaluationPeriod>(
    'POST',
    `/governance/framework/${framework.id}/period`,
    { name, startsOn, endsOn },
    201,
  );

const answer = (periodId: string, framework: FrameworkDetail, ref: string, status: string) =>
  ok('PUT', `/governance/period/${periodId}/control/${framework.controls.find((c) => c.ref === ref)!.id}`, {
    status,
  });

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  chartOnly = await seedUser(db, { homeOrgId: orgId, permissions: ['CHART_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });

  csf = await ok('POST', '/governance/framework-library/nist-csf-2.0/adopt', undefined, 201);
  cat = await ok('POST', '/governance/framework-library/ffiec-cat/adopt', undefined, 201);

  // CSF: an older finalized period and a newer one in progress; charts read the one in progress.
  const old = await period(csf, 'FY 2025', '2025-01-01', '2025-12-31');
  await answer(old.id, csf, 'GV.OC-01', 'NOT_IMPLEMENTED');
  await ok('POST', `/governance/period/${old.id}/finalize`);
  const current = await period(csf, 'FY 2026', '2026-01-01', '2026-12-31');
  await answer(current.id, csf, 'GV.OC-01', 'IMPLEMENTED');
  await answer(current.id, csf, 'GV.OC-02', 'IMPLEMENTED');
  await answer(current.id, csf, 'ID.AM-01', 'PARTIALLY_IMPLEMENTED');
  await answer(current.id, csf, 'PR.AA-01', 'NOT_APPLICABLE');

  // CAT: one finalized period, read because there is none in progress.
  const catPeriod = await period(cat, 'CAT 2024', '2024-01-01', '2024-12-31');
  const domain = (ref: string) => cat.sections.find((section) => section.ref === ref)!;
  await ok('PUT', `/governance/period/${catPeriod.id}/tier`, {
    sectionId: domain('D1').id,
    tier: 'Evolving',
  });
  await answer(catPeriod.id, cat, 'D1.G.Ov.B', 'IMPLEMENTED');
  await answer(catPeriod.id, cat, 'D1.G.Ov.E', 'IMPLEMENTED');
  await answer(catPeriod.id, cat, 'D2.TI.Ti.B', 'NOT_IMPLEMENTED');
  await ok('PUT', `/governance/period/${catPeriod.id}/risk-profile`, {
    levels: { TC: 'Moderate', DC: 'Moderate', ET: 'Most' },
  });
  await ok('POST', `/governance/period/${catPeriod.id}/finalize`);
});
afterAll(() => ctx.close());

async function drawn(family: string, type: string, user = editor, org = orgId) {
  const created = await orgRequest(ctx, org, 'POST', '/chart', user, { name: family, type, family });
  expect(created.statusCode, created.body).toBe(201);
  const data = await orgRequest(ctx, org, 'POST', `/chart/${created.json().id}/data`, user, WEEK);
  expect(data.statusCode, data.body).toBe(200);
  return data.json();
}

describe('framework families', () => {
  it("count each framework's controls per answer in its period in progress", async () => {
    const data = await drawn('FRAMEWORKS', 'bar');
    expect(data.categories).toEqual([
      'FFIEC Cybersecurity Assessment Tool',
      'NIST Cybersecurity Framework 2.0',
    ]);
    const byName = Object.fromEntries(
      data.series.map((s: { name: string; values: number[] }) => [s.name, s.values]),
    );
    expect(byName).toEqual({
      Implemented: [2, 2],
      'Partially implemented': [0, 1],
      'Not implemented': [1, 0],
      'Not applicable': [0, 1],
      'Not answered': [147, 102],
    });
  });

  it('summarise the CAT per domain with the maturity assessed', async () => {
    const table = await drawn('CAT_SUMMARY', 'table');
    expect(table.columns).toEqual(['Domain', 'Assessed maturity', 'Statements implemented', 'Statements']);
    expect(table.rows).toHaveLength(5);
    expect(table.rows[0]).toEqual(['Cyber Risk Management and Oversight', 'Evolving', 2, expect.any(Number)]);
    expect(table.rows[1]).toEqual([expect.any(String), 'Not assessed', 0, expect.any(Number)]);
    expect(table.rows.reduce((sum: number, row: number[]) => sum + row[3]!, 0)).toBe(150);
    const bar = await drawn('CAT_SUMMARY', 'bar');
    expect(bar.series.map((s: { name: string }) => s.name)).toEqual(['Implemented', 'Not implemented']);
    expect(bar.series[0].values).toEqual([2, 0, 0, 0, 0]);
  });

  it('show the CAT inherent risk profile per category and per level', async () => {
    const table = await drawn('CAT_RISK_PROFILE', 'table');
    expect(table.rows).toEqual([
      ['Technologies and Connection Types', 'Moderate'],
      ['Delivery Channels', 'Moderate'],
      ['Online/Mobile Products and Technology Services', 'Not assessed'],
      ['Organizational Characteristics', 'Not assessed'],
      ['External Threats', 'Most'],
    ]);
    const pie = await drawn('CAT_RISK_PROFILE', 'pie');
    expect(pie.categories).toEqual(['Least', 'Minimal', 'Moderate', 'Significant', 'Most', 'Not assessed']);
    expect(pie.series[0].values).toEqual([0, 0, 2, 0, 1, 2]);
  });

  it("draw nothing of another organisation's frameworks", async () => {
    expect((await drawn('FRAMEWORKS', 'table', stranger, otherOrgId)).categories).toEqual([]);
    expect((await drawn('CAT_SUMMARY', 'table', stranger, otherOrgId)).rows).toEqual([]);
    expect((await drawn('CAT_RISK_PROFILE', 'table', stranger, otherOrgId)).rows).toEqual([]);
  });

  it('need POLICY_FRAMEWORK_VIEW and refuse types they cannot draw', async () => {
    const created = await orgRequest(ctx, orgId, 'POST', '/chart', editor, {
      name: 'Frameworks',
      type: 'table',
      family: 'FRAMEWORKS',
    });
    const refused = await orgRequest(ctx, orgId, 'POST', `/chart/${created.json().id}/data`, chartOnly, WEEK);
    expect([refused.statusCode, refused.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const pie = await orgRequest(ctx, orgId, 'POST', '/chart', editor, {
      name: 'Frameworks',
      type: 'pie',
      family: 'FRAMEWORKS',
    });
    expect(pie.statusCode).toBe(400);
  });
});
