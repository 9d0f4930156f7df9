import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestAlert } from '../../../test/alerts';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { eventRow, insertEventRows } from '../events/store';
import { insertRestriction } from '../restrictions/repo';
import { tickets } from '../tickets/tables';
import { triggers } from '../triggers/tables';
import { alerts, alertStateChanges } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let plainOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let restricted: SeededUser;
let plainEditor: SeededUser;
let triggerId: string;

const DAY = 86_400_000;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  otherOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  plainOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['ALERT_INBOX_VIEW', 'ALERT_INBOX_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['ALERT_INBOX_VIEW'] });
  restricted = await seedUser(db, { homeOrgId: orgId, permissions: ['ALERT_INBOX_VIEW'] });
  plainEditor = await seedUser(db, {
    homeOrgId: plainOrgId,
    permissions: ['ALERT_INBOX_VIEW', 'ALERT_INBOX_EDIT'],
  });
  const [trigger] = await db
    .insert(triggers)
    .values({ orgId, name: 'Brute-force logins', type: 'THRESHOLD', intervalSeconds: 300 })
    .returning();
  triggerId = trigger!.id;
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

let counter = 0;
const seedAlert = (values: Partial<typeof alerts.$inferInsert> = {}, org = orgId) =>
  insertTestAlert(ctx.database.db, org, { triggerId: org === orgId ? triggerId : null, ...values });

const setState = (id: string, payload: object, user = editor) =>
  call('PUT', `/alert/${id}/state`, user, payload);

async function expectError(
  response: { statusCode: number; json: () => unknown },
  status: number,
  key: string,
) {
  expect(response.statusCode).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

describe('inbox list', () => {
  it('lists NEW alerts by default, newest first, and other states when asked', async () => {
    const group = `g-${++counter}`;
    const older = await seedAlert({ groupKey: group, firedAt: new Date(Date.now() - 3600_000) });
    const newer = await seedAlert({ groupKey: group });
    const acked = await seedAlert({ groupKey: group, state: 'ACKED' });
    const response = await call('GET', `/alerts?filter=group:${group}`, viewer);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { view: string; items: { id: string }[]; total: number };
    expect(body.view).toBe('alert');
    expect(body.items.map((item) => item.id)).toEqual([newer.id, older.id]);
    const both = (
      await call('GET', `/alerts?filter=group:${group}&state=NEW,ACKED&sort=oldest`, viewer)
    ).json();
    expect((both as typeof body).items.map((item) => item.id)).toEqual([older.id, newer.id, acked.id]);
  });

  it('bounds the fired time by begin and end', async () => {
    const group = `g-${++counter}`;
    const old = await seedAlert({ groupKey: group, firedAt: new Date(Date.now() - 5 * DAY) });
    const recent = await seedAlert({ groupKey: group });
    const since = encodeURIComponent(new Date(Date.now() - DAY).toISOString());
    const until = encodeURIComponent(new Date(Date.now() - 2 * DAY).toISOString());
    const ids = async (range: string) =>
      (
        (await call('GET', `/alerts?filter=group:${group}${range}`, viewer)).json() as {
          items: { id: string }[];
        }
      ).items.map((item) => item.id);
    expect(await ids(`&begin=${since}`)).toEqual([recent.id]);
    expect(await ids(`&end=${until}`)).toEqual([old.id]);
  });

  it('sorts by severity and filters by severity and title', async () => {
    const group = `g-${++counter}`;
    const low = await seedAlert({ groupKey: group, severity: 'LOW', title: 'Impossible travel' });
    const critical = await seedAlert({ groupKey: group, severity: 'CRITICAL', title: 'Large wire transfer' });
    const high = await seedAlert({ groupKey: group, severity: 'HIGH', title: 'Impossible travel' });
    const sorted = (await call('GET', `/alerts?filter=group:${group}&sort=severity`, viewer)).json() as {
      items: { id: string }[];
    };
    expect(sorted.items.map((item) => item.id)).toEqual([critical.id, high.id, low.id]);
    const filtered = (
      await call('GET', `/alerts?filter=group:${group}&filter=title:travel&filter=severity:high`, viewer)
    ).json() as { items: { id: string }[] };
    expect(filtered.items.map((item) => item.id)).toEqual([high.id]);
  });

  it('refuses bad filters and sort/state combinations', async () => {
    await expectError(
      await call('GET', '/alerts?filter=severity', viewer),
      400,
      'ALERT_FILTER_FORMAT_INVALID',
    );
    await expectError(await call('GET', '/alerts?filter=colour:red', viewer), 400, 'ALERT_FILTER_INVALID');
    await expectError(await call('GET', '/alerts?filter=trigger:abc', viewer), 400, 'ALERT_FILTER_INVALID');
    await expectError(
      await call('GET', '/alerts?filter=severity:HIGH&filter=severity:LOW', viewer),
      400,
      'ALERT_FILTER_ONE_KEY',
    );
    await expectError(await call('GET', '/alerts?sort=lastEscalated', viewer), 400, 'ALERT_SORT_INVALID');
    await expectError(
      await call('GET', '/alerts?sort=dismissed&state=DISMISSED,NEW', viewer),
      400,
      'ALERT_SORT_INVALID',
    );
    await expectError(
      await call('GET', '/alerts?sort=fraudFlagged&state=NEW', viewer),
      400,
      'ALERT_SORT_INVALID',
    );
    expect((await call('GET', '/alerts?sort=dismissed&state=DISMISSED', viewer)).statusCode).toBe(200);
    expect((await call('GET', '/alerts?sort=lastEscalated&state=ESCALATED', viewer)).statusCode).toBe(200);
  });

  it('groups by trigger with counts per state and by story with count and span', async () => {
    const group = `g-${++counter}`;
    const first = await seedAlert({ groupKey: group, firedAt: new Date(Date.now() - 7200_000) });
    const last = await seedAlert({ groupKey: group });
    await seedAlert({ groupKey: group, state: 'DISMISSED' });
    const stories = (await call('GET', `/alerts?view=story&filter=group:${group}`, viewer)).json() as {
      view: string;
      items: {
        groupKey: string;
        count: number;
        firstFiredAt: string;
        lastFiredAt: string;
        latestAlertId: string;
      }[];
    };
    expect(stories.view).toBe('story');
    expect(stories.items).toHaveLength(1);
    expect(stories.items[0]).toMatchObject({
      groupKey: group,
      count: 2,
      firstFiredAt: first.firedAt.toISOString(),
      lastFiredAt: last.firedAt.toISOString(),
      latestAlertId: last.id,
    });
    const byTrigger = (await call('GET', `/alerts?view=trigger&filter=group:${group}`, viewer)).json() as {
      items: { triggerId: string; name: string; total: number; counts: Record<string, number> }[];
    };
    expect(byTrigger.items).toEqual([
      expect.objectContaining({
        triggerId,
        name: 'Brute-force logins',
        total: 3,
        counts: { NEW: 2, ACKED: 0, ESCALATED: 0, DISMISSED: 1, FRAUD_FLAGGED: 0 },
      }),
    ]);
  });

  it('keeps fraud alerts to fraud products and the domain asked for', async () => {
    const fraud = await seedAlert({ domain: 'fraud', title: 'New payee then transfer' });
    const fraudList = (await call('GET', '/alerts?domain=fraud', viewer)).json() as {
      items: { id: string }[];
    };
    expect(fraudList.items.map((item) => item.id)).toContain(fraud.id);
    const securityList = (await call('GET', '/alerts', viewer)).json() as { items: { id: string }[] };
    expect(securityList.items.map((item) => item.id)).not.toContain(fraud.id);
    await expectError(
      await call('GET', '/alerts?domain=fraud', plainEditor, undefined, plainOrgId),
      403,
      'PRODUCT_NOT_ENTITLED',
    );
    const plainFraud = await seedAlert({ domain: 'fraud' }, plainOrgId);
    await expectError(
      await call('GET', `/alert/${plainFraud.id}`, plainEditor, undefined, plainOrgId),
      403,
      'PRODUCT_NOT_ENTITLED',
    );
  });
});

describe('one alert', () => {
  it('answers 404 for alerts of other organisations on every route', async () => {
    const foreign = await seedAlert({}, otherOrgId);
    for (const [method, path, payload] of [
      ['GET', `/alert/${foreign.id}`],
      ['GET', `/alert/${foreign.id}/events`],
      ['GET', `/alert/${foreign.id}/similar`],
      ['POST', `/alert/${foreign.id}/viewed`],
      ['PUT', `/alert/${foreign.id}/state`, { state: 'ACKED' }],
    ] as [HttpMethod, string, object?][]) {
      await expectError(await call(method, path, editor, payload), 404, 'ALERT_NOT_FOUND');
    }
    const [row] = await ctx.database.db.select().from(alerts).where(eq(alerts.id, foreign.id));
    expect(row!.state).toBe('NEW');
  });

  it('needs ALERT_INBOX_EDIT to change state', async () => {
    const alert = await seedAlert();
    await expectError(await setState(alert.id, { state: 'ACKED' }, viewer), 403, 'PERMISSION_DENIED');
  });

  it('records views once, with who viewed it', async () => {
    const alert = await seedAlert();
    expect((await call('POST', `/alert/${alert.id}/viewed`, viewer)).statusCode).toBe(204);
    expect((await call('POST', `/alert/${alert.id}/viewed`, viewer)).statusCode).toBe(204);
    const detail = (await call('GET', `/alert/${alert.id}`, viewer)).json() as {
      viewed: boolean;
      viewers: { userId: string }[];
    };
    expect(detail.viewed).toBe(true);
    expect(detail.viewers.map((item) => item.userId)).toEqual([viewer.id]);
    const forEditor = (await call('GET', `/alert/${alert.id}`, editor)).json() as { viewed: boolean };
    expect(forEditor.viewed).toBe(false);
  });

  it('lists similar alerts sharing the group key', async () => {
    const group = `g-${++counter}`;
    const alert = await seedAlert({ groupKey: group });
    const twin = await seedAlert({ groupKey: group, state: 'DISMISSED' });
    await seedAlert({ groupKey: `${group}-other` });
    const similar = (await call('GET', `/alert/${alert.id}/similar`, viewer)).json() as {
      items: { id: string }[];
      total: number;
    };
    expect(similar.items.map((item) => item.id)).toEqual([twin.id]);
    expect(similar.total).toBe(1);
  });

  it('shows the matched events the caller may see', async () => {
    const db = ctx.database.db;
    const now = new Date();
    const rows = [
      eventRow(orgId, { message: 'login failed', host: 'vpn-01', dataSource: 'vpn' }, now),
      eventRow(orgId, { message: 'login failed', host: 'web-01', dataSource: 'firewall' }, now),
    ];
    await insertEventRows(db, rows);
    await insertRestriction(db, orgId, {
      name: `only vpn ${++counter}`,
      includeQuery: 'data_source:vpn',
      excludeQuery: null,
      userIds: [restricted.id],
      orgIds: [],
    });
    const alert = await seedAlert({ events: rows.map((row) => ({ id: row.id!, ts: row.ts.toISOString() })) });
    const full = (await call('GET', `/alert/${alert.id}/events`, viewer)).json() as {
      items: { id: string; host: string }[];
      stored: number;
    };
    expect(full.stored).toBe(2);
    expect(full.items.map((item) => item.host).sort()).toEqual(['vpn-01', 'web-01']);
    const limited = (await call('GET', `/alert/${alert.id}/events`, restricted)).json() as typeof full;
    expect(limited.stored).toBe(2);
    expect(limited.items.map((item) => item.host)).toEqual(['vpn-01']);
  });
});

describe('state changes', () => {
  it('acknowledges and dismisses with history, audit and the same state refused', async () => {
    const alert = await seedAlert();
    const acked = await setState(alert.id, { state: 'ACKED' });
    expect(acked.statusCode, acked.body).toBe(200);
    await expectError(await setState(alert.id, { state: 'ACKED' }), 409, 'ALERT_SAME_STATE');
    const dismissed = await setState(alert.id, { state: 'DISMISSED', reason: 'OTHER', notes: 'Pen test' });
    expect(dismissed.statusCode).toBe(200);
    const body = dismissed.json() as {
      state: string;
      dismissalReason: string;
      dismissalNotes: string;
      dismissedAt: string | null;
      history: { fromState: string; toState: string; changedBy: string; reason: string | null }[];
    };
    expect(body).toMatchObject({ state: 'DISMISSED', dismissalReason: 'OTHER', dismissalNotes: 'Pen test' });
    expect(body.dismissedAt).not.toBeNull();
    expect(body.history).toEqual([
      expect.objectContaining({ fromState: 'NEW', toState: 'ACKED', changedBy: editor.id }),
      expect.objectContaining({ fromState: 'ACKED', toState: 'DISMISSED', reason: 'OTHER' }),
    ]);
    const audit = await ctx.database.db.select().from(activityLog).where(eq(activityLog.targetId, alert.id));
    expect(audit.map((entry) => entry.action)).toEqual(['alert.state-changed', 'alert.state-changed']);
  });

  it('refuses dismissals without a reason, with an unknown one, and Other without notes', async () => {
    const alert = await seedAlert();
    await expectError(await setState(alert.id, { state: 'DISMISSED' }), 400, 'ALERT_DISMISS_REASON_REQUIRED');
    await expectError(
      await setState(alert.id, { state: 'DISMISSED', reason: 'BORED' }),
      400,
      'GENERIC_INVALID_FIELD_VALUE',
    );
    await expectError(
      await setState(alert.id, { state: 'DISMISSED', reason: 'OTHER' }),
      400,
      'ALERT_DISMISS_DETAILS_REQUIRED',
    );
    await expectError(await setState(alert.id, { state: '' }), 400, 'ALERT_STATE_EMPTY');
    await expectError(await setState(alert.id, { state: 'CLOSED' }), 400, 'GENERIC_INVALID_FIELD_VALUE');
    const changes = await ctx.database.db
      .select()
      .from(alertStateChanges)
      .where(eq(alertStateChanges.alertId, alert.id));
    expect(changes).toHaveLength(0);
  });

  it('escalates only with the slug of an incident, and an escalated alert keeps its state', async () => {
    const alert = await seedAlert();
    await expectError(await setState(alert.id, { state: 'ESCALATED' }), 400, 'ALERT_ESCALATION_NEEDS_TICKET');
    const [incident] = await ctx.database.db
      .insert(tickets)
      .values({ orgId, kind: 'incident', number: 900, slug: 'INC-900', title: 'Logins', state: 'TRIAGE' })
      .returning();
    await expectError(
      await setState(alert.id, { state: 'ESCALATED', ticketSlug: 'INC-901' }),
      400,
      'ALERT_ESCALATION_NOT_INCIDENT',
    );
    const escalated = await setState(alert.id, { state: 'ESCALATED', ticketSlug: 'inc-900' });
    expect(escalated.statusCode).toBe(200);
    expect(escalated.json()).toMatchObject({
      state: 'ESCALATED',
      ticketId: incident!.id,
      ticketSlug: 'INC-900',
    });
    await expectError(
      await setState(alert.id, { state: 'DISMISSED', reason: 'TEST' }),
      409,
      'ALERT_ESCALATED_FROZEN',
    );
  });

  it('enforces the fraud flag rules', async () => {
    const security = await seedAlert();
    await expectError(
      await setState(security.id, { state: 'FRAUD_FLAGGED', fraudType: 'WIRE_FRAUD' }),
      400,
      'ALERT_FRAUD_SECURITY_ALERT',
    );
    const fraud = await seedAlert({ domain: 'fraud' });
    await expectError(await setState(fraud.id, { state: 'FRAUD_FLAGGED' }), 400, 'ALERT_FRAUD_TYPE_REQUIRED');
    await expectError(
      await setState(fraud.id, { state: 'FRAUD_FLAGGED', fraudType: 'UNKNOWN', fraudCertainty: 'CONFIRMED' }),
      400,
      'ALERT_FRAUD_CONFIRMED_UNKNOWN',
    );
    await expectError(
      await setState(fraud.id, { state: 'FRAUD_FLAGGED', fraudType: 'OTHER', fraudCertainty: 'SUSPECTED' }),
      400,
      'ALERT_FRAUD_SUSPECTED_OTHER',
    );
    const [ticket] = await ctx.database.db
      .insert(tickets)
      .values({ orgId, kind: 'incident', number: 901, slug: 'INC-901', title: 'Fraud', state: 'TRIAGE' })
      .returning();
    const withTicket = await seedAlert({ domain: 'fraud', ticketId: ticket!.id });
    await expectError(
      await setState(withTicket.id, { state: 'FRAUD_FLAGGED', fraudType: 'WIRE_FRAUD' }),
      409,
      'ALERT_FRAUD_TICKET_ATTACHED',
    );
    const flagged = await setState(fraud.id, {
      state: 'FRAUD_FLAGGED',
      fraudType: 'OTHER',
      fraudCertainty: 'CONFIRMED',
    });
    expect(flagged.statusCode).toBe(200);
    expect(flagged.json()).toMatchObject({
      state: 'FRAUD_FLAGGED',
      fraudType: 'OTHER',
      fraudCertainty: 'CONFIRMED',
    });
  });
});

describe('bulk state changes', () => {
  it('reports each alert, failures included, and reaches 30 days back only', async () => {
    const fresh = await seedAlert();
    const alreadyAcked = await seedAlert({ state: 'ACKED' });
    const old = await seedAlert({ firedAt: new Date(Date.now() - 31 * DAY) });
    const foreign = await seedAlert({}, otherOrgId);
    const response = await call('POST', '/alerts/bulk-state', editor, {
      ids: [fresh.id, alreadyAcked.id, old.id, foreign.id],
      state: 'ACKED',
    });
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as {
      succeeded: number;
      failed: number;
      results: { id: string; key?: string }[];
    };
    expect(body.succeeded).toBe(1);
    expect(body.failed).toBe(3);
    expect(Object.fromEntries(body.results.map((result) => [result.id, result.key ?? 'ok']))).toEqual({
      [fresh.id]: 'ok',
      [alreadyAcked.id]: 'ALERT_SAME_STATE',
      [old.id]: 'ALERT_BULK_TOO_OLD',
      [foreign.id]: 'ALERT_NOT_FOUND',
    });
    const [oldRow] = await ctx.database.db.select().from(alerts).where(eq(alerts.id, old.id));
    expect(oldRow!.state).toBe('NEW');
  });

  it('changes what a selection finds within 30 days, and checks the change first', async () => {
    const group = `g-${++counter}`;
    const recent = await seedAlert({ groupKey: group });
    const old = await seedAlert({ groupKey: group, firedAt: new Date(Date.now() - 40 * DAY) });
    await expectError(
      await call('POST', '/alerts/bulk-state', editor, {
        selection: { filter: [`group:${group}`] },
        state: 'DISMISSED',
      }),
      400,
      'ALERT_DISMISS_REASON_REQUIRED',
    );
    await expectError(
      await call('POST', '/alerts/bulk-state', editor, { state: 'ACKED' }),
      400,
      'ALERT_BULK_NOTHING_SELECTED',
    );
    const response = await call('POST', '/alerts/bulk-state', editor, {
      selection: { filter: [`group:${group}`] },
      state: 'DISMISSED',
      reason: 'DUPLICATE',
    });
    expect(response.json()).toEqual({ succeeded: 1, failed: 0, results: [{ id: recent.id, ok: true }] });
    const [oldRow] = await ctx.database.db.select().from(alerts).where(eq(alerts.id, old.id));
    expect(oldRow!.state).toBe('NEW');
  });
});
