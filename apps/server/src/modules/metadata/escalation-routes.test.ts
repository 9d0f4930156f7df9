import { ESCALATION_MAX_CONTACT_STEPS } from '@vigil/contracts';
import { and, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { users } from '../users/tables';
import { escalationOutOfOffice, escalationSettings, escalationSteps } from './escalation-tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let colleague: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['ESCALATION_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['ESCALATION_VIEW'] });
  colleague = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['ESCALATION_EDIT'] });
});
afterAll(() => ctx.close());
beforeEach(async () => {
  await ctx.database.db.delete(escalationSteps);
  await ctx.database.db.delete(escalationOutOfOffice);
  await ctx.database.db.delete(escalationSettings);
});

const call = (method: HttpMethod, path: string, user = editor, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const addStep = (payload: object, user = editor, org = orgId) =>
  call('POST', '/escalation/step', user, payload, org);

const stepNames = async () =>
  ((await call('GET', '/escalation/steps', viewer)).json().items as { name: string }[]).map(
    (step) => step.name,
  );

const stepCount = async () =>
  (await ctx.database.db.select().from(escalationSteps).where(eq(escalationSteps.orgId, orgId))).length;

describe('contact steps', () => {
  it('adds steps in order, with a person or an e-mail address, and logs each change', async () => {
    const first = await addStep({ name: 'SOC on-call lead', userId: colleague.id });
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      position: 1,
      name: 'SOC on-call lead',
      userId: colleague.id,
      userName: 'Test User',
      email: colleague.email,
      hours: 'ALWAYS',
      active: true,
    });
    const second = await addStep({ name: 'CISO', email: 'CISO@Bank.example', hours: 'BUSINESS_HOURS' });
    expect(second.json()).toMatchObject({ position: 2, email: 'ciso@bank.example', userId: null });
    const list = (await call('GET', '/escalation/steps', viewer)).json();
    expect(list).toMatchObject({ max: ESCALATION_MAX_CONTACT_STEPS, intervalMinutes: 10 });
    expect(list.items.map((step: { name: string }) => step.name)).toEqual(['SOC on-call lead', 'CISO']);
    const logged = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), eq(activityLog.targetId, first.json().id)));
    expect(logged.map((entry) => entry.action)).toEqual(['escalation.step.created']);
  });

  it('refuses a step without a contact, with two, with a stranger or with a contact already listed', async () => {
    await addStep({ name: 'Lead', userId: colleague.id });
    const cases: [object, number, string][] = [
      [{ name: 'Nobody' }, 400, 'ESCALATION_STEP_CONTACT_REQUIRED'],
      [{ name: 'Both', userId: colleague.id, email: 'a@b.example' }, 400, 'ESCALATION_STEP_CONTACT_REQUIRED'],
      [{ name: 'Outsider', userId: stranger.id }, 400, 'ESCALATION_STEP_INVALID_PERSON'],
      [{ name: 'Again', userId: colleague.id }, 409, 'ESCALATION_STEP_DUPLICATE_CONTACT'],
      [{ name: 'Bad', email: 'not-an-address' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ name: '  ', email: 'x@y.example' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [{ name: 'Hours', email: 'x@y.example', hours: 'NIGHTS' }, 400, 'GENERIC_INVALID_FIELD_VALUE'],
    ];
    for (const [payload, status, key] of cases) {
      const response = await addStep(payload);
      expect({ payload, status: response.statusCode, key: response.json().key }).toEqual({
        payload,
        status,
        key,
      });
    }
    expect(await stepCount()).toBe(1);
  });

  it('refuses deactivated people', async () => {
    const leaver = await seedUser(ctx.database.db, { homeOrgId: orgId, permissions: [] });
    await ctx.database.db.update(users).set({ active: false }).where(eq(users.id, leaver.id));
    const response = await addStep({ name: 'Leaver', userId: leaver.id });
    expect(response.json().key).toBe('ESCALATION_STEP_INVALID_PERSON');
  });

  it(`stops at ${ESCALATION_MAX_CONTACT_STEPS} steps`, async () => {
    for (let index = 1; index <= ESCALATION_MAX_CONTACT_STEPS; index++) {
      expect((await addStep({ name: `Step ${index}`, email: `step${index}@bank.example` })).statusCode).toBe(
        201,
      );
    }
    const refused = await addStep({ name: 'One too many', email: 'extra@bank.example' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ key: 'ESCALATION_MAX_CONTACT_STEPS', params: { max: 10 } });
    expect(await stepCount()).toBe(ESCALATION_MAX_CONTACT_STEPS);
  });

  it('changes a step in place and refuses the rules of creation', async () => {
    const a = (await addStep({ name: 'A', email: 'a@bank.example' })).json();
    await addStep({ name: 'B', email: 'b@bank.example' });
    const changed = await call('PUT', `/escalation/step/${a.id}`, editor, {
      name: 'A2',
      userId: colleague.id,
      hours: 'BUSINESS_HOURS',
    });
    expect(changed.statusCode).toBe(200);
    expect(changed.json()).toMatchObject({
      position: 1,
      name: 'A2',
      userId: colleague.id,
      hours: 'BUSINESS_HOURS',
    });
    const clash = await call('PUT', `/escalation/step/${a.id}`, editor, {
      name: 'A3',
      email: 'b@bank.example',
    });
    expect(clash.json().key).toBe('ESCALATION_STEP_DUPLICATE_CONTACT');
    expect(await stepNames()).toEqual(['A2', 'B']);
  });

  it('reorders with every step once, and removes a step closing the gap', async () => {
    const ids: string[] = [];
    for (const name of ['A', 'B', 'C']) {
      ids.push((await addStep({ name, email: `${name.toLowerCase()}@bank.example` })).json().id);
    }
    const [a, b, c] = ids as [string, string, string];
    const moved = await call('PUT', '/escalation/steps/order', editor, { ids: [c, a, b] });
    expect(moved.statusCode).toBe(200);
    expect(
      moved.json().items.map((step: { name: string; position: number }) => [step.position, step.name]),
    ).toEqual([
      [1, 'C'],
      [2, 'A'],
      [3, 'B'],
    ]);
    for (const order of [
      [a, b],
      [a, b, c, c],
      [a, b, '00000000-0000-4000-8000-000000000001'],
    ]) {
      const refused = await call('PUT', '/escalation/steps/order', editor, { ids: order });
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({ key: 'ESCALATION_STEP_ORDER_MISMATCH', field: 'ids' });
    }
    expect(await stepNames()).toEqual(['C', 'A', 'B']);
    expect((await call('DELETE', `/escalation/step/${c}`)).statusCode).toBe(204);
    const after = (await call('GET', '/escalation/steps', viewer)).json().items;
    expect(after.map((step: { name: string; position: number }) => [step.position, step.name])).toEqual([
      [1, 'A'],
      [2, 'B'],
    ]);
  });

  it('hides steps of other organisations and keeps viewers from changing anything', async () => {
    const mine = (await addStep({ name: 'Mine', email: 'mine@bank.example' })).json();
    const theirs = (await addStep({ name: 'Theirs', email: 't@other.example' }, stranger, otherOrgId)).json();
    for (const response of [
      await call('PUT', `/escalation/step/${theirs.id}`, editor, { name: 'X', email: 'x@bank.example' }),
      await call('DELETE', `/escalation/step/${theirs.id}`),
    ]) {
      expect(response.statusCode).toBe(404);
      expect(response.json().key).toBe('ESCALATION_STEP_NOT_FOUND');
    }
    const stolen = await call('PUT', '/escalation/steps/order', editor, { ids: [theirs.id] });
    expect(stolen.json().key).toBe('ESCALATION_STEP_ORDER_MISMATCH');
    const denied = await call('DELETE', `/escalation/step/${mine.id}`, viewer);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().key).toBe('PERMISSION_DENIED');
    expect(await stepNames()).toEqual(['Mine']);
  });

  it('is closed when the escalation page is switched off for the organisation', async () => {
    const closedOrg = await seedOrg(ctx.database.db, { featureFlags: { escalationPage: false } });
    const user = await seedUser(ctx.database.db, {
      homeOrgId: closedOrg.id,
      permissions: ['ESCALATION_EDIT'],
    });
    const response = await call('GET', '/escalation/steps', user, undefined, closedOrg.id);
    expect(response.statusCode).toBe(403);
    expect(response.json().key).toBe('FEATURE_NOT_ENABLED');
  });
});

describe('business hours', () => {
  it('answers Monday to Friday 9 to 5 in UTC until saved', async () => {
    const schedule = (await call('GET', '/escalation/schedule', viewer)).json();
    expect(schedule).toMatchObject({ mode: 'WEEKDAYS', timezone: 'UTC', updatedAt: null });
    expect(schedule.days).toHaveLength(5);
    expect(schedule.days[0]).toEqual({ day: 1, start: '09:00', end: '17:00' });
  });

  it('saves custom days in a time zone and logs before and after', async () => {
    const saved = await call('PUT', '/escalation/schedule', editor, {
      mode: 'CUSTOM',
      timezone: 'America/Chicago',
      days: [
        { day: 6, start: '10:00', end: '14:00' },
        { day: 1, start: '07:30', end: '24:00' },
      ],
    });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toMatchObject({
      mode: 'CUSTOM',
      timezone: 'America/Chicago',
      days: [
        { day: 1, start: '07:30', end: '24:00' },
        { day: 6, start: '10:00', end: '14:00' },
      ],
    });
    const [entry] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), eq(activityLog.action, 'escalation.schedule.updated')));
    expect(entry!.details).toMatchObject({ before: { mode: 'WEEKDAYS' }, after: { mode: 'CUSTOM' } });
  });

  it('refuses an unknown zone, no days, a day twice, a window ending first and a malformed time', async () => {
    const cases: [object, string, string][] = [
      [{ mode: 'WEEKDAYS', timezone: 'Mars/Olympus' }, 'ESCALATION_INVALID_TIMEZONE', 'timezone'],
      [{ mode: 'CUSTOM', timezone: 'UTC', days: [] }, 'ESCALATION_HOURS_DAYS_REQUIRED', 'days'],
      [
        {
          mode: 'CUSTOM',
          timezone: 'UTC',
          days: [
            { day: 2, start: '09:00', end: '12:00' },
            { day: 2, start: '13:00', end: '17:00' },
          ],
        },
        'ESCALATION_HOURS_DUPLICATE_DAY',
        'days',
      ],
      [
        { mode: 'CUSTOM', timezone: 'UTC', days: [{ day: 3, start: '17:00', end: '09:00' }] },
        'ESCALATION_HOURS_INVALID_WINDOW',
        'days',
      ],
      [
        { mode: 'CUSTOM', timezone: 'UTC', days: [{ day: 3, start: '9:00', end: '17:00' }] },
        'GENERIC_INVALID_FIELD_VALUE',
        'days.0.start',
      ],
    ];
    for (const [payload, key, field] of cases) {
      const response = await call('PUT', '/escalation/schedule', editor, payload);
      expect({ status: response.statusCode, key: response.json().key, field: response.json().field }).toEqual(
        {
          status: 400,
          key,
          field,
        },
      );
    }
    expect((await call('GET', '/escalation/schedule', viewer)).json().updatedAt).toBeNull();
  });
});

describe('out of office', () => {
  const future = (hours: number) => new Date(Date.now() + hours * 3_600_000).toISOString();

  it('adds periods earliest first, removes them and logs both', async () => {
    const later = await call('POST', '/escalation/out-of-office', editor, {
      startsAt: future(48),
      endsAt: future(72),
      note: 'Bank holiday',
    });
    expect(later.statusCode).toBe(201);
    await call('POST', '/escalation/out-of-office', editor, { startsAt: future(-1), endsAt: future(2) });
    const list = (await call('GET', '/escalation/out-of-office', viewer)).json().items;
    expect(list.map((period: { note: string }) => period.note)).toEqual(['', 'Bank holiday']);
    expect((await call('GET', '/escalation/schedule', viewer)).json().businessHoursNow).toBe(false);
    expect((await call('DELETE', `/escalation/out-of-office/${later.json().id}`)).statusCode).toBe(204);
    const actions = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), like(activityLog.action, 'escalation.out-of-office.%')));
    expect(actions.map((entry) => entry.action).sort()).toEqual([
      'escalation.out-of-office.created',
      'escalation.out-of-office.created',
      'escalation.out-of-office.deleted',
    ]);
  });

  it('refuses a period ending first or already over, and hides periods of other organisations', async () => {
    const backwards = await call('POST', '/escalation/out-of-office', editor, {
      startsAt: future(5),
      endsAt: future(4),
    });
    expect(backwards.json()).toMatchObject({
      key: 'ESCALATION_OUT_OF_OFFICE_INVALID_RANGE',
      field: 'endsAt',
    });
    const over = await call('POST', '/escalation/out-of-office', editor, {
      startsAt: future(-5),
      endsAt: future(-4),
    });
    expect(over.json()).toMatchObject({ key: 'ESCALATION_OUT_OF_OFFICE_IN_PAST', field: 'endsAt' });
    const long = await call('POST', '/escalation/out-of-office', editor, {
      startsAt: future(1),
      endsAt: future(2),
      note: 'x'.repeat(501),
    });
    expect(long.json().key).toBe('GENERIC_INVALID_FIELD_VALUE');
    const theirs = await call(
      'POST',
      '/escalation/out-of-office',
      stranger,
      { startsAt: future(1), endsAt: future(2) },
      otherOrgId,
    );
    const hidden = await call('DELETE', `/escalation/out-of-office/${theirs.json().id}`);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json().key).toBe('ESCALATION_OUT_OF_OFFICE_NOT_FOUND');
    expect((await call('GET', '/escalation/out-of-office', viewer)).json().items).toEqual([]);
  });
});
