import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ControlAnswer,
  EvaluationPeriod,
  FrameworkDetail,
  FrameworkSummary,
  LibraryFramework,
  PeriodComparison,
} from '@vigil/contracts';
import { createTestApp, orgRequest, orgUpload, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { buildReport } from '../reports/service';
import { reports } from '../reports/tables';
import { addMonths } from './service';
import { governanceFrameworks } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let reporter: SeededUser;
let strangerReporter: SeededUser;
let triggerId: string;
let otherTriggerId: string;
let taskSlug: string;

const EDIT = [
  'POLICY_FRAMEWORK_VIEW',
  'POLICY_FRAMEWORK_EDIT',
  'TRIGGER_VIEW',
  'TRIGGER_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'TASK_VIEW',
  'TASK_EDIT',
] as const;

const REPORTS = [
  'REPORT_VIEW',
  'REPORT_EDIT',
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
] as const;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const expectError = (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

async function ok<T>(response: Promise<Awaited<ReturnType<typeof call>>>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as T;
}

async function makeTrigger(user: SeededUser, org: string): Promise<string> {
  const query = await ok<{ id: string }>(
    call('POST', '/saved-query', user, { name: `Q ${org}`, query: 'admin' }, org),
    201,
  );
  const trigger = await ok<{ id: string }>(
    call(
      'POST',
      '/trigger',
      user,
      {
        name: 'Privileged logins',
        type: 'THRESHOLD',
        savedQueryId: query.id,
        intervalSeconds: 600,
        minMatch: 5,
      },
      org,
    ),
    201,
  );
  return trigger.id;
}

/** A report of one chart of the reports area, requested as its build job finds it: REQUESTED until built. */
async function requestReport(user: SeededUser, org: string, name: string): Promise<string> {
  const query = await ok<{ id: string }>(
    call('POST', '/saved-query', user, { name: `${name} query`, query: 'action:login' }, org),
    201,
  );
  const chart = await ok<{ id: string }>(
    call(
      'POST',
      '/chart',
      user,
      { name, type: 'badge', family: 'SAVED_QUERIES', savedQueryIds: [query.id] },
      org,
    ),
    201,
  );
  const template = await ok<{ id: string }>(
    call('POST', '/report-template', user, { name, chartIds: [chart.id] }, org),
    201,
  );
  const [row] = await ctx.database.db
    .insert(reports)
    .values({
      orgId: org,
      templateId: template.id,
      name,
      range: '24H',
      begin: new Date(Date.now() - 86_400_000),
      end: new Date(),
      state: 'REQUESTED',
      requestedBy: user.id,
    })
    .returning();
  return row!.id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Prairie' })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['POLICY_FRAMEWORK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  reporter = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT, ...REPORTS] });
  strangerReporter = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT, ...REPORTS] });
  triggerId = await makeTrigger(editor, orgId);
  otherTriggerId = await makeTrigger(stranger, otherOrgId);
  taskSlug = (
    await ok<{ slug: string }>(call('POST', '/task', editor, { title: 'Review firewall rules' }), 201)
  ).slug;
});
afterAll(() => ctx.close());

const adopt = (key: string, user = editor, org = orgId) =>
  call('POST', `/governance/framework-library/${key}/adopt`, user, undefined, org);

describe('framework library and adoption', () => {
  let csf: FrameworkDetail;

  it('lists the library and adopts CSF 2.0 with its sections, controls and tiers', async () => {
    const library = await ok<LibraryFramework[]>(call('GET', '/governance/framework-library', viewer));
    expect(library.map((item) => [item.key, item.adoptedId])).toEqual([
      ['nist-csf-2.0', null],
      ['cisa-cpg-2.0', null],
      ['cisa-cpg', null],
      ['ffiec-cat', null],
    ]);
    csf = await ok<FrameworkDetail>(adopt('nist-csf-2.0'), 201);
    expect(csf).toMatchObject({
      name: 'NIST Cybersecurity Framework 2.0',
      source: 'library',
      controlCount: 106,
    });
    expect(csf.tiers).toEqual(['Partial', 'Risk Informed', 'Repeatable', 'Adaptive']);
    const functions = csf.sections.filter((section) => section.parentId === null);
    expect(functions.map((section) => section.ref)).toEqual(['GV', 'ID', 'PR', 'DE', 'RS', 'RC']);
    const govern = functions[0]!;
    expect(csf.sections.filter((section) => section.parentId === govern.id)).toHaveLength(6);
    const first = csf.controls[0]!;
    expect(first).toMatchObject({ ref: 'GV.OC-01', mandatory: false, alertable: false, triggerId: null });
    expect(first.examples.length).toBeGreaterThan(0);

    const after = await ok<LibraryFramework[]>(call('GET', '/governance/framework-library', viewer));
    expect(after.find((item) => item.key === 'nist-csf-2.0')?.adoptedId).toBe(csf.id);
    const list = await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer));
    expect(list.map((item) => item.name)).toEqual(['NIST Cybersecurity Framework 2.0']);
  });

  it('adopts a library framework once, refuses unknown keys and viewers', async () => {
    expectError(await adopt('nist-csf-2.0'), 409, 'GOVERNANCE_FRAMEWORK_ALREADY_ADOPTED');
    expectError(await adopt('iso-27001'), 404, 'GOVERNANCE_LIBRARY_FRAMEWORK_NOT_FOUND');
    expectError(await adopt('cisa-cpg', viewer), 403, 'PERMISSION_DENIED');
  });

  it('keeps frameworks to their organisation', async () => {
    expectError(
      await call('GET', `/governance/framework/${csf.id}`, stranger, undefined, otherOrgId),
      404,
      'GOVERNANCE_FRAMEWORK_NOT_FOUND',
    );
    const theirs = await ok<FrameworkSummary[]>(
      call('GET', '/governance/frameworks', stranger, undefined, otherOrgId),
    );
    expect(theirs).toEqual([]);
  });
});

describe('tier targets and controls', () => {
  let cat: FrameworkDetail;
  const sectionByRef = (ref: string) => cat.sections.find((section) => section.ref === ref)!;
  const target = (path: string, targetTier: string | null) =>
    call('PUT', `/governance/framework/${cat.id}${path}/target`, editor, { targetTier });

  beforeAll(async () => {
    cat = await ok<FrameworkDetail>(adopt('ffiec-cat'), 201);
  });

  it('ships the CAT with its domains, maturity levels, mandatory Baseline and risk profile', () => {
    expect(cat.sections.filter((section) => section.parentId === null)).toHaveLength(5);
    expect(cat.tiers).toEqual(['Baseline', 'Evolving', 'Intermediate', 'Advanced', 'Innovative']);
    expect(cat.riskProfile?.categories).toHaveLength(5);
    const oversight = cat.controls.filter((control) => control.ref.startsWith('D1.G.Ov.'));
    expect(oversight.map((control) => [control.title, control.mandatory])).toEqual([
      ['Oversight: Baseline', true],
      ['Oversight: Evolving', false],
      ['Oversight: Intermediate', false],
      ['Oversight: Advanced', false],
      ['Oversight: Innovative', false],
    ]);
  });

  it('refuses a section target while a parent section or the framework has one', async () => {
    const domain = sectionByRef('D1');
    const factor = sectionByRef('D1.G');
    const component = sectionByRef('D1.G.Ov');
    expectError(await target(`/section/${factor.id}`, 'Expert'), 400, 'GOVERNANCE_TIER_UNKNOWN');
    cat = await ok<FrameworkDetail>(target(`/section/${factor.id}`, 'Intermediate'));
    expect(sectionByRef('D1.G').targetTier).toBe('Intermediate');
    expectError(await target(`/section/${component.id}`, 'Advanced'), 409, 'GOVERNANCE_TIER_TARGET_EXISTS');
    // Nor above a section that has one.
    expectError(await target(`/section/${domain.id}`, 'Advanced'), 409, 'GOVERNANCE_TIER_TARGET_EXISTS');
    expectError(await target('', 'Evolving'), 409, 'GOVERNANCE_TIER_TARGET_EXISTS');
    // A sibling branch takes its own.
    cat = await ok<FrameworkDetail>(target(`/section/${sectionByRef('D1.RM').id}`, 'Evolving'));
    // Cleared, the framework takes one; then no section may.
    await ok(target(`/section/${factor.id}`, null));
    await ok(target(`/section/${sectionByRef('D1.RM').id}`, null));
    cat = await ok<FrameworkDetail>(target('', 'Evolving'));
    expect(cat.targetTier).toBe('Evolving');
    expectError(await target(`/section/${component.id}`, 'Advanced'), 409, 'GOVERNANCE_TIER_TARGET_EXISTS');
    expectError(
      await call('PUT', `/governance/framework/${cat.id}/section/${cat.id}/target`, editor, {
        targetTier: 'Baseline',
      }),
      404,
      'GOVERNANCE_SECTION_NOT_FOUND',
    );
  });

  it('records assessed tiers and the inherent risk profile in a period', async () => {
    const period = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${cat.id}/period`, editor, {
        name: 'CAT 2024',
        startsOn: '2024-01-01',
        endsOn: '2024-12-31',
      }),
      201,
    );
    const base = `/governance/period/${period.id}`;
    await ok(call('PUT', `${base}/tier`, editor, { sectionId: null, tier: 'Evolving' }));
    const withTier = await ok<EvaluationPeriod>(
      call('PUT', `${base}/tier`, editor, { sectionId: sectionByRef('D1.G').id, tier: 'Baseline' }),
    );
    expect(withTier.tiers).toEqual({ framework: 'Evolving', [sectionByRef('D1.G').id]: 'Baseline' });
    expectError(
      await call('PUT', `${base}/tier`, editor, { sectionId: cat.id, tier: 'Baseline' }),
      404,
      'GOVERNANCE_SECTION_NOT_FOUND',
    );
    const rated = await ok<EvaluationPeriod>(
      call('PUT', `${base}/risk-profile`, editor, { levels: { TC: 'Least', ET: 'Most' } }),
    );
    expect(rated.riskProfile).toEqual({ TC: 'Least', ET: 'Most' });
    const refused = await call('PUT', `${base}/risk-profile`, editor, { levels: { TC: 'Extreme' } });
    expectError(refused, 400, 'GOVERNANCE_RISK_PROFILE_INVALID');
    expect(refused.json()).toMatchObject({ params: { category: 'TC', value: 'Extreme' } });
    expectError(
      await call('PUT', `${base}/risk-profile`, editor, { levels: { XX: 'Least' } }),
      400,
      'GOVERNANCE_RISK_PROFILE_INVALID',
    );
  });

  it('needs a trigger of the organisation for an alertable control', async () => {
    const control = cat.controls[1]!;
    const patch = (body: object) =>
      call('PATCH', `/governance/framework/${cat.id}/control/${control.id}`, editor, body);
    expectError(await patch({ alertable: true }), 400, 'GOVERNANCE_ALERTABLE_NEEDS_TRIGGER');
    expectError(
      await patch({ alertable: true, triggerId: otherTriggerId }),
      400,
      'GOVERNANCE_INVALID_TRIGGER',
    );
    const updated = await ok<FrameworkDetail>(patch({ alertable: true, triggerId, mandatory: true }));
    expect(updated.controls[1]).toMatchObject({
      alertable: true,
      mandatory: true,
      triggerId,
      triggerName: 'Privileged logins',
      triggerDomain: 'security',
    });
    expectError(await patch({ triggerId: null }), 400, 'GOVERNANCE_ALERTABLE_NEEDS_TRIGGER');
    const cleared = await ok<FrameworkDetail>(patch({ alertable: false, triggerId: null, mandatory: false }));
    expect(cleared.controls[1]).toMatchObject({ alertable: false, triggerId: null, triggerDomain: null });
  });
});

describe('evaluation periods, answers and evidence', () => {
  let framework: FrameworkDetail;
  let period: EvaluationPeriod;
  let reportId: string;
  const base = () => `/governance/period/${period.id}`;

  beforeAll(async () => {
    framework = await ok<FrameworkDetail>(adopt('cisa-cpg'), 201);
  });

  it('starts a period in progress; the start must be before the end', async () => {
    expectError(
      await call('POST', `/governance/framework/${framework.id}/period`, editor, {
        name: 'FY',
        startsOn: '2026-01-01',
        endsOn: '2026-01-01',
      }),
      400,
      'GOVERNANCE_PERIOD_INVALID_DATES',
    );
    period = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${framework.id}/period`, editor, {
        name: 'FY 2026',
        startsOn: '2026-01-01',
        endsOn: '2026-12-31',
      }),
      201,
    );
    expect(period).toMatchObject({ state: 'IN_PROGRESS', answered: 0, controlCount: 38, extensions: [] });
  });

  it('answers controls with an owner and notes; a mandatory control cannot be N/A', async () => {
    const [first, second] = framework.controls;
    framework = await ok<FrameworkDetail>(
      call('PATCH', `/governance/framework/${framework.id}/control/${first!.id}`, editor, {
        mandatory: true,
      }),
    );
    const answer = (controlId: string, body: object) =>
      call('PUT', `${base()}/control/${controlId}`, editor, body);
    expectError(
      await answer(first!.id, { status: 'NOT_APPLICABLE' }),
      400,
      'GOVERNANCE_MANDATORY_NOT_APPLICABLE',
    );
    expectError(
      await answer(first!.id, { status: 'IMPLEMENTED', ownerId: stranger.id }),
      400,
      'GOVERNANCE_INVALID_OWNER',
    );
    const saved = await ok<ControlAnswer>(
      answer(first!.id, { status: 'IMPLEMENTED', ownerId: editor.id, notes: 'Inventory in the CMDB' }),
    );
    expect(saved).toMatchObject({
      status: 'IMPLEMENTED',
      ownerId: editor.id,
      ownerName: 'Test User',
      notes: 'Inventory in the CMDB',
    });
    await ok(answer(second!.id, { status: 'NOT_APPLICABLE' }));
    expectError(
      await call('PUT', `${base()}/control/${framework.id}`, editor, { status: 'IMPLEMENTED' }),
      404,
      'GOVERNANCE_CONTROL_NOT_FOUND',
    );
    expectError(
      await call('PUT', `${base()}/control/${first!.id}`, viewer, { status: 'IMPLEMENTED' }),
      403,
      'PERMISSION_DENIED',
    );
    expect((await ok<EvaluationPeriod>(call('GET', base(), viewer))).answered).toBe(2);
  });

  it('refuses to make a control mandatory while a period in progress answers it N/A', async () => {
    const second = framework.controls[1]!;
    const refused = await call(
      'PATCH',
      `/governance/framework/${framework.id}/control/${second.id}`,
      editor,
      {
        mandatory: true,
        alertable: true,
        triggerId,
      },
    );
    expectError(refused, 400, 'GOVERNANCE_MANDATORY_ANSWERED_NOT_APPLICABLE');
    expect(refused.json()).toMatchObject({ field: 'mandatory', params: { periods: 'FY 2026' } });
    const stored = await ok<FrameworkDetail>(call('GET', `/governance/framework/${framework.id}`, viewer));
    expect(stored.controls[1]).toMatchObject({ mandatory: false, alertable: false, triggerId: null });
    // Other changes of the control go on.
    const alertable = await ok<FrameworkDetail>(
      call('PATCH', `/governance/framework/${framework.id}/control/${second.id}`, editor, {
        alertable: true,
        triggerId,
      }),
    );
    expect(alertable.controls[1]).toMatchObject({ mandatory: false, alertable: true });
    await ok(
      call('PATCH', `/governance/framework/${framework.id}/control/${second.id}`, editor, {
        alertable: false,
        triggerId: null,
      }),
    );
  });

  it('keeps links, tickets and files as evidence', async () => {
    const control = framework.controls[0]!;
    const evidence = (body: object) => call('POST', `${base()}/control/${control.id}/evidence`, editor, body);
    await ok(evidence({ kind: 'link', name: 'Asset register', url: 'https://intranet.example/assets' }), 201);
    expect((await evidence({ kind: 'link', name: 'Bad', url: 'javascript:alert(1)' })).statusCode).toBe(400);
    expectError(
      await evidence({ kind: 'ticket', slug: 'TASK-999' }),
      400,
      'GOVERNANCE_EVIDENCE_TICKET_NOT_FOUND',
    );
    await ok(evidence({ kind: 'ticket', slug: taskSlug }), 201);
    const upload = (files: { filename: string; content: string | Buffer }[]) =>
      orgUpload(ctx, orgId, `${base()}/control/${control.id}/evidence-files`, editor, files);
    expectError(
      await upload([{ filename: 'report.pdf', content: 'not a pdf' }]),
      415,
      'TICKET_FILE_UNSUPPORTED_TYPE',
    );
    const withFile = await ok<ControlAnswer>(
      upload([{ filename: 'inventory.csv', content: 'host,owner\nteller-01,ops\n' }]),
      201,
    );
    expect(withFile.evidence.map((item) => [item.kind, item.name])).toEqual([
      ['link', 'Asset register'],
      ['ticket', 'Review firewall rules'],
      ['file', 'inventory.csv'],
    ]);
    expect(withFile.evidence[1]!.ticket?.slug).toBe(taskSlug);
    const file = withFile.evidence[2]!;
    const download = await call('GET', `${base()}/evidence/${file.id}`, viewer);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain('inventory.csv');
    expect(download.headers['x-content-type-options']).toBe('nosniff');
    expect(download.body).toBe('host,owner\nteller-01,ops\n');
    expectError(
      await call('GET', `${base()}/evidence/${file.id}`, stranger, undefined, otherOrgId),
      404,
      'GOVERNANCE_EVIDENCE_NOT_FOUND',
    );
    const removed = await ok<ControlAnswer>(
      call('DELETE', `${base()}/evidence/${withFile.evidence[0]!.id}`, editor),
    );
    expect(removed.evidence).toHaveLength(2);
    const answers = await ok<ControlAnswer[]>(call('GET', `${base()}/answers`, viewer));
    expect(answers).toHaveLength(2);
  });

  it('extends by 12 or 18 months only, and records assessed tiers', async () => {
    expect((await call('POST', `${base()}/extend`, editor, { months: 6 })).statusCode).toBe(400);
    period = await ok<EvaluationPeriod>(call('POST', `${base()}/extend`, editor, { months: 12 }));
    expect(period.endsOn).toBe('2027-12-31');
    period = await ok<EvaluationPeriod>(call('POST', `${base()}/extend`, editor, { months: 18 }));
    expect(period.endsOn).toBe('2029-06-30');
    expect(period.extensions.map((extension) => [extension.months, extension.byName])).toEqual([
      [12, 'Test User'],
      [18, 'Test User'],
    ]);
    // The CPG has no tiers.
    expectError(
      await call('PUT', `${base()}/tier`, editor, { sectionId: null, tier: 'Adaptive' }),
      400,
      'GOVERNANCE_TIER_UNKNOWN',
    );
    expectError(
      await call('PUT', `${base()}/risk-profile`, editor, { levels: { TC: 'Least' } }),
      400,
      'GOVERNANCE_RISK_PROFILE_INVALID',
    );
  });

  it("keeps a completed report of the organisation's reports area as evidence, its PDF downloadable", async () => {
    const control = framework.controls[2]!;
    const attach = (reportId: string, user = reporter) =>
      call('POST', `${base()}/control/${control.id}/evidence`, user, { kind: 'report', reportId });
    const pending = await requestReport(reporter, orgId, 'Login activity');
    const response = await attach(pending);
    expectError(response, 400, 'GOVERNANCE_EVIDENCE_REPORT_NOT_COMPLETED');
    expect(response.json()).toMatchObject({ field: 'reportId', params: { name: 'Login activity' } });
    const theirs = await requestReport(strangerReporter, otherOrgId, 'Their activity');
    await buildReport(ctx.database.db, theirs);
    expectError(await attach(theirs), 400, 'GOVERNANCE_EVIDENCE_REPORT_NOT_FOUND');
    expectError(await attach(randomUUID()), 400, 'GOVERNANCE_EVIDENCE_REPORT_NOT_FOUND');
    expect((await call('GET', `${base()}/answers`, viewer)).json()).not.toContainEqual(
      expect.objectContaining({ controlId: control.id }),
    );

    await buildReport(ctx.database.db, pending);
    // Attaching reads the reports area: a governance editor without REPORT_VIEW is refused.
    expectError(await attach(pending, editor), 403, 'PERMISSION_DENIED');
    const saved = await ok<ControlAnswer>(attach(pending), 201);
    const [evidence] = saved.evidence;
    expect(evidence).toMatchObject({
      kind: 'report',
      contentType: 'application/pdf',
      url: null,
      ticket: null,
    });
    expect(evidence!.name).toMatch(/^Login activity \(\d{4}-\d{2}-\d{2} to \d{4}-\d{2}-\d{2}\)$/);
    reportId = pending;

    // A framework reader downloads the copy, as an evidence file.
    const download = await call('GET', `${base()}/evidence/${evidence!.id}`, viewer);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-type']).toBe('application/pdf');
    expect(download.headers['content-disposition']).toContain('.pdf');
    expect(download.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    expect(download.rawPayload.length).toBe(evidence!.size);
  });

  it('finalizes for good: every change is refused afterwards', async () => {
    const control = framework.controls[0]!;
    const done = await ok<EvaluationPeriod>(call('POST', `${base()}/finalize`, editor));
    expect(done).toMatchObject({ state: 'FINALIZED', finalizedByName: 'Test User' });
    const answers = await ok<ControlAnswer[]>(call('GET', `${base()}/answers`, viewer));
    const evidenceId = answers.find((answer) => answer.controlId === control.id)!.evidence[0]!.id;
    for (const [method, path, body] of [
      ['PUT', `/control/${control.id}`, { status: 'NOT_IMPLEMENTED' }],
      ['POST', `/control/${control.id}/evidence`, { kind: 'link', name: 'Late', url: 'https://example.com' }],
      ['POST', `/control/${control.id}/evidence`, { kind: 'report', reportId }],
      ['DELETE', `/evidence/${evidenceId}`, undefined],
      ['POST', '/extend', { months: 12 }],
      ['POST', '/finalize', undefined],
      ['PUT', '/tier', { sectionId: null, tier: null }],
      ['PUT', '/risk-profile', { levels: {} }],
      ['POST', '/carry-over', { fromPeriodId: period.id }],
    ] as const) {
      expectError(await call(method, `${base()}${path}`, editor, body), 409, 'GOVERNANCE_PERIOD_FINALIZED');
    }
    const upload = await orgUpload(ctx, orgId, `${base()}/control/${control.id}/evidence-files`, editor, [
      { filename: 'late.txt', content: 'late' },
    ]);
    expectError(upload, 409, 'GOVERNANCE_PERIOD_FINALIZED');
    const after = await ok<ControlAnswer[]>(call('GET', `${base()}/answers`, viewer));
    expect(after).toEqual(answers);
  });

  it('compares two periods of a framework control by control', async () => {
    const next = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${framework.id}/period`, editor, {
        name: 'FY 2027',
        startsOn: '2027-01-01',
        endsOn: '2027-12-31',
      }),
      201,
    );
    const [first, second] = framework.controls;
    await ok(
      call('PUT', `/governance/period/${next.id}/control/${first!.id}`, editor, {
        status: 'PARTIALLY_IMPLEMENTED',
      }),
    );
    const comparison = await ok<PeriodComparison>(
      call('GET', `/governance/period-comparison?from=${period.id}&to=${next.id}`, viewer),
    );
    expect(comparison.rows).toHaveLength(38);
    expect(comparison.rows.slice(0, 3).map((row) => [row.ref, row.from, row.to])).toEqual([
      [first!.ref, 'IMPLEMENTED', 'PARTIALLY_IMPLEMENTED'],
      [second!.ref, 'NOT_APPLICABLE', null],
      [framework.controls[2]!.ref, null, null],
    ]);
    const csf = (await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer))).find(
      (item) => item.libraryKey === 'nist-csf-2.0',
    )!;
    const other = await ok<EvaluationPeriod>(
      call('POST', `/governance/framework/${csf.id}/period`, editor, {
        name: 'CSF',
        startsOn: '2026-01-01',
        endsOn: '2026-12-31',
      }),
      201,
    );
    expectError(
      await call('GET', `/governance/period-comparison?from=${period.id}&to=${other.id}`, viewer),
      400,
      'GOVERNANCE_PERIOD_COMPARE_OTHER_FRAMEWORK',
    );
    const list = await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer));
    expect(list.find((item) => item.id === framework.id)?.currentPeriod).toMatchObject({
      id: next.id,
      answered: 1,
    });
  });

  it('audits the changes', async () => {
    const rows = await ctx.database.db.select().from(activityLog).where(eq(activityLog.orgId, orgId));
    const actions = new Set(rows.map((row) => row.action));
    for (const action of [
      'governance.framework.added',
      'governance.period.finalized',
      'governance.answer.saved',
      'governance.evidence.added',
    ]) {
      expect(actions).toContain(action);
    }
  });
});

describe('crosswalk from CAT to CSF 2.0', () => {
  it('carries CAT answers over as suggestions to review, never as answers', async () => {
    const frameworks = await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer));
    const idOf = (key: string) => frameworks.find((item) => item.libraryKey === key)!.id;
    const cat = await ok<FrameworkDetail>(call('GET', `/governance/framework/${idOf('ffiec-cat')}`, viewer));
    const csf = await ok<FrameworkDetail>(
      call('GET', `/governance/framework/${idOf('nist-csf-2.0')}`, viewer),
    );
    const newPeriod = (frameworkId: string, name: string) =>
      ok<EvaluationPeriod>(
        call('POST', `/governance/framework/${frameworkId}/period`, editor, {
          name,
          startsOn: '2025-01-01',
          endsOn: '2025-12-31',
        }),
        201,
      );
    const catPeriod = await newPeriod(cat.id, 'CAT 2025');
    const csfPeriod = await newPeriod(csf.id, 'CSF 2025');
    const control = (framework: FrameworkDetail, ref: string) =>
      framework.controls.find((item) => item.ref === ref)!;
    const answer = (period: EvaluationPeriod, controlId: string, status: string) =>
      ok<ControlAnswer>(
        call('PUT', `/governance/period/${period.id}/control/${controlId}`, editor, {
          status,
          notes: 'kept',
        }),
      );
    await answer(catPeriod, control(cat, 'D1.G.IT.B').id, 'IMPLEMENTED');
    await answer(catPeriod, control(cat, 'D3.CC.Pm.B').id, 'NOT_IMPLEMENTED');
    await ok(call('POST', `/governance/period/${catPeriod.id}/finalize`, editor));
    await answer(csfPeriod, control(csf, 'ID.AM-01').id, 'PARTIALLY_IMPLEMENTED');

    const carry = (target: EvaluationPeriod, from: EvaluationPeriod) =>
      call('POST', `/governance/period/${target.id}/carry-over`, editor, { fromPeriodId: from.id });
    expectError(await carry(catPeriod, csfPeriod), 409, 'GOVERNANCE_PERIOD_FINALIZED');
    const other = await newPeriod(cat.id, 'CAT 2026');
    expectError(await carry(other, csfPeriod), 400, 'GOVERNANCE_CROSSWALK_UNSUPPORTED');
    const result = await ok<{ suggested: number; alreadyAnswered: number }>(carry(csfPeriod, catPeriod));
    expect(result).toEqual({ suggested: 5, alreadyAnswered: 1 });

    const answers = await ok<ControlAnswer[]>(
      call('GET', `/governance/period/${csfPeriod.id}/answers`, viewer),
    );
    const byRef = (ref: string) => answers.find((item) => item.controlId === control(csf, ref).id);
    expect(byRef('ID.AM-01')).toMatchObject({
      status: 'PARTIALLY_IMPLEMENTED',
      suggestion: null,
      notes: 'kept',
    });
    expect(byRef('ID.AM-02')).toMatchObject({
      status: null,
      suggestion: {
        status: 'IMPLEMENTED',
        from: 'CAT 2025 (FFIEC Cybersecurity Assessment Tool: D1.G.IT.B)',
      },
    });
    expect(byRef('PR.PS-02')).toMatchObject({ status: null, suggestion: { status: 'NOT_IMPLEMENTED' } });
    expect(
      (await ok<EvaluationPeriod>(call('GET', `/governance/period/${csfPeriod.id}`, viewer))).answered,
    ).toBe(1);

    // Saving the reviewed answer accepts it and clears the suggestion.
    const accepted = await answer(csfPeriod, control(csf, 'ID.AM-02').id, 'IMPLEMENTED');
    expect(accepted).toMatchObject({ status: 'IMPLEMENTED', suggestion: null });
  });

  it('carries CPG 2.0 goals over to the CSF 2.0 subcategories they map to', async () => {
    const cpg = await ok<FrameworkDetail>(adopt('cisa-cpg-2.0'), 201);
    expect(cpg).toMatchObject({
      name: 'CISA Cross-Sector Cybersecurity Performance Goals 2.0',
      controlCount: 34,
    });
    const frameworks = await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer));
    const csfId = frameworks.find((item) => item.libraryKey === 'nist-csf-2.0')!.id;
    const csf = await ok<FrameworkDetail>(call('GET', `/governance/framework/${csfId}`, viewer));
    const newPeriod = (frameworkId: string, name: string) =>
      ok<EvaluationPeriod>(
        call('POST', `/governance/framework/${frameworkId}/period`, editor, {
          name,
          startsOn: '2026-01-01',
          endsOn: '2026-12-31',
        }),
        201,
      );
    const cpgPeriod = await newPeriod(cpg.id, 'CPG 2026');
    const csfPeriod = await newPeriod(csf.id, 'CSF 2026');
    const goal = cpg.controls.find((item) => item.ref === '1.E')!;
    await ok(
      call('PUT', `/governance/period/${cpgPeriod.id}/control/${goal.id}`, editor, {
        status: 'PARTIALLY_IMPLEMENTED',
      }),
    );
    const result = await ok<{ suggested: number; alreadyAnswered: number }>(
      call('POST', `/governance/period/${csfPeriod.id}/carry-over`, editor, { fromPeriodId: cpgPeriod.id }),
    );
    expect(result).toEqual({ suggested: 3, alreadyAnswered: 0 });
    const answers = await ok<ControlAnswer[]>(
      call('GET', `/governance/period/${csfPeriod.id}/answers`, viewer),
    );
    const suggested = answers
      .filter((item) => item.suggestion !== null)
      .map((item) => csf.controls.find((control) => control.id === item.controlId)!.ref);
    expect(suggested.sort()).toEqual(['GV.SC-06', 'GV.SC-07', 'GV.SC-09']);
    expect(answers.every((item) => item.status === null)).toBe(true);
  });
});

describe('OSCAL import', () => {
  const upload = (filename: string, content: string | Buffer) =>
    orgUpload(ctx, orgId, '/governance/framework-import', editor, [{ filename, content }]);
  const frameworkCount = () =>
    ctx.database.db.$count(governanceFrameworks, eq(governanceFrameworks.orgId, orgId));

  it('imports a catalog file as a framework', async () => {
    const csfFile = readFileSync(new URL('./catalogs/nist-csf-2.0-catalog.json', import.meta.url));
    const framework = await ok<FrameworkDetail>(upload('csf.json', csfFile), 201);
    expect(framework).toMatchObject({
      source: 'oscal',
      libraryKey: null,
      controlCount: 106,
      sectionCount: 28,
      tiers: [],
    });
  });

  it('stores nothing for a file that is not a catalog, with a clear error', async () => {
    const before = await frameworkCount();
    expectError(await upload('notes.json', '{ nope'), 400, 'GOVERNANCE_OSCAL_MALFORMED');
    const invalid = await upload('profile.json', JSON.stringify({ profile: { uuid: 'x' } }));
    expectError(invalid, 400, 'GOVERNANCE_OSCAL_INVALID');
    expect(invalid.json()).toMatchObject({ params: { 0: 'profile.json', path: '$.catalog' } });
    expectError(
      await upload(
        'empty.json',
        JSON.stringify({ catalog: { uuid: 'x', metadata: { title: 'Empty' }, groups: [] } }),
      ),
      400,
      'GOVERNANCE_OSCAL_EMPTY',
    );
    expectError(
      await upload('big.json', Buffer.alloc(5 * 1024 * 1024 + 1, 0x20)),
      413,
      'GOVERNANCE_OSCAL_TOO_LARGE',
    );
    expectError(
      await call('POST', '/governance/framework-import', editor, {}),
      400,
      'GOVERNANCE_OSCAL_NO_FILE',
    );
    expect(await frameworkCount()).toBe(before);
  });
});

describe('managing frameworks', () => {
  let imported: FrameworkDetail;
  const path = () => `/governance/framework/${imported.id}`;

  beforeAll(async () => {
    const csfFile = readFileSync(new URL('./catalogs/nist-csf-2.0-catalog.json', import.meta.url));
    imported = await ok<FrameworkDetail>(
      orgUpload(ctx, orgId, '/governance/framework-import', editor, [
        { filename: 'csf.json', content: csfFile },
      ]),
      201,
    );
  });

  it('renames a framework and changes its description', async () => {
    const renamed = await ok<FrameworkDetail>(
      call('PATCH', path(), editor, { name: '  Bank CSF  ', description: 'Our profile' }),
    );
    expect(renamed).toMatchObject({ name: 'Bank CSF', description: 'Our profile', controlCount: 106 });
    expect((await ok<FrameworkDetail>(call('PATCH', path(), editor, {}))).name).toBe('Bank CSF');
    expect((await call('PATCH', path(), editor, { name: ' ' })).statusCode).toBe(400);
    expectError(await call('PATCH', path(), viewer, { name: 'Mine' }), 403, 'PERMISSION_DENIED');
  });

  it('gives an imported framework tiers, and keeps the tiers targets and periods hold', async () => {
    const setTiers = (tiers: string[]) => call('PUT', `${path()}/tiers`, editor, { tiers });
    imported = await ok<FrameworkDetail>(setTiers(['Initial', 'Managed', 'Optimised']));
    expect(imported.tiers).toEqual(['Initial', 'Managed', 'Optimised']);
    const refused = await setTiers(['Initial', 'initial ']);
    expectError(refused, 400, 'GOVERNANCE_TIERS_DUPLICATE');
    expect(refused.json()).toMatchObject({ params: { tier: 'initial' } });

    const section = imported.sections[0]!;
    await ok(call('PUT', `${path()}/section/${section.id}/target`, editor, { targetTier: 'Managed' }));
    const period = await ok<EvaluationPeriod>(
      call('POST', `${path()}/period`, editor, { name: 'FY', startsOn: '2026-01-01', endsOn: '2026-12-31' }),
      201,
    );
    await ok(
      call('PUT', `/governance/period/${period.id}/tier`, editor, { sectionId: null, tier: 'Initial' }),
    );
    await ok(call('POST', `/governance/period/${period.id}/finalize`, editor));

    const orphaning = await setTiers(['Managed', 'Optimised']);
    expectError(orphaning, 409, 'GOVERNANCE_TIER_IN_USE');
    expect(orphaning.json()).toMatchObject({ params: { tier: 'Initial' } });
    expectError(await setTiers(['Initial', 'Good', 'Optimised']), 409, 'GOVERNANCE_TIER_IN_USE');
    // Reordering, adding and dropping an unused tier keep every record readable.
    imported = await ok<FrameworkDetail>(setTiers(['Initial', 'Defined', 'Managed']));
    expect(imported.tiers).toEqual(['Initial', 'Defined', 'Managed']);
    expect(imported.sections[0]!.targetTier).toBe('Managed');
    expect((await call('PUT', `${path()}/tiers`, editor, { tiers: [''] })).statusCode).toBe(400);
  });

  it('refuses to delete a framework that holds a finalized period', async () => {
    const refused = await call('DELETE', path(), editor);
    expectError(refused, 409, 'GOVERNANCE_FRAMEWORK_HAS_FINALIZED_PERIOD');
    expect(refused.json()).toMatchObject({ params: { name: 'Bank CSF', period: 'FY' } });
    await ok(call('GET', path(), viewer));
  });

  it('deletes a framework with its periods in progress; a library one can be adopted again', async () => {
    const frameworks = await ok<FrameworkSummary[]>(call('GET', '/governance/frameworks', viewer));
    const cpg = frameworks.find((item) => item.libraryKey === 'cisa-cpg-2.0')!;
    const [period] = await ok<EvaluationPeriod[]>(
      call('GET', `/governance/framework/${cpg.id}/periods`, viewer),
    );
    expect(period!.state).toBe('IN_PROGRESS');
    expectError(await call('DELETE', `/governance/framework/${cpg.id}`, viewer), 403, 'PERMISSION_DENIED');
    expect((await call('DELETE', `/governance/framework/${cpg.id}`, editor)).statusCode).toBe(204);
    expectError(
      await call('GET', `/governance/framework/${cpg.id}`, viewer),
      404,
      'GOVERNANCE_FRAMEWORK_NOT_FOUND',
    );
    expectError(
      await call('GET', `/governance/period/${period!.id}`, viewer),
      404,
      'GOVERNANCE_PERIOD_NOT_FOUND',
    );
    const library = await ok<LibraryFramework[]>(call('GET', '/governance/framework-library', viewer));
    expect(library.find((item) => item.key === 'cisa-cpg-2.0')?.adoptedId).toBeNull();
    const again = await ok<FrameworkDetail>(adopt('cisa-cpg-2.0'), 201);
    expect(again.id).not.toBe(cpg.id);
    const rows = await ctx.database.db.select().from(activityLog).where(eq(activityLog.targetId, cpg.id));
    expect(rows.map((row) => row.action)).toContain('governance.framework.deleted');
  });

  it('keeps every change to the framework of its organisation', async () => {
    for (const [method, suffix, body] of [
      ['PATCH', '', { name: 'Theirs' }],
      ['PUT', '/tiers', { tiers: [] }],
      ['DELETE', '', undefined],
    ] as const) {
      expectError(
        await call(method, `${path()}${suffix}`, stranger, body, otherOrgId),
        404,
        'GOVERNANCE_FRAMEWORK_NOT_FOUND',
      );
    }
    const kept = await ok<FrameworkDetail>(call('GET', path(), viewer));
    expect(kept).toMatchObject({ name: 'Bank CSF', tiers: ['Initial', 'Defined', 'Managed'] });
  });
});

describe('dates', () => {
  it('adds months, keeping to the end of shorter months', () => {
    expect(addMonths('2026-01-31', 12)).toBe('2027-01-31');
    expect(addMonths('2026-08-31', 18)).toBe('2028-02-29');
    expect(addMonths('2026-12-31', 18)).toBe('2028-06-30');
  });
});
