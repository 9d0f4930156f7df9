import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { orgs } from '../orgs/tables';
import { triggerRuns, triggers } from '../triggers/tables';

/** The linked chain: incidents and risks, controls and their triggers, and assessments by module. */

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;

const TICKETS = ['INCIDENT_VIEW', 'INCIDENT_EDIT'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY', 'RISK_THIRD_PARTY_RISK'] })).id;
  otherOrgId = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY'] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT', ...TICKETS] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW', ...TICKETS] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['RISK_EDIT', ...TICKETS] });
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
  return response.json() as { params?: Record<string, unknown>; field?: string };
}

interface RiskDetail {
  id: string;
  publicId: string;
  version: number;
  incidents: { slug: string }[];
  revisitScores: { since: string; incidents: { slug: string }[] } | null;
  controls: {
    id: string;
    triggers: { id: string; name: string; active: boolean; lastFiredOn: string | null }[];
  }[];
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
  return response.json() as RiskDetail;
}

async function createIncident(title: string, user = editor, org = orgId) {
  const response = await call('POST', '/incident', user, { title }, org);
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; slug: string; version: number };
}

const getRisk = async (ref: string) => (await call('GET', `/risk/${ref}`)).json() as RiskDetail;

describe('incidents and risks', () => {
  it('links and unlinks risks from the incident, keeps it in the risk history and refuses others', async () => {
    const risk = await createRisk({ name: 'Card skimming' });
    const second = await createRisk({ name: 'Wire fraud' });
    const incident = await createIncident('Skimmer found at branch ATM');

    const linked = await call('PUT', `/risks/incident/${incident.slug}`, editor, {
      riskIds: [risk.id, second.id],
    });
    expect(linked.statusCode).toBe(200);
    expect((linked.json() as { publicId: string }[]).map((row) => row.publicId)).toEqual([
      risk.publicId,
      second.publicId,
    ]);
    expect((await getRisk(risk.publicId)).incidents.map((row) => row.slug)).toEqual([incident.slug]);

    // A viewer reads the links but cannot change them.
    const read = await call('GET', `/risks/incident/${incident.slug}`, viewer);
    expect((read.json() as { name: string }[]).map((row) => row.name)).toEqual([
      'Card skimming',
      'Wire fraud',
    ]);
    expectError(
      await call('PUT', `/risks/incident/${incident.slug}`, viewer, { riskIds: [] }),
      403,
      'PERMISSION_DENIED',
    );

    // Another organisation's risk, or an unknown one: refused, nothing written.
    const foreign = await createRisk({}, stranger, otherOrgId);
    const refused = expectError(
      await call('PUT', `/risks/incident/${incident.slug}`, editor, { riskIds: [risk.id, foreign.id] }),
      400,
      'RISK_INVALID_LINKS',
    );
    expect(refused).toMatchObject({ field: 'riskIds', params: { 0: foreign.id } });
    expect((await getRisk(second.publicId)).incidents).toHaveLength(1);

    // Unlinking one keeps the other, and each change is in the risk's history.
    await call('PUT', `/risks/incident/${incident.slug}`, editor, { riskIds: [risk.id] });
    const after = await getRisk(second.publicId);
    expect(after.incidents).toEqual([]);
    expect(after.history.filter((entry) => entry.kind === 'LINKS').map((entry) => entry.details)).toEqual([
      { incidents: { added: [incident.slug], removed: [] } },
      { incidents: { added: [], removed: [incident.slug] } },
    ]);
  });

  it('refuses incidents of other organisations from either side', async () => {
    const risk = await createRisk();
    const foreign = await createIncident('Elsewhere', stranger, otherOrgId);
    expectError(await call('GET', `/risks/incident/${foreign.id}`), 404, 'TICKET_NOT_FOUND');
    expectError(
      await call('PUT', `/risks/incident/${foreign.id}`, editor, { riskIds: [risk.id] }),
      404,
      'TICKET_NOT_FOUND',
    );
    // Slugs are numbered per organisation: the foreign slug may exist here too, so use a sure miss.
    expectError(
      await call('PUT', `/risk/${risk.publicId}/incidents`, editor, { slugs: ['INC-99999'] }),
      400,
      'RISK_INVALID_LINKS',
    );
  });
});

describe('closing an incident with a root cause', () => {
  it('marks the active linked risks to revisit until their scores are saved', async () => {
    const active = await createRisk({ name: 'Revisit me' });
    const inactive = await createRisk({ name: 'Retired' });
    const untouched = await createRisk({ name: 'Unlinked' });
    await call('PUT', `/risk/${inactive.publicId}/state`, editor, {
      version: inactive.version,
      state: 'INACTIVE',
    });
    const incident = await createIncident('Phishing wave');
    await call('PUT', `/risks/incident/${incident.slug}`, editor, { riskIds: [active.id, inactive.id] });

    const closed = await call('PUT', `/incident/${incident.slug}/state`, editor, {
      version: incident.version,
      state: 'CLOSED',
      resolution: 'Root cause: staff clicked a spoofed payroll link',
    });
    expect(closed.statusCode).toBe(200);

    const marked = await getRisk(active.publicId);
    expect(marked.revisitScores?.incidents.map((row) => row.slug)).toEqual([incident.slug]);
    expect(marked.history.find((entry) => entry.kind === 'REVISIT')?.details).toEqual({
      incident: incident.slug,
    });
    expect((await getRisk(inactive.publicId)).revisitScores).toBeNull();
    expect((await getRisk(untouched.publicId)).revisitScores).toBeNull();

    // The register filters on it; the incident page shows it.
    const register = (await call('GET', '/risks?revisit=true&state=ALL&pageSize=100')).json() as {
      items: { publicId: string }[];
    };
    expect(register.items.map((row) => row.publicId)).toContain(active.publicId);
    expect(register.items.map((row) => row.publicId)).not.toContain(untouched.publicId);
    const others = (await call('GET', '/risks?revisit=false&pageSize=100')).json() as {
      items: { publicId: string }[];
    };
    expect(others.items.map((row) => row.publicId)).not.toContain(active.publicId);
    const fromIncident = (await call('GET', `/risks/incident/${incident.slug}`)).json() as {
      publicId: string;
      revisitScores: unknown;
    }[];
    expect(fromIncident.find((row) => row.publicId === active.publicId)?.revisitScores).not.toBeNull();

    // Saving the scores, even unchanged, answers the request.
    const saved = await call('PATCH', `/risk/${active.publicId}`, editor, {
      version: marked.version,
      scores: { likelihood: 'HIGH', potentialImpact: { value: 'MODERATE' } },
    });
    expect(saved.statusCode).toBe(200);
    const done = saved.json() as RiskDetail;
    expect(done.revisitScores).toBeNull();
    expect(done.history.filter((entry) => entry.kind === 'REVISIT').at(-1)?.details).toEqual({
      done: true,
      incidents: [incident.slug],
    });
  });

  it('leaves the risks alone when the incident is closed without a resolution', async () => {
    const risk = await createRisk();
    const incident = await createIncident('False alarm');
    await call('PUT', `/risks/incident/${incident.slug}`, editor, { riskIds: [risk.id] });
    const closed = await call('PUT', `/incident/${incident.slug}/state`, editor, {
      version: incident.version,
      state: 'CLOSED',
    });
    expect(closed.statusCode).toBe(200);
    expect((await getRisk(risk.publicId)).revisitScores).toBeNull();
  });
});

describe('triggers of controls', () => {
  it("relates the organisation's triggers to a control and shows them on the risk", async () => {
    const db = ctx.database.db;
    const [running] = await db
      .insert(triggers)
      .values({
        orgId,
        name: 'Skimmer logins',
        type: 'THRESHOLD',
        intervalSeconds: 300,
        nextRunAt: new Date(),
      })
      .returning();
    const [paused] = await db
      .insert(triggers)
      .values({
        orgId,
        name: 'ATM tamper',
        type: 'THRESHOLD',
        intervalSeconds: 300,
        state: 'PAUSED',
        nextRunAt: new Date(),
      })
      .returning();
    const [foreign] = await db
      .insert(triggers)
      .values({
        orgId: otherOrgId,
        name: 'Not ours',
        type: 'THRESHOLD',
        intervalSeconds: 300,
        nextRunAt: new Date(),
      })
      .returning();
    const fired = new Date('2026-03-01T10:00:00Z');
    await db.insert(triggerRuns).values([
      {
        triggerId: running!.id,
        windowStart: new Date('2026-03-01T09:55:00Z'),
        windowEnd: fired,
        ranAt: fired,
        alertsRaised: 2,
      },
      {
        triggerId: running!.id,
        windowStart: fired,
        windowEnd: new Date('2026-03-01T10:05:00Z'),
        ranAt: new Date('2026-03-01T10:05:00Z'),
        alertsRaised: 0,
      },
    ]);

    const refused = expectError(
      await call('POST', '/control', editor, {
        name: 'Card reader checks',
        triggerIds: [running!.id, foreign!.id],
      }),
      400,
      'RISK_INVALID_TRIGGERS',
    );
    expect(refused).toMatchObject({ field: 'triggerIds', params: { 0: foreign!.id } });
    const listed = (await call('GET', '/controls?q=Card%20reader')).json() as { total: number };
    expect(listed.total).toBe(0);

    const created = await call('POST', '/control', editor, {
      name: 'Card reader checks',
      triggerIds: [running!.id],
    });
    expect(created.statusCode).toBe(201);
    const control = created.json() as { id: string; publicId: string; version: number; triggers: unknown[] };
    expect(control.triggers).toHaveLength(1);
    const updated = await call('PATCH', `/control/${control.publicId}`, editor, {
      version: control.version,
      triggerIds: [running!.id, paused!.id],
    });
    expect(updated.statusCode).toBe(200);
    expectError(
      await call('PATCH', `/control/${control.publicId}`, editor, {
        version: (updated.json() as { version: number }).version,
        triggerIds: [crypto.randomUUID()],
      }),
      400,
      'RISK_INVALID_TRIGGERS',
    );

    const risk = await createRisk({ controlIds: [control.id] });
    const shown = (await getRisk(risk.publicId)).controls[0]!.triggers;
    expect(shown).toEqual([
      expect.objectContaining({ name: 'ATM tamper', active: false, state: 'PAUSED', lastFiredOn: null }),
      expect.objectContaining({ name: 'Skimmer logins', active: true, lastFiredOn: fired.toISOString() }),
    ]);
  });
});

describe('assessments by module', () => {
  it('creates assessments only over modules the organisation holds and items of that module', async () => {
    expectError(
      await call('POST', '/risk-assessment', editor, {
        kind: 'RISK',
        name: 'S&A',
        module: 'SYSTEMS_AND_APPLICATIONS',
      }),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    const thirdParty = await createRisk({ name: 'Vendor breach', modules: ['THIRD_PARTY_RISK'] });
    const refused = expectError(
      await call('POST', '/risk-assessment', editor, {
        kind: 'RISK',
        name: 'InfoSec',
        module: 'INFORMATION_SECURITY',
        itemIds: [thirdParty.id],
      }),
      400,
      'RISK_ASSESSMENT_ITEM_OUTSIDE_MODULE',
    );
    expect(refused).toMatchObject({ field: 'itemIds', params: { 0: thirdParty.publicId } });
    const created = await call('POST', '/risk-assessment', editor, {
      kind: 'RISK',
      name: 'Vendors 2026',
      module: 'THIRD_PARTY_RISK',
      itemIds: [thirdParty.id],
    });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ module: 'THIRD_PARTY_RISK', itemCount: 1 });
  });

  it('lists and opens only the assessments of modules the organisation holds', async () => {
    const db = ctx.database.db;
    const org = (await seedOrg(db, { productSkus: ['RISK_INFORMATION_SECURITY', 'RISK_THIRD_PARTY_RISK'] }))
      .id;
    const user = await seedUser(db, { homeOrgId: org, permissions: ['RISK_EDIT'] });
    const make = async (module: string) => {
      const response = await call(
        'POST',
        '/risk-assessment',
        user,
        { kind: 'RISK', name: module, module },
        org,
      );
      expect(response.statusCode).toBe(201);
      return response.json() as { publicId: string };
    };
    await make('INFORMATION_SECURITY');
    const vendors = await make('THIRD_PARTY_RISK');
    const names = async (query = '') =>
      (
        (await call('GET', `/risk-assessments${query}`, user, undefined, org)).json() as {
          items: { name: string }[];
        }
      ).items
        .map((item) => item.name)
        .sort();
    expect(await names()).toEqual(['INFORMATION_SECURITY', 'THIRD_PARTY_RISK']);
    expect(await names('?modules=THIRD_PARTY_RISK')).toEqual(['THIRD_PARTY_RISK']);

    // The organisation gives up Third-Party Risk: its assessments are out of reach.
    await db
      .update(orgs)
      .set({ productSkus: ['RISK_INFORMATION_SECURITY'] })
      .where(eq(orgs.id, org));
    expect(await names()).toEqual(['INFORMATION_SECURITY']);
    expect(await names('?modules=THIRD_PARTY_RISK')).toEqual([]);
    expectError(
      await call('GET', `/risk-assessment/${vendors.publicId}`, user, undefined, org),
      404,
      'RISK_ASSESSMENT_NOT_FOUND',
    );
  });
});
