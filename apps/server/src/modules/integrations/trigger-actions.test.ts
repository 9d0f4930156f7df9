import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { startLocalBankingServer, type LocalBankingServer } from '../../../test/banking-server';
import { seedEvents } from '../../../test/events';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { INGEST_DELAY_MS, runDueTriggers } from '../triggers/engine';
import { orgs } from '../orgs/tables';
import { triggerRuns, triggers } from '../triggers/tables';
import { runQueuedActions } from './actions';

const MINUTE = 60_000;
const PERMISSIONS = [
  'INTEGRATION_VIEW',
  'INTEGRATION_EDIT',
  'ACTION_VIEW',
  'ACTION_EDIT',
  'TRIGGER_VIEW',
  'TRIGGER_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
  'ALERT_INBOX_VIEW',
] as const;

let ctx: TestContext;
let bank: LocalBankingServer;
let orgId: string;
let plainOrgId: string;
let admin: SeededUser;
let plainAdmin: SeededUser;
let queryId: string;
let warningActionId: string;
let disableActionId: string;

const call = (method: HttpMethod, path: string, payload?: object, user = admin, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

async function created(method: HttpMethod, path: string, payload: object) {
  const response = await call(method, path, payload);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

beforeAll(async () => {
  bank = await startLocalBankingServer();
  ctx = await createTestApp();
  const db = ctx.database.db;
  const features = { featureFlags: { automatedIntervention: true }, productSkus: ['CYBERFRAUD_STANDARD'] };
  orgId = (await seedOrg(db, features as Parameters<typeof seedOrg>[1])).id;
  plainOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  admin = await seedUser(db, { homeOrgId: orgId, permissions: [...PERMISSIONS] });
  plainAdmin = await seedUser(db, { homeOrgId: plainOrgId, permissions: [...PERMISSIONS] });
  await created('POST', '/action-integrations', {
    provider: 'SYMXCHANGE',
    apiBaseUrl: bank.url,
    authBaseUrl: bank.url,
    clientId: 'vigil',
    clientSecret: 'provider-secret',
  });
  queryId = await created('POST', '/saved-query', { name: 'Wires out', query: 'transactionType:wire' });
  warningActionId = await created('POST', '/actions', {
    name: 'Flag the account',
    type: 'ADD_WARNING_CODE',
    provider: 'SYMXCHANGE',
    fields: ['fields.account'],
    multipleValues: 'SEND_ALL',
    warningCode: 42,
  });
  // Q2 has no integration in this organisation: its runs fail with 'contact support'.
  disableActionId = await created('POST', '/actions', {
    name: 'Disable the user',
    type: 'DISABLE_USER',
    provider: 'Q2',
    fields: ['userName'],
    multipleValues: 'SEND_FIRST',
  });
});
afterAll(async () => {
  await ctx.close();
  await bank.close();
});

const wireTrigger = (actionIds: string[]) => ({
  name: `Wires ${Math.random()}`,
  domain: 'fraud',
  type: 'THRESHOLD',
  savedQueryId: queryId,
  intervalSeconds: 300,
  minMatch: 1,
  severity: 'HIGH',
  actionIds,
});

/** Puts the trigger's next window at [start, start + 5 minutes) and runs it, then the queued actions. */
async function fire(triggerId: string, start: Date) {
  const db = ctx.database.db;
  await db.update(triggers).set({ lastWindowEnd: start, nextRunAt: start }).where(eq(triggers.id, triggerId));
  await runDueTriggers(db, new Date(start.getTime() + 5 * MINUTE + INGEST_DELAY_MS));
  return runQueuedActions(db, ctx.secrets);
}

interface Pending {
  id: string;
  actionName: string;
  value: string;
  state: string;
  error: string | null;
  triggerId: string | null;
  alertId: string | null;
  request: { method: string; path?: string; url?: string } | null;
  response: Record<string, unknown> | null;
}

async function pendingOf(alertId: string) {
  const response = await call('GET', `/pending-actions?alertId=${alertId}&pageSize=100`);
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: Pending[] }).items.sort((a, b) => a.value.localeCompare(b.value));
}

async function alertsOf(triggerId: string) {
  const response = await call('GET', '/alerts?domain=fraud&pageSize=100');
  expect(response.statusCode, response.body).toBe(200);
  return (response.json() as { items: { id: string; triggerId: string | null }[] }).items.filter(
    (alert) => alert.triggerId === triggerId,
  );
}

describe('actions attached to triggers', () => {
  it('are actions of the organisation, with the automatedIntervention feature', async () => {
    const unknown = await call('POST', '/trigger', wireTrigger(['00000000-0000-4000-8000-000000000000']));
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ key: 'TRIGGER_INVALID_ACTION', field: 'actionIds' });

    const plainQuery = await call(
      'POST',
      '/saved-query',
      { name: 'Wires', query: 'transactionType:wire' },
      plainAdmin,
      plainOrgId,
    );
    const noFeature = await call(
      'POST',
      '/trigger',
      { ...wireTrigger([warningActionId]), savedQueryId: (plainQuery.json() as { id: string }).id },
      plainAdmin,
      plainOrgId,
    );
    expect(noFeature.statusCode).toBe(403);
    expect(noFeature.json()).toMatchObject({ key: 'FEATURE_NOT_ENABLED' });

    const trigger = await call('POST', '/trigger', wireTrigger([warningActionId, warningActionId]));
    expect(trigger.statusCode, trigger.body).toBe(201);
    expect(trigger.json()).toMatchObject({ actionIds: [warningActionId] });
  });

  it('run for each alert on the values of its events, recorded with request and response, and undone', async () => {
    const triggerId = await created('POST', '/trigger', wireTrigger([warningActionId, disableActionId]));
    const start = new Date('2026-03-02T10:00:00.000Z');
    await seedEvents(ctx.database.db, orgId, [
      {
        timestamp: new Date(start.getTime() + MINUTE),
        userName: 'alice',
        fields: { transactionType: 'wire', account: 'ACC-100' },
      },
      {
        timestamp: new Date(start.getTime() + 2 * MINUTE),
        userName: 'bob',
        fields: { transactionType: 'wire', account: 'ACC-200' },
      },
      {
        timestamp: new Date(start.getTime() + 3 * MINUTE),
        fields: { transactionType: 'ach', account: 'ACC-300' },
      },
    ]);

    expect(await fire(triggerId, start)).toBe(3);

    const [alert] = await alertsOf(triggerId);
    expect(alert).toBeDefined();
    const pending = await pendingOf(alert!.id);
    // Send all: one warning code per account; send first: one disable, failing without a Q2 integration.
    expect(pending.map((row) => [row.actionName, row.value, row.state])).toEqual([
      ['Flag the account', 'ACC-100', 'EXECUTED'],
      ['Flag the account', 'ACC-200', 'EXECUTED'],
      ['Disable the user', 'alice', 'FAILED'],
    ]);
    expect(pending.every((row) => row.triggerId === triggerId && row.alertId === alert!.id)).toBe(true);
    expect(pending[2]!.error).toContain('contact support');
    expect(pending[0]!.request).toMatchObject({ method: 'POST' });
    expect(pending[0]!.response).not.toBeNull();
    expect(bank.warningCodes.get('ACC-100')).toEqual([42]);
    expect(bank.warningCodes.get('ACC-200')).toEqual([42]);
    expect(bank.warningCodes.has('ACC-300')).toBe(false);

    // Run again: nothing is queued twice.
    expect(await runQueuedActions(ctx.database.db, ctx.secrets)).toBe(0);

    const undo = await call('POST', `/pending-action/${pending[0]!.id}/undo`);
    expect(undo.statusCode, undo.body).toBe(200);
    expect(undo.json()).toMatchObject({ state: 'REVERTED' });
    expect(bank.warningCodes.get('ACC-100') ?? []).toEqual([]);
    expect(bank.warningCodes.get('ACC-200')).toEqual([42]);
    const failedUndo = await call('POST', `/pending-action/${pending[2]!.id}/undo`);
    expect(failedUndo.json()).toMatchObject({ key: 'PENDING_ACTION_NOT_EXECUTED' });
  });

  it('never undo an alert: a deleted action is written on the run, an event without values fails visibly', async () => {
    const doomed = await created('POST', '/actions', {
      name: 'Soon deleted',
      type: 'ADD_WARNING_CODE',
      provider: 'SYMXCHANGE',
      fields: ['fields.account'],
      warningCode: 7,
    });
    const triggerId = await created('POST', '/trigger', wireTrigger([doomed, warningActionId]));
    expect((await call('DELETE', `/action/${doomed}`)).statusCode).toBe(204);
    const start = new Date('2026-03-03T10:00:00.000Z');
    await seedEvents(ctx.database.db, orgId, [
      { timestamp: new Date(start.getTime() + MINUTE), fields: { transactionType: 'wire' } },
    ]);

    expect(await fire(triggerId, start)).toBe(0);

    const [alert] = await alertsOf(triggerId);
    expect(alert).toBeDefined();
    const [run] = await ctx.database.db
      .select()
      .from(triggerRuns)
      .where(eq(triggerRuns.triggerId, triggerId));
    expect(run?.error).toContain(doomed);
    const pending = await pendingOf(alert!.id);
    expect(pending).toHaveLength(1);
    expect(pending[0]).toMatchObject({ actionName: 'Flag the account', state: 'FAILED' });
    expect(pending[0]!.error).toContain('no value in fields.account');
  });

  it('run nothing while the feature is off, and say so on the run', async () => {
    const triggerId = await created('POST', '/trigger', wireTrigger([warningActionId]));
    const db = ctx.database.db;
    await db.update(orgs).set({ featureFlags: {} }).where(eq(orgs.id, orgId));
    try {
      const start = new Date('2026-03-04T10:00:00.000Z');
      await seedEvents(db, orgId, [
        {
          timestamp: new Date(start.getTime() + MINUTE),
          fields: { transactionType: 'wire', account: 'ACC-900' },
        },
      ]);
      expect(await fire(triggerId, start)).toBe(0);
      const [run] = await db.select().from(triggerRuns).where(eq(triggerRuns.triggerId, triggerId));
      expect(run).toMatchObject({ alertsRaised: 1 });
      expect(run?.error).toContain('automatedIntervention');
      expect(bank.warningCodes.has('ACC-900')).toBe(false);
    } finally {
      await db
        .update(orgs)
        .set({ featureFlags: { automatedIntervention: true } })
        .where(eq(orgs.id, orgId));
    }
  });
});
