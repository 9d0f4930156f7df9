import { and, eq } from 'drizzle-orm';
import { extractText, getDocumentProxy } from 'unpdf';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let noSkuOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let noSkuUser: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY', 'RISK_SYSTEMS_AND_APPLICATIONS'] }))
    .id;
  otherOrgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
  noSkuOrgId = (await seedOrg(db, { productSkus: [] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['RISK_EDIT'] });
  noSkuUser = await seedUser(db, { homeOrgId: noSkuOrgId, permissions: ['RISK_EDIT'] });
});
afterAll(async () => {
  await ctx.close();
});

const call = (method: HttpMethod, path: string, user = editor, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  const body = response.json() as { key: string; field?: string; params?: Record<string, unknown> };
  expect({ status: response.statusCode, key: body.key }).toEqual({ status, key });
  return body;
}

interface Aggregate {
  value: string | null;
  recommended: string | null;
  overridden: boolean;
}
interface Detail {
  id: string;
  publicId: string;
  kind: string;
  name: string;
  state: string;
  executiveSummary: string;
  itemCount: number;
  items: {
    id: string;
    publicId: string;
    name: string;
    inherentRisk: string | null;
    residualRisk: string | null;
  }[];
  inherentRisk: Aggregate;
  residualRisk: Aggregate;
  completedOn: string | null;
  completedBy: { id: string } | null;
  version: number;
}

async function ok<T>(response: Promise<Awaited<ReturnType<typeof call>>>, status = 200): Promise<T> {
  const answer = await response;
  expect(answer.statusCode, answer.body).toBe(status);
  return answer.json() as T;
}

const createRisk = (
  name: string,
  impact: string,
  likelihood: string,
  strength: string,
  org = orgId,
  user = editor,
) =>
  ok<{ id: string; publicId: string }>(
    call(
      'POST',
      '/risk',
      user,
      {
        name,
        modules: ['INFORMATION_SECURITY'],
        scores: {
          potentialImpact: { value: impact },
          likelihood,
          inherentRisk: { recommended: true },
          controlStrength: { value: strength },
          residualRisk: { recommended: true },
        },
      },
      org,
    ),
    201,
  );

const createAssessment = (payload: object, user = editor) =>
  ok<Detail>(
    call('POST', '/risk-assessment', user, { kind: 'RISK', name: 'Annual risk assessment', ...payload }),
    201,
  );

async function pdfText(bytes: Uint8Array) {
  const document = await getDocumentProxy(new Uint8Array(bytes));
  return (await extractText(document, { mergePages: true })).text;
}

describe('risk assessments', () => {
  it('start as drafts covering register risks, recommending the most severe scores', async () => {
    const high = await createRisk('Wire fraud', 'EXTREME', 'HIGH', 'WEAK');
    const low = await createRisk('Lost laptop', 'LOW', 'LOW', 'STRONG');
    const assessment = await createAssessment({ itemIds: [low.id, high.id] });
    expect(assessment).toMatchObject({
      publicId: expect.stringMatching(/^A-\d{4}$/),
      state: 'DRAFT',
      itemCount: 2,
      items: [{ publicId: high.publicId }, { publicId: low.publicId }].sort((a, b) =>
        a.publicId.localeCompare(b.publicId),
      ),
    });
    expect(assessment.inherentRisk).toEqual({ value: 'EXTREME', recommended: 'EXTREME', overridden: false });
    expect(assessment.residualRisk.overridden).toBe(false);
    expect(assessment.residualRisk.value).toBe(assessment.residualRisk.recommended);
    expect(assessment.residualRisk.value).not.toBeNull();

    const read = await ok<Detail>(call('GET', `/risk-assessment/${assessment.publicId}`, viewer));
    expect(read.items.map((item) => item.name).sort()).toEqual(['Lost laptop', 'Wire fraud']);
    const list = await ok<{ items: { publicId: string }[]; total: number }>(
      call('GET', '/risk-assessments?state=DRAFT&pageSize=1', viewer),
    );
    expect(list.items).toHaveLength(1);
    expect(list.total).toBeGreaterThanOrEqual(1);
  });

  it('refuse items that are not register items of the kind, other organisations and viewers', async () => {
    const foreign = await createRisk('Other bank risk', 'LOW', 'LOW', 'STRONG', otherOrgId, stranger);
    const refused = expectError(
      await call('POST', '/risk-assessment', editor, { kind: 'RISK', name: 'x', itemIds: [foreign.id] }),
      400,
      'RISK_INVALID_LINKS',
    );
    expect(refused).toMatchObject({ field: 'itemIds', params: { 0: foreign.id } });
    const own = await createRisk('Own risk', 'LOW', 'LOW', 'STRONG');
    expectError(
      await call('POST', '/risk-assessment', editor, { kind: 'INVENTORY', name: 'x', itemIds: [own.id] }),
      400,
      'RISK_INVALID_LINKS',
    );
    expectError(
      await call('POST', '/risk-assessment', viewer, { kind: 'RISK', name: 'x' }),
      403,
      'PERMISSION_DENIED',
    );
    const mine = await createAssessment({});
    expectError(
      await call('GET', `/risk-assessment/${mine.publicId}`, stranger, undefined, otherOrgId),
      404,
      'RISK_ASSESSMENT_NOT_FOUND',
    );
    const gated = await call('GET', '/risk-assessments', noSkuUser, undefined, noSkuOrgId);
    expect(gated.statusCode).toBe(403);
  });

  it('cover inventory items with their derived scores', async () => {
    const item = await ok<{ id: string; inherentRisk: string | null }>(
      call('POST', '/inventory-item', editor, {
        kind: 'SYSTEM',
        name: 'Core banking',
        answers: { S1: 'YES', S2: 'YES', S3: 'NO', S4: 'NO', C1: 'YES', C2: 'NO', C3: 'NO', C4: 'NO' },
      }),
      201,
    );
    const assessment = await createAssessment({ kind: 'INVENTORY', itemIds: [item.id] });
    expect(assessment.items).toEqual([expect.objectContaining({ id: item.id, name: 'Core banking' })]);
    expect(assessment.inherentRisk.recommended).toBe(item.inherentRisk);
  });

  it('complete an inventory assessment only once its items answered their mandatory questions', async () => {
    const scored = { S1: 'YES', S2: 'NO', S3: 'NO', S4: 'NO', C1: 'NO', C2: 'NO', C3: 'NO', C4: 'YES' };
    const complete = await ok<{ id: string; publicId: string }>(
      call('POST', '/inventory-item', editor, { kind: 'APPLICATION', name: 'Payments', answers: scored }),
      201,
    );
    const partial = await ok<{ id: string; publicId: string; version: number }>(
      call('POST', '/inventory-item', editor, {
        kind: 'SYSTEM',
        name: 'Mail gateway',
        // Criticality left half answered; the other sets are not mandatory.
        answers: { S1: 'NO', S2: 'NO', S3: 'NO', S4: 'NO', C1: 'YES', C2: 'NO', P1: 'YES' },
      }),
      201,
    );
    const assessment = await createAssessment({
      kind: 'INVENTORY',
      itemIds: [complete.id, partial.id],
      inherentRisk: 'HIGH',
      residualRisk: 'MODERATE',
      executiveSummary: 'Systems reviewed.',
    });
    const refused = expectError(
      await call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 1 }),
      400,
      'RISK_MANDATORY_ITEM_INVALID',
    );
    expect(refused).toMatchObject({ field: 'itemIds', params: { 0: partial.publicId } });
    const unchanged = await ok<Detail>(call('GET', `/risk-assessment/${assessment.publicId}`));
    expect(unchanged).toMatchObject({ state: 'DRAFT', version: 1, completedOn: null });
    const completions = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.targetId, assessment.id), eq(activityLog.action, 'assessment.completed')));
    expect(completions).toEqual([]);

    await ok(
      call('PATCH', `/inventory-item/${partial.publicId}`, editor, {
        version: partial.version,
        answers: { C3: 'NO', C4: 'NO' },
      }),
    );
    const done = await ok<Detail>(
      call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 1 }),
    );
    expect(done.state).toBe('COMPLETED');
  });

  it('are saved as drafts, and complete only with both aggregate scores and the executive summary', async () => {
    const assessment = await createAssessment({});
    expect(assessment.inherentRisk).toEqual({ value: null, recommended: null, overridden: false });

    const inherent = expectError(
      await call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 1 }),
      400,
      'RISK_ASSESSMENT_SCORE_REQUIRED',
    );
    expect(inherent.field).toBe('inherentRisk');

    const saved = await ok<Detail>(
      call('PATCH', `/risk-assessment/${assessment.publicId}`, editor, { inherentRisk: 'HIGH', version: 1 }),
    );
    expect(saved).toMatchObject({
      state: 'SAVED',
      version: 2,
      inherentRisk: { value: 'HIGH', overridden: true },
    });
    const residual = expectError(
      await call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 2 }),
      400,
      'RISK_ASSESSMENT_SCORE_REQUIRED',
    );
    expect(residual.field).toBe('residualRisk');

    await ok(
      call('PATCH', `/risk-assessment/${assessment.publicId}`, editor, {
        residualRisk: 'MODERATE',
        version: 2,
      }),
    );
    const summary = expectError(
      await call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 3 }),
      400,
      'RISK_ASSESSMENT_SUMMARY_REQUIRED',
    );
    expect(summary.field).toBe('executiveSummary');
    expect((await ok<Detail>(call('GET', `/risk-assessment/${assessment.publicId}`))).state).toBe('SAVED');

    expectError(
      await call('PATCH', `/risk-assessment/${assessment.publicId}`, editor, { name: 'Stale', version: 1 }),
      409,
      'RISK_MODIFIED',
    );
  });

  it('are published read-only once completed, keeping the scores they were completed with', async () => {
    const risk = await createRisk('Ransomware', 'HIGH', 'HIGH', 'WEAK');
    const assessment = await createAssessment({
      name: 'Board review 2026',
      itemIds: [risk.id],
      residualRisk: 'LOW',
      executiveSummary: 'Ransomware remains the top risk; controls improved this year.',
    });
    const completed = await ok<Detail>(
      call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 1 }),
    );
    expect(completed).toMatchObject({
      state: 'COMPLETED',
      completedBy: { id: editor.id },
      residualRisk: { value: 'LOW', overridden: true },
      inherentRisk: { value: completed.items[0]!.inherentRisk },
    });
    expect(completed.completedOn).not.toBeNull();

    const { version } = await ok<{ version: number }>(call('GET', `/risk/${risk.publicId}`));
    await ok(
      call('PATCH', `/risk/${risk.publicId}`, editor, {
        version,
        scores: { potentialImpact: { value: 'LOW' }, likelihood: 'LOW', inherentRisk: { recommended: true } },
      }),
    );
    const later = await ok<Detail>(call('GET', `/risk-assessment/${assessment.publicId}`, viewer));
    expect(later.items).toEqual(completed.items);
    expect(later.inherentRisk).toEqual(completed.inherentRisk);

    expectError(
      await call('PATCH', `/risk-assessment/${assessment.publicId}`, editor, { name: 'Changed', version: 2 }),
      409,
      'RISK_ASSESSMENT_COMPLETED',
    );
    expectError(
      await call('POST', `/risk-assessment/${assessment.publicId}/complete`, editor, { version: 2 }),
      409,
      'RISK_ASSESSMENT_COMPLETED',
    );

    const actions = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(and(eq(activityLog.targetType, 'assessment'), eq(activityLog.targetId, assessment.id)));
    expect(actions.map((row) => row.action).sort()).toEqual(['assessment.completed', 'assessment.created']);

    const list = await ok<{ items: { publicId: string }[] }>(
      call('GET', '/risk-assessments?state=COMPLETED'),
    );
    expect(list.items.map((item) => item.publicId)).toContain(assessment.publicId);
  });

  it('export as a PDF with the summary, aggregate scores and covered items', async () => {
    const risk = await createRisk('Vendor outage', 'HIGH', 'MODERATE', 'STRONG');
    const assessment = await createAssessment({
      name: 'Third-party review',
      itemIds: [risk.id],
      inherentRisk: 'EXTREME',
      executiveSummary: 'Vendor concentration is the main concern.',
    });
    const response = await call('GET', `/risk-assessment/${assessment.publicId}/pdf`, viewer);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['content-disposition']).toContain(`${assessment.publicId}.pdf`);
    const text = await pdfText(response.rawPayload);
    expect(text).toContain('Third-party review');
    expect(text).toContain('Vendor concentration is the main concern.');
    expect(text).toContain('Aggregate risk scores');
    expect(text).toContain('Very High');
    expect(text).toContain(risk.publicId);
    expect(text).toContain('Vendor outage');
    const exported = await ctx.database.db
      .select({ details: activityLog.details })
      .from(activityLog)
      .where(and(eq(activityLog.targetId, assessment.id), eq(activityLog.action, 'assessment.exported')));
    expect(exported).toEqual([{ details: { publicId: assessment.publicId, state: assessment.state } }]);
    expectError(
      await call('GET', `/risk-assessment/${assessment.publicId}/pdf`, stranger, undefined, otherOrgId),
      404,
      'RISK_ASSESSMENT_NOT_FOUND',
    );
  });
});
