import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { alerts } from '../alerts/tables';
import { INGEST_DELAY_MS, runDueTriggers } from './engine';
import { triggerLibraryGroups, triggers } from './tables';

let ctx: TestContext;
let providerOrgId: string;
let harborId: string;
let prairieId: string;
let coastalId: string;
let admin: SeededUser;
let engineer: SeededUser;
let clientEditor: SeededUser;
let prairieEditor: SeededUser;
let libraryQueryId: string;
let wireQueryId: string;
let payeeQueryId: string;
let providerQueryId: string;
let groupId: string;

const EDIT = ['TRIGGER_VIEW', 'TRIGGER_EDIT', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'] as const;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = providerOrgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const expectError = async (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

async function libraryQuery(name: string, query: string): Promise<string> {
  const created = await call('POST', '/saved-query', admin, { name, query });
  expect(created.statusCode, created.body).toBe(201);
  const id = (created.json() as { id: string }).id;
  const promoted = await call('POST', `/saved-query/${id}/promote`, admin);
  expect(promoted.statusCode, promoted.body).toBe(200);
  return id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  harborId = (await seedOrg(db, { name: 'Harbor', productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  prairieId = (await seedOrg(db, { name: 'Prairie' })).id;
  coastalId = (await seedOrg(db, { name: 'Coastal' })).id;
  admin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
    authorisedOrgIds: [harborId, prairieId],
  });
  engineer = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', ...EDIT],
    authorisedOrgIds: [harborId],
  });
  clientEditor = await seedUser(db, { homeOrgId: harborId, permissions: [...EDIT] });
  prairieEditor = await seedUser(db, { homeOrgId: prairieId, permissions: [...EDIT] });
  libraryQueryId = await libraryQuery('Failed sign-ins', 'outcome:failure');
  wireQueryId = await libraryQuery('Wire transfers', 'transactionType:wire');
  payeeQueryId = await libraryQuery('New payee added', 'action:payee_added');
  const own = await call('POST', '/saved-query', admin, { name: 'Provider only', query: 'outcome:failure' });
  providerQueryId = (own.json() as { id: string }).id;
});
afterAll(() => ctx.close());

let counter = 0;
const libraryTrigger = (overrides: object = {}) => ({
  groupId,
  name: `Library trigger ${++counter}`,
  type: 'THRESHOLD',
  savedQueryId: libraryQueryId,
  intervalSeconds: 300,
  minMatch: 2,
  severity: 'HIGH',
  labels: ['identity'],
  ...overrides,
});

interface LibraryJson {
  id: string;
  version: number;
  copyCount: number;
  copyHereId: string | null;
  [field: string]: unknown;
}

async function createLibraryTrigger(overrides: object = {}): Promise<LibraryJson> {
  const response = await call('POST', '/trigger-library/trigger', admin, libraryTrigger(overrides));
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as LibraryJson;
}

async function copyTo(id: string, orgIds: string[], managedBy = 'OPS') {
  const response = await call('POST', `/trigger-library/trigger/${id}/copy`, admin, { orgIds, managedBy });
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as {
    copied: { orgId: string; triggerId: string }[];
    skipped: { orgId: string; reason: string; triggerId: string | null }[];
  };
}

const activity = (orgId: string, action: string) =>
  ctx.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, action)));

const triggerRow = async (id: string) =>
  (await ctx.database.db.select().from(triggers).where(eq(triggers.id, id)))[0]!;

describe('library groups', () => {
  it('creates a group with a base query and audits it; refuses a bad base query and a taken name', async () => {
    const created = await call('POST', '/trigger-library/group', admin, {
      name: 'Identity',
      description: 'Sign-in abuse',
      baseQuery: 'host:teller-01',
    });
    expect(created.statusCode, created.body).toBe(201);
    groupId = (created.json() as { id: string }).id;
    expect(created.json()).toMatchObject({
      name: 'Identity',
      domain: 'security',
      baseQuery: 'host:teller-01',
    });
    expect(await activity(providerOrgId, 'trigger-library.group-created')).toHaveLength(1);

    const groupsBefore = await ctx.database.db.$count(triggerLibraryGroups);
    const bad = await call('POST', '/trigger-library/group', admin, { name: 'Broken', baseQuery: 'host:(' });
    await expectError(bad, 400, 'TRIGGER_LIBRARY_INVALID_BASE_QUERY');
    expect(bad.json()).toMatchObject({ field: 'baseQuery' });
    await expectError(
      await call('POST', '/trigger-library/group', admin, { name: 'IDENTITY' }),
      409,
      'TRIGGER_LIBRARY_GROUP_NAME_TAKEN',
    );
    expect(await ctx.database.db.$count(triggerLibraryGroups)).toBe(groupsBefore);
  });

  it('is changed only by provider administrators in the provider organisation', async () => {
    await expectError(
      await call('POST', '/trigger-library/group', engineer, { name: 'Ops group' }),
      403,
      'PERMISSION_DENIED',
    );
    await expectError(
      await call('POST', '/trigger-library/group', admin, { name: 'From a bank' }, harborId),
      403,
      'TRIGGER_LIBRARY_PROVIDER_ONLY',
    );
    await expectError(
      await call('PUT', `/trigger-library/group/${crypto.randomUUID()}`, admin, { name: 'Nobody' }),
      404,
      'TRIGGER_LIBRARY_GROUP_NOT_FOUND',
    );
  });

  it('refuses to delete a group holding triggers and deletes an empty one', async () => {
    const created = await call('POST', '/trigger-library/group', admin, { name: 'Temporary' });
    const id = (created.json() as { id: string }).id;
    const trigger = await createLibraryTrigger({ groupId: id });
    await expectError(
      await call('DELETE', `/trigger-library/group/${id}`, admin),
      409,
      'TRIGGER_LIBRARY_GROUP_NOT_EMPTY',
    );
    expect((await call('DELETE', `/trigger-library/trigger/${trigger.id}`, admin)).statusCode).toBe(204);
    expect((await call('DELETE', `/trigger-library/group/${id}`, admin)).statusCode).toBe(204);
    expect(await activity(providerOrgId, 'trigger-library.group-deleted')).toHaveLength(1);
  });
});

describe('library triggers', () => {
  it('runs only library queries, keeps no people or schedule, and is read by every organisation', async () => {
    await expectError(
      await call(
        'POST',
        '/trigger-library/trigger',
        admin,
        libraryTrigger({ savedQueryId: providerQueryId }),
      ),
      400,
      'TRIGGER_LIBRARY_QUERY_REQUIRED',
    );
    await expectError(
      await call('POST', '/trigger-library/trigger', admin, libraryTrigger({ groupId: crypto.randomUUID() })),
      404,
      'TRIGGER_LIBRARY_GROUP_NOT_FOUND',
    );
    await expectError(
      await call('POST', '/trigger-library/trigger', admin, libraryTrigger({ minMatch: null })),
      400,
      'TRIGGER_INVALID_MATCH_RANGE',
    );
    const sequence = (steps: string[]) =>
      libraryTrigger({
        type: 'SEQUENCE',
        savedQueryId: null,
        minMatch: null,
        intervalSeconds: 3600,
        sequence: steps.map((savedQueryId) => ({ savedQueryId })),
        aggregation: { type: 'terms', field: 'accountId' },
      });
    await expectError(
      await call('POST', '/trigger-library/trigger', admin, sequence([payeeQueryId, providerQueryId])),
      400,
      'TRIGGER_LIBRARY_QUERY_REQUIRED',
    );
    const steps = await call(
      'POST',
      '/trigger-library/trigger',
      admin,
      sequence([payeeQueryId, wireQueryId]),
    );
    expect(steps.statusCode, steps.body).toBe(201);
    // The steps correlate by the account.
    expect(steps.json()).toMatchObject({
      type: 'SEQUENCE',
      savedQueryId: payeeQueryId,
      aggregation: { type: 'terms', field: 'accountId' },
    });

    const created = await createLibraryTrigger({ name: 'Brute-force logins' });
    expect(created).toMatchObject({
      orgId: null,
      groupName: 'Identity',
      version: 1,
      copyCount: 0,
      nextRunAt: null,
    });
    expect(await activity(providerOrgId, 'trigger-library.created')).not.toHaveLength(0);

    // Not among the provider organisation's own triggers, nor reachable as one.
    const own = await call('GET', '/triggers', admin);
    expect((own.json() as { items: { id: string }[] }).items.map((item) => item.id)).not.toContain(
      created.id,
    );
    await expectError(await call('GET', `/trigger/${created.id}`, admin), 404, 'TRIGGER_NOT_FOUND');

    const fromBank = await call('GET', '/trigger-library', clientEditor, undefined, harborId);
    expect(fromBank.statusCode).toBe(200);
    const group = (fromBank.json() as { groups: { name: string; triggers: LibraryJson[] }[] }).groups.find(
      (entry) => entry.name === 'Identity',
    );
    expect(group!.triggers.map((trigger) => trigger.name)).toContain('Brute-force logins');
    // A bank cannot change the library.
    await expectError(
      await call('PUT', `/trigger-library/trigger/${created.id}`, clientEditor, libraryTrigger(), harborId),
      403,
      'PERMISSION_DENIED',
    );
  });

  it("answers 404 for an organisation's trigger named as a library trigger", async () => {
    const own = await call(
      'POST',
      '/trigger',
      clientEditor,
      {
        name: 'Harbor only',
        type: 'THRESHOLD',
        savedQueryId: libraryQueryId,
        intervalSeconds: 300,
        minMatch: 1,
      },
      harborId,
    );
    const ownId = (own.json() as { id: string }).id;
    await expectError(
      await call('GET', `/trigger-library/trigger/${ownId}`, admin),
      404,
      'TRIGGER_NOT_FOUND',
    );
    await expectError(
      await call('POST', `/trigger-library/trigger/${ownId}/copy`, admin, { orgIds: [prairieId] }),
      404,
      'TRIGGER_NOT_FOUND',
    );
  });

  it('raises the version when the alert conditions change and not otherwise', async () => {
    const created = await createLibraryTrigger();
    const renamed = await call('PUT', `/trigger-library/trigger/${created.id}`, admin, {
      ...libraryTrigger(),
      name: 'Renamed',
    });
    expect(renamed.json()).toMatchObject({ name: 'Renamed', version: 1 });
    const stricter = await call('PUT', `/trigger-library/trigger/${created.id}`, admin, {
      ...libraryTrigger(),
      minMatch: 10,
    });
    expect(stricter.json()).toMatchObject({ minMatch: 10, version: 2 });
  });
});

describe('copies', () => {
  it('copies once per organisation, skips and reports organisations that hold a copy, and audits each', async () => {
    const library = await createLibraryTrigger();
    const first = await copyTo(library.id, [harborId, prairieId]);
    expect(first.copied.map((entry) => entry.orgId).sort()).toEqual([harborId, prairieId].sort());
    expect(first.skipped).toEqual([]);
    const again = await copyTo(library.id, [harborId]);
    expect(again.copied).toEqual([]);
    expect(again.skipped).toEqual([
      expect.objectContaining({
        orgId: harborId,
        reason: 'ALREADY_COPIED',
        triggerId: first.copied[0]!.triggerId,
      }),
    ]);
    expect(await ctx.database.db.$count(triggers, eq(triggers.copiedFromId, library.id))).toBe(2);
    const copyId = first.copied.find((entry) => entry.orgId === harborId)!.triggerId;
    expect(await activity(harborId, 'trigger.copied-from-library')).toEqual(
      expect.arrayContaining([expect.objectContaining({ targetId: copyId })]),
    );

    const seen = await call('GET', `/trigger/${copyId}`, clientEditor, undefined, harborId);
    expect(seen.json()).toMatchObject({
      source: 'LIBRARY',
      copiedFromId: library.id,
      libraryVersion: 1,
      baseQuery: 'host:teller-01',
      managedBy: 'OPS',
      state: 'ACTIVE',
    });
    const library2 = await call('GET', '/trigger-library', clientEditor, undefined, harborId);
    const listed = (library2.json() as { groups: { triggers: LibraryJson[] }[] }).groups
      .flatMap((group) => group.triggers)
      .find((trigger) => trigger.id === library.id);
    expect(listed).toMatchObject({ copyHereId: copyId, copyCount: 1 });
  });

  it('refuses an organisation the administrator may not act in, copying nothing', async () => {
    const library = await createLibraryTrigger();
    const response = await call('POST', `/trigger-library/trigger/${library.id}/copy`, admin, {
      orgIds: [harborId, coastalId],
    });
    await expectError(response, 403, 'ORG_NOT_AUTHORISED');
    expect(await ctx.database.db.$count(triggers, eq(triggers.copiedFromId, library.id))).toBe(0);
  });

  it('skips organisations without the fraud product for fraud triggers', async () => {
    const group = await call('POST', '/trigger-library/group', admin, { name: 'Payments', domain: 'fraud' });
    expect(group.statusCode, group.body).toBe(201);
    const library = await createLibraryTrigger({
      groupId: (group.json() as { id: string }).id,
      type: 'EVERY_EVENT',
      savedQueryId: wireQueryId,
      minMatch: null,
    });
    expect(library).toMatchObject({ domain: 'fraud' });
    const result = await copyTo(library.id, [harborId, prairieId]);
    expect(result.copied.map((entry) => entry.orgId)).toEqual([harborId]);
    expect(result.skipped).toEqual([
      expect.objectContaining({ orgId: prairieId, reason: 'PRODUCT_NOT_ENTITLED' }),
    ]);
    // Prairie, without the fraud product, cannot read the fraud library.
    await expectError(
      await call('GET', '/trigger-library?domain=fraud', prairieEditor, undefined, prairieId),
      403,
      'PRODUCT_NOT_ENTITLED',
    );
  });

  it('keeps an ops-managed copy from the client, and a client copy decouples when its conditions change', async () => {
    const library = await createLibraryTrigger();
    const [ops] = (await copyTo(library.id, [harborId])).copied;
    const body = { ...libraryTrigger(), groupId: undefined, name: 'Mine now' };
    await expectError(
      await call('PUT', `/trigger/${ops!.triggerId}`, clientEditor, body, harborId),
      403,
      'TRIGGER_MANAGED_READ_ONLY',
    );

    const [client] = (await copyTo(library.id, [prairieId], 'CLIENT')).copied;
    const renamed = await call('PUT', `/trigger/${client!.triggerId}`, prairieEditor, body, prairieId);
    expect(renamed.json()).toMatchObject({ name: 'Mine now', source: 'LIBRARY', copiedFromId: library.id });
    const changed = await call(
      'PUT',
      `/trigger/${client!.triggerId}`,
      prairieEditor,
      { ...body, minMatch: 7, confirmArchive: true },
      prairieId,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json()).toMatchObject({
      source: 'CUSTOM',
      copiedFromId: null,
      libraryVersion: null,
      minMatch: 7,
      version: 2,
      // It keeps running the base query it had.
      baseQuery: 'host:teller-01',
    });
    const [versioned] = await activity(prairieId, 'trigger.versioned');
    expect(versioned!.details).toMatchObject({ decoupledFromLibraryTriggerId: library.id });
  });

  it("runs a copy on its organisation's events with the group base query ANDed to the saved query", async () => {
    const db = ctx.database.db;
    const library = await createLibraryTrigger({ minMatch: 2 });
    const [copy] = (await copyTo(library.id, [harborId])).copied;
    const t0 = new Date('2026-03-02T10:00:00.000Z');
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    await db
      .update(triggers)
      .set({ lastWindowEnd: t0, nextRunAt: at(5) })
      .where(eq(triggers.id, copy!.triggerId));
    await seedEvents(db, harborId, [
      { timestamp: at(1), host: 'teller-01', fields: { outcome: 'failure' } },
      { timestamp: at(2), host: 'teller-01', fields: { outcome: 'failure' } },
      // Outside the base query: another host.
      { timestamp: at(3), host: 'teller-02', fields: { outcome: 'failure' } },
      { timestamp: at(3), host: 'teller-01', fields: { outcome: 'success' } },
    ]);
    await runDueTriggers(db, new Date(at(5).getTime() + INGEST_DELAY_MS));
    const raised = await db.select().from(alerts).where(eq(alerts.triggerId, copy!.triggerId));
    expect(raised).toHaveLength(1);
    expect(raised[0]).toMatchObject({ orgId: harborId, matchCount: 2 });
  });
});

describe('library statistics', () => {
  it('counts copies by state and alerts of the last 30 days, only in organisations the user may act in', async () => {
    const db = ctx.database.db;
    const library = await createLibraryTrigger();
    const { copied } = await copyTo(library.id, [harborId, prairieId]);
    const prairieCopy = copied.find((entry) => entry.orgId === prairieId)!.triggerId;
    const harborCopy = copied.find((entry) => entry.orgId === harborId)!.triggerId;
    await call('POST', `/trigger/${prairieCopy}/pause`, admin, undefined, prairieId);
    const alert = (orgId: string, triggerId: string, daysAgo: number) => ({
      orgId,
      kind: 'TRIGGER',
      triggerId,
      title: 'Brute-force logins',
      severity: 'HIGH',
      firedAt: new Date(Date.now() - daysAgo * 86_400_000),
    });
    await db
      .insert(alerts)
      .values([
        alert(harborId, harborCopy, 1),
        alert(harborId, harborCopy, 29),
        alert(harborId, harborCopy, 31),
        alert(prairieId, prairieCopy, 2),
      ]);

    const stats = await call('GET', `/trigger-library/trigger/${library.id}/stats`, admin);
    expect(stats.statusCode, stats.body).toBe(200);
    expect(stats.json()).toMatchObject({
      counts: { active: 1, paused: 1, disabled: 0 },
      alertsLast30Days: 3,
    });
    const copies = (
      stats.json() as { copies: { orgName: string; alertsLast30Days: number; state: string }[] }
    ).copies;
    expect(copies.map((copy) => [copy.orgName, copy.state, copy.alertsLast30Days])).toEqual([
      ['Harbor', 'ACTIVE', 2],
      ['Prairie', 'PAUSED', 1],
    ]);

    // The engineer works Harbor only: Prairie is neither listed nor counted.
    const limited = await call('GET', `/trigger-library/trigger/${library.id}/stats`, engineer);
    expect(limited.json()).toMatchObject({ counts: { active: 1, paused: 0 }, alertsLast30Days: 2 });
    expect((limited.json() as { copies: unknown[] }).copies).toHaveLength(1);

    await expectError(
      await call('GET', `/trigger-library/trigger/${library.id}/stats`, clientEditor, undefined, harborId),
      403,
      'PERMISSION_DENIED',
    );
    await expectError(
      await call('GET', `/trigger-library/trigger/${harborCopy}/stats`, admin),
      404,
      'TRIGGER_NOT_FOUND',
    );
  });

  it('refuses to delete a library trigger while copies are active in some organisations', async () => {
    const library = await createLibraryTrigger();
    await copyTo(library.id, [harborId]);
    const refused = await call('DELETE', `/trigger-library/trigger/${library.id}`, admin);
    await expectError(refused, 409, 'TRIGGER_LIBRARY_ACTIVE_IN_SOME_ORGS');
    expect(refused.json()).toMatchObject({ params: { count: 1 } });
    expect((await triggerRow(library.id)).state).toBe('ACTIVE');
  });
});

describe('resync', () => {
  const resync = (id: string, body: object, user = admin) =>
    call('POST', `/trigger-library/trigger/${id}/resync`, user, body);
  const analyse = (id: string) => call('POST', `/trigger-library/trigger/${id}/resync-analysis`, admin);

  it('calculates the differences, then copies the chosen fields and audits each copy', async () => {
    const library = await createLibraryTrigger({ severity: 'MEDIUM' });
    const { copied } = await copyTo(library.id, [harborId, prairieId]);
    const ids = copied.map((entry) => entry.triggerId);
    await call('PUT', `/trigger-library/trigger/${library.id}`, admin, {
      ...libraryTrigger(),
      name: library.name,
      severity: 'CRITICAL',
      minMatch: 9,
    });

    const analysed = await analyse(library.id);
    expect(analysed.statusCode, analysed.body).toBe(200);
    const copies = (analysed.json() as { copies: { differences: string[]; upToDate: boolean }[] }).copies;
    expect(copies.map((copy) => copy.differences)).toEqual([
      ['severity', 'matches'],
      ['severity', 'matches'],
    ]);
    expect(copies.every((copy) => !copy.upToDate)).toBe(true);

    const synced = await resync(library.id, { triggerIds: ids, fields: ['severity', 'matches'] });
    expect(synced.statusCode, synced.body).toBe(200);
    for (const id of ids) {
      expect(await triggerRow(id)).toMatchObject({ severity: 'CRITICAL', minMatch: 9, libraryVersion: 2 });
    }
    expect(await activity(harborId, 'trigger.resynced')).toHaveLength(1);
    const stats = await call('GET', `/trigger-library/trigger/${library.id}/stats`, admin);
    expect((stats.json() as { copies: { upToDate: boolean; differences: string[] }[] }).copies).toEqual([
      expect.objectContaining({ upToDate: true, differences: [] }),
      expect.objectContaining({ upToDate: true, differences: [] }),
    ]);
  });

  it("refuses with the spec's resync errors, changing nothing", async () => {
    const library = await createLibraryTrigger();
    const { copied } = await copyTo(library.id, [harborId, prairieId]);
    const [harbor, prairie] = [harborId, prairieId].map(
      (orgId) => copied.find((entry) => entry.orgId === orgId)!.triggerId,
    );
    const before = await triggerRow(harbor!);

    await expectError(
      await resync(library.id, { triggerIds: [harbor], fields: [] }),
      400,
      'TRIGGER_RESYNC_NO_FIELDS_SELECTED',
    );
    const missing = crypto.randomUUID();
    const notFound = await resync(library.id, { triggerIds: [harbor, missing], fields: ['name'] });
    await expectError(notFound, 404, 'TRIGGER_RESYNC_IDS_NOT_FOUND');
    expect(notFound.json()).toMatchObject({ params: { ids: missing } });
    // The organisation's own trigger is no copy.
    const custom = await call(
      'POST',
      '/trigger',
      clientEditor,
      { name: 'Own', type: 'THRESHOLD', savedQueryId: libraryQueryId, intervalSeconds: 300, minMatch: 1 },
      harborId,
    );
    const customId = (custom.json() as { id: string }).id;
    await expectError(
      await resync(library.id, { triggerIds: [customId], fields: ['name'] }),
      409,
      'TRIGGER_RESYNC_NOT_COPIED_FROM_LIBRARY',
    );
    await call('POST', `/trigger/${prairie}/delete`, admin, undefined, prairieId);
    await expectError(
      await resync(library.id, { triggerIds: [harbor, prairie], fields: ['name'] }),
      409,
      'TRIGGER_RESYNC_INACTIVE',
    );
    await expectError(
      await resync(library.id, { triggerIds: [harbor], fields: ['name'] }),
      409,
      'TRIGGER_RESYNC_NO_ANALYSIS_RUN',
    );
    await analyse(library.id);
    await call('PUT', `/trigger-library/trigger/${library.id}`, admin, { ...libraryTrigger(), minMatch: 4 });
    await expectError(
      await resync(library.id, { triggerIds: [harbor], fields: ['name'] }),
      409,
      'TRIGGER_RESYNC_INFO_NOT_CALCULATED',
    );
    await analyse(library.id);
    // The Harbor copy is changed to another type by provider staff (a new, decoupled version would
    // not be a copy any more, so the type is set on the row itself).
    await ctx.database.db.update(triggers).set({ type: 'EVERY_EVENT' }).where(eq(triggers.id, harbor!));
    await expectError(
      await resync(library.id, { triggerIds: [harbor], fields: ['matches'] }),
      409,
      'TRIGGER_RESYNC_CONFIG_TYPE_DIFFERS',
    );
    expect(await triggerRow(harbor!)).toMatchObject({ name: before.name, minMatch: before.minMatch });

    const periodic = await createLibraryTrigger({
      type: 'DYNAMIC_THRESHOLD',
      intervalSeconds: 1800,
      minMatch: null,
    });
    const [periodicCopy] = (await copyTo(periodic.id, [harborId])).copied;
    await analyse(periodic.id);
    await expectError(
      await resync(periodic.id, { triggerIds: [periodicCopy!.triggerId], fields: ['intervalSeconds'] }),
      400,
      'TRIGGER_RESYNC_INTERVAL_CANNOT_SYNC',
    );

    await call('POST', `/trigger/${harbor}/delete`, admin, undefined, harborId);
    await call('DELETE', `/trigger-library/trigger/${library.id}`, admin);
    await expectError(
      await resync(library.id, { triggerIds: [harbor], fields: ['name'] }),
      409,
      'TRIGGER_RESYNC_INACTIVE',
    );
  });
});

describe('bulk edit across organisations', () => {
  it('changes the copies where the user may act, reports the rest and leaves them untouched', async () => {
    const library = await createLibraryTrigger();
    const { copied } = await copyTo(library.id, [harborId, prairieId]);
    const prairieCopy = copied.find((entry) => entry.orgId === prairieId)!.triggerId;
    const harborCopy = copied.find((entry) => entry.orgId === harborId)!.triggerId;

    const response = await call('POST', `/trigger-library/trigger/${library.id}/bulk-edit`, engineer, {
      orgIds: [harborId, prairieId],
      changes: { state: 'PAUSED', severity: 'LOW', labels: ['tuned'] },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({
      changed: [{ orgId: harborId, triggerId: harborCopy }],
      failed: [],
      notAuthorisedOrgIds: [prairieId],
      key: 'TRIGGER_BULK_EDIT_NOT_AUTHORISED_SOME_ORGS',
    });
    expect(await triggerRow(harborCopy)).toMatchObject({
      state: 'PAUSED',
      severity: 'LOW',
      labels: ['tuned'],
    });
    expect(await triggerRow(prairieCopy)).toMatchObject({
      state: 'ACTIVE',
      severity: 'HIGH',
      labels: ['identity'],
    });
    expect(await activity(harborId, 'trigger.bulk-edited')).toHaveLength(1);

    // A copy in an organisation an administrator does not work is unknown to them in a resync.
    const harborAdmin = await seedUser(ctx.database.db, {
      homeOrgId: providerOrgId,
      permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
      authorisedOrgIds: [harborId],
    });
    await call('POST', `/trigger-library/trigger/${library.id}/resync-analysis`, harborAdmin);
    const hidden = await call('POST', `/trigger-library/trigger/${library.id}/resync`, harborAdmin, {
      triggerIds: [prairieCopy],
      fields: ['name'],
    });
    await expectError(hidden, 404, 'TRIGGER_RESYNC_IDS_NOT_FOUND');
    // Its analysis left the Prairie copy out, so an administrator of Prairie must run one first.
    await expectError(
      await call('POST', `/trigger-library/trigger/${library.id}/resync`, admin, {
        triggerIds: [prairieCopy],
        fields: ['name'],
      }),
      409,
      'TRIGGER_RESYNC_INFO_NOT_CALCULATED',
    );
    expect(await activity(prairieId, 'trigger.bulk-edited')).toHaveLength(0);
  });

  it('reports organisations without a copy or whose copy cannot take the state as a partial failure', async () => {
    const library = await createLibraryTrigger();
    const { copied } = await copyTo(library.id, [harborId]);
    await call('POST', `/trigger/${copied[0]!.triggerId}/delete`, admin, undefined, harborId);
    const response = await call('POST', `/trigger-library/trigger/${library.id}/bulk-edit`, admin, {
      orgIds: [harborId, prairieId],
      changes: { state: 'ACTIVE' },
    });
    expect(response.json()).toEqual({
      changed: [],
      failed: [
        {
          orgId: harborId,
          key: 'TRIGGER_INVALID_STATE_CHANGE',
          params: { from: 'DELETED', to: 'ACTIVE' },
        },
        { orgId: prairieId, key: 'TRIGGER_BULK_EDIT_NO_COPY' },
      ],
      notAuthorisedOrgIds: [],
      key: 'TRIGGER_BULK_EDIT_PARTIAL_FAILURE',
    });
    expect((await triggerRow(copied[0]!.triggerId)).state).toBe('DELETED');
  });

  it('needs at least one change and provider staff', async () => {
    const library = await createLibraryTrigger();
    await expectError(
      await call('POST', `/trigger-library/trigger/${library.id}/bulk-edit`, admin, {
        orgIds: [harborId],
        changes: {},
      }),
      400,
      'TRIGGER_BULK_EDIT_NO_CHANGES',
    );
    await expectError(
      await call(
        'POST',
        `/trigger-library/trigger/${library.id}/bulk-edit`,
        clientEditor,
        { orgIds: [harborId], changes: { severity: 'LOW' } },
        harborId,
      ),
      403,
      'TRIGGER_LIBRARY_PROVIDER_ONLY',
    );
  });
});
