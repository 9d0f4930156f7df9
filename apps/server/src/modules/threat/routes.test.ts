import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { THREAT_RATINGS, THREAT_UPLOAD_MAX_FILE_BYTES } from '@vigil/contracts';
import {
  browserHeaders,
  createTestApp,
  type HttpMethod,
  orgRequest,
  type TestContext,
} from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { threatIndicators, threatRatings, threatSources } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let fraudOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let rater: SeededUser;
let rateViewer: SeededUser;
let outsider: SeededUser;
let fraudEditor: SeededUser;
let providerStaff: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  fraudOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['THREATMATCH_VIEW', 'THREATMATCH_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['THREATMATCH_VIEW'] });
  rater = await seedUser(db, { homeOrgId: orgId, permissions: ['RATE_THREAT_VIEW', 'RATE_THREAT_EDIT'] });
  rateViewer = await seedUser(db, { homeOrgId: orgId, permissions: ['RATE_THREAT_VIEW'] });
  outsider = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['THREATMATCH_VIEW', 'THREATMATCH_EDIT', 'RATE_THREAT_VIEW', 'RATE_THREAT_EDIT'],
  });
  fraudEditor = await seedUser(db, {
    homeOrgId: fraudOrgId,
    permissions: ['THREATMATCH_VIEW', 'THREATMATCH_EDIT'],
  });
  providerStaff = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', 'THREATMATCH_VIEW', 'THREATMATCH_EDIT'],
    authorisedOrgIds: [orgId, otherOrgId, fraudOrgId],
  });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const MD5 = 'D41D8CD98F00B204E9800998ECF8427E';

describe('threat ratings', () => {
  it('rates hosts and signatures, answers lookups and clears', async () => {
    const host = await call('PUT', '/threat-rating', rater, { subject: 'evil.example.com', rating: 'HIGH' });
    expect(host.statusCode).toBe(200);
    expect(host.json()).toMatchObject({ subject: 'evil.example.com', subjectType: 'HOST', rating: 'HIGH' });
    const signature = await call('PUT', '/threat-rating', rater, { subject: MD5, rating: 'LOW' });
    expect(signature.json()).toMatchObject({
      subject: MD5.toLowerCase(),
      subjectType: 'SIGNATURE',
      signatureType: 'MD5',
      rating: 'LOW',
      ignored: false,
    });
    // Rating again replaces the rating.
    await call('PUT', '/threat-rating', rater, { subject: 'EVIL.example.com', rating: 'MEDIUM' });

    const lookup = await call('POST', '/threat-ratings/lookup', rateViewer, {
      subjects: ['evil.example.com', MD5.toLowerCase(), 'unrated.example.com'],
    });
    expect(lookup.statusCode).toBe(200);
    expect(lookup.json().items.map((item: { rating: string | null }) => item.rating)).toEqual([
      'MEDIUM',
      'LOW',
      null,
    ]);

    const cleared = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}/threat-rating?subject=${MD5}`,
      headers: browserHeaders(rater.cookie),
    });
    expect(cleared.statusCode).toBe(204);
    const rows = await ctx.database.db.select().from(threatRatings).where(eq(threatRatings.orgId, orgId));
    expect(rows.map((row) => [row.subject, row.rating])).toEqual([['evil.example.com', 'MEDIUM']]);
    const actions = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), like(activityLog.action, 'threat-rating.%')));
    expect(actions.map((row) => row.action).sort()).toEqual([
      'threat-rating.cleared',
      'threat-rating.set',
      'threat-rating.set',
      'threat-rating.set',
    ]);
  });

  it('marks harmless-and-exclude as HARMLESS and ignored, for a month or forever', async () => {
    const until = new Date(Date.now() + 31 * 24 * 3600 * 1000).toISOString();
    const month = await call('PUT', '/threat-rating', rater, {
      subject: 'printer.local',
      rating: 'HARMLESS',
      ignore: { until },
    });
    expect(month.json()).toMatchObject({ rating: 'HARMLESS', ignored: true, ignoreUntil: until });
    const forever = await call('PUT', '/threat-rating', rater, {
      subject: 'scanner.local',
      rating: 'HARMLESS',
      ignore: { until: null },
    });
    expect(forever.json()).toMatchObject({ rating: 'HARMLESS', ignored: true, ignoreUntil: null });
    const notHarmless = await call('PUT', '/threat-rating', rater, {
      subject: 'other.local',
      rating: 'LOW',
      ignore: { until: null },
    });
    expect([notHarmless.statusCode, notHarmless.json().key]).toEqual([
      400,
      'THREAT_RATING_IGNORE_NOT_HARMLESS',
    ]);
  });

  it('refuses bad ratings and clearing what is not rated with the spec keys', async () => {
    const badHost = await call('PUT', '/threat-rating', rater, { subject: 'a.example', rating: 'SEVERE' });
    expect(badHost.statusCode).toBe(400);
    expect(badHost.json()).toMatchObject({
      key: 'ERROR_RATING_THREAT_HOST',
      validValues: [...THREAT_RATINGS],
    });
    const badSignature = await call('PUT', '/threat-rating', rater, {
      subject: 'ab'.repeat(20),
      rating: 'x',
    });
    expect(badSignature.json().key).toBe('ERROR_RATING_THREAT_SIGNATURE');
    const unrateHost = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}/threat-rating?subject=never.example`,
      headers: browserHeaders(rater.cookie),
    });
    expect([unrateHost.statusCode, unrateHost.json().key]).toEqual([404, 'ERROR_UNRATING_THREAT_HOST']);
    const unrateSignature = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/org/${orgId}/threat-rating?subject=${'cd'.repeat(32)}`,
      headers: browserHeaders(rater.cookie),
    });
    expect([unrateSignature.statusCode, unrateSignature.json().key]).toEqual([
      404,
      'ERROR_UNRATING_THREAT_SIGNATURE',
    ]);
    const stored = await ctx.database.db
      .select()
      .from(threatRatings)
      .where(eq(threatRatings.subject, 'a.example'));
    expect(stored).toEqual([]);
  });

  it('keeps ratings per organisation and refuses without the permission', async () => {
    await call('PUT', '/threat-rating', rater, { subject: 'mine.example', rating: 'HIGH' });
    const lookup = await call(
      'POST',
      '/threat-ratings/lookup',
      outsider,
      { subjects: ['mine.example'] },
      otherOrgId,
    );
    expect(lookup.json().items[0].rating).toBeNull();
    const foreign = await call('PUT', '/threat-rating', outsider, { subject: 'x.example', rating: 'HIGH' });
    expect(foreign.statusCode).toBe(403);
    const viewOnly = await call('PUT', '/threat-rating', rateViewer, {
      subject: 'x.example',
      rating: 'HIGH',
    });
    expect([viewOnly.statusCode, viewOnly.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const noRating = await call('POST', '/threat-ratings/lookup', viewer, { subjects: ['mine.example'] });
    expect(noRating.statusCode).toBe(403);
  });
});

interface SourceJson {
  id: string;
  name: string;
  subscribed: boolean;
  enabled: boolean;
  provider: boolean;
  editable: boolean;
  indicatorCount: number;
}

const source = (overrides: object = {}) => ({ name: 'Feed', type: 'COMMERCIAL', ...overrides });

describe('threat sources', () => {
  let providerA: SourceJson;
  let providerB: SourceJson;

  beforeAll(async () => {
    providerA = (
      await call('POST', '/threat-source', providerStaff, source({ name: 'Alpha intel', provider: true }))
    ).json();
    providerB = (
      await call('POST', '/threat-source', providerStaff, source({ name: 'Beta intel', provider: true }))
    ).json();
  });

  it('lists provider and own sources subscribed first, then enabled, then by name', async () => {
    expect(providerA.provider).toBe(true);
    const own = await call(
      'POST',
      '/threat-source',
      editor,
      source({ name: 'Zulu own', url: 'https://feed.example' }),
    );
    expect(own.statusCode).toBe(201);
    expect(own.json()).toMatchObject({ provider: false, subscribed: true, editable: true });
    const disabled = (
      await call('POST', '/threat-source', editor, source({ name: 'Own off', enabled: false }))
    ).json();
    const subscribed = await call('PUT', `/threat-source/${providerB.id}/subscription`, editor, {
      subscribed: true,
    });
    expect(subscribed.json()).toMatchObject({ subscribed: true, editable: false });

    const list = await call('GET', '/threat-sources', viewer);
    expect(list.statusCode).toBe(200);
    const names = list.json().items.map((item: SourceJson) => item.name);
    expect(names).toEqual(['Beta intel', 'Zulu own', 'Own off', 'Alpha intel']);
    expect(list.json().items.find((item: SourceJson) => item.id === disabled.id).enabled).toBe(false);

    const searched = await call('GET', '/threat-sources?search=INTEL', viewer);
    expect(searched.json().items.map((item: SourceJson) => item.name)).toEqual(['Beta intel', 'Alpha intel']);
    const foreign = await call('GET', '/threat-sources', outsider, undefined, otherOrgId);
    expect(foreign.json().items.map((item: SourceJson) => item.name)).toEqual(['Alpha intel', 'Beta intel']);

    const unsubscribed = await call('PUT', `/threat-source/${providerB.id}/subscription`, editor, {
      subscribed: false,
    });
    expect(unsubscribed.json().subscribed).toBe(false);
    const ownSubscription = await call('PUT', `/threat-source/${own.json().id}/subscription`, editor, {
      subscribed: false,
    });
    expect([ownSubscription.statusCode, ownSubscription.json().key]).toEqual([
      409,
      'THREAT_SOURCE_NOT_PROVIDER',
    ]);
  });

  it('edits, toggles and deletes own sources; provider sources only by provider staff', async () => {
    const created = (await call('POST', '/threat-source', editor, source({ name: 'Edit me' }))).json();
    const taken = await call('POST', '/threat-source', editor, source({ name: 'EDIT ME' }));
    expect([taken.statusCode, taken.json().key]).toEqual([409, 'THREAT_SOURCE_NAME_TAKEN']);
    const edited = await call(
      'PUT',
      `/threat-source/${created.id}`,
      editor,
      source({ name: 'Edited', description: 'd' }),
    );
    expect(edited.json()).toMatchObject({ name: 'Edited', description: 'd' });
    const off = await call('PUT', `/threat-source/${created.id}/enabled`, editor, { enabled: false });
    expect(off.json().enabled).toBe(false);

    const providerEdit = await call(
      'PUT',
      `/threat-source/${providerA.id}`,
      editor,
      source({ name: 'Mine now' }),
    );
    expect([providerEdit.statusCode, providerEdit.json().key]).toEqual([
      403,
      'THREAT_SOURCE_PROVIDER_READ_ONLY',
    ]);
    const providerDelete = await call('DELETE', `/threat-source/${providerA.id}`, editor);
    expect(providerDelete.statusCode).toBe(403);
    const providerCreate = await call(
      'POST',
      '/threat-source',
      editor,
      source({ name: 'P', provider: true }),
    );
    expect([providerCreate.statusCode, providerCreate.json().key]).toEqual([
      403,
      'THREAT_SOURCE_PROVIDER_READ_ONLY',
    ]);
    const byStaff = await call(
      'PUT',
      `/threat-source/${providerA.id}`,
      providerStaff,
      source({ name: 'Alpha intel', description: 'x' }),
    );
    expect(byStaff.statusCode).toBe(200);

    const badUrl = await call('POST', '/threat-source', editor, source({ name: 'Bad', url: 'ftp:/nope' }));
    expect(badUrl.statusCode).toBe(400);

    expect((await call('DELETE', `/threat-source/${created.id}`, editor)).statusCode).toBe(204);
    const gone = await call('GET', `/threat-source/${created.id}`, viewer);
    expect([gone.statusCode, gone.json().key]).toEqual([404, 'THREAT_SOURCE_NOT_FOUND']);
    const audit = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.targetId, created.id));
    expect(audit.map((row) => row.action).sort()).toEqual([
      'threat-source.created',
      'threat-source.deleted',
      'threat-source.disabled',
      'threat-source.updated',
    ]);
  });

  it("refuses other organisations' sources (404) and callers without the permission (403)", async () => {
    const own = (await call('POST', '/threat-source', editor, source({ name: 'Private' }))).json();
    for (const [method, path, body] of [
      ['GET', `/threat-source/${own.id}`, undefined],
      ['PUT', `/threat-source/${own.id}`, source({ name: 'Stolen' })],
      ['DELETE', `/threat-source/${own.id}`, undefined],
      ['GET', `/threat-source/${own.id}/indicators`, undefined],
      ['POST', `/threat-source/${own.id}/indicator`, { type: 'DOMAIN', value: 'a.example', rating: 'HIGH' }],
    ] as const) {
      const response = await call(method, path, outsider, body, otherOrgId);
      expect([method, path, response.statusCode, response.json().key]).toEqual([
        method,
        path,
        404,
        'THREAT_SOURCE_NOT_FOUND',
      ]);
    }
    const byViewer = await call('POST', '/threat-source', viewer, source({ name: 'Viewer' }));
    expect([byViewer.statusCode, byViewer.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    expect((await call('DELETE', `/threat-source/${own.id}`, viewer)).statusCode).toBe(403);
    const stored = await ctx.database.db.select().from(threatSources).where(eq(threatSources.name, 'Viewer'));
    expect(stored).toEqual([]);
  });

  it('keeps the fraud domain to organisations holding the fraud product', async () => {
    const refused = await call('GET', '/threat-sources?domain=fraud', viewer);
    expect([refused.statusCode, refused.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
    const createRefused = await call(
      'POST',
      '/threat-source',
      editor,
      source({ name: 'F', domain: 'fraud' }),
    );
    expect(createRefused.statusCode).toBe(403);
    const fraud = await call(
      'POST',
      '/threat-source',
      fraudEditor,
      source({ name: 'Mule list', domain: 'fraud' }),
      fraudOrgId,
    );
    expect(fraud.statusCode).toBe(201);
    const listed = await call('GET', '/threat-sources?domain=fraud', fraudEditor, undefined, fraudOrgId);
    expect(listed.json().items.map((item: SourceJson) => item.name)).toEqual(['Mule list']);
    const security = await call('GET', '/threat-sources', fraudEditor, undefined, fraudOrgId);
    expect(security.json().items.map((item: SourceJson) => item.name)).not.toContain('Mule list');
    const providerFraud = await call(
      'POST',
      '/threat-source',
      providerStaff,
      source({ name: 'PF', domain: 'fraud', provider: true }),
      fraudOrgId,
    );
    expect(providerFraud.statusCode).toBe(201);
    const hidden = await call('GET', `/threat-source/${providerFraud.json().id}`, viewer);
    expect([hidden.statusCode, hidden.json().key]).toEqual([403, 'PRODUCT_NOT_ENTITLED']);
  });
});

describe('indicators', () => {
  let sourceId: string;
  beforeAll(async () => {
    sourceId = (await call('POST', '/threat-source', editor, source({ name: 'Indicators' }))).json().id;
  });

  const add = (body: object, user = editor) =>
    call('POST', `/threat-source/${sourceId}/indicator`, user, body);
  const window = { validFrom: '2024-01-01T00:00:00Z', expiresAt: '2030-01-01T00:00:00Z' };

  it('adds indicators of every type in their normal form and lists them', async () => {
    const ip = await add({
      type: 'IP',
      value: '203.0.113.0/24',
      rating: 'high',
      severity: 'critical',
      ...window,
    });
    expect(ip.statusCode).toBe(201);
    expect(ip.json()).toMatchObject({ value: '203.0.113.0/24', rating: 'HIGH', severity: 'CRITICAL' });
    expect((await add({ type: 'DOMAIN', value: 'Evil.Example.', rating: 'MEDIUM' })).json().value).toBe(
      'evil.example',
    );
    expect((await add({ type: 'URL', value: 'HTTP://Bad.Example/Path', rating: 'LOW' })).json().value).toBe(
      'http://bad.example/Path',
    );
    expect(
      (await add({ type: 'HASH', value: 'AB'.repeat(32), rating: 'LOW', reason: 'dropper' })).json().value,
    ).toBe('ab'.repeat(32));
    expect((await add({ type: 'EMAIL', value: 'Fraud@Evil.Example', rating: 'LOW' })).json().value).toBe(
      'fraud@evil.example',
    );

    const page = await call('GET', `/threat-source/${sourceId}/indicators?pageSize=2`, viewer);
    expect(page.json().total).toBe(5);
    expect(page.json().items).toHaveLength(2);
    const domains = await call('GET', `/threat-source/${sourceId}/indicators?type=DOMAIN`, viewer);
    expect(domains.json().items.map((item: { value: string }) => item.value)).toEqual(['evil.example']);
    const searched = await call('GET', `/threat-source/${sourceId}/indicators?search=dropper`, viewer);
    expect(searched.json().items.map((item: { type: string }) => item.type)).toEqual(['HASH']);
    const listed = await call('GET', '/threat-sources', viewer);
    expect(listed.json().items.find((item: SourceJson) => item.id === sourceId).indicatorCount).toBe(5);
  });

  it('refuses invalid values, ratings, severities, missing IP times and duplicates', async () => {
    const cases: [object, number, string][] = [
      [{ type: 'IP', value: '300.1.1.1', rating: 'HIGH', ...window }, 400, 'THREAT_INDICATOR_INVALID_IP'],
      [{ type: 'IP', value: '10.0.0.0/33', rating: 'HIGH', ...window }, 400, 'THREAT_INDICATOR_INVALID_IP'],
      [{ type: 'IP', value: '10.0.0.1', rating: 'HIGH' }, 400, 'THREAT_INDICATOR_TIMES_REQUIRED'],
      [
        {
          type: 'IP',
          value: '10.0.0.1',
          rating: 'HIGH',
          validFrom: window.expiresAt,
          expiresAt: window.validFrom,
        },
        400,
        'THREAT_INDICATOR_TIMES_REQUIRED',
      ],
      [{ type: 'DOMAIN', value: 'not a domain', rating: 'HIGH' }, 400, 'THREAT_INDICATOR_INVALID_DOMAIN'],
      [{ type: 'URL', value: 'javascript:alert(1)', rating: 'HIGH' }, 400, 'THREAT_INDICATOR_INVALID_URL'],
      [{ type: 'HASH', value: 'abc', rating: 'HIGH' }, 400, 'THREAT_INDICATOR_INVALID_HEX'],
      [{ type: 'EMAIL', value: 'nobody', rating: 'HIGH' }, 400, 'THREAT_INDICATOR_INVALID_EMAIL'],
      [{ type: 'DOMAIN', value: 'ok.example', rating: 'SEVERE' }, 400, 'THREAT_INDICATOR_INVALID_RATING'],
      [
        { type: 'DOMAIN', value: 'ok.example', rating: 'LOW', severity: 'x' },
        400,
        'THREAT_INDICATOR_INVALID_SEVERITY',
      ],
      [{ type: 'DOMAIN', value: 'EVIL.example', rating: 'LOW' }, 409, 'THREAT_INDICATOR_DUPLICATE'],
    ];
    for (const [body, status, key] of cases) {
      const response = await add(body);
      expect([JSON.stringify(body), response.statusCode, response.json().key]).toEqual([
        JSON.stringify(body),
        status,
        key,
      ]);
    }
    const rating = await add({ type: 'DOMAIN', value: 'ok.example', rating: 'SEVERE' });
    expect(rating.json().validValues).toEqual(['HIGH', 'MEDIUM', 'LOW']);
    const stored = await ctx.database.db
      .select()
      .from(threatIndicators)
      .where(eq(threatIndicators.sourceId, sourceId));
    expect(stored).toHaveLength(5);
  });

  it('edits and deletes indicators; viewers and provider sources refused', async () => {
    const created = (await add({ type: 'DOMAIN', value: 'edit.example', rating: 'LOW' })).json();
    const edited = await call('PUT', `/threat-source/${sourceId}/indicator/${created.id}`, editor, {
      type: 'DOMAIN',
      value: 'edited.example',
      rating: 'HIGH',
      reason: 'phishing',
    });
    expect(edited.json()).toMatchObject({ value: 'edited.example', rating: 'HIGH', reason: 'phishing' });
    const clash = await call('PUT', `/threat-source/${sourceId}/indicator/${created.id}`, editor, {
      type: 'DOMAIN',
      value: 'evil.example',
      rating: 'HIGH',
    });
    expect(clash.statusCode).toBe(409);
    expect((await add({ type: 'DOMAIN', value: 'v.example', rating: 'LOW' }, viewer)).statusCode).toBe(403);
    expect(
      (await call('DELETE', `/threat-source/${sourceId}/indicator/${created.id}`, editor)).statusCode,
    ).toBe(204);
    const again = await call('DELETE', `/threat-source/${sourceId}/indicator/${created.id}`, editor);
    expect([again.statusCode, again.json().key]).toEqual([404, 'THREAT_INDICATOR_NOT_FOUND']);

    const provider = (
      await call('POST', '/threat-source', providerStaff, source({ name: 'Prov ind', provider: true }))
    ).json();
    const refused = await call('POST', `/threat-source/${provider.id}/indicator`, editor, {
      type: 'DOMAIN',
      value: 'p.example',
      rating: 'LOW',
    });
    expect([refused.statusCode, refused.json().key]).toEqual([403, 'THREAT_SOURCE_PROVIDER_READ_ONLY']);
  });
});

const BOUNDARY = '----vigil-threat-boundary';
const multipart = (filename: string, content: string | Buffer) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: text/csv\r\n\r\n',
    ),
    Buffer.isBuffer(content) ? content : Buffer.from(content),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);

describe('indicator upload', () => {
  let sourceId: string;
  beforeAll(async () => {
    sourceId = (await call('POST', '/threat-source', editor, source({ name: 'Uploads' }))).json().id;
  });

  const upload = (type: string, content: string | Buffer, user = editor, id = sourceId, org = orgId) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/org/${org}/threat-source/${id}/indicators/upload?type=${type}`,
      headers: {
        ...browserHeaders(user.cookie),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: multipart('indicators.csv', content),
    });

  const count = async () =>
    (await ctx.database.db.select().from(threatIndicators).where(eq(threatIndicators.sourceId, sourceId)))
      .length;

  it('lists every bad line and stores nothing', async () => {
    const csv = [
      'value,rating,severity,reason,validFrom,expires',
      '198.51.100.7,HIGH,,scanner,2024-01-01T00:00:00Z,2030-01-01T00:00:00Z',
      '198.51.100.8,HIGH,,no times,,',
      'not-an-ip,LOW,,,2024-01-01T00:00:00Z,2030-01-01T00:00:00Z',
      '198.51.100.9,SEVERE,LOUD,,2024-01-01T00:00:00Z,2030-01-01T00:00:00Z',
      '198.51.100.7,LOW,,again,2024-01-01T00:00:00Z,2030-01-01T00:00:00Z',
    ].join('\n');
    const response = await upload('IP', csv);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      stored: 0,
      totalErrors: 5,
      errors: [
        { line: 3, field: 'validFrom', key: 'THREAT_INDICATOR_TIMES_REQUIRED', value: '' },
        { line: 4, field: 'value', key: 'THREAT_INDICATOR_INVALID_IP', value: 'not-an-ip' },
        {
          line: 5,
          field: 'rating',
          key: 'THREAT_INDICATOR_INVALID_RATING',
          value: 'SEVERE',
          validValues: ['HIGH', 'MEDIUM', 'LOW'],
        },
        {
          line: 5,
          field: 'severity',
          key: 'THREAT_INDICATOR_INVALID_SEVERITY',
          value: 'LOUD',
          validValues: ['CRITICAL', 'HIGH', 'MEDIUM', 'LOW', 'INFO'],
        },
        { line: 6, field: 'value', key: 'THREAT_INDICATOR_DUPLICATE', value: '198.51.100.7' },
      ],
    });
    expect(await count()).toBe(0);
  });

  it('stores a valid file and then refuses its values as duplicates', async () => {
    const csv = 'value,rating,reason\nbad.example,HIGH,phishing\nWorse.Example,LOW,\n\n';
    const stored = await upload('DOMAIN', csv);
    expect(stored.json()).toEqual({ stored: 2, errors: [], totalErrors: 0 });
    expect(await count()).toBe(2);
    const again = await upload('DOMAIN', 'value,rating\nworse.example,HIGH\n');
    expect(again.json()).toMatchObject({
      stored: 0,
      errors: [{ line: 2, key: 'THREAT_INDICATOR_DUPLICATE', value: 'worse.example' }],
    });
    expect(await count()).toBe(2);
  });

  it('refuses unsupported types, missing columns, malformed and too large files', async () => {
    const type = await upload('PHONE', 'value,rating\n1,HIGH\n');
    expect(type.statusCode).toBe(400);
    expect(type.json()).toMatchObject({
      key: 'THREAT_UPLOAD_UNSUPPORTED_TYPE',
      validValues: ['IP', 'DOMAIN', 'URL', 'HASH', 'EMAIL'],
    });
    const columns = await upload('HASH', 'hash,rating\nab,HIGH\n');
    expect([columns.statusCode, columns.json().key, columns.json().params.columns]).toEqual([
      400,
      'THREAT_UPLOAD_MISSING_COLUMNS',
      'value',
    ]);
    const malformed = await upload('HASH', 'value,rating\n"open,HIGH\n');
    expect([malformed.statusCode, malformed.json().key]).toEqual([400, 'THREAT_UPLOAD_MALFORMED']);
    const large = await upload('HASH', Buffer.alloc(THREAT_UPLOAD_MAX_FILE_BYTES + 1, 'a'));
    expect([large.statusCode, large.json().key]).toEqual([413, 'THREAT_UPLOAD_TOO_LARGE']);
    const none = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/threat-source/${sourceId}/indicators/upload?type=HASH`,
      headers: {
        ...browserHeaders(editor.cookie),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: Buffer.from(`--${BOUNDARY}--\r\n`),
    });
    expect([none.statusCode, none.json().key]).toEqual([400, 'THREAT_UPLOAD_NO_FILE']);
    const two = await ctx.app.inject({
      method: 'POST',
      url: `/api/org/${orgId}/threat-source/${sourceId}/indicators/upload?type=HASH`,
      headers: {
        ...browserHeaders(editor.cookie),
        'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
      },
      payload: Buffer.concat([
        multipart('a.csv', 'value,rating\n').subarray(0, -`--${BOUNDARY}--\r\n`.length),
        multipart('b.csv', 'value,rating\n'),
      ]),
    });
    expect([two.statusCode, two.json().key]).toEqual([400, 'THREAT_UPLOAD_TOO_MANY_FILES']);
    expect(await count()).toBe(2);
  });

  it('refuses viewers and other organisations', async () => {
    const byViewer = await upload('DOMAIN', 'value,rating\nv.example,HIGH\n', viewer);
    expect(byViewer.statusCode).toBe(403);
    const foreign = await upload('DOMAIN', 'value,rating\nv.example,HIGH\n', outsider, sourceId, otherOrgId);
    expect([foreign.statusCode, foreign.json().key]).toEqual([404, 'THREAT_SOURCE_NOT_FOUND']);
    expect(await count()).toBe(2);
  });
});
