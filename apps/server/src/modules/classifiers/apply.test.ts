import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { findAsset } from '../assets/repo';
import { createAsset } from '../assets/service';
import { createInputToken } from '../tokens/service';
import { classifiers } from './tables';

let ctx: TestContext;
let providerOrgId: string;
let providerEngineer: SeededUser;

interface Tenant {
  orgId: string;
  user: SeededUser;
  token: string;
}

beforeAll(async () => {
  ctx = await createTestApp();
  providerOrgId = (await seedOrg(ctx.database.db, { isProvider: true })).id;
  providerEngineer = await seedUser(ctx.database.db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ENGINEER', 'TRAC_USER', 'CLASSIFIER_EDIT'],
  });
});
afterAll(() => ctx.close());

/** A fresh organisation with an editor who may search, and an API token to send its events. */
async function tenant(productSkus: 'ACCELERATED_ARCHIVE_DATA_TIER'[] = []): Promise<Tenant> {
  const db = ctx.database.db;
  const orgId = (await seedOrg(db, { productSkus })).id;
  const user = await seedUser(db, { homeOrgId: orgId, permissions: ['CLASSIFIER_EDIT', 'EVENT_VIEW'] });
  const { secret } = await createInputToken(db, { orgId, userId: user.id }, 'API', { description: 'test' });
  return { orgId, user, token: secret };
}

async function classify(t: Tenant, payload: object) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/org/${t.orgId}/classifiers`,
    headers: browserHeaders(t.user.cookie),
    payload,
  });
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as { id: string };
}

async function ingest(t: Tenant, events: object[]) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/ingest/events',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${t.token}` },
    payload: JSON.stringify(events),
  });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toMatchObject({ accepted: events.length });
}

async function search(t: Tenant, query: string) {
  const response = await ctx.app.inject({
    method: 'POST',
    url: `/api/org/${t.orgId}/search`,
    headers: browserHeaders(t.user.cookie),
    payload: { query, intervalType: '24H', pageSize: 100 },
  });
  expect(response.statusCode, response.body).toBe(200);
  const { items } = response.json() as { items: { message: string }[] };
  return items.map((item) => item.message).sort();
}

const storedFlags = async (t: Tenant) => {
  const { rows } = (await ctx.database.db.execute(
    sql`SELECT message, flags FROM events WHERE org_id = ${t.orgId}::uuid`,
  )) as unknown as { rows: { message: string; flags: string[] }[] };
  return Object.fromEntries(rows.map((row) => [row.message, [...row.flags].sort()]));
};

describe('classifiers at ingest', () => {
  it('adds metadata that search finds, with the same matching as search', async () => {
    const t = await tenant();
    await classify(t, {
      name: 'Core banking',
      query: 'data_source:corebank AND (login OR fields.kind:auth*)',
      metadata: { business_unit: 'retail', tier: '1' },
    });
    await ingest(t, [
      { message: 'user login ok', dataSource: 'corebank' },
      { message: 'transfer', dataSource: 'corebank', fields: { fields: { kind: 'authorise' } } },
      { message: 'user login ok', dataSource: 'cards' },
      { message: 'balance', dataSource: 'corebank', fields: { business_unit: 'wholesale' } },
    ]);
    expect(await search(t, 'business_unit:retail')).toEqual(['transfer', 'user login ok']);
    expect(await search(t, 'business_unit:wholesale')).toEqual(['balance']);
    expect(await search(t, 'retail AND tier:1')).toEqual(['transfer', 'user login ok']);
  });

  it('drops events, stores flags and lets later classifiers see earlier metadata', async () => {
    const t = await tenant(['ACCELERATED_ARCHIVE_DATA_TIER']);
    await classify(t, { name: 'Health checks', query: '"GET /health"', dropEvent: true });
    await classify(t, { name: 'Proxy', query: 'host:proxy*', metadata: { zone: 'dmz' } });
    await classify(t, { name: 'DMZ', query: 'zone:dmz', skipThreatMatch: true, acceleratedArchive: true });
    await classify(t, { name: 'Noise', query: 'noisy', skipAnomalyDetection: true, skipThreatMatch: true });
    await ingest(t, [
      { message: 'GET /health 200', host: 'proxy-1' },
      { message: 'GET /login 200', host: 'proxy-1' },
      { message: 'noisy thing', host: 'proxy-2' },
      { message: 'noisy other', host: 'app-1' },
      { message: 'quiet', host: 'app-1' },
    ]);
    expect(await search(t, 'GET')).toEqual(['GET /login 200']);
    expect(await storedFlags(t)).toEqual({
      'GET /login 200': ['acceleratedArchive', 'skipThreatMatch'],
      'noisy other': ['skipAnomalyDetection', 'skipThreatMatch'],
      'noisy thing': ['acceleratedArchive', 'skipAnomalyDetection', 'skipThreatMatch'],
      quiet: [],
    });
  });

  it('applies classifiers in order: a later one overwrites an attribute, a drop hides the event', async () => {
    const t = await tenant();
    const first = await classify(t, { name: 'First', query: 'payments', metadata: { owner: 'first' } });
    const second = await classify(t, { name: 'Second', query: 'owner:first', metadata: { owner: 'second' } });
    await ingest(t, [{ message: 'payments one' }]);
    expect(await search(t, 'owner:second')).toEqual(['payments one']);

    // Reversed, the second no longer sees the first's attribute.
    const reorder = await ctx.app.inject({
      method: 'PUT',
      url: `/api/org/${t.orgId}/classifiers/order`,
      headers: browserHeaders(t.user.cookie),
      payload: { ids: [second.id, first.id] },
    });
    expect(reorder.statusCode).toBe(204);
    await ingest(t, [{ message: 'payments two' }]);
    expect(await search(t, 'owner:first')).toEqual(['payments two']);

    await classify(t, { name: 'Drop', query: 'owner:first', dropEvent: true });
    await classify(t, { name: 'After drop', query: 'payments', metadata: { seen: 'yes' } });
    await ingest(t, [{ message: 'payments three' }]);
    expect(await search(t, 'payments')).toEqual(['payments one', 'payments two']);
  });

  it('skips paused classifiers and stored queries that no longer compile', async () => {
    const t = await tenant();
    const paused = await classify(t, { name: 'Paused', query: 'alpha', dropEvent: true });
    const pause = await ctx.app.inject({
      method: 'PUT',
      url: `/api/org/${t.orgId}/classifiers/${paused.id}/paused`,
      headers: browserHeaders(t.user.cookie),
      payload: { paused: true },
    });
    expect(pause.statusCode).toBe(200);
    const broken = await classify(t, { name: 'Broken', query: 'alpha', dropEvent: true });
    await ctx.database.db
      .update(classifiers)
      .set({ query: 'alpha AND (' })
      .where(eq(classifiers.id, broken.id));
    await classify(t, { name: 'Working', query: 'alpha', metadata: { kept: 'yes' } });
    await ingest(t, [{ message: 'alpha event' }]);
    expect(await search(t, 'kept:yes')).toEqual(['alpha event']);
  });

  it('does not detect assets for events flagged to skip asset detection', async () => {
    const t = await tenant();
    const db = ctx.database.db;
    const asset = (name: string) =>
      createAsset(
        db,
        t.orgId,
        {
          name,
          importance: 'low',
          tag: null,
          owner: null,
          description: null,
          labels: [],
          hostnames: [name],
          ipMacPairs: [],
        },
        { userId: null },
      );
    const skipped = await asset('scanner-01');
    const seen = await asset('teller-01');
    await classify(t, { name: 'Scanner', query: 'host:scanner*', skipAssetDetection: true });
    await ingest(t, [
      { message: 'scan', host: 'scanner-01' },
      { message: 'work', host: 'teller-01' },
    ]);
    expect((await findAsset(db, t.orgId, skipped.id))!.lastSeen).toBeNull();
    expect((await findAsset(db, t.orgId, seen.id))!.lastSeen).not.toBeNull();
    expect(await search(t, 'scan')).toEqual(['scan']);
  });

  it('applies library classifiers to every organisation before its own, unless paused', async () => {
    const [a, b] = [await tenant(), await tenant()];
    const library = (method: 'POST' | 'PUT', path: string, payload: object) =>
      ctx.app.inject({
        method,
        url: `/api/org/${providerOrgId}/classifiers/library${path}`,
        headers: browserHeaders(providerEngineer.cookie),
        payload,
      });
    const created = await library('POST', '', {
      name: 'Cards',
      query: 'data_source:cards',
      metadata: { line: 'cards' },
    });
    expect(created.statusCode, created.body).toBe(201);
    await classify(a, { name: 'Own', query: 'line:cards', metadata: { seen_library: 'yes' } });
    await ingest(a, [{ message: 'card swipe', dataSource: 'cards' }]);
    await ingest(b, [{ message: 'card swipe', dataSource: 'cards' }]);
    expect(await search(a, 'line:cards AND seen_library:yes')).toEqual(['card swipe']);
    expect(await search(b, 'line:cards')).toEqual(['card swipe']);

    const pause = await library('PUT', `/${created.json().id}/paused`, { paused: true });
    expect(pause.statusCode).toBe(200);
    await ingest(b, [{ message: 'card refund', dataSource: 'cards' }]);
    expect(await search(b, 'line:cards')).toEqual(['card swipe']);
    expect(await search(b, 'refund')).toEqual(['card refund']);
  });
  it('sets a library classifier’s accelerated archive flag only where the tier is held', async () => {
    const created = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${providerOrgId}/classifiers/library`,
      headers: browserHeaders(providerEngineer.cookie),
      payload: {
        name: 'Archive probes',
        query: '"archive probe"',
        acceleratedArchive: true,
        skipThreatMatch: true,
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const [plain, tiered] = [await tenant(), await tenant(['ACCELERATED_ARCHIVE_DATA_TIER'])];
    await ingest(plain, [{ message: 'archive probe' }]);
    await ingest(tiered, [{ message: 'archive probe' }]);
    expect(await storedFlags(plain)).toEqual({ 'archive probe': ['skipThreatMatch'] });
    expect(await storedFlags(tiered)).toEqual({ 'archive probe': ['acceleratedArchive', 'skipThreatMatch'] });
  });
});
