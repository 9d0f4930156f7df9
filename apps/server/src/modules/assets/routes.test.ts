import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SUGGESTED_ASSET_LABELS } from '@vigil/contracts';
import { validateQuery } from '@vigil/query';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { updateAssetRow, upsertSoftware } from './repo';
import { assetAddresses, assetAddressHistory, assets } from './tables';

let ctx: TestContext;

interface Tenant {
  orgId: string;
  editor: SeededUser;
  viewer: SeededUser;
}

async function tenant(): Promise<Tenant> {
  const db = ctx.database.db;
  const orgId = (await seedOrg(db)).id;
  return {
    orgId,
    editor: await seedUser(db, { homeOrgId: orgId, permissions: ['ASSET_VIEW', 'ASSET_EDIT'] }),
    viewer: await seedUser(db, { homeOrgId: orgId, permissions: ['ASSET_VIEW'] }),
  };
}

beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
const call = (method: Method, url: string, who: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(who.cookie), ...(payload && { payload }) });

const assetBody = (overrides: object = {}) => ({
  name: 'Teller PC 01',
  importance: 'medium',
  labels: [],
  hostnames: [],
  ipMacPairs: [],
  ...overrides,
});

async function lastAudit(action: string, targetId?: string) {
  const rows = await ctx.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.action, action), targetId ? eq(activityLog.targetId, targetId) : undefined));
  return rows.at(-1);
}

describe('creating an asset', () => {
  let t: Tenant;
  const url = () => `/api/org/${t.orgId}/asset`;
  beforeAll(async () => {
    t = await tenant();
  });

  it('creates a tracked asset with addresses in their canonical form, and audits it', async () => {
    const response = await call(
      'POST',
      url(),
      t.editor,
      assetBody({
        name: '  Core Banking DB 01 ',
        importance: 'high',
        tag: ' CB-001 ',
        owner: '',
        labels: [' Database ', 'Database', '', 'PCI'],
        hostnames: ['cbdb01.harbor.example', 'CBDB01.harbor.example', 'cbdb01'],
        ipMacPairs: [
          { ip: '10.20.0.5', mac: '00-1A-2B-3C-4D-5E' },
          { ip: '2001:0DB8:0000:0000:0000:0000:0000:0001', mac: '' },
          { ip: null, mac: '001a.2b3c.4d5f' },
        ],
      }),
    );
    expect(response.statusCode).toBe(201);
    const asset = response.json();
    expect(asset).toMatchObject({
      name: 'Core Banking DB 01',
      importance: 'high',
      tag: 'CB-001',
      owner: null,
      description: null,
      labels: ['Database', 'PCI'],
      hostnames: ['cbdb01.harbor.example', 'cbdb01'],
      ipMacPairs: [
        { ip: '10.20.0.5', mac: '00:1a:2b:3c:4d:5e' },
        { ip: '2001:db8::1', mac: null },
        { ip: null, mac: '00:1a:2b:3c:4d:5f' },
      ],
      tracked: true,
      active: true,
      lastSeen: null,
      dataLastSent: null,
    });
    expect(await lastAudit('asset.created', asset.id)).toMatchObject({
      orgId: t.orgId,
      actorUserId: t.editor.id,
      details: { after: { name: 'Core Banking DB 01' } },
    });
    const fetched = await call('GET', `/api/org/${t.orgId}/asset/${asset.id}`, t.viewer);
    expect(fetched.json()).toEqual(asset);
  });

  it('requires a name and an importance', async () => {
    const noName = await call('POST', url(), t.editor, { importance: 'low' });
    expect(noName.statusCode).toBe(400);
    expect(noName.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'name' });
    const blankName = await call('POST', url(), t.editor, assetBody({ name: '   ' }));
    expect(blankName.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'name' });
    const noImportance = await call('POST', url(), t.editor, { name: 'Printer' });
    expect(noImportance.statusCode).toBe(400);
    expect(noImportance.json()).toMatchObject({ field: 'importance' });
    const badImportance = await call('POST', url(), t.editor, assetBody({ importance: 'critical' }));
    expect(badImportance.json()).toMatchObject({ field: 'importance' });
    expect(badImportance.json().validValues).toEqual(['high', 'medium', 'low', 'none']);
  });

  it('refuses bad pairs, naming the field of the pair', async () => {
    const cases: [object[], string, string][] = [
      [[{ ip: '10.0.0.300', mac: null }], 'ipMacPairs.0.ip', 'badIp'],
      [
        [
          { ip: '10.0.0.1', mac: null },
          { ip: null, mac: '00:11:22:33:44' },
        ],
        'ipMacPairs.1.mac',
        'badMac',
      ],
      [[{ ip: ' ', mac: '' }], 'ipMacPairs.0.ip', 'ipOrMacRequired'],
      [[{ ip: '010.0.0.1' }], 'ipMacPairs.0.ip', 'badIp'],
    ];
    for (const [ipMacPairs, field, message] of cases) {
      const response = await call('POST', url(), t.editor, assetBody({ ipMacPairs }));
      expect({ status: response.statusCode, ...response.json() }).toMatchObject({
        status: 400,
        key: 'GENERIC_INVALID_FIELD_VALUE',
        field,
        message,
      });
    }
    const emptyHostname = await call('POST', url(), t.editor, assetBody({ hostnames: ['a', ' '] }));
    expect(emptyHostname.json()).toMatchObject({ field: 'hostnames.1' });
  });

  it('refuses an address given twice in one asset', async () => {
    const twice = await call(
      'POST',
      url(),
      t.editor,
      assetBody({ ipMacPairs: [{ ip: '10.9.9.9' }, { ip: '10.9.9.9', mac: 'aa:aa:aa:aa:aa:aa' }] }),
    );
    expect(twice.statusCode).toBe(400);
    expect(twice.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'ipMacPairs.1.ip' });
    const macTwice = await call(
      'POST',
      url(),
      t.editor,
      assetBody({ ipMacPairs: [{ mac: 'AA-AA-AA-AA-AA-AB' }, { ip: '10.9.9.8', mac: 'aa:aa:aa:aa:aa:ab' }] }),
    );
    expect(macTwice.json()).toMatchObject({ field: 'ipMacPairs.1.mac' });
  });

  it('answers 409 ASSET_IP_OR_MAC_IN_USE for an address another asset holds, in any notation', async () => {
    const first = await call(
      'POST',
      url(),
      t.editor,
      assetBody({ name: 'ATM 7', ipMacPairs: [{ ip: 'fd00:10::7', mac: '02:00:00:00:00:07' }] }),
    );
    expect(first.statusCode).toBe(201);
    const sameIp = await call(
      'POST',
      url(),
      t.editor,
      assetBody({ ipMacPairs: [{ ip: '10.1.1.1' }, { ip: 'FD00:0010:0:0:0:0:0:7' }] }),
    );
    expect(sameIp.statusCode).toBe(409);
    expect(sameIp.json()).toMatchObject({
      key: 'ASSET_IP_OR_MAC_IN_USE',
      field: 'ipMacPairs.1.ip',
      params: { value: 'fd00:10::7' },
    });
    const sameMac = await call(
      'POST',
      url(),
      t.editor,
      assetBody({ ipMacPairs: [{ mac: '0200.0000.0007' }] }),
    );
    expect(sameMac.statusCode).toBe(409);
    expect(sameMac.json()).toMatchObject({
      field: 'ipMacPairs.0.mac',
      params: { value: '02:00:00:00:00:07' },
    });
    // Another organisation's inventory is its own.
    const other = await tenant();
    const elsewhere = await call(
      'POST',
      `/api/org/${other.orgId}/asset`,
      other.editor,
      assetBody({ ipMacPairs: [{ ip: 'fd00:10::7', mac: '02:00:00:00:00:07' }] }),
    );
    expect(elsewhere.statusCode).toBe(201);
  });

  it('lets only one of several racing saves take an address', async () => {
    const responses = await Promise.all(
      Array.from({ length: 4 }, (_, index) =>
        call(
          'POST',
          url(),
          t.editor,
          assetBody({ name: `Racer ${index}`, ipMacPairs: [{ ip: '10.77.0.1' }] }),
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode).sort();
    expect(statuses).toEqual([201, 409, 409, 409]);
    for (const response of responses.filter((entry) => entry.statusCode === 409)) {
      expect(response.json().key).toBe('ASSET_IP_OR_MAC_IN_USE');
    }
  });
});

describe('changing and deleting an asset', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant();
  });
  const create = async (body: object) => {
    const response = await call('POST', `/api/org/${t.orgId}/asset`, t.editor, assetBody(body));
    expect(response.statusCode).toBe(201);
    return response.json() as { id: string };
  };

  it('replaces fields and pairs, moving dropped pairs to the address history', async () => {
    const asset = await create({
      name: 'Branch FW',
      ipMacPairs: [
        { ip: '10.5.0.1', mac: '02:00:00:00:05:01' },
        { ip: '10.5.0.2', mac: null },
      ],
    });
    const response = await call(
      'PUT',
      `/api/org/${t.orgId}/asset/${asset.id}`,
      t.editor,
      assetBody({
        name: 'Branch Firewall',
        importance: 'high',
        description: 'Edge firewall of the Main St branch',
        labels: ['Firewall'],
        ipMacPairs: [{ ip: '10.5.0.2', mac: null }, { ip: '10.5.0.3' }],
      }),
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      name: 'Branch Firewall',
      importance: 'high',
      labels: ['Firewall'],
      ipMacPairs: [
        { ip: '10.5.0.2', mac: null },
        { ip: '10.5.0.3', mac: null },
      ],
    });
    const history = await ctx.database.db
      .select()
      .from(assetAddressHistory)
      .where(eq(assetAddressHistory.assetId, asset.id));
    expect(history).toHaveLength(1);
    expect(history[0]).toMatchObject({ ip: '10.5.0.1', mac: '02:00:00:00:05:01' });
    expect(history[0]!.heldUntil.getTime()).toBeGreaterThanOrEqual(history[0]!.heldFrom.getTime());
    // The dropped address is free again.
    await create({ name: 'New holder', ipMacPairs: [{ ip: '10.5.0.1' }] });
    expect((await lastAudit('asset.updated', asset.id))?.details).toMatchObject({
      before: { name: 'Branch FW' },
      after: { name: 'Branch Firewall' },
    });
  });

  it('makes an untracked asset tracked when saved', async () => {
    const asset = await create({ name: 'Discovered host' });
    await updateAssetRow(ctx.database.db, t.orgId, asset.id, { tracked: false });
    const response = await call(
      'PUT',
      `/api/org/${t.orgId}/asset/${asset.id}`,
      t.editor,
      assetBody({ name: 'Known host' }),
    );
    expect(response.json()).toMatchObject({ tracked: true, name: 'Known host' });
  });

  it('refuses an address another asset holds, but not one the asset holds itself', async () => {
    await create({ name: 'Holder', ipMacPairs: [{ ip: '10.6.0.1' }] });
    const asset = await create({ name: 'Mover', ipMacPairs: [{ ip: '10.6.0.2' }] });
    const taken = await call(
      'PUT',
      `/api/org/${t.orgId}/asset/${asset.id}`,
      t.editor,
      assetBody({ ipMacPairs: [{ ip: '10.6.0.2' }, { ip: '10.6.0.1' }] }),
    );
    expect(taken.statusCode).toBe(409);
    expect(taken.json()).toMatchObject({ key: 'ASSET_IP_OR_MAC_IN_USE', field: 'ipMacPairs.1.ip' });
    const kept = await call(
      'PUT',
      `/api/org/${t.orgId}/asset/${asset.id}`,
      t.editor,
      assetBody({ ipMacPairs: [{ ip: '10.6.0.2', mac: '02:00:00:00:06:02' }] }),
    );
    expect(kept.statusCode).toBe(200);
  });

  it('answers 404 ASSET_NOT_FOUND for unknown assets and those of other organisations', async () => {
    const unknown = '00000000-0000-4000-8000-00000000abcd';
    for (const [method, url, body] of [
      ['GET', `/api/org/${t.orgId}/asset/${unknown}`, undefined],
      ['PUT', `/api/org/${t.orgId}/asset/${unknown}`, assetBody()],
      ['DELETE', `/api/org/${t.orgId}/assets?assetId=${unknown}`, undefined],
      ['GET', `/api/org/${t.orgId}/asset/${unknown}/software`, undefined],
    ] as const) {
      const response = await call(method, url, t.editor, body);
      expect({ url, status: response.statusCode, ...response.json() }).toMatchObject({
        url,
        status: 404,
        key: 'ASSET_NOT_FOUND',
        params: { 0: unknown },
        message: `No asset currently exists with an ID: ${unknown}`,
      });
    }
    const mine = await create({ name: 'Mine', ipMacPairs: [{ ip: '10.6.9.9' }] });
    const other = await tenant();
    for (const [method, url, body] of [
      ['GET', `/api/org/${other.orgId}/asset/${mine.id}`, undefined],
      ['PUT', `/api/org/${other.orgId}/asset/${mine.id}`, assetBody()],
      ['DELETE', `/api/org/${other.orgId}/assets?assetId=${mine.id}`, undefined],
      ['GET', `/api/org/${other.orgId}/asset/${mine.id}/software`, undefined],
      [
        'POST',
        `/api/org/${other.orgId}/assets/merge`,
        { trackedAsset: mine.id, untrackedAsset: '00000000-0000-4000-8000-000000000002' },
      ],
    ] as const) {
      const response = await call(method, url, other.editor, body);
      expect({ url, status: response.statusCode, key: response.json().key }).toEqual({
        url,
        status: 404,
        key: 'ASSET_NOT_FOUND',
      });
    }
    // Nor does the other organisation's user reach this organisation at all.
    const direct = await call('GET', `/api/org/${t.orgId}/asset/${mine.id}`, other.editor);
    expect(direct.statusCode).toBe(403);
    const still = await call('GET', `/api/org/${t.orgId}/asset/${mine.id}`, t.viewer);
    expect(still.json()).toMatchObject({ name: 'Mine', active: true });
  });

  it('soft-deletes an asset, freeing its addresses; a deleted asset cannot be saved or deleted again', async () => {
    const asset = await create({
      name: 'Old ATM',
      ipMacPairs: [{ ip: '10.8.0.1', mac: '02:00:00:00:08:01' }],
    });
    const deleted = await call('DELETE', `/api/org/${t.orgId}/assets?assetId=${asset.id}`, t.editor);
    expect(deleted.statusCode).toBe(204);
    const fetched = (await call('GET', `/api/org/${t.orgId}/asset/${asset.id}`, t.viewer)).json();
    expect(fetched).toMatchObject({
      active: false,
      ipMacPairs: [{ ip: '10.8.0.1', mac: '02:00:00:00:08:01' }],
    });
    expect(
      await ctx.database.db
        .select()
        .from(assetAddressHistory)
        .where(eq(assetAddressHistory.assetId, asset.id)),
    ).toHaveLength(1);
    // The addresses are free for a new asset.
    await create({ name: 'New ATM', ipMacPairs: [{ ip: '10.8.0.1', mac: '02:00:00:00:08:01' }] });
    const again = await call('DELETE', `/api/org/${t.orgId}/assets?assetId=${asset.id}`, t.editor);
    expect(again.statusCode).toBe(409);
    expect(again.json().key).toBe('ASSET_DELETED');
    const save = await call('PUT', `/api/org/${t.orgId}/asset/${asset.id}`, t.editor, assetBody());
    expect(save.statusCode).toBe(409);
    expect(save.json().key).toBe('ASSET_DELETED');
    expect(await lastAudit('asset.deleted', asset.id)).toMatchObject({ actorUserId: t.editor.id });
    const bad = await call('DELETE', `/api/org/${t.orgId}/assets?assetId=nope`, t.editor);
    expect(bad.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'assetId' });
  });
});

/** Inserts assets straight into the table, for lists that need many or need set times. */
async function insertAssets(orgId: string, rows: Partial<typeof assets.$inferInsert>[]) {
  const inserted = await ctx.database.db
    .insert(assets)
    .values(
      rows.map((row, index) => ({
        name: `Asset ${index}`,
        importance: 'low',
        ...row,
        orgId,
        searchText: [
          row.name ?? `Asset ${index}`,
          row.tag,
          row.owner,
          ...(row.labels ?? []),
          ...(row.hostnames ?? []),
        ]
          .filter(Boolean)
          .join('\n')
          .toLowerCase(),
      })),
    )
    .returning();
  return inserted;
}

const DAY = 86_400_000;

describe('searching assets', () => {
  let t: Tenant;
  const ids: Record<string, string> = {};
  const now = Date.now();
  beforeAll(async () => {
    t = await tenant();
    const create = async (body: object) => {
      const response = await call('POST', `/api/org/${t.orgId}/asset`, t.editor, assetBody(body));
      expect(response.statusCode).toBe(201);
      return response.json().id as string;
    };
    ids.atm = await create({
      name: 'ATM Lobby',
      importance: 'high',
      tag: 'ATM-1',
      owner: 'Branch Ops',
      labels: ['ATM', 'Health Monitored'],
      hostnames: ['atm-lobby-01'],
      ipMacPairs: [{ ip: '10.30.0.11', mac: '02:00:00:30:00:11' }],
    });
    ids.dc = await create({
      name: 'Domain Controller 1',
      importance: 'high',
      tag: 'DC-1',
      labels: ['Domain Controller'],
      hostnames: ['dc01.harbor.example'],
      ipMacPairs: [{ ip: 'fd00::53' }],
    });
    ids.teller = await create({
      name: 'teller pc 3',
      importance: 'low',
      owner: 'Main St Branch',
      hostnames: ['teller-03'],
      ipMacPairs: [{ ip: '10.30.1.3' }],
    });
    ids.printer = await create({ name: 'Printer', importance: 'none', hostnames: ['prn-01'] });
    ids.lb = await create({ name: 'Load balancer', importance: 'medium', labels: ['Load Balancer'] });
    ids.gone = await create({ name: 'Retired scanner', importance: 'medium', labels: ['Scanner'] });
    await call('DELETE', `/api/org/${t.orgId}/assets?assetId=${ids.gone}`, t.editor);
    const db = ctx.database.db;
    await updateAssetRow(db, t.orgId, ids.atm!, {
      lastSeen: new Date(now - 1 * DAY),
      dataLastSent: new Date(now),
    });
    await updateAssetRow(db, t.orgId, ids.dc!, { lastSeen: new Date(now - 10 * DAY) });
    await updateAssetRow(db, t.orgId, ids.teller!, { lastSeen: new Date(now - 40 * DAY), tracked: false });
    await db
      .update(assets)
      .set({ createdOn: new Date(now - 50 * DAY) })
      .where(eq(assets.id, ids.printer!));
    await upsertSoftware(db, t.orgId, ids.atm!, [{ name: 'XFS Manager', version: '3.1', lastSeen: null }]);
    await upsertSoftware(db, t.orgId, ids.dc!, [
      { name: 'Windows Server', version: '2022', lastSeen: new Date(now) },
      { name: 'DNS Server', version: null, lastSeen: null },
    ]);
    await upsertSoftware(db, t.orgId, ids.teller!, [{ name: 'Windows 11', version: '23H2', lastSeen: null }]);
  });

  const names = async (query: string) => {
    const response = await call('GET', `/api/org/${t.orgId}/assets/search?${query}`, t.viewer);
    expect(response.statusCode, response.body).toBe(200);
    return (response.json().items as { name: string }[]).map((item) => item.name);
  };

  it('lists active assets by name, with their pairs and the total', async () => {
    const response = await call('GET', `/api/org/${t.orgId}/assets/search`, t.viewer);
    expect(response.json().total).toBe(5);
    expect(response.json().items.map((item: { name: string }) => item.name)).toEqual([
      'ATM Lobby',
      'Domain Controller 1',
      'Load balancer',
      'Printer',
      'teller pc 3',
    ]);
    expect(response.json().items[0]).toMatchObject({
      ipMacPairs: [{ ip: '10.30.0.11', mac: '02:00:00:30:00:11' }],
    });
  });

  it('filters by free text, label, software, tracking, status, importance and last-seen window', async () => {
    expect(await names('query=LOBBY')).toEqual(['ATM Lobby']);
    expect(await names('query=branch')).toEqual(['ATM Lobby', 'teller pc 3']);
    expect(await names('query=branch%20ops')).toEqual(['ATM Lobby']);
    expect(await names('query=10.30.')).toEqual(['ATM Lobby', 'teller pc 3']);
    expect(await names(`query=${encodeURIComponent('FD00:0:0::53')}`)).toEqual(['Domain Controller 1']);
    expect(await names('query=0200.0030.0011')).toEqual(['ATM Lobby']);
    expect(await names('query=100%25')).toEqual([]);
    expect(await names(`label=${encodeURIComponent('Domain Controller')}`)).toEqual(['Domain Controller 1']);
    expect(await names('label=domain')).toEqual([]);
    expect(await names('softwareNames=Windows%2011&softwareNames=XFS%20Manager')).toEqual([
      'ATM Lobby',
      'teller pc 3',
    ]);
    expect(await names('softwareNames=DNS%20Server')).toEqual(['Domain Controller 1']);
    expect(await names('tracked=untracked')).toEqual(['teller pc 3']);
    expect(await names('tracked=tracked')).toHaveLength(4);
    expect(await names('active=false')).toEqual(['Retired scanner']);
    expect(await names('importance=high')).toEqual(['ATM Lobby', 'Domain Controller 1']);
    expect(await names('importance=none')).toEqual(['Printer']);
    const iso = (ms: number) => encodeURIComponent(new Date(ms).toISOString());
    // Never-seen assets count from their creation; the printer was created 50 days ago.
    expect(await names(`lastSeenAfter=${iso(now - 30 * DAY)}`)).toEqual([
      'ATM Lobby',
      'Domain Controller 1',
      'Load balancer',
    ]);
    expect(await names(`lastSeenBefore=${iso(now - 30 * DAY)}`)).toEqual(['Printer', 'teller pc 3']);
    expect(await names(`lastSeenAfter=${iso(now - 45 * DAY)}&lastSeenBefore=${iso(now - 5 * DAY)}`)).toEqual([
      'Domain Controller 1',
      'teller pc 3',
    ]);
    const bad = await call('GET', `/api/org/${t.orgId}/assets/search?tracked=maybe`, t.viewer);
    expect(bad.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'tracked' });
  });

  it('sorts by each field, blanks last, and pages from zero', async () => {
    expect(await names('sortBy=name&desc=true')).toEqual([
      'teller pc 3',
      'Printer',
      'Load balancer',
      'Domain Controller 1',
      'ATM Lobby',
    ]);
    expect(await names('sortBy=importance&desc=true')).toEqual([
      'ATM Lobby',
      'Domain Controller 1',
      'Load balancer',
      'teller pc 3',
      'Printer',
    ]);
    expect(await names('sortBy=importance')).toEqual([
      'Printer',
      'teller pc 3',
      'Load balancer',
      'ATM Lobby',
      'Domain Controller 1',
    ]);
    expect(await names('sortBy=tag')).toEqual([
      'ATM Lobby',
      'Domain Controller 1',
      'Load balancer',
      'Printer',
      'teller pc 3',
    ]);
    expect(await names('sortBy=tag&desc=true')).toEqual([
      'Domain Controller 1',
      'ATM Lobby',
      'Load balancer',
      'Printer',
      'teller pc 3',
    ]);
    expect(await names('sortBy=owner')).toEqual([
      'ATM Lobby',
      'teller pc 3',
      'Domain Controller 1',
      'Load balancer',
      'Printer',
    ]);
    expect(await names('sortBy=lastSeen&desc=true')).toEqual([
      'ATM Lobby',
      'Domain Controller 1',
      'teller pc 3',
      'Load balancer',
      'Printer',
    ]);
    expect(await names('sortBy=lastSeen')).toEqual([
      'teller pc 3',
      'Domain Controller 1',
      'ATM Lobby',
      'Load balancer',
      'Printer',
    ]);
    expect((await names('sortBy=dataLastSent'))[0]).toBe('ATM Lobby');
    expect((await names('sortBy=createdOn'))[0]).toBe('Printer');
    expect((await names('sortBy=modifiedOn&desc=true')).length).toBe(5);
    expect(await names('pageSize=2&pageId=0')).toEqual(['ATM Lobby', 'Domain Controller 1']);
    expect(await names('pageSize=2&pageId=2')).toEqual(['teller pc 3']);
    expect(await names('pageSize=2&pageId=3')).toEqual([]);
    const paged = await call('GET', `/api/org/${t.orgId}/assets/search?pageSize=2&pageId=1`, t.viewer);
    expect(paged.json().total).toBe(5);
  });

  it('lists labels in use with the suggestions, software names, and the software of an asset', async () => {
    const labels = await call('GET', `/api/org/${t.orgId}/labels`, t.viewer);
    expect(labels.json()).toEqual({
      labels: ['ATM', 'Domain Controller', 'Health Monitored', 'Load Balancer'],
      suggested: [...SUGGESTED_ASSET_LABELS],
    });
    const software = await call('GET', `/api/org/${t.orgId}/software`, t.viewer);
    expect(software.json()).toEqual({ names: ['DNS Server', 'Windows 11', 'Windows Server', 'XFS Manager'] });
    const ofDc = await call('GET', `/api/org/${t.orgId}/asset/${ids.dc}/software`, t.viewer);
    expect(ofDc.json()).toEqual({
      items: [
        { name: 'DNS Server', version: null, lastSeen: null },
        { name: 'Windows Server', version: '2022', lastSeen: new Date(now).toISOString() },
      ],
    });
  });

  it('exports the search as CSV in the list order', async () => {
    const response = await call('POST', `/api/org/${t.orgId}/assets/search`, t.viewer, {
      importance: 'high',
      sortBy: 'name',
      desc: true,
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    expect(response.headers['content-disposition']).toBe('attachment; filename="assets.csv"');
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'id,name,tag,owner,importance,description,labels,hostnames,ips,macs,tracked,active,lastSeen,dataLastSent,createdOn,modifiedOn',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toMatch(new RegExp(`^${ids.dc},Domain Controller 1,DC-1,,high,,Domain Controller,`));
    expect(lines[2]).toMatch(
      new RegExp(
        `^${ids.atm},ATM Lobby,ATM-1,Branch Ops,high,,ATM; Health Monitored,atm-lobby-01,10\\.30\\.0\\.11,02:00:00:30:00:11,true,true,`,
      ),
    );
  });
});

describe('exporting many assets', () => {
  it('pages through every match with keyset paging, in the order of the list, quoting formulas', async () => {
    const t = await tenant();
    const tags = [null, 'A', 'b', '=cmd|calc'];
    await insertAssets(
      t.orgId,
      Array.from({ length: 1234 }, (_, index) => ({
        name: `Host ${index % 7}`,
        tag: tags[index % tags.length],
        importance: ['high', 'medium', 'low', 'none'][index % 3]!,
        lastSeen: index % 5 === 0 ? null : new Date(Date.UTC(2024, 0, 1 + (index % 11))),
      })),
    );
    for (const sort of [
      { sortBy: 'tag', desc: false },
      { sortBy: 'lastSeen', desc: true },
      { sortBy: 'importance', desc: false },
      { sortBy: 'name', desc: true },
    ]) {
      const listed: string[] = [];
      for (let pageId = 0; pageId < 3; pageId++) {
        const page = await call(
          'GET',
          `/api/org/${t.orgId}/assets/search?sortBy=${sort.sortBy}&desc=${sort.desc}&pageSize=500&pageId=${pageId}`,
          t.viewer,
        );
        listed.push(...page.json().items.map((item: { id: string }) => item.id));
      }
      const csv = await call('POST', `/api/org/${t.orgId}/assets/search`, t.viewer, sort);
      const rows = csv.body.trimEnd().split('\r\n').slice(1);
      expect(rows).toHaveLength(1234);
      expect(rows.map((row) => row.slice(0, 36))).toEqual(listed);
      if (sort.sortBy === 'tag') {
        expect(rows.filter((row) => row.includes(`,"'=cmd|calc",`))).toHaveLength(308);
        expect(rows.some((row) => row.includes(',=cmd'))).toBe(false);
      }
    }
  });

  it('neutralises formulas in every text cell', async () => {
    const t = await tenant();
    const response = await call(
      'POST',
      `/api/org/${t.orgId}/asset`,
      t.editor,
      assetBody({
        name: '=HYPERLINK("http://evil.example","x")',
        owner: '+1 555',
        description: '@SUM(A1)',
        labels: ['-2+3'],
        hostnames: ['host,with"quote'],
      }),
    );
    expect(response.statusCode).toBe(201);
    const csv = await call('POST', `/api/org/${t.orgId}/assets/search`, t.viewer, {});
    const line = csv.body.split('\r\n')[1]!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"",""x"")"`);
    expect(line).toContain(`"'+1 555"`);
    expect(line).toContain(`"'@SUM(A1)"`);
    expect(line).toContain(`"'-2+3"`);
    expect(line).toContain(`"host,with""quote"`);
  });
});

describe('deleting a search', () => {
  it('soft-deletes every match in one go, freeing addresses, and audits it', async () => {
    const t = await tenant();
    for (let index = 0; index < 6; index++) {
      const response = await call(
        'POST',
        `/api/org/${t.orgId}/asset`,
        t.editor,
        assetBody({
          name: `Kiosk ${index}`,
          labels: index < 4 ? ['Kiosk'] : [],
          ipMacPairs: [{ ip: `10.44.0.${index + 1}` }],
        }),
      );
      expect(response.statusCode).toBe(201);
    }
    const response = await call(
      'DELETE',
      `/api/org/${t.orgId}/assets/search?label=Kiosk&pageSize=1`,
      t.editor,
    );
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ deleted: 4 });
    const remaining = await call('GET', `/api/org/${t.orgId}/assets/search`, t.viewer);
    expect(remaining.json().total).toBe(2);
    const deleted = await call('GET', `/api/org/${t.orgId}/assets/search?active=false`, t.viewer);
    expect(deleted.json().total).toBe(4);
    const active = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(assetAddresses)
      .where(and(eq(assetAddresses.orgId, t.orgId), eq(assetAddresses.active, true)));
    expect(active[0]!.n).toBe(2);
    const history = await ctx.database.db
      .select({ n: sql<number>`count(*)::int` })
      .from(assetAddressHistory)
      .where(eq(assetAddressHistory.orgId, t.orgId));
    expect(history[0]!.n).toBe(4);
    const reuse = await call(
      'POST',
      `/api/org/${t.orgId}/asset`,
      t.editor,
      assetBody({ ipMacPairs: [{ ip: '10.44.0.1' }] }),
    );
    expect(reuse.statusCode).toBe(201);
    const audit = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, t.orgId), eq(activityLog.action, 'asset.bulk_deleted')));
    expect(audit).toHaveLength(1);
    expect(audit[0]!.details).toMatchObject({ deleted: 4, filter: { label: 'Kiosk' } });
    // Deleting deleted ones again finds nothing to delete.
    const again = await call('DELETE', `/api/org/${t.orgId}/assets/search?active=false`, t.editor);
    expect(again.json()).toEqual({ deleted: 0 });
  });
});

describe('asset settings, label query and the assets-down notice', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant();
  });

  it('answers defaults, saves changes with ASSET_EDIT and audits them', async () => {
    const url = `/api/org/${t.orgId}/config`;
    expect((await call('GET', url, t.viewer)).json()).toEqual({
      downNoticeEnabled: true,
      discoverUntracked: true,
    });
    const saved = await call('POST', url, t.editor, { downNoticeEnabled: false, discoverUntracked: true });
    expect(saved.json()).toEqual({ downNoticeEnabled: false, discoverUntracked: true });
    expect((await call('GET', url, t.viewer)).json()).toEqual({
      downNoticeEnabled: false,
      discoverUntracked: true,
    });
    expect(await lastAudit('asset.config_changed', t.orgId)).toMatchObject({
      details: { before: { downNoticeEnabled: true }, after: { downNoticeEnabled: false } },
    });
    expect(
      (await call('POST', url, t.viewer, { downNoticeEnabled: true, discoverUntracked: true })).statusCode,
    ).toBe(403);
    const partial = await call('POST', url, t.editor, { downNoticeEnabled: true });
    expect(partial.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'discoverUntracked' });
    await call('POST', url, t.editor, { downNoticeEnabled: true, discoverUntracked: true });
  });

  it('builds an event query of the hostnames and IPs of a label, quoted and escaped', async () => {
    const create = (body: object) => call('POST', `/api/org/${t.orgId}/asset`, t.editor, assetBody(body));
    await create({
      name: 'Scanner A',
      labels: ['Scanner'],
      hostnames: ['scan-a', 'SCAN-A'],
      ipMacPairs: [{ ip: '10.90.0.1' }, { mac: '02:00:00:90:00:02' }],
    });
    await create({
      name: 'Scanner B',
      labels: ['Scanner'],
      hostnames: ['scan "b"\\x'],
      ipMacPairs: [{ ip: 'fd00::90' }],
    });
    await create({ name: 'Scanner C', labels: ['Scanner'] });
    await create({ name: 'Other', labels: ['Firewall'], hostnames: ['fw'] });
    const response = await call('GET', `/api/org/${t.orgId}/asset-tag-query?label=Scanner`, t.viewer);
    expect(response.json()).toEqual({
      query: 'host:("scan-a" OR "scan \\"b\\"\\\\x") OR ip:("10.90.0.1" OR "fd00::90")',
      assetCount: 2,
    });
    expect(validateQuery(response.json().query)).toEqual({ valid: true });
    expect((await call('GET', `/api/org/${t.orgId}/asset-tag-query?label=None`, t.viewer)).json()).toEqual({
      query: '',
      assetCount: 0,
    });
  });

  it('keeps the label query within the length of the query language', async () => {
    await insertAssets(
      t.orgId,
      Array.from({ length: 600 }, (_, index) => ({
        name: `Teller ${String(index).padStart(3, '0')}`,
        labels: ['Teller'],
        hostnames: [`teller-${String(index).padStart(3, '0')}.branch.example`],
      })),
    );
    const response = await call('GET', `/api/org/${t.orgId}/asset-tag-query?label=Teller`, t.viewer);
    const { query, assetCount } = response.json();
    expect(query.length).toBeLessThanOrEqual(2048);
    expect(validateQuery(query)).toEqual({ valid: true });
    expect(assetCount).toBeGreaterThan(10);
    expect(assetCount).toBeLessThan(600);
    expect(query).toContain('"teller-000.branch.example"');
    expect(query.match(/"teller-/g)).toHaveLength(assetCount);
  });

  it('lists high-importance tracked assets without recent data, unless the notice is off', async () => {
    const now = Date.now();
    const rows = await insertAssets(t.orgId, [
      {
        name: 'Core switch',
        importance: 'high',
        dataLastSent: new Date(now - 10 * 60_000),
        lastSeen: new Date(),
      },
      { name: 'Core router', importance: 'high', dataLastSent: null, lastSeen: new Date(now - 60_000) },
      { name: 'Fresh server', importance: 'high', dataLastSent: new Date(now - 60_000) },
      { name: 'Never seen', importance: 'high', dataLastSent: null, lastSeen: null },
      { name: 'Quiet printer', importance: 'medium', dataLastSent: new Date(now - 60 * 60_000) },
      {
        name: 'Untracked box',
        importance: 'high',
        tracked: false,
        dataLastSent: new Date(now - 60 * 60_000),
      },
      { name: 'Deleted box', importance: 'high', active: false, dataLastSent: new Date(now - 60 * 60_000) },
    ]);
    const down = await call('GET', `/api/org/${t.orgId}/assets/down`, t.viewer);
    expect(down.json()).toEqual({
      items: [
        { id: rows[1]!.id, name: 'Core router', importance: 'high', tracked: true, dataLastSent: null },
        {
          id: rows[0]!.id,
          name: 'Core switch',
          importance: 'high',
          tracked: true,
          dataLastSent: new Date(now - 10 * 60_000).toISOString(),
        },
      ],
      total: 2,
    });
    await call('POST', `/api/org/${t.orgId}/config`, t.editor, {
      downNoticeEnabled: false,
      discoverUntracked: true,
    });
    expect((await call('GET', `/api/org/${t.orgId}/assets/down`, t.viewer)).json()).toEqual({
      items: [],
      total: 0,
    });
  });
});

describe('lookups', () => {
  let t: Tenant;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    t = await tenant();
    const create = async (body: object) =>
      (await call('POST', `/api/org/${t.orgId}/asset`, t.editor, assetBody(body))).json().id as string;
    ids.web = await create({
      name: 'Web 1',
      importance: 'high',
      hostnames: ['Web01.Harbor.example'],
      ipMacPairs: [{ ip: '2001:db8::10', mac: 'AA:BB:CC:00:00:01' }],
    });
    ids.mail = await create({ name: 'Mail', hostnames: ['mail'], ipMacPairs: [{ ip: '10.0.0.25' }] });
  });

  it('finds assets by IP in any notation, batched, with invalid values matching nothing', async () => {
    const response = await call(
      'GET',
      `/api/org/${t.orgId}/ip/assets?address=2001:0db8:0:0::10&address=10.0.0.25&address=not-an-ip&address=10.0.0.26&address=10.0.0.25`,
      t.viewer,
    );
    expect(response.json()).toEqual({
      items: [
        {
          value: '2001:0db8:0:0::10',
          assets: [{ id: ids.web, name: 'Web 1', importance: 'high', tracked: true }],
        },
        { value: '10.0.0.25', assets: [{ id: ids.mail, name: 'Mail', importance: 'medium', tracked: true }] },
        { value: 'not-an-ip', assets: [] },
        { value: '10.0.0.26', assets: [] },
      ],
    });
    const none = await call('GET', `/api/org/${t.orgId}/ip/assets`, t.viewer);
    expect(none.statusCode).toBe(400);
  });

  it('finds assets by MAC in the three notations and by hostname ignoring case', async () => {
    const macs = await call(
      'GET',
      `/api/org/${t.orgId}/mac/assets?address=aa-bb-cc-00-00-01&address=aabb.cc00.0001&address=zz`,
      t.viewer,
    );
    expect(
      macs.json().items.map((item: { assets: { id: string }[] }) => item.assets.map((a) => a.id)),
    ).toEqual([[ids.web], [ids.web], []]);
    const hosts = await call(
      'GET',
      `/api/org/${t.orgId}/hostname/assets?hostname=web01.harbor.EXAMPLE&hostname=MAIL&hostname=web01`,
      t.viewer,
    );
    expect(hosts.json().items).toEqual([
      {
        value: 'web01.harbor.EXAMPLE',
        assets: [{ id: ids.web, name: 'Web 1', importance: 'high', tracked: true }],
      },
      { value: 'MAIL', assets: [{ id: ids.mail, name: 'Mail', importance: 'medium', tracked: true }] },
      { value: 'web01', assets: [] },
    ]);
  });

  it('answers the asset that held an IP at a past time from the address history', async () => {
    const pause = () => new Promise((resolve) => setTimeout(resolve, 15));
    await pause();
    const whileMail = new Date();
    await pause();
    // The mail server's address moves to a new host (DHCP).
    await call(
      'PUT',
      `/api/org/${t.orgId}/asset/${ids.mail}`,
      t.editor,
      assetBody({ name: 'Mail', ipMacPairs: [] }),
    );
    const relay = (
      await call(
        'POST',
        `/api/org/${t.orgId}/asset`,
        t.editor,
        assetBody({ name: 'Relay', ipMacPairs: [{ ip: '10.0.0.25' }] }),
      )
    ).json();
    await pause();
    const whileRelay = new Date();
    await pause();
    const at = async (timestamp?: Date) =>
      (
        await call(
          'GET',
          `/api/org/${t.orgId}/ip/assets?address=10.0.0.25${timestamp ? `&timestamp=${encodeURIComponent(timestamp.toISOString())}` : ''}`,
          t.viewer,
        )
      )
        .json()
        .items[0].assets.map((asset: { name: string }) => asset.name);
    expect(await at()).toEqual(['Relay']);
    expect(await at(whileMail)).toEqual(['Mail']);
    expect(await at(whileRelay)).toEqual(['Relay']);
    expect(await at(new Date(Date.now() + 60_000))).toEqual(['Relay']);
    // A deleted asset's addresses stay in the history too.
    await call('DELETE', `/api/org/${t.orgId}/assets?assetId=${relay.id}`, t.editor);
    expect(await at()).toEqual([]);
    expect(await at(whileRelay)).toEqual(['Relay']);
    expect(await at(whileMail)).toEqual(['Mail']);
  });
});

describe('merging assets', () => {
  let t: Tenant;
  beforeAll(async () => {
    t = await tenant();
  });
  const create = async (body: object, tracked = true) => {
    const response = await call('POST', `/api/org/${t.orgId}/asset`, t.editor, assetBody(body));
    expect(response.statusCode).toBe(201);
    const id = response.json().id as string;
    if (!tracked) await updateAssetRow(ctx.database.db, t.orgId, id, { tracked: false });
    return id;
  };

  it('folds the untracked asset into the tracked one and removes it', async () => {
    const db = ctx.database.db;
    const trackedId = await create({
      name: 'Teller 9',
      hostnames: ['teller-09'],
      labels: ['Teller'],
      ipMacPairs: [{ ip: '10.60.0.9' }],
    });
    const untrackedId = await create(
      {
        name: '10.60.0.99',
        hostnames: ['TELLER-09', 'teller-09.branch'],
        labels: ['Teller', 'Discovered'],
        ipMacPairs: [{ ip: '10.60.0.99', mac: '02:00:00:60:00:99' }],
      },
      false,
    );
    await updateAssetRow(db, t.orgId, untrackedId, {
      tracked: false,
      lastSeen: new Date('2025-03-02T00:00:00Z'),
      dataLastSent: new Date('2025-03-01T00:00:00Z'),
    });
    await updateAssetRow(db, t.orgId, trackedId, { lastSeen: new Date('2025-02-01T00:00:00Z') });
    await db.insert(assetAddressHistory).values({
      orgId: t.orgId,
      assetId: untrackedId,
      ip: '10.60.0.200',
      heldFrom: new Date('2025-01-01T00:00:00Z'),
      heldUntil: new Date('2025-01-02T00:00:00Z'),
    });
    await upsertSoftware(db, t.orgId, trackedId, [
      { name: 'Teller App', version: '5', lastSeen: new Date('2025-01-01T00:00:00Z') },
    ]);
    await upsertSoftware(db, t.orgId, untrackedId, [
      { name: 'Teller App', version: '5', lastSeen: new Date('2025-03-01T00:00:00Z') },
      { name: 'Chrome', version: '120', lastSeen: null },
    ]);

    const response = await call('POST', `/api/org/${t.orgId}/assets/merge`, t.editor, {
      trackedAsset: trackedId,
      untrackedAsset: untrackedId,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      id: trackedId,
      name: 'Teller 9',
      tracked: true,
      hostnames: ['teller-09', 'teller-09.branch'],
      labels: ['Teller', 'Discovered'],
      ipMacPairs: [
        { ip: '10.60.0.9', mac: null },
        { ip: '10.60.0.99', mac: '02:00:00:60:00:99' },
      ],
      lastSeen: '2025-03-02T00:00:00.000Z',
      dataLastSent: '2025-03-01T00:00:00.000Z',
    });
    const software = await call('GET', `/api/org/${t.orgId}/asset/${trackedId}/software`, t.viewer);
    expect(software.json().items).toEqual([
      { name: 'Chrome', version: '120', lastSeen: null },
      { name: 'Teller App', version: '5', lastSeen: '2025-03-01T00:00:00.000Z' },
    ]);
    expect((await call('GET', `/api/org/${t.orgId}/asset/${untrackedId}`, t.viewer)).statusCode).toBe(404);
    const past = await call(
      'GET',
      `/api/org/${t.orgId}/ip/assets?address=10.60.0.200&timestamp=2025-01-01T12:00:00Z`,
      t.viewer,
    );
    expect(past.json().items[0].assets.map((asset: { id: string }) => asset.id)).toEqual([trackedId]);
    expect(
      (await call('GET', `/api/org/${t.orgId}/assets/search?query=teller-09.branch`, t.viewer)).json().total,
    ).toBe(1);
    expect(await lastAudit('asset.merged', trackedId)).toMatchObject({
      details: { merged: { id: untrackedId, name: '10.60.0.99' }, after: { name: 'Teller 9' } },
    });
  });

  it('refuses merging an asset into itself, the wrong way round, deleted or unknown assets', async () => {
    const tracked = await create({ name: 'T' });
    const untracked = await create({ name: 'U' }, false);
    const otherTracked = await create({ name: 'T2' });
    const gone = await create({ name: 'Gone' }, false);
    await call('DELETE', `/api/org/${t.orgId}/assets?assetId=${gone}`, t.editor);
    const unknown = '00000000-0000-4000-8000-00000000beef';
    const cases: [object, number, string][] = [
      [{ trackedAsset: tracked, untrackedAsset: tracked }, 400, 'ASSET_MERGE_SAME_ASSET'],
      [{ trackedAsset: untracked, untrackedAsset: tracked }, 400, 'ASSET_MERGE_NOT_TRACKED'],
      [{ trackedAsset: tracked, untrackedAsset: otherTracked }, 400, 'ASSET_MERGE_NOT_UNTRACKED'],
      [{ trackedAsset: tracked, untrackedAsset: unknown }, 404, 'ASSET_NOT_FOUND'],
      [{ trackedAsset: unknown, untrackedAsset: untracked }, 404, 'ASSET_NOT_FOUND'],
      [{ trackedAsset: tracked, untrackedAsset: gone }, 409, 'ASSET_DELETED'],
    ];
    for (const [body, status, key] of cases) {
      const response = await call('POST', `/api/org/${t.orgId}/assets/merge`, t.editor, body);
      expect({ body, status: response.statusCode, key: response.json().key }).toEqual({ body, status, key });
    }
    const notFound = await call('POST', `/api/org/${t.orgId}/assets/merge`, t.editor, {
      trackedAsset: tracked,
      untrackedAsset: unknown,
    });
    expect(notFound.json().params).toEqual({ 0: unknown });
  });

  it('changes nothing when a step of the merge fails', async () => {
    const db = ctx.database.db;
    const tracked = await create({
      name: 'Keeper',
      hostnames: ['keeper'],
      ipMacPairs: [{ ip: '10.61.0.1' }],
    });
    const untracked = await create(
      { name: 'Stray', hostnames: ['stray'], labels: ['Stray'], ipMacPairs: [{ ip: '10.61.0.2' }] },
      false,
    );
    await upsertSoftware(db, t.orgId, untracked, [{ name: 'Agent', version: '1', lastSeen: null }]);
    // Removing the untracked asset, the last step, fails.
    await db.execute(
      sql.raw(`CREATE FUNCTION refuse_asset_delete() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION 'refused'; END $$`),
    );
    await db.execute(
      sql.raw(`CREATE TRIGGER refuse_asset_delete BEFORE DELETE ON assets
        FOR EACH ROW WHEN (OLD.id = '${untracked}') EXECUTE FUNCTION refuse_asset_delete()`),
    );
    try {
      const response = await call('POST', `/api/org/${t.orgId}/assets/merge`, t.editor, {
        trackedAsset: tracked,
        untrackedAsset: untracked,
      });
      expect(response.statusCode).toBe(500);
    } finally {
      await db.execute(sql.raw('DROP TRIGGER refuse_asset_delete ON assets'));
      await db.execute(sql.raw('DROP FUNCTION refuse_asset_delete()'));
    }
    const keeper = (await call('GET', `/api/org/${t.orgId}/asset/${tracked}`, t.viewer)).json();
    expect(keeper).toMatchObject({
      hostnames: ['keeper'],
      labels: [],
      ipMacPairs: [{ ip: '10.61.0.1', mac: null }],
    });
    const stray = (await call('GET', `/api/org/${t.orgId}/asset/${untracked}`, t.viewer)).json();
    expect(stray).toMatchObject({ tracked: false, ipMacPairs: [{ ip: '10.61.0.2', mac: null }] });
    expect(
      (await call('GET', `/api/org/${t.orgId}/asset/${untracked}/software`, t.viewer)).json().items,
    ).toHaveLength(1);
    expect(
      (await call('GET', `/api/org/${t.orgId}/asset/${tracked}/software`, t.viewer)).json().items,
    ).toHaveLength(0);
  });
});

describe('permissions', () => {
  it('refuses every write to a user without ASSET_EDIT, and every route to one without ASSET_VIEW', async () => {
    const t = await tenant();
    const nobody = await seedUser(ctx.database.db, { homeOrgId: t.orgId, permissions: ['EVENT_VIEW'] });
    const assetRoutes = ctx.app.routeDeclarations.filter(
      (route) => route.access && [route.access.permission].flat().some((code) => code?.startsWith('ASSET_')),
    );
    expect(assetRoutes.length).toBeGreaterThanOrEqual(19);
    const url = (template: string) =>
      template.replace(':orgId', t.orgId).replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000001');
    for (const route of assetRoutes) {
      const isWrite =
        route.method !== 'GET' && !(route.method === 'POST' && route.url.endsWith('/assets/search'));
      expect({ route: route.url, method: route.method, permission: route.access?.permission }).toEqual({
        route: route.url,
        method: route.method,
        permission: isWrite ? 'ASSET_EDIT' : 'ASSET_VIEW',
      });
      for (const who of isWrite ? [t.viewer, nobody] : [nobody]) {
        const response = await call(
          route.method as Method,
          url(route.url),
          who,
          route.method === 'GET' ? undefined : {},
        );
        expect({
          route: `${route.method} ${route.url}`,
          status: response.statusCode,
          key: response.json().key,
        }).toEqual({ route: `${route.method} ${route.url}`, status: 403, key: 'PERMISSION_DENIED' });
      }
    }
    // Read-only mode keeps the _VIEW codes only.
    const readOnly = await seedUser(ctx.database.db, {
      homeOrgId: t.orgId,
      permissions: ['ASSET_VIEW', 'ASSET_EDIT'],
      readOnlyMode: true,
    });
    expect((await call('POST', `/api/org/${t.orgId}/asset`, readOnly, assetBody())).statusCode).toBe(403);
  });

  it('needs the X-Requested-With header on writes', async () => {
    const t = await tenant();
    const response = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${t.orgId}/asset`,
      headers: { cookie: t.editor.cookie },
      payload: assetBody(),
    });
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('CSRF_HEADER_MISSING');
  });
});
