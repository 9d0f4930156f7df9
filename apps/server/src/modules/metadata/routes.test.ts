import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { recordActivity } from '../../platform/audit/audit';
import { activityLog } from '../../platform/audit/tables';
import { tags } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let auditor: SeededUser;
let outsider: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['TAG_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['TAG_VIEW'] });
  auditor = await seedUser(db, { homeOrgId: orgId, permissions: ['ACTIVITY_LOG_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['TAG_EDIT', 'ACTIVITY_LOG_VIEW'] });
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });
const tagsPath = (org = orgId) => `/api/org/${org}/tags`;
const tagPath = (id?: string, org = orgId) => `/api/org/${org}/tag${id ? `/${id}` : ''}`;

async function createTag(name: string, extra: Record<string, unknown> = {}) {
  const response = await call('POST', tagPath(), editor, { name, ...extra });
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; name: string };
}

describe('tags', () => {
  it('creates, finds, renames, recolours, describes and deletes a tag, auditing each change', async () => {
    const created = await call('POST', tagPath(), editor, { name: '  Wire fraud ', color: 'red' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toMatchObject({ name: 'Wire fraud', color: 'red', description: '' });
    const { id } = created.json();

    expect((await call('GET', tagPath(id), viewer)).json()).toEqual(created.json());
    const changed = await call('PUT', tagPath(id), editor, {
      name: 'Wire transfer fraud',
      color: 'orange',
      description: 'Alerts about outgoing wires',
    });
    expect(changed.json()).toMatchObject({ name: 'Wire transfer fraud', color: 'orange' });
    expect((await call('DELETE', tagPath(id), editor)).statusCode).toBe(204);
    expect((await call('GET', tagPath(id), viewer)).statusCode).toBe(404);

    const log = await call('GET', `/api/org/${orgId}/activity-logs?action=tag.`, auditor);
    expect(log.json().items.map((row: { action: string }) => row.action)).toEqual([
      'tag.deleted',
      'tag.updated',
      'tag.created',
    ]);
    expect(log.json().items[1]).toMatchObject({
      actorUserId: editor.id,
      actorName: 'Test User',
      targetType: 'tag',
      targetId: id,
      details: {
        before: { name: 'Wire fraud', color: 'red', description: '' },
        after: { name: 'Wire transfer fraud', color: 'orange', description: 'Alerts about outgoing wires' },
      },
    });
  });

  it('keeps names unique in the organisation, ignoring case', async () => {
    const first = await createTag('Phishing');
    const clash = await call('POST', tagPath(), editor, { name: 'PHISHING ' });
    expect(clash.statusCode).toBe(409);
    expect(clash.json()).toMatchObject({ key: 'TAG_NAME_TAKEN', field: 'name' });
    const other = await createTag('Smishing');
    const rename = await call('PUT', tagPath(other.id), editor, { name: 'phishing' });
    expect(rename.json()).toMatchObject({ key: 'TAG_NAME_TAKEN' });
    // Another organisation may use the name, and a tag may change the case of its own name.
    expect(
      (await call('POST', tagPath(undefined, otherOrgId), outsider, { name: 'Phishing' })).statusCode,
    ).toBe(201);
    expect((await call('PUT', tagPath(first.id), editor, { name: 'PHISHING' })).statusCode).toBe(200);
    for (const { id } of [first, other]) await call('DELETE', tagPath(id), editor);
  });

  it('refuses a missing or long name and a colour off the list, writing nothing', async () => {
    const db = ctx.database.db;
    const [before] = await db.select({ tags: count() }).from(tags);
    const [auditBefore] = await db.select({ rows: count() }).from(activityLog);
    const answers = await Promise.all([
      call('POST', tagPath(), editor, { name: '   ' }),
      call('POST', tagPath(), editor, { name: 'x'.repeat(51) }),
      call('POST', tagPath(), editor, { name: 'Fine', color: 'mauve' }),
    ]);
    expect(answers.map((response) => response.json())).toEqual([
      expect.objectContaining({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'name' }),
      expect.objectContaining({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'name' }),
      expect.objectContaining({
        key: 'GENERIC_INVALID_FIELD_VALUE',
        field: 'color',
        validValues: expect.any(Array),
      }),
    ]);
    expect((await createTag('x'.repeat(50))).name).toHaveLength(50);
    const [after] = await db.select({ tags: count() }).from(tags);
    const [auditAfter] = await db.select({ rows: count() }).from(activityLog);
    expect(after!.tags).toBe(before!.tags + 1);
    expect(auditAfter!.rows).toBe(auditBefore!.rows + 1);
  });

  it('searches, sorts by name and pages', async () => {
    const created = [
      await createTag('Beta'),
      await createTag('alpha', { description: 'first letter' }),
      await createTag('Gamma'),
    ];
    const names = async (query: string) =>
      (await call('GET', `${tagsPath()}?${query}`, viewer))
        .json()
        .items.map((tag: { name: string }) => tag.name);
    expect(await names('')).toEqual(expect.arrayContaining(['alpha', 'Beta', 'Gamma']));
    expect(await names('search=a&pageSize=2')).toEqual(['alpha', 'Beta']);
    expect(await names('search=a&desc=true&pageSize=1&pageNumber=2')).toEqual(['Beta']);
    expect(await names('search=LETTER')).toEqual(['alpha']);
    expect(await names('search=%25')).toEqual([]);
    expect((await call('GET', `${tagsPath()}?search=a&pageSize=2`, viewer)).json().total).toBe(3);
    for (const { id } of created) await call('DELETE', tagPath(id), editor);
  });

  it("keeps each organisation's tags to itself and changes to editors", async () => {
    const tag = await createTag('Private');
    expect((await call('POST', tagPath(), viewer, { name: 'Nope' })).statusCode).toBe(403);
    expect((await call('GET', tagsPath(), auditor)).statusCode).toBe(403);
    expect((await call('GET', tagsPath(), outsider)).json().key).toBe('ORG_NOT_AUTHORISED');
    const answers = [
      await call('GET', tagPath(tag.id, otherOrgId), outsider),
      await call('PUT', tagPath(tag.id, otherOrgId), outsider, { name: 'Mine' }),
      await call('DELETE', tagPath(tag.id, otherOrgId), outsider),
    ];
    expect(answers.map((response) => response.statusCode)).toEqual([404, 404, 404]);
    expect((await call('GET', tagPath(tag.id), viewer)).json().name).toBe('Private');
    await call('DELETE', tagPath(tag.id), editor);
  });
});

describe('activity log', () => {
  it('filters by actor, action prefix, time and text, newest first, in pages', async () => {
    const db = ctx.database.db;
    const at = (iso: string) => ({ createdAt: new Date(iso) });
    const entries = [
      {
        action: 'case.opened',
        targetType: 'case',
        targetId: 'CASE-100',
        actorUserId: viewer.id,
        ...at('2030-01-01T10:00:00Z'),
      },
      {
        action: 'case.closed',
        targetType: 'case',
        targetId: 'CASE-100',
        actorUserId: editor.id,
        ...at('2030-01-02T10:00:00Z'),
      },
      {
        action: 'case.opened',
        targetType: 'case',
        targetId: 'CASE-200',
        actorUserId: editor.id,
        ...at('2030-01-03T10:00:00Z'),
      },
    ];
    await db
      .insert(activityLog)
      .values([
        ...entries.map((entry) => ({ ...entry, orgId, ip: '203.0.113.9' })),
        { ...entries[0]!, orgId: otherOrgId, action: 'case.secret' },
      ]);
    const search = async (query: string) => {
      const response = await call('GET', `/api/org/${orgId}/activity-logs?${query}`, auditor);
      expect(response.statusCode).toBe(200);
      return response.json() as { items: { action: string; targetId: string; ip: string }[]; total: number };
    };
    const ids = (page: { items: { targetId: string; action: string }[] }) =>
      page.items.map((row) => `${row.action} ${row.targetId}`);

    expect(ids(await search('action=case.'))).toEqual([
      'case.opened CASE-200',
      'case.closed CASE-100',
      'case.opened CASE-100',
    ]);
    expect(ids(await search(`action=case.&actorUserId=${editor.id}`))).toEqual([
      'case.opened CASE-200',
      'case.closed CASE-100',
    ]);
    expect(ids(await search('action=case.&from=2030-01-02T00:00:00Z&to=2030-01-02T23:59:59.999Z'))).toEqual([
      'case.closed CASE-100',
    ]);
    // 's' is not a hex digit, so the text cannot match the UUID target of another test's entry.
    expect(ids(await search('query=se-2'))).toEqual(['case.opened CASE-200']);
    expect(ids(await search('query=closed'))).toEqual(['case.closed CASE-100']);
    const paged = await search('action=case.&pageSize=1&pageNumber=3');
    expect(paged).toMatchObject({
      total: 3,
      items: [{ action: 'case.opened', targetId: 'CASE-100', ip: '203.0.113.9' }],
    });
    expect((await search('action=case.sec')).total).toBe(0);
    expect((await search('action=case_')).total).toBe(0);
  });

  it('answers only to ACTIVITY_LOG_VIEW in the organisation, and refuses bad filters', async () => {
    await recordActivity(ctx.database.db, { orgId, action: 'org.settings_changed' });
    expect((await call('GET', `/api/org/${orgId}/activity-logs`, viewer)).statusCode).toBe(403);
    expect((await call('GET', `/api/org/${orgId}/activity-logs`, outsider)).json().key).toBe(
      'ORG_NOT_AUTHORISED',
    );
    const own = await call('GET', `/api/org/${otherOrgId}/activity-logs?action=org.`, outsider);
    expect(own.json().total).toBe(0);
    const badDate = await call('GET', `/api/org/${orgId}/activity-logs?from=yesterday`, auditor);
    expect(badDate.json()).toMatchObject({ key: 'GENERIC_INVALID_FIELD_VALUE', field: 'from' });
  });
});
