import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  todayIn,
  type AutoEvidenceSource,
  type EvaluationPeriod,
  type FrameworkDetail,
} from '@vigil/contracts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { tickets } from '../tickets/tables';
import { runDueTriggers } from '../triggers/engine';
import { evaluateAllAutoEvidence } from './auto-evidence';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let period: EvaluationPeriod;
let controlId: string;
let otherControlId: string;
let triggerId: string;
let otherTriggerId: string;

const PERMISSIONS = [
  'POLICY_FRAMEWORK_VIEW',
  'POLICY_FRAMEWORK_EDIT',
  'TRIGGER_VIEW',
  'TRIGGER_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'INCIDENT_VIEW',
  'INCIDENT_EDIT',
  'ASSET_VIEW',
  'ASSET_EDIT',
  'RISK_VIEW',
  'RISK_EDIT',
  'CUSTOM_POLICY_VIEW',
  'CUSTOM_POLICY_EDIT',
  'CAT_POLICY_VIEW',
  'CAT_POLICY_EDIT',
] as const;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

async function ok<T>(response: Promise<Awaited<ReturnType<typeof call>>>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as T;
}

const expectError = (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

async function makeTrigger(user: SeededUser, org: string, name: string): Promise<string> {
  const query = await ok<{ id: string }>(
    call('POST', '/saved-query', user, { name, query: 'admin' }, org),
    201,
  );
  const trigger = await ok<{ id: string }>(
    call(
      'POST',
      '/trigger',
      user,
      { name, type: 'THRESHOLD', savedQueryId: query.id, intervalSeconds: 600, minMatch: 5 },
      org,
    ),
    201,
  );
  return trigger.id;
}

const addSource = (body: object, control = controlId, user = editor) =>
  call('POST', `/governance/period/${period.id}/control/${control}/auto-evidence`, user, body);
const latest = (source: AutoEvidenceSource) => source.history[0]!;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor', productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
  otherOrgId = (await seedOrg(db, { name: 'Prairie' })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...PERMISSIONS] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['POLICY_FRAMEWORK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...PERMISSIONS] });
  triggerId = await makeTrigger(editor, orgId, 'Privileged logins');
  otherTriggerId = await makeTrigger(stranger, otherOrgId, 'Theirs');
  const csf = await ok<FrameworkDetail>(
    call('POST', '/governance/framework-library/nist-csf-2.0/adopt', editor),
    201,
  );
  controlId = csf.controls[0]!.id;
  otherControlId = csf.controls[1]!.id;
  period = await ok<EvaluationPeriod>(
    call('POST', `/governance/framework/${csf.id}/period`, editor, {
      name: '2026',
      startsOn: '2026-01-01',
      endsOn: '2026-12-31',
    }),
    201,
  );
});
afterAll(() => ctx.close());

describe('TRIGGER_ACTIVE', () => {
  let source: AutoEvidenceSource;

  it('fails while the trigger has not run, passes once it ran without error', async () => {
    source = await ok<AutoEvidenceSource>(addSource({ kind: 'TRIGGER_ACTIVE', triggerId, window: 24 }), 201);
    expect(source).toMatchObject({ kind: 'TRIGGER_ACTIVE', triggerName: 'Privileged logins', window: 24 });
    expect(latest(source)).toMatchObject({
      state: 'FAILING',
      reason: 'Privileged logins has not run in the last 24 h.',
      figures: { runs: 0, state: 'ACTIVE' },
    });

    await runDueTriggers(ctx.database.db, new Date(Date.now() + 11 * 60_000));
    const evaluated = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
    );
    expect(latest(evaluated).state).toBe('PASSING');
    expect(latest(evaluated).figures).toMatchObject({ runs: 1, failedRuns: 0 });
    expect(latest(evaluated).reason).toBe(
      'Privileged logins is active and ran once without error in the last 24 h.',
    );
    expect(evaluated.history.map((item) => item.state)).toEqual(['PASSING', 'FAILING']);
  });

  it('fails once the trigger is paused', async () => {
    await ok(call('POST', `/trigger/${triggerId}/pause`, editor));
    const evaluated = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
    );
    expect(latest(evaluated)).toMatchObject({
      state: 'FAILING',
      reason: 'Privileged logins is PAUSED, not active.',
    });
    await ok(call('POST', `/trigger/${triggerId}/resume`, editor));
  });

  it('refuses unknown and foreign triggers and windows out of range, writing nothing', async () => {
    expectError(
      await addSource({ kind: 'TRIGGER_ACTIVE', triggerId: otherTriggerId, window: 24 }),
      400,
      'GOVERNANCE_AUTO_EVIDENCE_TRIGGER_NOT_FOUND',
    );
    expectError(
      await addSource({ kind: 'TRIGGER_ACTIVE', window: 24 }),
      400,
      'GOVERNANCE_AUTO_EVIDENCE_TRIGGER_NOT_FOUND',
    );
    for (const window of [0, 721]) {
      const response = await addSource({ kind: 'TRIGGER_ACTIVE', triggerId, window });
      expectError(response, 400, 'GOVERNANCE_AUTO_EVIDENCE_INVALID');
      expect(response.json()).toMatchObject({ field: 'window' });
    }
    const listed = await ok<AutoEvidenceSource[]>(
      call('GET', `/governance/period/${period.id}/auto-evidence?controlId=${controlId}`, viewer),
    );
    expect(listed.map((item) => item.id)).toEqual([source.id]);
  });
  it('follows the trigger to its new version after an edit of its alert conditions, and fails once deleted', async () => {
    const frameworkPath = `/governance/framework/${period.frameworkId}`;
    await ok(call('PATCH', `${frameworkPath}/control/${controlId}`, editor, { alertable: true, triggerId }));
    const before = await ok<{ savedQueryId: string }>(call('GET', `/trigger/${triggerId}`, editor));
    const edited = await ok<{ id: string; previousVersionId: string; version: number }>(
      call('PUT', `/trigger/${triggerId}`, editor, {
        name: 'Privileged logins',
        type: 'THRESHOLD',
        savedQueryId: before.savedQueryId,
        intervalSeconds: 600,
        minMatch: 10,
        confirmArchive: true,
      }),
    );
    expect(edited).toMatchObject({ previousVersionId: triggerId, version: 2 });

    // The run of the archived version still counts: the trigger kept running across the edit.
    const evaluated = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
    );
    expect(evaluated).toMatchObject({ triggerId: edited.id, triggerName: 'Privileged logins' });
    expect(latest(evaluated)).toMatchObject({
      state: 'PASSING',
      reason: 'Privileged logins is active and ran once without error in the last 24 h.',
      figures: { state: 'ACTIVE', runs: 1 },
    });
    const framework = await ok<FrameworkDetail>(call('GET', frameworkPath, viewer));
    expect(framework.controls.find((control) => control.id === controlId)).toMatchObject({
      alertable: true,
      triggerId: edited.id,
      triggerName: 'Privileged logins',
    });

    await ok(call('POST', `/trigger/${edited.id}/delete`, editor));
    const deleted = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
    );
    expect(latest(deleted)).toMatchObject({ state: 'FAILING', reason: 'Privileged logins was deleted.' });
    await ok(call('POST', `/trigger/${edited.id}/restore`, editor));
    await ok(call('POST', `/trigger/${edited.id}/resume`, editor));
  });
});

describe('INCIDENTS_WITHIN_SLA', () => {
  it('measures the share of incidents due in the window done by their SLA date', async () => {
    const db = ctx.database.db;
    const empty = await ok<AutoEvidenceSource>(
      addSource({ kind: 'INCIDENTS_WITHIN_SLA', window: 30, threshold: 60 }, otherControlId),
      201,
    );
    expect(latest(empty)).toMatchObject({
      state: 'UNKNOWN',
      reason: 'No incidents due in the last 30 days.',
    });

    const slugs: string[] = [];
    for (const title of ['On time', 'Late', 'Still open']) {
      slugs.push((await ok<{ slug: string }>(call('POST', '/incident', editor, { title }), 201)).slug);
    }
    for (const slug of slugs.slice(0, 2)) {
      await ok(call('PUT', `/incident/${slug}/state`, editor, { version: 1, state: 'CLOSED' }));
    }
    const hourAgo = new Date(Date.now() - 3_600_000);
    // Deadlines that have passed: the first after its closing, the others before.
    await db.update(tickets).set({ slaDate: new Date() }).where(eq(tickets.slug, slugs[0]!));
    for (const slug of slugs.slice(1)) {
      await db.update(tickets).set({ slaDate: hourAgo }).where(eq(tickets.slug, slug));
    }

    const evaluated = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${empty.id}/evaluate`, editor),
    );
    expect(latest(evaluated)).toMatchObject({
      state: 'FAILING',
      reason: '1 of 3 incidents due in the last 30 days within their SLA (33%, threshold 60%).',
      figures: { total: 3, met: 1, percent: 33, threshold: 60 },
    });
    const lenient = await ok<AutoEvidenceSource>(
      addSource({ kind: 'INCIDENTS_WITHIN_SLA', window: 30, threshold: 30 }, otherControlId),
      201,
    );
    expect(latest(lenient).state).toBe('PASSING');
  });

  it('refuses thresholds and windows out of range', async () => {
    for (const [body, field] of [
      [{ window: 30, threshold: 0 }, 'threshold'],
      [{ window: 30, threshold: 101 }, 'threshold'],
      [{ window: 30 }, 'threshold'],
      [{ window: 366, threshold: 90 }, 'window'],
    ] as const) {
      const response = await addSource({ kind: 'INCIDENTS_WITHIN_SLA', ...body });
      expectError(response, 400, 'GOVERNANCE_AUTO_EVIDENCE_INVALID');
      expect(response.json()).toMatchObject({ field });
    }
  });
});

describe('ASSETS_INVENTORIED', () => {
  it('measures the share of assets seen in the window that have an owner', async () => {
    const asset = { importance: 'medium', labels: [], hostnames: [], ipMacPairs: [] };
    await ok(call('POST', '/asset', editor, { ...asset, name: 'Teller PC 01', owner: 'Branch IT' }), 201);
    await ok(call('POST', '/asset', editor, { ...asset, name: 'Teller PC 02' }), 201);
    const source = await ok<AutoEvidenceSource>(
      addSource({ kind: 'ASSETS_INVENTORIED', window: 7, threshold: 50 }),
      201,
    );
    expect(latest(source)).toMatchObject({
      state: 'PASSING',
      reason: '1 of 2 assets seen in the last 7 days with an owner (50%, threshold 50%).',
      figures: { total: 2, met: 1, percent: 50 },
    });
    const removed = await call(
      'DELETE',
      `/governance/period/${period.id}/auto-evidence/${source.id}`,
      editor,
    );
    expect(removed.statusCode).toBe(204);
    const listed = await ok<AutoEvidenceSource[]>(
      call('GET', `/governance/period/${period.id}/auto-evidence`, viewer),
    );
    expect(listed.map((item) => item.kind)).not.toContain('ASSETS_INVENTORIED');
  });
});

describe('REVIEWS_DONE', () => {
  it('is unknown without schedules and fails while a review is late', async () => {
    const source = await ok<AutoEvidenceSource>(addSource({ kind: 'REVIEWS_DONE', window: 30 }), 201);
    expect(latest(source)).toMatchObject({ state: 'UNKNOWN', reason: 'No review schedule is set.' });

    const risk = await ok<{ publicId: string }>(
      call('POST', '/risk', editor, { name: 'Vendor outage', modules: ['INFORMATION_SECURITY'] }),
      201,
    );
    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    await ok(
      call('POST', `/risk/${risk.publicId}/review-schedule`, editor, {
        every: 1,
        unit: 'year',
        nextReview: tomorrow,
        watcherIds: [editor.id],
      }),
      201,
    );
    const done = await ok<AutoEvidenceSource>(
      call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
    );
    expect(latest(done)).toMatchObject({ state: 'PASSING', reason: 'The one review is not late.' });

    // The daily job evaluates on a later day, when the review has become late.
    const later = new Date(Date.now() + 5 * 86_400_000);
    expect(todayIn('America/New_York', later) > tomorrow).toBe(true);
    await evaluateAllAutoEvidence(ctx.database.db, later);
    const [listed] = (
      await ok<AutoEvidenceSource[]>(call('GET', `/governance/period/${period.id}/auto-evidence`, viewer))
    ).filter((item) => item.id === source.id);
    expect(latest(listed!)).toMatchObject({ state: 'FAILING', reason: '1 of 1 review is late.' });
  });
});

describe('REVIEWS_DONE with policies', () => {
  it('counts policy reviews too: an approved policy overdue for review is a review not done', async () => {
    const source = await ok<AutoEvidenceSource>(addSource({ kind: 'REVIEWS_DONE', window: 30 }), 201);
    const evaluated = async (at: Date) => {
      await evaluateAllAutoEvidence(ctx.database.db, at);
      const [listed] = (
        await ok<AutoEvidenceSource[]>(call('GET', `/governance/period/${period.id}/auto-evidence`, viewer))
      ).filter((item) => item.id === source.id);
      return latest(listed!);
    };
    // A policy reviewed monthly, approved today, and a CAT policy never approved: only the approved one
    // has a review due.
    const monthly = await ok<{ id: string; versions: { id: string }[] }>(
      call('POST', '/governance/policy', editor, {
        name: 'Access Control Policy',
        body: 'Access is granted by role.',
        reviewEveryMonths: 1,
      }),
      201,
    );
    await ok(
      call('POST', `/governance/policy/${monthly.id}/version/${monthly.versions[0]!.id}/approve`, editor),
    );
    await ok(call('POST', '/governance/cat-policy', editor, { name: 'Draft', body: 'Not yet.' }), 201);

    // The risk review falls due in two days, the policy review in a month.
    const now = new Date();
    expect(await evaluated(now)).toMatchObject({
      state: 'PASSING',
      reason: 'None of 2 reviews is late.',
      figures: { schedules: 1, policies: 1, late: 0 },
    });
    expect(await evaluated(new Date(now.getTime() + 5 * 86_400_000))).toMatchObject({
      state: 'FAILING',
      reason: '1 of 2 reviews is late.',
    });
    // Forty days on, the policy's review is overdue as well.
    expect(await evaluated(new Date(now.getTime() + 40 * 86_400_000))).toMatchObject({
      state: 'FAILING',
      reason: '2 of 2 reviews are late.',
      figures: { schedules: 1, policies: 1, late: 2 },
    });
  });

  it('passes on policies alone when no risk review is scheduled', async () => {
    const { orgId: lone, user } = await loneOrg();
    const framework = await ok<FrameworkDetail>(
      call('POST', '/governance/framework-library/cisa-cpg-2.0/adopt', user, undefined, lone),
      201,
    );
    const own = await ok<EvaluationPeriod>(
      call(
        'POST',
        `/governance/framework/${framework.id}/period`,
        user,
        { name: '2026', startsOn: '2026-01-01', endsOn: '2026-12-31' },
        lone,
      ),
      201,
    );
    const add = () =>
      ok<AutoEvidenceSource>(
        call(
          'POST',
          `/governance/period/${own.id}/control/${framework.controls[1]!.id}/auto-evidence`,
          user,
          { kind: 'REVIEWS_DONE', window: 30 },
          lone,
        ),
        201,
      );
    expect(latest(await add())).toMatchObject({ state: 'UNKNOWN', reason: 'No review schedule is set.' });
    const policy = await ok<{ id: string; versions: { id: string }[] }>(
      call('POST', '/governance/policy', user, { name: 'Vendor Policy', body: 'Vendors are vetted.' }, lone),
      201,
    );
    await ok(
      call(
        'POST',
        `/governance/policy/${policy.id}/version/${policy.versions[0]!.id}/approve`,
        user,
        undefined,
        lone,
      ),
    );
    expect(latest(await add())).toMatchObject({
      state: 'PASSING',
      reason: 'The one review is not late.',
      figures: { schedules: 0, policies: 1, late: 0 },
    });
    // Finalized, the period leaves the daily job (see the rules below).
    await ok(call('POST', `/governance/period/${own.id}/finalize`, user, undefined, lone));
  });
});

async function loneOrg() {
  const db = ctx.database.db;
  const id = (await seedOrg(db, { name: 'Lone' })).id;
  return { orgId: id, user: await seedUser(db, { homeOrgId: id, permissions: [...PERMISSIONS] }) };
}

describe('rules', () => {
  it('keeps sources to their organisation and permissions', async () => {
    expectError(
      await call('GET', `/governance/period/${period.id}/auto-evidence`, stranger, undefined, otherOrgId),
      404,
      'GOVERNANCE_PERIOD_NOT_FOUND',
    );
    expectError(
      await addSource({ kind: 'REVIEWS_DONE', window: 30 }, controlId, viewer),
      403,
      'PERMISSION_DENIED',
    );
    expectError(
      await call('DELETE', `/governance/period/${period.id}/auto-evidence/${period.id}`, editor),
      404,
      'GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND',
    );
  });

  it('holds at most 10 sources per control', async () => {
    const listed = await ok<AutoEvidenceSource[]>(
      call('GET', `/governance/period/${period.id}/auto-evidence?controlId=${controlId}`, viewer),
    );
    for (let i = listed.length; i < 10; i += 1)
      await ok(addSource({ kind: 'REVIEWS_DONE', window: 30 }), 201);
    expectError(
      await addSource({ kind: 'REVIEWS_DONE', window: 30 }),
      400,
      'GOVERNANCE_AUTO_EVIDENCE_TOO_MANY',
    );
  });

  it('lists the latest 10 evaluations with the total, and pages through all of them', async () => {
    const source = await ok<AutoEvidenceSource>(
      addSource({ kind: 'REVIEWS_DONE', window: 30 }, otherControlId),
      201,
    );
    expect(source.historyTotal).toBe(1);
    const evaluate = () =>
      ok<AutoEvidenceSource>(
        call('POST', `/governance/period/${period.id}/auto-evidence/${source.id}/evaluate`, editor),
      );
    const times = [source.history[0]!.evaluatedOn];
    for (let i = 0; i < 11; i += 1) times.unshift(latest(await evaluate()).evaluatedOn);
    const listed = await ok<AutoEvidenceSource[]>(
      call('GET', `/governance/period/${period.id}/auto-evidence?controlId=${otherControlId}`, viewer),
    );
    const shown = listed.find((item) => item.id === source.id)!;
    expect(shown.historyTotal).toBe(12);
    expect(shown.history.map((item) => item.evaluatedOn)).toEqual(times.slice(0, 10));

    const history = (query: string, user = viewer, org = orgId) =>
      call(
        'GET',
        `/governance/period/${period.id}/auto-evidence/${source.id}/history?${query}`,
        user,
        undefined,
        org,
      );
    const third = await ok<{ items: { evaluatedOn: string }[]; total: number }>(
      history('pageSize=5&pageNumber=3'),
    );
    expect(third.total).toBe(12);
    expect(third.items.map((item) => item.evaluatedOn)).toEqual(times.slice(10));
    const first = await ok<{ items: { evaluatedOn: string }[] }>(history('pageSize=5'));
    expect(first.items.map((item) => item.evaluatedOn)).toEqual(times.slice(0, 5));
    expect((await history('pageSize=0')).statusCode).toBe(400);
    expectError(
      await call('GET', `/governance/period/${period.id}/auto-evidence/${period.id}/history`, viewer),
      404,
      'GOVERNANCE_AUTO_EVIDENCE_NOT_FOUND',
    );
    expect((await history('pageSize=5', stranger, otherOrgId)).statusCode).toBe(404);
  });

  it('refuses changes once the period is finalized, and the daily job leaves it alone', async () => {
    const [source] = await ok<AutoEvidenceSource[]>(
      call('GET', `/governance/period/${period.id}/auto-evidence`, viewer),
    );
    await ok(call('POST', `/governance/period/${period.id}/finalize`, editor));
    expectError(await addSource({ kind: 'REVIEWS_DONE', window: 30 }), 409, 'GOVERNANCE_PERIOD_FINALIZED');
    expectError(
      await call('POST', `/governance/period/${period.id}/auto-evidence/${source!.id}/evaluate`, editor),
      409,
      'GOVERNANCE_PERIOD_FINALIZED',
    );
    expectError(
      await call('DELETE', `/governance/period/${period.id}/auto-evidence/${source!.id}`, editor),
      409,
      'GOVERNANCE_PERIOD_FINALIZED',
    );
    expect(await evaluateAllAutoEvidence(ctx.database.db)).toBe(0);
  });
});
