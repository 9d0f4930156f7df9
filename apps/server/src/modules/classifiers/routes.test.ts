import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { classifiers } from './tables';

let ctx: TestContext;
let orgId: string;
let archiveOrgId: string;
let otherOrgId: string;
let noLibraryOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
let archiveEditor: SeededUser;
let providerEngineer: SeededUser;
let clientEngineer: SeededUser;
let engineerWithoutView: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  archiveOrgId = (await seedOrg(db, { productSkus: ['ACCELERATED_ARCHIVE_DATA_TIER'] })).id;
  otherOrgId = (await seedOrg(db)).id;
  noLibraryOrgId = (await seedOrg(db, { featureFlags: { classifierLibrary: false } })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['CLASSIFIER_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['CLASSIFIER_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['CLASSIFIER_EDIT'] });
  archiveEditor = await seedUser(db, { homeOrgId: archiveOrgId, permissions: ['CLASSIFIER_EDIT'] });
  providerEngineer = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ENGINEER', 'TRAC_USER', 'CLASSIFIER_EDIT'],
    authorisedOrgIds: [orgId, noLibraryOrgId],
  });
  clientEngineer = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['TRAC_ENGINEER', 'TRAC_USER', 'CLASSIFIER_EDIT'],
  });
  engineerWithoutView = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ENGINEER', 'TRAC_USER'],
    authorisedOrgIds: [orgId],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, `/classifiers${path}`, user, payload);

interface ClassifierJson {
  id: string;
  name: string;
  library: boolean;
  editable: boolean;
  paused: boolean;
  position: number;
  metadata: Record<string, string>;
  [field: string]: unknown;
}

let counter = 0;
const fresh = (prefix = 'Classifier') => `${prefix} ${++counter}`;

async function create(payload: object, user = editor, path = '', org = orgId): Promise<ClassifierJson> {
  const response = await call('POST', path, user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as ClassifierJson;
}

const list = async (user: SeededUser, path = '', org = orgId) => {
  const response = await call('GET', path, user, undefined, org);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as { items: ClassifierJson[]; total: number; editable: boolean };
};

const rowsNamed = (names: string[]) =>
  ctx.database.db.select().from(classifiers).where(inArray(classifiers.name, names));

describe('classifiers of an organisation', () => {
  it('creates, reads, lists, changes, pauses and deletes a classifier, auditing each write', async () => {
    const name = fresh('Core banking');
    const created = await create({
      name: ` ${name} `,
      query: 'data_source:corebank',
      metadata: { business_unit: 'retail', Tier_2: 'yes' },
      skipThreatMatch: true,
    });
    expect(created).toMatchObject({
      name,
      description: '',
      query: 'data_source:corebank',
      metadata: { business_unit: 'retail', Tier_2: 'yes' },
      dropEvent: false,
      skipThreatMatch: true,
      skipAnomalyDetection: false,
      skipAssetDetection: false,
      acceleratedArchive: false,
      paused: false,
      library: false,
      editable: true,
    });
    const read = await call('GET', `/${created.id}`, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, name, editable: false });

    const found = await list(viewer, `?search=${encodeURIComponent(name.toUpperCase())}`);
    expect(found).toMatchObject({ total: 1, editable: false });
    expect(found.items.map((item) => item.id)).toEqual([created.id]);

    const changed = await call('PUT', `/${created.id}`, editor, {
      name: `${name} v2`,
      query: 'host:core*',
      metadata: {},
      dropEvent: true,
    });
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      name: `${name} v2`,
      metadata: {},
      dropEvent: true,
      skipThreatMatch: false,
    });

    const paused = await call('PUT', `/${created.id}/paused`, editor, { paused: true });
    expect(paused.json()).toMatchObject({ paused: true });
    const resumed = await call('PUT', `/${created.id}/paused`, editor, { paused: false });
    expect(resumed.json()).toMatchObject({ paused: false });

    expect((await call('DELETE', `/${created.id}`, editor)).statusCode).toBe(204);
    const gone = await call('GET', `/${created.id}`, viewer);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().key).toBe('CLASSIFIER_NOT_FOUND');

    const actions = (
      await ctx.database.db
        .select({ action: activityLog.action })
        .from(activityLog)
        .where(eq(activityLog.targetId, created.id))
    ).map((row) => row.action);
    expect(actions.sort()).toEqual([
      'classifier.created',
      'classifier.deleted',
      'classifier.paused',
      'classifier.resumed',
      'classifier.updated',
    ]);
  });

  it('keeps names unique in an organisation, any case, but not across organisations', async () => {
    const name = fresh('Unique');
    await create({ name, query: 'host:a', skipThreatMatch: true });
    const duplicate = await call('POST', '', editor, { name: name.toUpperCase(), query: 'host:b' });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toMatchObject({ key: 'CLASSIFIER_NAME_TAKEN', field: 'name' });

    const second = await create({ name: fresh('Unique'), query: 'host:c' });
    const rename = await call('PUT', `/${second.id}`, editor, { name: name.toLowerCase(), query: 'host:c' });
    expect(rename.statusCode).toBe(409);
    expect((await rowsNamed([name.toLowerCase()])).length).toBe(0);

    await create({ name, query: 'host:a' }, outsider, '', otherOrgId);
  });

  it('refuses bad queries with the position of the fault and writes nothing', async () => {
    for (const [query, position] of [
      ['host:(a', 5],
      ['*', 0],
    ] as const) {
      const name = fresh('Bad query');
      const response = await call('POST', '', editor, { name, query });
      expect(response.statusCode, query).toBe(400);
      expect(response.json()).toMatchObject({ key: 'CLASSIFIER_INVALID_QUERY', field: 'query' });
      expect(typeof response.json().params.position).toBe('number');
      expect(response.json().params.position).toBeGreaterThanOrEqual(position);
      expect(await rowsNamed([name])).toEqual([]);
    }
    const long = await call('POST', '', editor, { name: fresh(), query: `host:${'a'.repeat(2048)}` });
    expect(long.statusCode).toBe(400);
  });

  it('refuses invalid, reserved, too many and too long metadata attributes', async () => {
    const cases: [Record<string, string>, string, Record<string, unknown>][] = [
      [{ 'business-unit': 'x' }, 'CLASSIFIER_INVALID_METADATA_KEY', { key: 'business-unit' }],
      [{ 'a.b': 'x' }, 'CLASSIFIER_INVALID_METADATA_KEY', { key: 'a.b' }],
      [{ '': 'x' }, 'CLASSIFIER_INVALID_METADATA_KEY', { key: '' }],
      [{ ['k'.repeat(201)]: 'x' }, 'CLASSIFIER_INVALID_METADATA_KEY', {}],
      [{ host: 'x' }, 'CLASSIFIER_METADATA_KEY_RESERVED', { key: 'host' }],
      [{ src_ip: 'x' }, 'CLASSIFIER_METADATA_KEY_RESERVED', { key: 'src_ip' }],
      [{ srcIp: 'x' }, 'CLASSIFIER_METADATA_KEY_RESERVED', { key: 'srcIp' }],
      [{ message: 'x' }, 'CLASSIFIER_METADATA_KEY_RESERVED', { key: 'message' }],
      [{ ip: 'x' }, 'CLASSIFIER_METADATA_KEY_RESERVED', { key: 'ip' }],
      [{ note: 'v'.repeat(1001) }, 'CLASSIFIER_METADATA_VALUE_TOO_LONG', { key: 'note', maxLength: 1000 }],
      [
        Object.fromEntries(Array.from({ length: 51 }, (_, index) => [`k${index}`, 'v'])),
        'CLASSIFIER_TOO_MANY_METADATA',
        { max: 50 },
      ],
    ];
    for (const [metadata, key, params] of cases) {
      const name = fresh('Bad metadata');
      const response = await call('POST', '', editor, { name, query: 'host:a', metadata });
      expect(response.statusCode, key).toBe(400);
      expect(response.json()).toMatchObject({ key, field: 'metadata', params });
      expect(await rowsNamed([name])).toEqual([]);
    }
    const good = await create({
      name: fresh(),
      query: 'host:a',
      metadata: { ['k'.repeat(200)]: 'v'.repeat(1000) },
    });
    const bad = await call('PUT', `/${good.id}`, editor, {
      name: good.name,
      query: 'host:a',
      metadata: { 'x y': '1' },
    });
    expect(bad.json().key).toBe('CLASSIFIER_INVALID_METADATA_KEY');
    expect((await call('GET', `/${good.id}`, editor)).json().metadata).toEqual({
      ['k'.repeat(200)]: 'v'.repeat(1000),
    });
  });

  it('allows accelerated archive only with the ACCELERATED_ARCHIVE_DATA_TIER product', async () => {
    const name = fresh('Archive');
    const refused = await call('POST', '', editor, { name, query: 'host:a', acceleratedArchive: true });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({
      key: 'CLASSIFIER_ACCELERATED_ARCHIVE_NOT_ENTITLED',
      field: 'acceleratedArchive',
    });
    expect(await rowsNamed([name])).toEqual([]);
    const allowed = await create(
      { name, query: 'host:a', acceleratedArchive: true },
      archiveEditor,
      '',
      archiveOrgId,
    );
    expect(allowed.acceleratedArchive).toBe(true);
  });

  it('adds classifiers last and reorders them only with every id once', async () => {
    const org = (await seedOrg(ctx.database.db)).id;
    const user = await seedUser(ctx.database.db, { homeOrgId: org, permissions: ['CLASSIFIER_EDIT'] });
    const [a, b, c] = [
      await create({ name: 'A', query: 'host:a' }, user, '', org),
      await create({ name: 'B', query: 'host:b' }, user, '', org),
      await create({ name: 'C', query: 'host:c' }, user, '', org),
    ];
    expect([a!.position, b!.position, c!.position]).toEqual([1, 2, 3]);

    for (const ids of [
      [c!.id, a!.id],
      [c!.id, a!.id, a!.id],
      [c!.id, a!.id, b!.id, crypto.randomUUID()],
    ]) {
      const refused = await call('PUT', '/order', user, { ids }, org);
      expect(refused.statusCode).toBe(400);
      expect(refused.json()).toMatchObject({ key: 'CLASSIFIER_ORDER_MISMATCH', field: 'ids' });
    }
    expect((await list(user, '', org)).items.map((item) => item.name)).toEqual(['A', 'B', 'C']);

    const moved = await call('PUT', '/order', user, { ids: [c!.id, a!.id, b!.id] }, org);
    expect(moved.statusCode, moved.body).toBe(204);
    const page = await list(user, '?pageSize=2&pageNumber=1', org);
    expect(page.total).toBe(3);
    expect(page.items.map((item) => [item.name, item.position])).toEqual([
      ['C', 1],
      ['A', 2],
    ]);
    expect((await list(user, '?pageSize=2&pageNumber=2', org)).items.map((item) => item.name)).toEqual(['B']);
  });

  it('refuses callers without the permission (403) and other organisations’ classifiers (404)', async () => {
    const own = await create({ name: fresh(), query: 'host:a' });
    const foreign = await create({ name: fresh(), query: 'host:a' }, outsider, '', otherOrgId);

    const noPermission = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
    expect((await call('GET', '', noPermission)).statusCode).toBe(403);
    expect((await call('GET', `/${own.id}`, noPermission)).statusCode).toBe(403);
    for (const [method, path, payload] of [
      ['POST', '', { name: fresh(), query: 'host:a' }],
      ['PUT', `/${own.id}`, { name: fresh(), query: 'host:a' }],
      ['PUT', `/${own.id}/paused`, { paused: true }],
      ['PUT', '/order', { ids: [own.id] }],
      ['DELETE', `/${own.id}`, undefined],
    ] as const) {
      const response = await call(method, path, viewer, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().key).toBe('PERMISSION_DENIED');
    }

    for (const [method, path, payload] of [
      ['GET', `/${foreign.id}`, undefined],
      ['PUT', `/${foreign.id}`, { name: fresh(), query: 'host:a' }],
      ['PUT', `/${foreign.id}/paused`, { paused: true }],
      ['DELETE', `/${foreign.id}`, undefined],
    ] as const) {
      const response = await call(method, path, editor, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(404);
      expect(response.json().key).toBe('CLASSIFIER_NOT_FOUND');
    }
    const stolen = await call('PUT', '/order', editor, { ids: [foreign.id] });
    expect(stolen.json().key).toBe('CLASSIFIER_ORDER_MISMATCH');
    const [untouched] = await ctx.database.db
      .select()
      .from(classifiers)
      .where(eq(classifiers.id, foreign.id));
    expect(untouched).toMatchObject({ paused: false, name: foreign.name, orgId: otherOrgId });
    expect((await list(editor)).items.map((item) => item.id)).not.toContain(foreign.id);

    const intrusion = await call('GET', '', editor, undefined, otherOrgId);
    expect(intrusion.statusCode).toBe(403);
    expect(intrusion.json().key).toBe('ORG_NOT_AUTHORISED');
  });
});

describe('classifier library', () => {
  it('lets provider staff keep the library, and shows it read only to other engineers', async () => {
    const name = fresh('Library');
    const created = await create(
      { name, query: 'data_source:corebank', metadata: { business_unit: 'retail' } },
      providerEngineer,
      '/library',
    );
    expect(created).toMatchObject({ library: true, editable: true, position: 1 });
    const [row] = await rowsNamed([name]);
    expect(row!.orgId).toBeNull();
    // Library classifiers are not among the organisation's own.
    expect((await list(editor)).items.map((item) => item.id)).not.toContain(created.id);

    const seen = await list(clientEngineer, '/library');
    expect(seen.editable).toBe(false);
    expect(seen.items.find((item) => item.id === created.id)).toMatchObject({ name, editable: false });

    const changed = await call('PUT', `/library/${created.id}`, providerEngineer, {
      name,
      query: 'data_source:corebank OR data_source:cards',
      metadata: { business_unit: 'retail' },
    });
    expect(changed.statusCode, changed.body).toBe(200);

    for (const [method, path, payload] of [
      ['POST', '/library', { name: fresh(), query: 'host:a' }],
      ['PUT', `/library/${created.id}`, { name: fresh(), query: 'host:a' }],
      ['DELETE', `/library/${created.id}`, undefined],
      ['PUT', '/library/order', { ids: [created.id] }],
    ] as const) {
      const response = await call(method, path, clientEngineer, payload);
      expect(response.statusCode, `${method} ${path}`).toBe(403);
      expect(response.json().key).toBe('CLASSIFIER_LIBRARY_READ_ONLY');
    }
    const pause = await call('PUT', `/library/${created.id}/paused`, clientEngineer, { paused: true });
    expect(pause.statusCode).toBe(403);
    expect(pause.json().key).toBe('CLASSIFIER_LIBRARY_PAUSE_DENIED');
    const [unchanged] = await rowsNamed([name]);
    expect(unchanged).toMatchObject({ paused: false, query: 'data_source:corebank OR data_source:cards' });

    const paused = await call('PUT', `/library/${created.id}/paused`, providerEngineer, { paused: true });
    expect(paused.statusCode).toBe(200);
    expect(paused.json()).toMatchObject({ paused: true, library: true });

    // An organisation's routes do not reach library classifiers.
    expect((await call('PUT', `/${created.id}/paused`, editor, { paused: false })).statusCode).toBe(404);
    expect((await call('DELETE', `/${created.id}`, editor)).statusCode).toBe(404);

    expect((await call('DELETE', `/library/${created.id}`, providerEngineer)).statusCode).toBe(204);
    expect(await rowsNamed([name])).toEqual([]);
    const audited = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(and(eq(activityLog.targetId, created.id), eq(activityLog.action, 'classifier.paused')));
    expect(audited.length).toBe(1);
  });

  it('needs TRAC_ENGINEER, CLASSIFIER_VIEW and the classifierLibrary feature', async () => {
    const noEngineer = await call('GET', '/library', editor);
    expect(noEngineer.statusCode).toBe(403);
    expect(noEngineer.json().key).toBe('PERMISSION_DENIED');
    const noView = await call('GET', '/library', engineerWithoutView);
    expect(noView.statusCode).toBe(403);
    expect(noView.json().key).toBe('PERMISSION_DENIED');
    const featureOff = await call('GET', '/library', providerEngineer, undefined, noLibraryOrgId);
    expect(featureOff.statusCode).toBe(403);
    expect(featureOff.json().key).toBe('FEATURE_NOT_ENABLED');
    const name = fresh();
    const write = await call('POST', '/library', providerEngineer, { name, query: 'host:a' }, noLibraryOrgId);
    expect(write.json().key).toBe('FEATURE_NOT_ENABLED');
    expect(await rowsNamed([name])).toEqual([]);
  });

  it('keeps library names unique and allows accelerated archive in the library', async () => {
    const name = fresh('Library unique');
    const created = await create(
      { name, query: 'host:a', acceleratedArchive: true },
      providerEngineer,
      '/library',
    );
    expect(created.acceleratedArchive).toBe(true);
    const duplicate = await call('POST', '/library', providerEngineer, {
      name: name.toUpperCase(),
      query: 'host:b',
    });
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json().key).toBe('CLASSIFIER_NAME_TAKEN');
    // The same name in an organisation is another list.
    await create({ name, query: 'host:a' });
  });
});
