import { addReviewInterval, todayIn } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { users } from '../users/tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let noSkuOrgId: string;
let providerOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let noSku: SeededUser;
let providerAdmin: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY', 'RISK_THIRD_PARTY_RISK'] })).id;
  otherOrgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
  noSkuOrgId = (await seedOrg(db)).id;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['RISK_EDIT'] });
  noSku = await seedUser(db, { homeOrgId: noSkuOrgId, permissions: ['RISK_EDIT'] });
  providerAdmin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['RISK_EDIT', 'TRAC_ADMIN', 'TRAC_USER'],
    authorisedOrgIds: [orgId],
  });
});
afterAll(async () => {
  await ctx.close();
});

const call = (method: HttpMethod, path: string, user = editor, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect({ status: response.statusCode, key: (response.json() as { key: string }).key }).toEqual({
    status,
    key,
  });
  return response.json() as { params?: Record<string, unknown>; field?: string; validValues?: string[] };
}

interface Score {
  value: string | null;
  recommended: string | null;
  overrideReason: string | null;
}
interface Detail {
  id: string;
  publicId: string;
  name: string;
  state: string;
  version: number;
  modules: string[];
  exception: boolean;
  potentialImpact: Score;
  inherentRisk: Score;
  controlStrength: Score;
  residualRisk: Score;
  relatedRisks: { publicId: string }[];
  controls: { id: string }[];
  businessUnits: { name: string }[];
  businessOwner: { name: string } | null;
  watchers: { id: string }[];
  dueDate: string | null;
  timeZoneId: string | null;
  dueDateStatus: string | null;
  inRegister: boolean;
  history: { kind: string; details: Record<string, unknown> }[];
}

async function createRisk(payload: object = {}, user = editor, org = orgId) {
  const response = await call(
    'POST',
    '/risk',
    user,
    { name: 'A risk', modules: ['INFORMATION_SECURITY'], ...payload },
    org,
  );
  expect(response.statusCode).toBe(201);
  return response.json() as Detail;
}

const patch = (risk: Detail, payload: object) =>
  call('PATCH', `/risk/${risk.publicId}`, editor, { version: risk.version, ...payload });

async function listItem(kind: string, name: string) {
  const response = await call('POST', `/risk-lists/${kind}`, editor, { name });
  expect(response.statusCode).toBe(201);
  return (response.json() as { id: string }).id;
}

describe('access', () => {
  it('opens the register with a risk product and RISK_VIEW, changes with RISK_EDIT', async () => {
    expect((await call('GET', '/risks', viewer)).statusCode).toBe(200);
    expectError(
      await call('POST', '/risk', viewer, { name: 'x', modules: ['INFORMATION_SECURITY'] }),
      403,
      'PERMISSION_DENIED',
    );
    expectError(await call('GET', '/risks', noSku, undefined, noSkuOrgId), 403, 'PRODUCT_NOT_ENTITLED');
    // The library is readable without a product, but copying needs one.
    expect((await call('GET', '/risks/library', noSku, undefined, noSkuOrgId)).statusCode).toBe(200);
    expectError(
      await call('POST', '/risks/library/copy', noSku, { ids: [crypto.randomUUID()] }, noSkuOrgId),
      403,
      'PRODUCT_NOT_ENTITLED',
    );
  });

  it('hides the risks of other organisations', async () => {
    const risk = await createRisk();
    expectError(
      await call('GET', `/risk/${risk.id}`, stranger, undefined, otherOrgId),
      404,
      'RISK_NOT_FOUND',
    );
    expectError(
      await call('PATCH', `/risk/${risk.id}`, stranger, { version: 1, name: 'x' }, otherOrgId),
      404,
      'RISK_NOT_FOUND',
    );
  });

  it('refuses modules the organisation does not hold', async () => {
    const body = expectError(
      await call('POST', '/risk', editor, { name: 'x', modules: ['SYSTEMS_AND_APPLICATIONS'] }),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    expect(body.validValues).toEqual(['INFORMATION_SECURITY', 'THIRD_PARTY_RISK']);
  });
});

describe('creating and listing risks', () => {
  it('numbers risks per organisation, also when created at once', async () => {
    const org = (await seedOrg(ctx.database.db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
    const user = await seedUser(ctx.database.db, { homeOrgId: org, permissions: ['RISK_EDIT'] });
    const created = await Promise.all(Array.from({ length: 5 }, () => createRisk({}, user, org)));
    expect(created.map((risk) => risk.publicId).sort()).toEqual([
      'R-0001',
      'R-0002',
      'R-0003',
      'R-0004',
      'R-0005',
    ]);
    const fetched = (await call('GET', '/risk/r-0003', user, undefined, org)).json() as Detail;
    expect(fetched).toMatchObject({ publicId: 'R-0003', state: 'ACTIVE', version: 1 });
    expect(fetched.history).toMatchObject([{ kind: 'CREATED' }]);
  });

  it('keeps every field with the names of the list items, tags and people', async () => {
    const unit = await listItem('BUSINESS_UNIT', 'Retail banking');
    const owner = await listItem('RISK_OWNER', 'Chief Risk Officer');
    const audit = await listItem('AUDIT', 'SOC 2 2026');
    const risk = await createRisk({
      name: 'Phishing of staff',
      definition: 'Credential theft by e-mail',
      keyRisk: true,
      riskEventType: 'EXTERNAL_FRAUD',
      causeCategory: 'PEOPLE',
      consequence: 'FINANCIAL_LOSS',
      consequenceSubType: 'Wire fraud',
      ermConnections: ['OPERATIONAL', 'REPUTATIONAL'],
      response: 'MITIGATE',
      mitigationPlan: 'Training and DMARC',
      businessOwnerId: owner,
      businessUnitIds: [unit],
      auditIds: [audit],
      watcherIds: [viewer.id],
      modules: ['INFORMATION_SECURITY', 'THIRD_PARTY_RISK'],
      dueDate: '2027-03-31',
    });
    expect(risk).toMatchObject({
      businessOwner: { name: 'Chief Risk Officer' },
      businessUnits: [{ name: 'Retail banking' }],
      watchers: [{ id: viewer.id }],
      dueDate: '2027-03-31',
      timeZoneId: 'America/New_York',
      modules: ['INFORMATION_SECURITY', 'THIRD_PARTY_RISK'],
    });
  });

  it('refuses unknown list items, tags, people, time zones and a plan-less mitigation', async () => {
    const strangerItem = (
      await call('POST', '/risk-lists/BUSINESS_UNIT', stranger, { name: 'Theirs' }, otherOrgId)
    ).json() as { id: string };
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        businessUnitIds: [strangerItem.id],
      }),
      400,
      'RISK_INVALID_LIST_ITEM',
    );
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        tagIds: [crypto.randomUUID()],
      }),
      400,
      'RISK_INVALID_LIST_ITEM',
    );
    // Another organisation's user stays unnamed; an inactive colleague is named by e-mail.
    const watchedBy = async (id: string) =>
      expectError(
        await call('POST', '/risk', editor, {
          name: 'x',
          modules: ['INFORMATION_SECURITY'],
          watcherIds: [id],
        }),
        400,
        'RISK_INVALID_PERSON',
      );
    const foreign = await watchedBy(stranger.id);
    expect(foreign).toMatchObject({
      field: 'watcherIds',
      params: { field: 'watchers', person: 'the chosen person' },
    });
    expect(JSON.stringify(foreign)).not.toContain(stranger.email);
    expect(JSON.stringify(foreign)).not.toContain(stranger.id);
    const leaver = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, leaver.id));
    expect((await watchedBy(leaver.id)).params).toEqual({ field: 'watchers', person: leaver.email });
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        timeZoneId: 'Mars/Olympus',
      }),
      400,
      'RISK_INVALID_TIME_ZONE',
    );
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        response: 'MITIGATE',
      }),
      400,
      'RISK_MITIGATION_PLAN_REQUIRED',
    );
    expect(
      (await call('POST', '/risk', editor, { name: '', modules: ['INFORMATION_SECURITY'] })).statusCode,
    ).toBe(400);
    expect((await call('POST', '/risk', editor, { name: 'x', modules: [] })).statusCode).toBe(400);
  });

  it('filters by exception, module, state and text, and pages', async () => {
    const org = (
      await seedOrg(ctx.database.db, { productSkus: ['RISK_INFORMATION_SECURITY', 'RISK_THIRD_PARTY_RISK'] })
    ).id;
    const user = await seedUser(ctx.database.db, { homeOrgId: org, permissions: ['RISK_EDIT'] });
    await createRisk({ name: 'Vendor outage', modules: ['THIRD_PARTY_RISK'], exception: true }, user, org);
    await createRisk({ name: 'Ransomware', modules: ['INFORMATION_SECURITY'] }, user, org);
    await createRisk({ name: 'Insider', modules: ['INFORMATION_SECURITY'], exception: true }, user, org);
    const names = async (query: string) =>
      ((await call('GET', `/risks?${query}`, user, undefined, org)).json() as { items: Detail[] }).items.map(
        (risk) => risk.name,
      );
    expect(await names('exceptions=ALL')).toEqual(['Vendor outage', 'Ransomware', 'Insider']);
    expect(await names('exceptions=INCLUDE_EXCEPTIONS')).toEqual(['Vendor outage', 'Ransomware', 'Insider']);
    expect(await names('exceptions=ONLY_EXCEPTIONS')).toEqual(['Vendor outage', 'Insider']);
    expect(await names('exceptions=EXCLUDE_EXCEPTIONS')).toEqual(['Ransomware']);
    expect(await names('modules=THIRD_PARTY_RISK')).toEqual(['Vendor outage']);
    expect(await names('q=ransom')).toEqual(['Ransomware']);
    expect(await names('sortBy=name&desc=true&pageSize=2&pageNumber=1')).toEqual([
      'Vendor outage',
      'Ransomware',
    ]);
    const page = (await call('GET', '/risks?pageSize=2&pageNumber=2', user, undefined, org)).json();
    expect(page).toMatchObject({ total: 3, items: [{ name: 'Insider' }] });
  });
});

describe('scores', () => {
  it('recommends inherent and residual risk and keeps the reason of an override', async () => {
    const risk = await createRisk({
      scores: {
        potentialImpact: { value: 'HIGH' },
        likelihood: 'MODERATE',
        inherentRisk: { recommended: true },
        controlStrength: { value: 'STRONG' },
        residualRisk: { recommended: true },
        riskDirection: 'INCREASING',
      },
    });
    expect(risk.inherentRisk).toEqual({ value: 'HIGH', recommended: 'HIGH', overrideReason: null });
    expect(risk.residualRisk).toEqual({ value: 'LOW', recommended: 'LOW', overrideReason: null });

    expectError(
      await patch(risk, { scores: { residualRisk: { value: 'MODERATE' } } }),
      400,
      'RISK_SCORE_OVERRIDE_REASON_REQUIRED',
    );
    const overridden = await patch(risk, {
      scores: { residualRisk: { value: 'MODERATE', overrideReason: 'Audit found gaps' } },
    });
    expect(overridden.statusCode).toBe(200);
    const detail = overridden.json() as Detail;
    expect(detail.residualRisk).toEqual({
      value: 'MODERATE',
      recommended: 'LOW',
      overrideReason: 'Audit found gaps',
    });
    expect(detail.history.at(-1)).toMatchObject({
      kind: 'SCORE',
      details: { residualRisk: { from: 'LOW', to: 'MODERATE', reason: 'Audit found gaps' } },
    });
  });

  it('recommends potential impact from the linked systems, the highest of their levels', async () => {
    const vendor = async (name: string, sensitivityYes: number, criticalityYes: number | null) => {
      const answers = {
        ...Object.fromEntries(['S1', 'S2', 'S3', 'S4'].map((q, i) => [q, i < sensitivityYes ? 'YES' : 'NO'])),
        ...(criticalityYes !== null &&
          Object.fromEntries(['C1', 'C2', 'C3', 'C4'].map((q, i) => [q, i < criticalityYes ? 'YES' : 'NO']))),
      };
      const response = await call('POST', '/inventory-item', editor, { kind: 'VENDOR', name, answers });
      expect(response.statusCode).toBe(201);
      return (response.json() as { id: string }).id;
    };
    // Moderate (sensitivity 2, criticality 1), High (criticality 3), and one not scored yet.
    const moderate = await vendor('Card processor', 2, 1);
    const high = await vendor('Core host', 0, 3);
    const unscored = await vendor('New supplier', 4, null);

    const risk = await createRisk({
      systemIds: [moderate, unscored],
      scores: {
        potentialImpact: { recommended: true },
        likelihood: 'HIGH',
        inherentRisk: { recommended: true },
      },
    });
    expect(risk.potentialImpact).toEqual({
      value: 'MODERATE',
      recommended: 'MODERATE',
      overrideReason: null,
    });
    expect(risk.inherentRisk.value).toBe('HIGH');

    // Linking a higher system moves the recommendation; keeping the old value then needs a reason.
    const linked = (await patch(risk, { systemIds: [moderate, high, unscored] })).json() as Detail;
    expect(linked.potentialImpact).toEqual({ value: 'MODERATE', recommended: 'HIGH', overrideReason: null });
    const refused = expectError(
      await patch(linked, { scores: { potentialImpact: { value: 'LOW' } } }),
      400,
      'RISK_SCORE_OVERRIDE_REASON_REQUIRED',
    );
    expect(refused).toMatchObject({
      field: 'scores.potentialImpact.overrideReason',
      params: { score: 'potential impact', recommended: 'High' },
    });
    const overridden = (
      await patch(linked, { scores: { potentialImpact: { value: 'LOW', overrideReason: 'Test data only' } } })
    ).json() as Detail;
    expect(overridden.potentialImpact).toEqual({
      value: 'LOW',
      recommended: 'HIGH',
      overrideReason: 'Test data only',
    });
    expect(overridden.history.at(-1)).toMatchObject({
      kind: 'SCORE',
      details: { potentialImpact: { from: 'MODERATE', to: 'LOW', reason: 'Test data only' } },
    });
    const listed = (await call('GET', '/risks?q=A risk')).json() as { items: Detail[] };
    expect(listed.items.find((item) => item.id === risk.id)?.potentialImpact.recommended).toBe('HIGH');

    const needs = expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        systemIds: [unscored],
        scores: { potentialImpact: { recommended: true } },
      }),
      400,
      'RISK_SCORE_NEEDS_INPUTS',
    );
    expect(needs).toMatchObject({
      field: 'scores.potentialImpact',
      params: { needs: 'linked systems with data sensitivity and business criticality' },
    });
  });

  it('needs the inputs of a recommendation', async () => {
    const body = expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        scores: { likelihood: 'LOW', inherentRisk: { recommended: true } },
      }),
      400,
      'RISK_SCORE_NEEDS_INPUTS',
    );
    expect(body.params).toMatchObject({ score: 'inherent risk', needs: 'likelihood and potential impact' });
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        scores: { controlStrength: { recommended: true } },
      }),
      400,
      'RISK_SCORE_NEEDS_INPUTS',
    );
    expectError(
      await call('POST', '/risk', editor, {
        name: 'x',
        modules: ['INFORMATION_SECURITY'],
        scores: { inherentRisk: { value: 'HIGH' }, residualRisk: { recommended: true } },
      }),
      400,
      'RISK_SCORE_NEEDS_INPUTS',
    );
  });

  it('recommends control strength from the linked controls', async () => {
    const strong = (
      await call('POST', '/control', editor, {
        name: 'MFA',
        designEffectiveness: 'COMPLETE',
        operatingEffectiveness: 'STRONG',
        overallScore: { recommended: true },
      })
    ).json() as { id: string; overallScore: Score };
    expect(strong.overallScore).toEqual({ value: 'STRONG', recommended: 'STRONG', overrideReason: null });
    const weak = (
      await call('POST', '/control', editor, {
        name: 'Awareness',
        overallScore: { value: 'WEAK' },
      })
    ).json() as { id: string };
    const risk = await createRisk({
      controlIds: [strong.id, weak.id],
      scores: { controlStrength: { recommended: true } },
    });
    expect(risk.controlStrength).toEqual({
      value: 'MODERATE',
      recommended: 'MODERATE',
      overrideReason: null,
    });
    expect(risk.controls).toHaveLength(2);
  });
});

describe('due-date status', () => {
  it('is Early, Almost due in the last 30 days or Late after the date, in the risk time zone', async () => {
    const zone = 'Pacific/Kiritimati';
    const today = todayIn(zone);
    const due = (days: number) => addReviewInterval(today, days, 'day');
    const cases = [
      [31, 'EARLY'],
      [30, 'ALMOST_DUE'],
      [0, 'ALMOST_DUE'],
      [-1, 'LATE'],
    ] as const;
    for (const [days, status] of cases) {
      const risk = await createRisk({ name: `Due in ${days}`, dueDate: due(days), timeZoneId: zone });
      expect(risk.dueDateStatus, `${days} days`).toBe(status);
      const listed = (await call('GET', `/risks?q=${encodeURIComponent(`Due in ${days}`)}`)).json() as {
        items: Detail[];
      };
      expect(listed.items.map((item) => item.dueDateStatus)).toEqual([status]);
    }
    expect((await createRisk({ name: 'No due date' })).dueDateStatus).toBeNull();
  });
});

describe('changes, links and states', () => {
  it('refuses a stale version and logs name changes', async () => {
    const risk = await createRisk({ name: 'Old name' });
    const renamed = await patch(risk, { name: 'New name' });
    expect(renamed.statusCode).toBe(200);
    expectError(await patch(risk, { name: 'Again' }), 409, 'RISK_MODIFIED');
    expect((renamed.json() as Detail).history.map((entry) => entry.kind)).toEqual(['CREATED', 'NAME']);
  });

  it('links risks both ways, refuses invalid links and removes links on confirmed deactivation', async () => {
    const a = await createRisk({ name: 'A' });
    const b = await createRisk({ name: 'B', relatedRiskIds: [a.id] });
    expect(b.relatedRisks.map((risk) => risk.publicId)).toEqual([a.publicId]);
    const unknown = crypto.randomUUID();
    const body = expectError(await patch(b, { relatedRiskIds: [a.id, unknown] }), 400, 'RISK_INVALID_LINKS');
    expect(body.params).toEqual({ 0: unknown });
    expectError(await patch(b, { relatedRiskIds: [b.id] }), 400, 'RISK_INVALID_LINKS');
    const theirs = await createRisk({}, stranger, otherOrgId);
    expectError(await patch(b, { relatedRiskIds: [theirs.id] }), 400, 'RISK_INVALID_LINKS');

    const refused = expectError(
      await call('PUT', `/risk/${a.publicId}/state`, editor, { version: a.version, state: 'INACTIVE' }),
      409,
      'RISK_DEACTIVATE_CONFIRM_LINKS',
    );
    expect(refused.validValues).toEqual([b.publicId]);
    const inactive = await call('PUT', `/risk/${a.publicId}/state`, editor, {
      version: a.version,
      state: 'INACTIVE',
      confirmRemoveLinks: true,
    });
    expect(inactive.statusCode).toBe(200);
    expect(inactive.json()).toMatchObject({ state: 'INACTIVE', relatedRisks: [] });
    expect((inactive.json() as Detail).history.at(-1)).toMatchObject({
      kind: 'STATE',
      details: { from: 'ACTIVE', to: 'INACTIVE', removedLinks: [b.publicId] },
    });
    const deactivated = inactive.json() as Detail;
    expectError(
      await call('PUT', `/risk/${a.publicId}/state`, editor, {
        version: deactivated.version,
        state: 'INACTIVE',
      }),
      409,
      'RISK_SAME_STATE',
    );

    // Related risks cannot be added to an inactive risk, from either side.
    const c = await createRisk({ name: 'C' });
    expectError(await patch(deactivated, { relatedRiskIds: [c.id] }), 400, 'RISK_RELATED_ON_INACTIVE');
    expectError(await patch(c, { relatedRiskIds: [a.id] }), 400, 'RISK_RELATED_ON_INACTIVE');

    // Inactive risks leave the default list.
    const active = (await call('GET', '/risks?q=A&pageSize=500')).json() as { items: Detail[] };
    expect(active.items.some((risk) => risk.id === a.id)).toBe(false);
    const all = (await call('GET', '/risks?state=INACTIVE&pageSize=500')).json() as { items: Detail[] };
    expect(all.items.some((risk) => risk.id === a.id)).toBe(true);
  });
});

describe('the library', () => {
  it('is written by provider administrators and copied once into a register', async () => {
    expectError(
      await call('POST', '/risks/library', editor, { name: 'x', modules: ['INFORMATION_SECURITY'] }),
      403,
      'LIBRARY_COPY_DENIED',
    );
    const one = (
      await call(
        'POST',
        '/risks/library',
        providerAdmin,
        {
          name: 'Library phishing',
          modules: ['INFORMATION_SECURITY', 'SYSTEMS_AND_APPLICATIONS'],
          scores: {
            potentialImpact: { value: 'HIGH' },
            likelihood: 'HIGH',
            inherentRisk: { recommended: true },
          },
        },
        providerOrgId,
      )
    ).json() as Detail;
    expect(one.publicId).toMatch(/^LR-\d{4}$/);
    const two = (
      await call(
        'POST',
        '/risks/library',
        providerAdmin,
        { name: 'Library vendor', modules: ['THIRD_PARTY_RISK'] },
        providerOrgId,
      )
    ).json() as Detail;
    const sysOnly = (
      await call(
        'POST',
        '/risks/library',
        providerAdmin,
        { name: 'Library patching', modules: ['SYSTEMS_AND_APPLICATIONS'] },
        providerOrgId,
      )
    ).json() as Detail;
    expectError(
      await call(
        'POST',
        '/risks/library',
        providerAdmin,
        { name: 'x', modules: ['INFORMATION_SECURITY'], businessUnitIds: [crypto.randomUUID()] },
        providerOrgId,
      ),
      400,
      'RISK_INVALID_LIST_ITEM',
    );

    const copy = await call('POST', '/risks/library/copy', editor, { ids: [one.id, two.id] });
    expect(copy.statusCode).toBe(200);
    const result = copy.json() as {
      copied: { id: string; publicId: string }[];
      alreadyInRegister: unknown[];
    };
    expect(result.copied).toHaveLength(2);
    expect(result.alreadyInRegister).toEqual([]);
    const copiedRisk = (await call('GET', `/risk/${result.copied[0]!.id}`)).json() as Detail;
    expect(copiedRisk).toMatchObject({ name: 'Library phishing', modules: ['INFORMATION_SECURITY'] });
    expect(copiedRisk.inherentRisk.value).toBe('HIGH');
    expect(copiedRisk.history).toMatchObject([{ kind: 'COPIED', details: { from: one.publicId } }]);

    const again = await call('POST', '/risks/library/copy', editor, { ids: [one.id, two.id] });
    expectError(again, 409, 'RISK_COPY_ALREADY_IN_REGISTER');
    expect((again.json() as { params: Record<string, string> }).params[0]).toBe(
      'Library phishing, Library vendor',
    );
    expectError(
      await call('POST', '/risks/library/copy', editor, { ids: [sysOnly.id] }),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    expect(((await call('GET', `/risks/library/${one.id}`)).json() as Detail).inRegister).toBe(true);
    // The library list marks what this organisation's register holds.
    const marked = (await call('GET', '/risks/library?pageSize=500')).json() as {
      items: { id: string; inRegister: boolean }[];
    };
    expect(marked.items.find((risk) => risk.id === one.id)?.inRegister).toBe(true);
    expect(marked.items.find((risk) => risk.id === sysOnly.id)?.inRegister).toBe(false);

    // A copy takes the library content again; a risk of the register's own cannot.
    await call(
      'PATCH',
      `/risks/library/${one.id}`,
      providerAdmin,
      { version: one.version, name: 'Phishing (2027)' },
      providerOrgId,
    );
    const resynced = await call('POST', `/risk/${copiedRisk.id}/resync`, editor, {
      version: copiedRisk.version,
    });
    expect(resynced.json()).toMatchObject({ name: 'Phishing (2027)' });
    const own = await createRisk();
    expectError(
      await call('POST', `/risk/${own.id}/resync`, editor, { version: 1 }),
      400,
      'RISK_NOT_COPIED_FROM_LIBRARY',
    );
  });
});

describe('custom lists', () => {
  it('refuse duplicate names in a list, any case, and removing an item takes it off risks', async () => {
    const id = await listItem('POLICY', 'Acceptable use');
    expectError(
      await call('POST', '/risk-lists/POLICY', editor, { name: 'ACCEPTABLE USE' }),
      409,
      'RISK_LIST_ITEM_NAME_TAKEN',
    );
    await listItem('AUDIT', 'Acceptable use');
    const risk = await createRisk({ policyIds: [id] });
    expect((await call('DELETE', `/risk-lists/item/${id}`)).statusCode).toBe(204);
    expect(((await call('GET', `/risk/${risk.id}`)).json() as { policies: unknown[] }).policies).toEqual([]);
    expectError(await call('DELETE', `/risk-lists/item/${id}`), 404, 'RISK_LIST_ITEM_NOT_FOUND');
    const policies = (await call('GET', '/risk-lists?kind=POLICY')).json() as { name: string }[];
    expect(policies.map((item) => item.name)).not.toContain('Acceptable use');
  });
});

describe('controls', () => {
  it('keep the overall score override reason, link risks and store evidence', async () => {
    expectError(
      await call('POST', '/control', editor, {
        name: 'Backups',
        designEffectiveness: 'STRONG',
        operatingEffectiveness: 'STRONG',
        overallScore: { value: 'COMPLETE' },
      }),
      400,
      'RISK_SCORE_OVERRIDE_REASON_REQUIRED',
    );
    const risk = await createRisk({ name: 'Data loss' });
    const created = await call('POST', '/control', editor, {
      name: 'Backups',
      type: 'CORRECTIVE',
      category: 'REDUNDANCY',
      configuration: 'AUTOMATED',
      ownerId: viewer.id,
      designEffectiveness: 'STRONG',
      operatingEffectiveness: 'STRONG',
      overallScore: { value: 'COMPLETE', overrideReason: 'Tested restores monthly' },
      riskIds: [risk.id],
    });
    expect(created.statusCode).toBe(201);
    const control = created.json() as { id: string; publicId: string; risks: { id: string }[] };
    expect(control).toMatchObject({
      publicId: expect.stringMatching(/^C-\d{4}$/),
      overallScore: { value: 'COMPLETE', recommended: 'STRONG', overrideReason: 'Tested restores monthly' },
      risks: [{ id: risk.id }],
    });
    expectError(
      await call('POST', '/control', editor, { name: 'x', ownerId: stranger.id }),
      400,
      'RISK_INVALID_PERSON',
    );
    expectError(
      await call('POST', '/control', editor, { name: 'x', riskIds: [crypto.randomUUID()] }),
      400,
      'RISK_INVALID_LINKS',
    );

    const boundary = 'evidence-boundary';
    const body =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="restore-test.txt"\r\n` +
      `Content-Type: text/plain\r\n\r\nRestore of 2026-11-01 succeeded\r\n--${boundary}--\r\n`;
    const upload = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/control/${control.publicId}/evidence`,
      headers: {
        cookie: editor.cookie,
        'x-requested-with': 'XMLHttpRequest',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: body,
    });
    expect(upload.statusCode).toBe(201);
    const evidence = (upload.json() as { evidence: { id: string; name: string }[] }).evidence;
    expect(evidence).toMatchObject([{ name: 'restore-test.txt' }]);
    const download = await call('GET', `/control/${control.publicId}/evidence/${evidence[0]!.id}`, viewer);
    expect(download.body).toBe('Restore of 2026-11-01 succeeded');
    expect(
      (
        await call(
          'GET',
          `/control/${control.publicId}/evidence/${evidence[0]!.id}`,
          stranger,
          undefined,
          otherOrgId,
        )
      ).statusCode,
    ).toBe(404);
    const removed = await call('DELETE', `/control/${control.publicId}/evidence/${evidence[0]!.id}`);
    expect((removed.json() as { evidence: unknown[]; history: { kind: string }[] }).evidence).toEqual([]);
  });

  it('copies library controls once', async () => {
    const library = (
      await call(
        'POST',
        '/controls/library',
        providerAdmin,
        { name: 'Library MFA', type: 'PREVENTATIVE' },
        providerOrgId,
      )
    ).json() as { id: string; publicId: string };
    expect(library.publicId).toMatch(/^LC-/);
    const inRegister = async (org: string, user: SeededUser) => {
      const list = await call('GET', '/controls/library?pageSize=500', user, undefined, org);
      return (list.json() as { items: { id: string; inRegister: boolean }[] }).items.find(
        (control) => control.id === library.id,
      )?.inRegister;
    };
    expect(await inRegister(orgId, viewer)).toBe(false);
    const copy = await call('POST', '/controls/library/copy', editor, { ids: [library.id] });
    expect(copy.json()).toMatchObject({ copied: [{ name: 'Library MFA' }], alreadyInRegister: [] });
    expect(await inRegister(orgId, viewer)).toBe(true);
    // Another organisation's copy is not this one's.
    expect(await inRegister(providerOrgId, providerAdmin)).toBe(false);
    expectError(
      await call('POST', '/controls/library/copy', editor, { ids: [library.id] }),
      409,
      'RISK_COPY_ALREADY_IN_REGISTER',
    );
  });
});

describe('control evidence', () => {
  interface ControlDetail {
    publicId: string;
    evidence: { id: string; name: string }[];
    history: { kind: string }[];
  }
  const newControl = async (name: string) => {
    const response = await call('POST', '/control', editor, { name });
    expect(response.statusCode).toBe(201);
    return response.json() as ControlDetail;
  };
  const upload = (control: ControlDetail, files: { name: string; content: string | Buffer }[]) => {
    const boundary = 'evidence-boundary';
    const parts = files.flatMap((file) => [
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\n` +
          'Content-Type: application/octet-stream\r\n\r\n',
      ),
      Buffer.from(file.content),
      Buffer.from('\r\n'),
    ]);
    return ctx.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/control/${control.publicId}/evidence`,
      headers: {
        cookie: editor.cookie,
        'x-requested-with': 'XMLHttpRequest',
        'content-type': `multipart/form-data; boundary=${boundary}`,
      },
      payload: Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]),
    });
  };
  const text = (index: number) => ({ name: `check-${index}.txt`, content: `Check ${index} passed` });
  /** The control's evidence and the number of EVIDENCE entries of its history. */
  const stored = async (control: ControlDetail) => {
    const detail = (await call('GET', `/control/${control.publicId}`)).json() as ControlDetail;
    return {
      files: detail.evidence.map((file) => file.name).sort(),
      changes: detail.history.filter((entry) => entry.kind === 'EVIDENCE').length,
    };
  };

  it('keeps fewer than 50 files per control, counting those already there', async () => {
    const control = await newControl('Quarterly access review');
    const tooMany = expectError(
      await upload(
        control,
        Array.from({ length: 50 }, (_, index) => text(index)),
      ),
      400,
      'RISK_EVIDENCE_TOO_MANY',
    );
    expect(tooMany).toMatchObject({ field: 'file', params: { limit: 50 } });
    expect(await stored(control)).toEqual({ files: [], changes: 0 });

    const first = await upload(
      control,
      Array.from({ length: 49 }, (_, index) => text(index)),
    );
    expect(first.statusCode, first.body).toBe(201);
    const before = await stored(control);
    expect(before.files).toHaveLength(49);
    expectError(await upload(control, [text(49)]), 400, 'RISK_EVIDENCE_TOO_MANY');
    expect(await stored(control)).toEqual(before);
  });

  it('refuses a file over 32 MiB, of an unsupported type, or none, storing nothing', async () => {
    const control = await newControl('Backup restore test');
    const large = expectError(
      await upload(control, [
        text(1),
        { name: 'dump.txt', content: Buffer.alloc(32 * 1024 * 1024 + 1, 'a') },
      ]),
      413,
      'RISK_EVIDENCE_TOO_LARGE',
    );
    expect(large.params).toMatchObject({ 0: 'dump.txt', maxBytes: 32 * 1024 * 1024 });
    expect(await stored(control)).toEqual({ files: [], changes: 0 });

    for (const file of [
      { name: 'tool.exe', content: 'MZ binary' },
      // A PDF name whose bytes are not a PDF.
      { name: 'report.pdf', content: 'plain text' },
    ]) {
      const refused = expectError(
        await upload(control, [text(1), file]),
        415,
        'RISK_EVIDENCE_UNSUPPORTED_TYPE',
      );
      expect(refused).toMatchObject({ field: 'file', params: { 0: file.name } });
    }
    expect(await stored(control)).toEqual({ files: [], changes: 0 });

    expect(expectError(await upload(control, []), 400, 'RISK_EVIDENCE_NO_FILE').field).toBe('file');
    expectError(
      await call('POST', `/control/${control.publicId}/evidence`, editor, { file: 'x' }),
      400,
      'RISK_EVIDENCE_NO_FILE',
    );
    expect(await stored(control)).toEqual({ files: [], changes: 0 });
  });

  it("answers 404 for evidence that is not the control's, removing nothing", async () => {
    const control = await newControl('Firewall rule review');
    const other = await newControl('Vendor attestation');
    expect((await upload(control, [text(1)])).statusCode).toBe(201);
    expect((await upload(other, [text(2)])).statusCode).toBe(201);
    const [otherFile] = (
      await call('GET', `/control/${other.publicId}`).then((r) => r.json() as ControlDetail)
    ).evidence;
    const before = await stored(control);
    for (const id of [crypto.randomUUID(), otherFile!.id]) {
      expectError(
        await call('GET', `/control/${control.publicId}/evidence/${id}`),
        404,
        'RISK_EVIDENCE_NOT_FOUND',
      );
      expectError(
        await call('DELETE', `/control/${control.publicId}/evidence/${id}`),
        404,
        'RISK_EVIDENCE_NOT_FOUND',
      );
    }
    expect(await stored(control)).toEqual(before);
    expect((await stored(other)).files).toEqual(['check-2.txt']);
  });
});

describe('review schedules', () => {
  const today = () => todayIn('America/New_York');
  it('need a watcher, are one per object, and open marking reviewed once almost due', async () => {
    const risk = await createRisk({ name: 'Reviewed yearly' });
    const path = `/risk/${risk.publicId}/review-schedule`;
    const none = await call('GET', path);
    expect([none.statusCode, none.json()]).toEqual([200, null]);
    const far = addReviewInterval(today(), 6, 'month');
    expectError(
      await call('POST', path, editor, { every: 1, unit: 'year', nextReview: far, watcherIds: [] }),
      400,
      'RISK_REVIEW_WATCHER_REQUIRED',
    );
    expectError(
      await call('POST', path, editor, {
        every: 1,
        unit: 'year',
        nextReview: far,
        watcherIds: [stranger.id],
      }),
      400,
      'RISK_INVALID_PERSON',
    );
    expect(
      (
        await call('POST', path, editor, {
          every: 1,
          unit: 'year',
          nextReview: '2027/01/01',
          watcherIds: [viewer.id],
        })
      ).statusCode,
    ).toBe(400);
    const added = await call('POST', path, editor, {
      every: 1,
      unit: 'year',
      nextReview: far,
      watcherIds: [viewer.id],
    });
    expect(added.statusCode).toBe(201);
    expect(added.json()).toMatchObject({ status: 'EARLY', nextReview: far, watchers: [{ id: viewer.id }] });
    expectError(
      await call('POST', path, editor, { every: 1, unit: 'year', nextReview: far, watcherIds: [viewer.id] }),
      409,
      'RISK_REVIEW_SCHEDULE_EXISTS',
    );
    expectError(await call('POST', `${path}/reviewed`), 400, 'RISK_REVIEW_TOO_EARLY');

    // Due in a week: almost due, so it can be marked reviewed; the next review is a year from today.
    const soon = addReviewInterval(today(), 7, 'day');
    const edited = await call('PUT', path, editor, {
      every: 1,
      unit: 'year',
      nextReview: soon,
      watcherIds: [viewer.id],
    });
    expect(edited.json()).toMatchObject({ status: 'ALMOST_DUE' });
    const reviewed = await call('POST', `${path}/reviewed`);
    expect(reviewed.statusCode).toBe(200);
    expect(reviewed.json()).toMatchObject({
      lastReviewed: today(),
      nextReview: addReviewInterval(today(), 1, 'year'),
      status: 'EARLY',
    });
    const history = ((await call('GET', `/risk/${risk.publicId}`)).json() as Detail).history;
    expect(history.filter((entry) => entry.kind === 'REVIEW').map((entry) => entry.details.change)).toEqual([
      'ADDED',
      'EDITED',
      'MARKED_REVIEWED',
    ]);
    expect((await call('DELETE', path)).statusCode).toBe(204);
    expectError(await call('DELETE', path), 404, 'RISK_REVIEW_SCHEDULE_NOT_FOUND');
  });

  it('reports late reviews of controls, and hides those of other organisations', async () => {
    const control = (await call('POST', '/control', editor, { name: 'Reviewed control' })).json() as {
      publicId: string;
    };
    const path = `/control/${control.publicId}/review-schedule`;
    const past = addReviewInterval(today(), -3, 'day');
    const added = await call('POST', path, editor, {
      every: 30,
      unit: 'day',
      nextReview: past,
      watcherIds: [editor.id],
    });
    expect(added.json()).toMatchObject({ status: 'LATE' });
    expectError(await call('GET', path, stranger, undefined, otherOrgId), 404, 'RISK_CONTROL_NOT_FOUND');
  });
});
