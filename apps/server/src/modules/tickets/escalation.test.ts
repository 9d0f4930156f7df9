import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertTestAlert } from '../../../test/alerts';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { alerts } from '../alerts/tables';
import { eventRow, insertEventRows } from '../events/store';
import { triggers } from '../triggers/tables';
import { tickets } from './tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let otherOrgId: string;
let analyst: SeededUser;
let inboxOnly: SeededUser;
let stranger: SeededUser;
let triggerId: string;
let otherTriggerId: string;

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, { config: { SMTP_URL: smtp.url }, startJobs: true });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  analyst = await seedUser(db, {
    homeOrgId: orgId,
    permissions: ['ALERT_INBOX_EDIT', 'INCIDENT_EDIT', 'TASK_EDIT'],
  });
  inboxOnly = await seedUser(db, { homeOrgId: orgId, permissions: ['ALERT_INBOX_EDIT', 'INCIDENT_VIEW'] });
  stranger = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['ALERT_INBOX_EDIT', 'INCIDENT_EDIT'],
  });
  const rows = await db
    .insert(triggers)
    .values([
      { orgId, name: 'Brute-force logins', type: 'THRESHOLD', intervalSeconds: 300 },
      { orgId, name: 'Large wire transfer', type: 'EVERY_EVENT', intervalSeconds: 300 },
    ])
    .returning();
  triggerId = rows[0]!.id;
  otherTriggerId = rows[1]!.id;
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const seedAlert = (values: Partial<typeof alerts.$inferInsert> = {}, org = orgId) =>
  insertTestAlert(ctx.database.db, org, {
    severity: 'HIGH',
    triggerId: org === orgId ? triggerId : null,
    ...values,
  });

async function seedEventAlert(
  event: { host?: string; srcIp?: string; userName?: string },
  trigger = triggerId,
) {
  const row = eventRow(orgId, { message: 'matched', ...event }, new Date());
  await insertEventRows(ctx.database.db, [row]);
  return seedAlert({ triggerId: trigger, events: [{ id: row.id!, ts: row.ts.toISOString() }] });
}

const escalateNew = (ids: string[], user = analyst, extra: object = {}) =>
  call('POST', '/alerts/escalate', user, { ids, ...extra });

describe('escalating alerts to a new incident', () => {
  it('creates an incident named after the trigger, escalates the alerts and lists them on it', async () => {
    const first = await seedAlert({ firedAt: new Date(Date.now() - 60_000) });
    const second = await seedAlert();
    const response = await escalateNew([first.id, second.id]);
    expect(response.statusCode).toBe(201);
    const incident = response.json() as { slug: string; title: string; state: string };
    expect(incident).toMatchObject({ title: 'Brute-force logins', state: 'TRIAGE' });
    const alert = (await call('GET', `/alert/${first.id}`, analyst)).json();
    expect(alert).toMatchObject({ state: 'ESCALATED', ticketSlug: incident.slug });
    const linked = (await call('GET', `/incident/${incident.slug}/alerts`, analyst)).json() as {
      id: string;
    }[];
    expect(linked.map((item) => item.id)).toEqual([second.id, first.id]);
    const detail = (await call('GET', `/incident/${incident.slug}`, analyst)).json();
    expect(detail.description).toContain(first.title);
    expect(detail.history.map((entry: { action: string }) => entry.action)).toEqual([
      'created',
      'alerts-escalated',
      'alerts-escalated',
    ]);
    const frozen = await call('PUT', `/alert/${first.id}/state`, analyst, { state: 'ACKED' });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().key).toBe('ALERT_ESCALATED_FROZEN');
  });

  it('takes a title when given', async () => {
    const alert = await seedAlert();
    const response = await escalateNew([alert.id], analyst, { title: 'Credential stuffing' });
    expect(response.json()).toMatchObject({ title: 'Credential stuffing' });
  });

  it('is all or nothing: one alert that cannot move refuses the request and creates no incident', async () => {
    const fresh = await seedAlert();
    const escalated = await seedAlert({ state: 'ESCALATED' });
    const count = async () =>
      (await ctx.database.db.select().from(tickets).where(eq(tickets.orgId, orgId))).length;
    const before = await count();
    const response = await escalateNew([fresh.id, escalated.id]);
    expect(response.statusCode).toBe(409);
    expect(response.json().key).toBe('ALERT_ESCALATED_FROZEN');
    expect(await count()).toBe(before);
    const [row] = await ctx.database.db.select().from(alerts).where(eq(alerts.id, fresh.id));
    expect(row!.state).toBe('NEW');
  });

  it('needs the incidents edit permission, and hides alerts of other organisations', async () => {
    const alert = await seedAlert();
    const refused = await escalateNew([alert.id], inboxOnly);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().key).toBe('PERMISSION_DENIED');
    const foreign = await seedAlert({}, otherOrgId);
    const hidden = await escalateNew([foreign.id]);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().key).toBe('ALERT_NOT_FOUND');
    expect((await escalateNew([])).statusCode).toBe(400);
  });
});

describe('escalating to an existing incident', () => {
  it('links by slug, refuses tasks and incidents of other organisations', async () => {
    const task = (await call('POST', '/task', analyst, { title: 'Not an incident' })).json();
    const incident = (await call('POST', '/incident', analyst, { title: 'Existing' })).json();
    const foreign = (await call('POST', '/incident', stranger, { title: 'Theirs' }, otherOrgId)).json();
    const alert = await seedAlert();
    for (const slug of [task.slug, `${foreign.slug}0`]) {
      const refused = await call('PUT', `/alert/${alert.id}/state`, inboxOnly, {
        state: 'ESCALATED',
        ticketSlug: slug,
      });
      expect(refused.statusCode).toBe(400);
      expect(refused.json().key).toBe('ALERT_ESCALATION_NOT_INCIDENT');
    }
    const bulk = await call('POST', '/alerts/bulk-state', inboxOnly, {
      ids: [alert.id],
      state: 'ESCALATED',
      ticketSlug: incident.slug,
    });
    expect(bulk.json()).toMatchObject({ succeeded: 1, failed: 0 });
    const linked = (await call('GET', `/incident/${incident.slug}/alerts`, inboxOnly)).json();
    expect(linked.map((item: { id: string }) => item.id)).toEqual([alert.id]);
    expect(
      (await call('GET', `/incident/${incident.slug}/alerts`, stranger, undefined, otherOrgId)).statusCode,
    ).toBe(404);
  });
});

describe('e-mail', () => {
  it('tells the owner and watchers of an existing incident that alerts were escalated to it', async () => {
    const watcher = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW'] });
    const incident = (
      await call('POST', '/incident', analyst, { title: 'Watched', watcherIds: [watcher.id] })
    ).json();
    const alert = await seedAlert();
    const response = await call('PUT', `/alert/${alert.id}/state`, inboxOnly, {
      state: 'ESCALATED',
      ticketSlug: incident.slug,
    });
    expect(response.statusCode).toBe(200);
    const mail = await smtp.waitForMessage(watcher.email, 20_000, (sent) =>
      Boolean(sent.subject?.includes(`${incident.slug} Watched:`) && sent.subject.includes('escalated')),
    );
    expect(mail.subject).toBe(`[Vigil] ${incident.slug} Watched: 1 alert(s) escalated`);
  });
});

describe('similar incidents', () => {
  it('lists incidents sharing hosts, IPs, users or triggers with the most in common first', async () => {
    const mine = (
      await escalateNew([
        (await seedEventAlert({ host: 'TELLER-01', srcIp: '10.0.0.5', userName: 'jdoe' }, otherTriggerId)).id,
      ])
    ).json();
    const sameHostAndUser = (
      await escalateNew([(await seedEventAlert({ host: 'teller-01', userName: 'JDoe' }, otherTriggerId)).id])
    ).json();
    const sameIp = (
      await escalateNew([(await seedEventAlert({ host: 'other', srcIp: '10.0.0.5' }, triggerId)).id])
    ).json();
    await escalateNew([(await seedEventAlert({ host: 'unrelated' }, triggerId)).id]);
    const similar = (await call('GET', `/incident/${mine.slug}/similar`, analyst)).json() as {
      slug: string;
      shared: { hosts: string[]; ips: string[]; users: string[]; triggers: string[] };
    }[];
    expect(similar[0]).toMatchObject({
      slug: sameHostAndUser.slug,
      shared: { hosts: ['teller-01'], users: ['jdoe'], triggers: ['Large wire transfer'], ips: [] },
    });
    expect(similar.find((item) => item.slug === sameIp.slug)?.shared.ips).toEqual(['10.0.0.5']);
    expect(similar.every((item) => item.slug !== mine.slug)).toBe(true);
    expect(similar.some((item) => item.shared.triggers.includes('Brute-force logins'))).toBe(false);
  });
});
