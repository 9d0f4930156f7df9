import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserHeaders, createTestApp, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';

let ctx: TestContext;
let orgId: string;
let quietOrgId: string;
let otherOrgId: string;
let erin: SeededUser;
let sam: SeededUser;
let clientAnalyst: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { name: 'Harbor Bank' })).id;
  quietOrgId = (await seedOrg(db, { featureFlags: { infoPanel: false } })).id;
  otherOrgId = (await seedOrg(db)).id;
  const providerOrgId = (await seedOrg(db, { isProvider: true })).id;
  erin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ENGINEER'],
    authorisedOrgIds: [orgId, quietOrgId, otherOrgId],
  });
  sam = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER'],
    authorisedOrgIds: [orgId],
  });
  clientAnalyst = await seedUser(db, { homeOrgId: orgId, permissions: ['EVENT_VIEW'] });
});
afterAll(() => ctx.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, user: SeededUser, payload?: object) =>
  ctx.app.inject({ method, url, headers: browserHeaders(user.cookie), ...(payload && { payload }) });

describe('info panel metadata', () => {
  it('starts at the org name and All Clear, and keeps a valid change', async () => {
    const url = `/api/org/${orgId}/info/metadata`;
    expect((await call('GET', url, sam)).json()).toEqual({
      orgId,
      title: 'Harbor Bank',
      threatLevel: 'FOUR',
    });
    const changed = await call('PUT', url, erin, { title: '  Active Incident ', threatLevel: 'ONE' });
    expect(changed.json()).toEqual({ orgId, title: 'Active Incident', threatLevel: 'ONE' });
    expect((await call('GET', url, sam)).json().threatLevel).toBe('ONE');
    expect((await call('PUT', url, erin, { title: '   ', threatLevel: 'ONE' })).json().field).toBe('title');
    expect((await call('PUT', url, erin, { title: 'x'.repeat(101), threatLevel: 'ONE' })).json().field).toBe(
      'title',
    );
    expect((await call('PUT', url, erin, { title: 'x', threatLevel: 'FIVE' })).json().validValues).toEqual([
      'ONE',
      'TWO',
      'THREE',
      'FOUR',
    ]);
  });

  it('is for provider staff where the organisation has the infoPanel feature', async () => {
    expect((await call('GET', `/api/org/${orgId}/info/metadata`, clientAnalyst)).json().key).toBe(
      'PERMISSION_DENIED',
    );
    expect((await call('GET', `/api/org/${quietOrgId}/info/notes`, erin)).json().key).toBe(
      'FEATURE_NOT_ENABLED',
    );
  });
});

describe('info notes', () => {
  it('keeps pinned notes first, lets only the author edit, and anyone pin or delete', async () => {
    const base = `/api/org/${orgId}/info/notes`;
    const first = (await call('POST', base, erin, { noteText: 'Client asked for weekly summaries' })).json();
    const second = (
      await call('POST', base, sam, { noteText: ' Firewall change on Friday ', pinned: true })
    ).json();
    const third = (await call('POST', base, erin, { noteText: 'Contact: J. Ortiz' })).json();
    expect(second).toMatchObject({
      noteText: 'Firewall change on Friday',
      pinned: true,
      createdByName: 'Test User',
    });
    const order = async () => (await call('GET', base, sam)).json().map((note: { id: string }) => note.id);
    expect(await order()).toEqual([second.id, third.id, first.id]);

    expect((await call('PUT', `${base}/${first.id}`, sam, { noteText: 'hijacked' })).json().key).toBe(
      'PERMISSION_DENIED',
    );
    const edited = await call('PUT', `${base}/${first.id}`, erin, {
      noteText: 'Client asked for daily summaries',
    });
    expect(edited.json().noteText).toBe('Client asked for daily summaries');
    // An edited unpinned note goes right after the pinned ones.
    expect(await order()).toEqual([second.id, first.id, third.id]);

    await call('PUT', `${base}/${second.id}/pin`, erin, { pinned: false });
    await call('PUT', `${base}/${third.id}/pin`, sam, { pinned: true });
    expect((await order())[0]).toBe(third.id);

    expect((await call('DELETE', `${base}/${first.id}`, sam)).statusCode).toBe(204);
    expect(await order()).not.toContain(first.id);
    expect((await call('POST', base, sam, { noteText: '   ' })).json().field).toBe('noteText');
  });

  it('answers a note of another organisation as missing', async () => {
    const note = (
      await call('POST', `/api/org/${orgId}/info/notes`, erin, { noteText: 'Harbor only' })
    ).json();
    for (const method of ['DELETE', 'PUT'] as const) {
      const url = `/api/org/${otherOrgId}/info/notes/${note.id}${method === 'PUT' ? '/pin' : ''}`;
      const elsewhere = await call(method, url, erin, method === 'PUT' ? { pinned: true } : undefined);
      expect(elsewhere.statusCode).toBe(404);
    }
    const notes = (await call('GET', `/api/org/${orgId}/info/notes`, erin)).json();
    expect(notes.find((entry: { id: string }) => entry.id === note.id)).toMatchObject({ pinned: false });
  });
});
