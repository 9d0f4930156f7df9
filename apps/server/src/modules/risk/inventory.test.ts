import { INVENTORY_QUESTIONS } from '@vigil/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { orgs } from '../orgs/tables';
import { insertTicket } from '../tickets/repo';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let providerOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let providerAdmin: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['RISK_SYSTEMS_AND_APPLICATIONS', 'RISK_THIRD_PARTY_RISK'] })).id;
  otherOrgId = (await seedOrg(db, { productSkus: ['RISK_SYSTEMS_AND_APPLICATIONS'] })).id;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['RISK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['RISK_EDIT'] });
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
  return response.json() as { params?: Record<string, unknown>; field?: string };
}

interface Item {
  id: string;
  publicId: string;
  kind: string;
  name: string;
  version: number;
  dataSensitivity: string | null;
  businessCriticality: string | null;
  inherentRisk: string | null;
  dueDiligenceStrength: string | null;
  residualRisk: string | null;
  unanswered: number;
  answers: Record<string, string>;
  vendor: { name: string } | null;
  assetType: { name: string } | null;
  businessOwner: { id: string } | null;
  authorizedPeople: { id: string }[];
  lineItems: { id: string; name: string }[];
  risks: { publicId: string }[];
  riskCount: number;
  inRegister: boolean;
}

async function createItem(payload: object, user = editor, org = orgId, path = '/inventory-item') {
  const response = await call('POST', path, user, { kind: 'SYSTEM', name: 'Core banking', ...payload }, org);
  expect(response.statusCode).toBe(201);
  return response.json() as Item;
}

const yesNo = (questions: readonly string[], yes: number) =>
  Object.fromEntries(questions.map((question, index) => [question, index < yes ? 'YES' : 'NO']));

describe('inventory items', () => {
  it('keep every System/App field, with list items and people by name', async () => {
    const vendor = (await call('POST', '/risk-lists/VENDOR', editor, { name: 'Fiserv' })).json() as {
      id: string;
    };
    const assetType = (await call('POST', '/risk-lists/ASSET_TYPE', editor, { name: 'Server' })).json() as {
      id: string;
    };
    const item = await createItem({
      name: 'Core banking',
      definition: 'Deposits and loans',
      vendorId: vendor.id,
      goLiveDate: '2019-04-01',
      versionNumber: '12.4',
      dataLocation: 'Vendor data centre, Atlanta',
      systemType: 'HYBRID',
      businessOwnerId: editor.id,
      systemAdminId: editor.id,
      assetTypeId: assetType.id,
      authorizedPeopleIds: [editor.id, viewer.id],
      userAdministratorIds: [viewer.id],
      lineItems: [{ name: 'Deposits' }, { name: 'Loans' }],
    });
    expect(item).toMatchObject({
      publicId: expect.stringMatching(/^S-\d{4}$/),
      vendor: { name: 'Fiserv' },
      assetType: { name: 'Server' },
      businessOwner: { id: editor.id },
      goLiveDate: '2019-04-01',
      systemType: 'HYBRID',
      unanswered: 17,
      dataSensitivity: null,
      lineItems: [{ name: 'Deposits' }, { name: 'Loans' }],
    });
    expect(item.authorizedPeople.map((person) => person.id).sort()).toEqual([editor.id, viewer.id].sort());
    const read = await call('GET', `/inventory-item/${item.publicId}`, viewer);
    expect(read.statusCode).toBe(200);
    expectError(
      await call('GET', `/inventory-item/${item.publicId}`, stranger, undefined, otherOrgId),
      404,
      'RISK_INVENTORY_NOT_FOUND',
    );
    expectError(
      await call('PATCH', `/inventory-item/${item.id}`, viewer, { version: 1 }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it('refuse foreign list items and people, and write nothing', async () => {
    const theirs = (
      await call('POST', '/risk-lists/VENDOR', stranger, { name: 'Theirs' }, otherOrgId)
    ).json() as {
      id: string;
    };
    const before = ((await call('GET', '/inventory')).json() as { total: number }).total;
    expectError(
      await call('POST', '/inventory-item', editor, { kind: 'SYSTEM', name: 'x', vendorId: theirs.id }),
      400,
      'RISK_INVALID_LIST_ITEM',
    );
    expect(
      expectError(
        await call('POST', '/inventory-item', editor, {
          kind: 'SYSTEM',
          name: 'x',
          userAdministratorIds: [stranger.id],
        }),
        400,
        'RISK_INVALID_PERSON',
      ).field,
    ).toBe('userAdministratorIds');
    expect(((await call('GET', '/inventory')).json() as { total: number }).total).toBe(before);
  });

  it('derive data sensitivity and business criticality from the answers', async () => {
    const item = await createItem({ name: 'Online banking', kind: 'APPLICATION' });
    const answered = await call('PATCH', `/inventory-item/${item.id}`, editor, {
      version: item.version,
      answers: { ...yesNo(INVENTORY_QUESTIONS.SENSITIVITY, 3), ...yesNo(INVENTORY_QUESTIONS.CRITICALITY, 4) },
    });
    expect(answered.json()).toMatchObject({
      dataSensitivity: 'HIGH',
      businessCriticality: 'EXTREME',
      inherentRisk: 'EXTREME',
      dueDiligenceStrength: null,
      unanswered: 9,
    });
    // Clearing one answer takes the score back to unknown.
    const cleared = (
      await call('PATCH', `/inventory-item/${item.id}`, editor, {
        version: item.version + 1,
        answers: { S1: null },
      })
    ).json() as Item;
    expect(cleared).toMatchObject({ dataSensitivity: null, businessCriticality: 'EXTREME', unanswered: 10 });
    expect(cleared.answers).not.toHaveProperty('S1');
  });

  it('refuse unanswerable questions and unrecognised answers', async () => {
    const item = await createItem({ name: 'Teller' });
    const unanswerable = expectError(
      await call('PATCH', `/inventory-item/${item.id}`, editor, {
        version: item.version,
        answers: { S1: 'YES', D1: 'YES' },
      }),
      400,
      'RISK_QUESTION_UNANSWERABLE',
    );
    expect(unanswerable.params).toEqual({ 0: 'D1' });
    expectError(
      await call('PATCH', `/inventory-item/${item.id}`, editor, {
        version: item.version,
        answers: { S1: true },
      }),
      400,
      'RISK_ANSWER_TYPE_UNRECOGNISED',
    );
    expectError(
      await call('POST', '/inventory-item', editor, { kind: 'SYSTEM', name: 'x', answers: { Z9: 'YES' } }),
      400,
      'RISK_QUESTION_UNANSWERABLE',
    );
    const after = (await call('GET', `/inventory-item/${item.id}`)).json() as Item;
    expect({ version: after.version, answers: after.answers }).toEqual({
      version: item.version,
      answers: {},
    });
    expectError(
      await call('PATCH', `/inventory-item/${item.id}`, editor, { version: item.version + 5, name: 'y' }),
      409,
      'RISK_MODIFIED',
    );
  });

  it("score vendors' due diligence into their residual risk", async () => {
    const vendor = await createItem({
      kind: 'VENDOR',
      name: 'Card processor',
      answers: {
        ...yesNo(INVENTORY_QUESTIONS.SENSITIVITY, 4),
        ...yesNo(INVENTORY_QUESTIONS.CRITICALITY, 2),
        ...yesNo(INVENTORY_QUESTIONS.DUE_DILIGENCE, 6),
      },
    });
    expect(vendor).toMatchObject({
      inherentRisk: 'EXTREME',
      dueDiligenceStrength: 'STRONG',
      residualRisk: 'MODERATE',
    });
    const listed = (await call('GET', '/inventory?kind=VENDOR&sortBy=dataSensitivity&desc=true')).json() as {
      items: Item[];
    };
    expect(listed.items.map((item) => item.name)).toContain('Card processor');
    expect(listed.items.every((item) => item.kind === 'VENDOR')).toBe(true);
  });
});

describe('risk links', () => {
  it('link risks to systems and line items of the same inventory only', async () => {
    const system = await createItem({
      name: 'Wire transfers',
      lineItems: [{ name: 'Fedwire' }, { name: 'SWIFT' }],
    });
    const theirs = await createItem(
      { name: 'Their system', lineItems: [{ name: 'Theirs' }] },
      stranger,
      otherOrgId,
    );
    const risk = (
      await call('POST', '/risk', editor, {
        name: 'Fraudulent wire',
        modules: ['SYSTEMS_AND_APPLICATIONS'],
        systemIds: [system.id],
        lineItemIds: [system.lineItems[0]!.id],
      })
    ).json() as {
      publicId: string;
      version: number;
      systems: { name: string }[];
      lineItems: { name: string; itemName: string }[];
    };
    expect(risk.systems.map((linked) => linked.name)).toEqual(['Wire transfers']);
    expect(risk.lineItems).toEqual([
      expect.objectContaining({ name: 'Fedwire', itemName: 'Wire transfers' }),
    ]);

    const refused = expectError(
      await call('PATCH', `/risk/${risk.publicId}`, editor, {
        version: risk.version,
        systemIds: [system.id, theirs.id],
      }),
      400,
      'RISK_INVALID_LINKS',
    );
    expect(refused.params).toEqual({ 0: theirs.id });
    expectError(
      await call('PATCH', `/risk/${risk.publicId}`, editor, {
        version: risk.version,
        lineItemIds: [theirs.lineItems[0]!.id],
      }),
      400,
      'RISK_INVALID_LINKS',
    );

    const detail = (await call('GET', `/inventory-item/${system.id}`)).json() as Item;
    expect(detail.risks.map((linked) => linked.publicId)).toEqual([risk.publicId]);
    expect(detail.riskCount).toBe(1);

    // Renaming a line item keeps the link; leaving one out removes it and its link.
    const renamed = (
      await call('PATCH', `/inventory-item/${system.id}`, editor, {
        version: system.version,
        lineItems: [{ id: system.lineItems[0]!.id, name: 'Fedwire Funds' }],
      })
    ).json() as Item;
    expect(renamed.lineItems.map((line) => line.name)).toEqual(['Fedwire Funds']);
    const linked = (await call('GET', `/risk/${risk.publicId}`)).json() as {
      version: number;
      lineItems: { name: string }[];
      history: { kind: string; details: Record<string, unknown> }[];
    };
    expect(linked.lineItems.map((line) => line.name)).toEqual(['Fedwire Funds']);

    const unlinked = (
      await call('PATCH', `/risk/${risk.publicId}`, editor, { version: linked.version, systemIds: [] })
    ).json() as typeof linked & { systems: unknown[] };
    expect(unlinked.systems).toEqual([]);
    expect(unlinked.history.find((entry) => entry.kind === 'LINKS')?.details).toEqual({
      systemIds: { added: [], removed: [system.id] },
    });
  });
});

describe('incident links', () => {
  it('link incidents of the organisation that realised a risk, and show them on the risk', async () => {
    const incident = await insertTicket(ctx.database.db, orgId, 'incident', {
      title: 'Wire fraud loss',
      state: 'TRIAGE',
    });
    const task = await insertTicket(ctx.database.db, orgId, 'task', { title: 'A task', state: 'OPEN' });
    const risk = (
      await call('POST', '/risk', editor, { name: 'Wire fraud', modules: ['SYSTEMS_AND_APPLICATIONS'] })
    ).json() as { publicId: string };
    // Slugs are per organisation: another organisation's incidents are not addressable.
    for (const slug of [task.slug, 'INC-99999']) {
      const refused = expectError(
        await call('PUT', `/risk/${risk.publicId}/incidents`, editor, { slugs: [incident.slug, slug] }),
        400,
        'RISK_INVALID_LINKS',
      );
      expect(refused.params).toEqual({ 0: slug });
    }
    expectError(
      await call('PUT', `/risk/${risk.publicId}/incidents`, viewer, { slugs: [incident.slug] }),
      403,
      'PERMISSION_DENIED',
    );
    const linked = await call('PUT', `/risk/${risk.publicId}/incidents`, editor, {
      slugs: [incident.slug.toLowerCase()],
    });
    expect(linked.json()).toEqual([
      { id: incident.id, slug: incident.slug, title: 'Wire fraud loss', state: 'TRIAGE' },
    ]);
    const detail = (await call('GET', `/risk/${risk.publicId}`, viewer)).json() as {
      incidents: { slug: string }[];
      history: { kind: string; details: Record<string, unknown> }[];
    };
    expect(detail.incidents.map((item) => item.slug)).toEqual([incident.slug]);
    expect(detail.history.find((entry) => entry.kind === 'LINKS')?.details).toEqual({
      incidents: { added: [incident.slug], removed: [] },
    });
    expect((await call('PUT', `/risk/${risk.publicId}/incidents`, editor, { slugs: [] })).json()).toEqual([]);
  });
});

describe('the inventory library', () => {
  it('is written by provider administrators and copied once, skipping items already there', async () => {
    expectError(
      await call('POST', '/inventory/library', editor, { kind: 'SYSTEM', name: 'x' }),
      403,
      'LIBRARY_COPY_DENIED',
    );
    const one = await createItem(
      {
        kind: 'VENDOR',
        name: 'Library core processor',
        answers: yesNo(INVENTORY_QUESTIONS.SENSITIVITY, 2),
        lineItems: [{ name: 'Hosting' }],
      },
      providerAdmin,
      providerOrgId,
      '/inventory/library',
    );
    expect(one.publicId).toMatch(/^LS-\d{4}$/);
    const two = await createItem(
      { name: 'Library firewall' },
      providerAdmin,
      providerOrgId,
      '/inventory/library',
    );

    const library = (await call('GET', '/inventory/library', viewer)).json() as { items: Item[] };
    expect(library.items.map((item) => item.name)).toEqual(['Library core processor', 'Library firewall']);

    const first = await call('POST', '/inventory/library/copy', editor, { ids: [one.id] });
    expect(first.json()).toMatchObject({
      copied: [{ name: 'Library core processor' }],
      alreadyInRegister: [],
    });
    const copiedId = (first.json() as { copied: { id: string }[] }).copied[0]!.id;
    const copy = (await call('GET', `/inventory-item/${copiedId}`)).json() as Item;
    expect(copy).toMatchObject({
      kind: 'VENDOR',
      dataSensitivity: 'MODERATE',
      lineItems: [{ name: 'Hosting' }],
    });
    expect(copy.lineItems[0]!.id).not.toBe(one.lineItems[0]!.id);

    // The library list marks what this organisation's register holds, and only for it.
    const marked = (await call('GET', '/inventory/library', viewer)).json() as { items: Item[] };
    expect(marked.items.map((item) => [item.name, item.inRegister])).toEqual([
      ['Library core processor', true],
      ['Library firewall', false],
    ]);
    const elsewhere = (
      await call('GET', '/inventory/library', providerAdmin, undefined, providerOrgId)
    ).json() as {
      items: Item[];
    };
    expect(elsewhere.items.every((item) => !item.inRegister)).toBe(true);

    const second = await call('POST', '/inventory/library/copy', editor, { ids: [one.id, two.id] });
    expect(second.json()).toMatchObject({
      copied: [{ name: 'Library firewall' }],
      alreadyInRegister: [{ id: one.id, name: 'Library core processor' }],
    });
    expectError(
      await call('POST', '/inventory/library/copy', editor, { ids: [one.id, two.id] }),
      409,
      'RISK_COPY_ALREADY_IN_REGISTER',
    );
    expect(((await call('GET', `/inventory/library/${one.publicId}`)).json() as Item).inRegister).toBe(true);
    expectError(
      await call('POST', '/inventory/library/copy', editor, { ids: [copiedId] }),
      404,
      'RISK_INVENTORY_NOT_FOUND',
    );
  });
});

describe('dashboard data sources', () => {
  it('count the inventory by kind and list it with its contextual scores', async () => {
    const charting = await seedUser(ctx.database.db, {
      homeOrgId: orgId,
      permissions: [
        'CHART_VIEW',
        'CHART_EDIT',
        'EVENT_VIEW',
        'EVENT_EDIT',
        'SAVED_SEARCH_VIEW',
        'SAVED_SEARCH_EDIT',
        'DASHBOARD_VIEW',
        'RISK_VIEW',
      ],
    });
    const noRisk = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['DASHBOARD_VIEW'] });
    const chart = async (payload: object) => {
      const response = await call('POST', '/chart', charting, { name: 'Inventory', ...payload });
      expect(response.statusCode, response.body).toBe(201);
      return (response.json() as { id: string }).id;
    };
    const range = { begin: new Date(Date.now() - 86_400_000).toISOString(), end: new Date().toISOString() };
    const inventory = (await call('GET', '/inventory?pageSize=500')).json() as {
      items: Item[];
      total: number;
    };
    const byKind = await chart({ type: 'bar', family: 'INVENTORIES' });
    const drawn = (await call('POST', `/chart/${byKind}/data`, charting, range)).json() as {
      categories: string[];
      series: { values: number[] }[];
    };
    const counted = Object.fromEntries(
      drawn.categories.map((kind, index) => [kind, drawn.series[0]!.values[index]]),
    );
    for (const kind of ['SYSTEM', 'APPLICATION', 'VENDOR']) {
      expect(counted[kind]).toBe(inventory.items.filter((item) => item.kind === kind).length);
    }
    expectError(await call('POST', `/chart/${byKind}/data`, noRisk, range), 403, 'PERMISSION_DENIED');

    const refused = await call('POST', '/chart', charting, {
      name: 'x',
      type: 'pie',
      family: 'INVENTORY_CONTEXTUAL_SCORING',
    });
    expectError(refused, 400, 'CHART_TYPE_NOT_SUPPORTED');
    const scoring = await chart({ type: 'table', family: 'INVENTORY_CONTEXTUAL_SCORING', rowLimit: 3 });
    const table = (await call('POST', `/chart/${scoring}/data`, charting, range)).json() as {
      columns: string[];
      rows: (string | number | null)[][];
      total: number;
    };
    expect(table.columns).toEqual([
      'Item',
      'Name',
      'Kind',
      'Data sensitivity',
      'Business criticality',
      'Inherent risk',
      'Residual risk',
      'Risks',
    ]);
    expect(table.total).toBe(inventory.total);
    expect(table.rows).toHaveLength(3);
    // Highest inherent risk first: the card processor and online banking are Very High.
    expect(table.rows[0]![5]).toBe('EXTREME');
  });
});

describe('kinds by module', () => {
  it('add and edit systems and applications with Systems & Applications, vendors with Third-Party Risk', async () => {
    const db = ctx.database.db;
    const thirdPartyOrg = await seedOrg(db, { productSkus: ['RISK_THIRD_PARTY_RISK'] });
    const user = await seedUser(db, { homeOrgId: thirdPartyOrg.id, permissions: ['RISK_EDIT'] });
    const vendor = await createItem({ kind: 'VENDOR', name: 'Card processor' }, user, thirdPartyOrg.id);
    for (const kind of ['SYSTEM', 'APPLICATION']) {
      const refused = expectError(
        await call('POST', '/inventory-item', user, { kind, name: 'Core banking' }, thirdPartyOrg.id),
        400,
        'RISK_MODULE_NOT_ENTITLED',
      );
      expect(refused).toMatchObject({ field: 'kind', params: { module: 'Systems & Applications' } });
    }
    const register = (await call('GET', '/inventory', user, undefined, thirdPartyOrg.id)).json() as {
      items: Item[];
    };
    expect(register.items.map((item) => item.name)).toEqual(['Card processor']);

    // Without Third-Party Risk any more, its vendors stay readable but are not changed.
    await db
      .update(orgs)
      .set({ productSkus: ['RISK_SYSTEMS_AND_APPLICATIONS'] })
      .where(eq(orgs.id, thirdPartyOrg.id));
    const edit = expectError(
      await call(
        'PATCH',
        `/inventory-item/${vendor.publicId}`,
        user,
        { version: vendor.version, name: 'Renamed' },
        thirdPartyOrg.id,
      ),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    expect(edit).toMatchObject({ field: 'kind', params: { module: 'Third-Party Risk' } });
    const kept = (
      await call('GET', `/inventory-item/${vendor.publicId}`, user, undefined, thirdPartyOrg.id)
    ).json() as Item;
    expect(kept).toMatchObject({ name: 'Card processor', version: vendor.version });
    expectError(
      await call('POST', '/inventory-item', stranger, { kind: 'VENDOR', name: 'x' }, otherOrgId),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    await createItem({ kind: 'APPLICATION', name: 'Online banking' }, user, thirdPartyOrg.id);
  });

  it('copy library vendors only into an organisation with Third-Party Risk', async () => {
    const vendor = await createItem(
      { kind: 'VENDOR', name: 'Library cloud host' },
      providerAdmin,
      providerOrgId,
      '/inventory/library',
    );
    expectError(
      await call('POST', '/inventory/library/copy', stranger, { ids: [vendor.id] }, otherOrgId),
      400,
      'RISK_MODULE_NOT_ENTITLED',
    );
    const register = (await call('GET', '/inventory', stranger, undefined, otherOrgId)).json() as {
      items: Item[];
    };
    expect(register.items.some((item) => item.name === 'Library cloud host')).toBe(false);
  });
});
