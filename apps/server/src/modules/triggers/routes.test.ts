import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { triggerRuns, triggers } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let fraudOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;
let fraudEditor: SeededUser;
let staff: SeededUser;
let plainQueryId: string;
let aggregateQueryId: string;
let secondQueryId: string;
let otherOrgQueryId: string;

const EDIT = ['TRIGGER_VIEW', 'TRIGGER_EDIT', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'] as const;

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

async function saveQuery(user: SeededUser, org: string, body: object): Promise<string> {
  const response = await call('POST', '/saved-query', user, body, org);
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  fraudOrgId = (await seedOrg(db, { productSkus: ['CYBERFRAUD_STANDARD'] })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['TRIGGER_VIEW'] });
  outsider = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  fraudEditor = await seedUser(db, { homeOrgId: fraudOrgId, permissions: [...EDIT] });
  staff = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId],
  });
  plainQueryId = await saveQuery(editor, orgId, { name: 'Failed logins', query: 'outcome:failure' });
  aggregateQueryId = await saveQuery(editor, orgId, {
    name: 'Logins by user',
    query: 'action:login',
    aggregation: { type: 'terms', field: 'user_name' },
  });
  secondQueryId = await saveQuery(editor, orgId, { name: 'Wire out', query: 'transactionType:wire' });
  otherOrgQueryId = await saveQuery(outsider, otherOrgId, { name: 'Theirs', query: 'outcome:failure' });
});
afterAll(() => ctx.close());

interface TriggerJson {
  id: string;
  state: string;
  version: number;
  previousVersionId: string | null;
  nextRunAt: string | null;
  intervalSeconds: number;
  [field: string]: unknown;
}

let counter = 0;
const threshold = (overrides: object = {}) => ({
  name: `Trigger ${++counter}`,
  type: 'THRESHOLD',
  savedQueryId: plainQueryId,
  intervalSeconds: 600,
  minMatch: 5,
  ...overrides,
});

async function create(payload: object = threshold(), user = editor, org = orgId): Promise<TriggerJson> {
  const response = await call('POST', '/trigger', user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as TriggerJson;
}

const expectError = async (
  response: Awaited<ReturnType<typeof call>>,
  status: number,
  key: string,
): Promise<void> => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

async function triggerCount(): Promise<number> {
  return ctx.database.db.$count(triggers, eq(triggers.orgId, orgId));
}

describe('triggers', () => {
  it('creates an active trigger scheduled one interval ahead, reads, lists and audits it', async () => {
    const before = Date.now();
    const created = await create(
      threshold({
        severity: 'HIGH',
        labels: ['brute-force', 'brute-force'],
        emailRecipients: ['soc@example.com'],
        customHeaders: { 'X-Team': 'SOC' },
        importantFields: ['user_name', 'source.ip'],
        ticketOwnerId: editor.id,
        watcherIds: [viewer.id],
      }),
    );
    expect(created).toMatchObject({
      state: 'ACTIVE',
      severity: 'HIGH',
      version: 1,
      savedQueryName: 'Failed logins',
      labels: ['brute-force'],
      managedBy: 'CLIENT',
      domain: 'security',
    });
    const nextRun = new Date(created.nextRunAt!).getTime();
    expect(nextRun).toBeGreaterThanOrEqual(before + 600_000);
    expect(nextRun).toBeLessThan(Date.now() + 600_000 + 1000);
    const [row] = await ctx.database.db.select().from(triggers).where(eq(triggers.id, created.id));
    expect(row!.lastWindowEnd!.getTime()).toBeGreaterThanOrEqual(before);

    const read = await call('GET', `/trigger/${created.id}`, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toMatchObject({ id: created.id, lastRunAt: null });

    const listed = await call(
      'GET',
      `/triggers?search=${encodeURIComponent(created.name as string)}`,
      viewer,
    );
    expect((listed.json() as { items: TriggerJson[] }).items.map((item) => item.id)).toEqual([created.id]);

    const [entry] = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.action, 'trigger.created'), eq(activityLog.targetId, created.id)));
    expect(entry?.actorUserId).toBe(editor.id);
  });

  it('filters by state, type and label and sorts', async () => {
    const label = `label-${++counter}`;
    const a = await create(threshold({ name: `Alpha ${counter}`, labels: [label], severity: 'LOW' }));
    const b = await create({
      name: `Beta ${counter}`,
      type: 'EVERY_EVENT',
      savedQueryId: plainQueryId,
      intervalSeconds: 300,
      labels: [label],
      severity: 'CRITICAL',
    });
    expect((await call('POST', `/trigger/${a.id}/pause`, editor)).statusCode).toBe(200);

    const ids = async (query: string) =>
      (
        (await call('GET', `/triggers?label=${label}${query}`, viewer)).json() as { items: TriggerJson[] }
      ).items.map((item) => item.id);
    expect(await ids('')).toEqual([a.id, b.id]);
    expect(await ids('&sortField=severity&sortOrder=DESC')).toEqual([b.id, a.id]);
    expect(await ids('&state=PAUSED')).toEqual([a.id]);
    expect(await ids('&type=EVERY_EVENT')).toEqual([b.id]);
    expect(await ids('&pageSize=1&pageNumber=2')).toEqual([b.id]);
  });

  it('checks each rule with its own key and writes nothing', async () => {
    const count = await triggerCount();
    const cases: [object, number, string][] = [
      [threshold({ savedQueryId: null }), 400, 'TRIGGER_MISSING_SAVED_QUERY'],
      [threshold({ savedQueryId: otherOrgQueryId }), 400, 'TRIGGER_MISSING_SAVED_QUERY'],
      [
        threshold({ type: 'EVERY_EVENT', savedQueryId: aggregateQueryId }),
        400,
        'TRIGGER_AGGREGATE_QUERY_NOT_ALLOWED',
      ],
      [threshold({ type: 'AGGREGATION', minMatch: null }), 400, 'TRIGGER_MISSING_AGGREGATION'],
      [threshold({ type: 'AGGREGATION', aggregation: { type: 'sum' } }), 400, 'TRIGGER_MISSING_AGGREGATION'],
      [threshold({ minMatch: null, maxMatch: null }), 400, 'TRIGGER_INVALID_MATCH_RANGE'],
      [threshold({ minMatch: -1 }), 400, 'TRIGGER_INVALID_MATCH_RANGE'],
      [threshold({ minMatch: 5, maxMatch: 4 }), 400, 'TRIGGER_INVALID_MATCH_RANGE'],
      [threshold({ minMatch: 1.5 }), 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [
        threshold({ type: 'SEQUENCE', sequence: [{ savedQueryId: plainQueryId }] }),
        400,
        'TRIGGER_SEQUENCE_STEPS_REQUIRED',
      ],
      [
        threshold({
          type: 'SEQUENCE',
          sequence: [{ savedQueryId: plainQueryId }, { savedQueryId: otherOrgQueryId }],
        }),
        400,
        'TRIGGER_MISSING_SAVED_QUERY',
      ],
      [
        threshold({
          type: 'SEQUENCE',
          intervalSeconds: 86_401,
          sequence: [{ savedQueryId: plainQueryId }, { savedQueryId: secondQueryId }],
        }),
        400,
        'TRIGGER_INVALID_SEQUENCE_INTERVAL',
      ],
      [
        threshold({ type: 'TEMPORAL_ANOMALY', intervalSeconds: 600 }),
        400,
        'TRIGGER_PERIOD_INTERVAL_REQUIRED',
      ],
      [threshold({ intervalSeconds: 59 }), 400, 'TRIGGER_INVALID_INTERVAL'],
      [threshold({ intervalSeconds: 7 * 86_400 + 1 }), 400, 'TRIGGER_INVALID_INTERVAL'],
      [threshold({ severity: 'URGENT' }), 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [threshold({ emailRecipients: ['not-an-address'] }), 400, 'TRIGGER_INVALID_EMAIL'],
      [threshold({ customHeaders: { 'X Team': 'a' } }), 400, 'TRIGGER_INVALID_HEADER'],
      [threshold({ customHeaders: { 'X-Team': 'a\r\nBcc: x@example.com' } }), 400, 'TRIGGER_INVALID_HEADER'],
      [threshold({ importantFields: ['user name'] }), 400, 'TRIGGER_INVALID_FIELD'],
      [threshold({ ticketOwnerId: outsider.id }), 400, 'TRIGGER_INVALID_USER'],
      [threshold({ watcherIds: [staff.id] }), 400, 'TRIGGER_INVALID_USER'],
      [threshold({ scheduleId: crypto.randomUUID() }), 404, 'TRIGGER_SCHEDULE_NOT_FOUND'],
      [threshold({ managedBy: 'OPS' }), 403, 'TRIGGER_MANAGED_READ_ONLY'],
    ];
    for (const [payload, status, key] of cases) {
      await expectError(await call('POST', '/trigger', editor, payload), status, key);
    }
    expect(await triggerCount()).toBe(count);
  });

  it('accepts the type-specific shapes and forces dynamic thresholds to 30 minutes', async () => {
    const sequence = await create(
      threshold({
        type: 'SEQUENCE',
        savedQueryId: null,
        minMatch: null,
        intervalSeconds: 3600,
        sequence: [{ savedQueryId: secondQueryId }, { savedQueryId: plainQueryId }],
      }),
    );
    expect(sequence).toMatchObject({ savedQueryId: secondQueryId, intervalSeconds: 3600 });
    const dynamic = await create(
      threshold({ type: 'DYNAMIC_THRESHOLD', intervalSeconds: 600, minMatch: null }),
    );
    expect(dynamic.intervalSeconds).toBe(1800);
    const temporal = await create(
      threshold({ type: 'TEMPORAL_ANOMALY', intervalSeconds: 1800, minMatch: null }),
    );
    expect(temporal.type).toBe('TEMPORAL_ANOMALY');
    const aggregation = await create(
      threshold({ type: 'AGGREGATION', aggregation: { type: 'count_distinct', field: 'user_name' } }),
    );
    expect(aggregation.aggregation).toEqual({ type: 'count_distinct', field: 'user_name' });
  });

  it('edits other fields in place and versions condition changes only when confirmed', async () => {
    const created = await create();
    const inPlace = await call(
      'PUT',
      `/trigger/${created.id}`,
      editor,
      threshold({ name: 'Renamed', severity: 'LOW' }),
    );
    expect(inPlace.statusCode, inPlace.body).toBe(200);
    expect(inPlace.json()).toMatchObject({ id: created.id, name: 'Renamed', version: 1 });

    const changed = threshold({ name: 'Renamed', minMatch: 10 });
    await expectError(
      await call('PUT', `/trigger/${created.id}`, editor, changed),
      409,
      'TRIGGER_MISSING_ARCHIVE_CONFIRMATION',
    );
    const [unchanged] = await ctx.database.db.select().from(triggers).where(eq(triggers.id, created.id));
    expect(unchanged).toMatchObject({ minMatch: 5, state: 'ACTIVE' });

    const versioned = await call('PUT', `/trigger/${created.id}`, editor, {
      ...changed,
      confirmArchive: true,
    });
    expect(versioned.statusCode, versioned.body).toBe(200);
    const next = versioned.json() as TriggerJson;
    expect(next).toMatchObject({ version: 2, previousVersionId: created.id, minMatch: 10, state: 'ACTIVE' });
    expect(next.id).not.toBe(created.id);
    const old = (await call('GET', `/trigger/${created.id}`, viewer)).json() as TriggerJson;
    expect(old).toMatchObject({ state: 'ARCHIVED', nextRunAt: null });
    await expectError(
      await call('PUT', `/trigger/${created.id}`, editor, changed),
      409,
      'TRIGGER_INVALID_STATE_CHANGE',
    );
    const listed = (await call('GET', `/triggers?search=Renamed`, viewer)).json() as { items: TriggerJson[] };
    expect(listed.items.map((item) => item.id)).toEqual([next.id]);
  });

  it('pauses, resumes, disables for a time or indefinitely, enables, deletes and restores', async () => {
    const { id } = await create();
    const act = (action: string, payload?: object) =>
      call('POST', `/trigger/${id}/${action}`, editor, payload);

    expect((await act('pause')).json()).toMatchObject({ state: 'PAUSED', nextRunAt: null });
    await expectError(await act('pause'), 409, 'TRIGGER_INVALID_STATE_CHANGE');
    expect((await act('resume')).json()).toMatchObject({ state: 'ACTIVE' });

    await expectError(
      await act('disable', { until: new Date(Date.now() - 60_000).toISOString() }),
      400,
      'TRIGGER_DISABLE_UNTIL_IN_PAST',
    );
    const until = new Date(Date.now() + 3_600_000).toISOString();
    expect((await act('disable', { until })).json()).toMatchObject({
      state: 'DISABLED',
      disabledReason: 'TEMPORARY',
      disabledUntil: until,
    });
    await expectError(await act('resume'), 409, 'TRIGGER_INVALID_STATE_CHANGE');
    const enabled = (await act('enable')).json() as TriggerJson;
    expect(enabled).toMatchObject({ state: 'ACTIVE', disabledReason: null });
    expect(enabled.nextRunAt).not.toBeNull();
    expect((await act('disable', {})).json()).toMatchObject({
      state: 'DISABLED',
      disabledReason: 'INDEFINITE',
    });

    expect((await act('delete')).json()).toMatchObject({ state: 'DELETED' });
    await expectError(
      await call('PUT', `/trigger/${id}`, editor, threshold()),
      409,
      'TRIGGER_INVALID_STATE_CHANGE',
    );
    const deleted = (await call('GET', '/triggers?state=DELETED', viewer)).json() as { items: TriggerJson[] };
    expect(deleted.items.map((item) => item.id)).toContain(id);
    expect((await act('restore')).json()).toMatchObject({ state: 'PAUSED' });

    const actions = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.targetId, id));
    expect(actions.map((entry) => entry.action)).toEqual(
      expect.arrayContaining(['trigger.paused', 'trigger.disabled', 'trigger.deleted', 'trigger.restored']),
    );
  });

  it('lists the runs of a trigger, newest first', async () => {
    const { id } = await create();
    const end = new Date('2026-01-01T00:10:00Z');
    await ctx.database.db.insert(triggerRuns).values([
      { triggerId: id, windowStart: new Date('2026-01-01T00:00:00Z'), windowEnd: end, matched: 3 },
      {
        triggerId: id,
        windowStart: end,
        windowEnd: new Date('2026-01-01T00:20:00Z'),
        matched: 7,
        alertsRaised: 1,
      },
    ]);
    const response = await call('GET', `/trigger/${id}/runs`, viewer);
    expect(response.statusCode).toBe(200);
    const body = response.json() as { items: { matched: number }[]; total: number };
    expect(body.total).toBe(2);
    expect(body.items.map((run) => run.matched)).toEqual([7, 3]);
    expect((await call('GET', `/trigger/${id}`, viewer)).json()).toMatchObject({
      lastRunAt: expect.any(String),
    });
  });

  it('refuses other organisations, callers without the permission, and fraud without the product', async () => {
    const { id } = await create();
    await expectError(
      await call('GET', `/trigger/${id}`, outsider, undefined, otherOrgId),
      404,
      'TRIGGER_NOT_FOUND',
    );
    await expectError(
      await call('POST', `/trigger/${id}/pause`, outsider, undefined, otherOrgId),
      404,
      'TRIGGER_NOT_FOUND',
    );
    await expectError(await call('GET', `/trigger/${id}`, outsider), 403, 'ORG_NOT_AUTHORISED');
    await expectError(await call('POST', '/trigger', viewer, threshold()), 403, 'PERMISSION_DENIED');
    await expectError(await call('POST', `/trigger/${id}/pause`, viewer), 403, 'PERMISSION_DENIED');

    await expectError(await call('GET', '/triggers?domain=fraud', editor), 403, 'PRODUCT_NOT_ENTITLED');
    await expectError(
      await call('POST', '/trigger', editor, threshold({ domain: 'fraud' })),
      403,
      'PRODUCT_NOT_ENTITLED',
    );
    const fraudQuery = await saveQuery(fraudEditor, fraudOrgId, {
      name: 'Wires',
      query: 'transactionType:wire',
    });
    const fraud = await create(
      {
        name: 'Large wires',
        type: 'EVERY_EVENT',
        savedQueryId: fraudQuery,
        intervalSeconds: 300,
        domain: 'fraud',
      },
      fraudEditor,
      fraudOrgId,
    );
    const fraudList = (
      await call('GET', '/triggers?domain=fraud', fraudEditor, undefined, fraudOrgId)
    ).json() as {
      items: TriggerJson[];
    };
    expect(fraudList.items.map((item) => item.id)).toEqual([fraud.id]);
    const securityList = (await call('GET', '/triggers', fraudEditor, undefined, fraudOrgId)).json() as {
      total: number;
    };
    expect(securityList.total).toBe(0);
  });

  it('lets only provider staff change ops-managed triggers', async () => {
    const managed = await create(threshold({ managedBy: 'OPS' }), staff);
    expect(managed.managedBy).toBe('OPS');
    await expectError(
      await call('PUT', `/trigger/${managed.id}`, editor, threshold({ name: 'Mine now' })),
      403,
      'TRIGGER_MANAGED_READ_ONLY',
    );
    await expectError(
      await call('POST', `/trigger/${managed.id}/pause`, editor),
      403,
      'TRIGGER_MANAGED_READ_ONLY',
    );
    const read = await call('GET', `/trigger/${managed.id}`, editor);
    expect(read.json()).toMatchObject({ state: 'ACTIVE', managedBy: 'OPS' });
    const byStaff = await call('POST', `/trigger/${managed.id}/pause`, staff);
    expect(byStaff.json()).toMatchObject({ state: 'PAUSED' });
  });

  it('keeps the aggregation of a saved query that a live trigger uses, including as a sequence step', async () => {
    const changeAggregation = (id: string, name: string) =>
      call('PUT', `/saved-query/${id}`, editor, {
        name,
        query: 'action:login',
        aggregation: { type: 'count' },
      });
    const stepQuery = await saveQuery(editor, orgId, { name: 'Step query', query: 'action:login' });
    const firstQuery = await saveQuery(editor, orgId, { name: 'First step', query: 'action:login' });
    const sequence = await create(
      threshold({
        type: 'SEQUENCE',
        savedQueryId: null,
        minMatch: null,
        sequence: [{ savedQueryId: firstQuery }, { savedQueryId: stepQuery }],
      }),
    );
    await expectError(
      await changeAggregation(stepQuery, 'Step query'),
      409,
      'SAVED_QUERY_AGGREGATION_IN_USE',
    );

    const used = await saveQuery(editor, orgId, { name: 'Used query', query: 'action:login' });
    const trigger = await create(threshold({ savedQueryId: used }));
    await expectError(await changeAggregation(used, 'Used query'), 409, 'SAVED_QUERY_AGGREGATION_IN_USE');

    // Deleted triggers no longer hold the query.
    expect((await call('POST', `/trigger/${trigger.id}/delete`, editor)).statusCode).toBe(200);
    expect((await changeAggregation(used, 'Used query')).statusCode).toBe(200);
    expect((await call('POST', `/trigger/${sequence.id}/delete`, editor)).statusCode).toBe(200);
    expect((await changeAggregation(stepQuery, 'Step query')).statusCode).toBe(200);
  });
});

describe('trigger schedules', () => {
  const businessHours = (name: string) => ({
    name,
    timezone: 'Europe/London',
    windows: [{ days: [5, 1, 2, 3, 4, 1], startMinute: 540, endMinute: 1020 }],
  });

  it('creates, lists, changes and deletes a schedule that triggers use', async () => {
    const created = await call('POST', '/trigger-schedule', editor, businessHours('Business hours'));
    expect(created.statusCode, created.body).toBe(201);
    const schedule = created.json() as { id: string; windows: { days: number[] }[] };
    expect(schedule.windows[0]!.days).toEqual([1, 2, 3, 4, 5]);
    await expectError(
      await call('POST', '/trigger-schedule', editor, businessHours('BUSINESS HOURS')),
      409,
      'TRIGGER_SCHEDULE_NAME_TAKEN',
    );

    const trigger = await create(threshold({ scheduleId: schedule.id }));
    expect(trigger.scheduleId).toBe(schedule.id);
    const listed = (await call('GET', '/trigger-schedules', viewer)).json() as {
      items: { id: string; triggerCount: number }[];
    };
    expect(listed.items.find((item) => item.id === schedule.id)?.triggerCount).toBe(1);

    const changed = await call('PUT', `/trigger-schedule/${schedule.id}`, editor, {
      ...businessHours('Weekends'),
      windows: [{ days: [6, 7], startMinute: 0, endMinute: 1440 }],
    });
    expect(changed.json()).toMatchObject({ name: 'Weekends' });

    expect((await call('DELETE', `/trigger-schedule/${schedule.id}`, editor)).statusCode).toBe(204);
    expect((await call('GET', `/trigger/${trigger.id}`, viewer)).json()).toMatchObject({ scheduleId: null });
    const audited = await ctx.database.db
      .select({ action: activityLog.action })
      .from(activityLog)
      .where(eq(activityLog.targetId, schedule.id));
    expect(audited.map((entry) => entry.action).sort()).toEqual([
      'trigger-schedule.created',
      'trigger-schedule.deleted',
      'trigger-schedule.updated',
    ]);
  });

  it('checks windows and time zones and refuses other organisations and viewers', async () => {
    const bad: [object, string][] = [
      [{ ...businessHours('Bad tz'), timezone: 'Mars/Olympus' }, 'TRIGGER_SCHEDULE_INVALID_TIMEZONE'],
      [
        { ...businessHours('Bad day'), windows: [{ days: [0], startMinute: 0, endMinute: 60 }] },
        'TRIGGER_SCHEDULE_INVALID_WINDOW',
      ],
      [
        { ...businessHours('Bad day'), windows: [{ days: [8], startMinute: 0, endMinute: 60 }] },
        'TRIGGER_SCHEDULE_INVALID_WINDOW',
      ],
      [
        { ...businessHours('Bad end'), windows: [{ days: [1], startMinute: 0, endMinute: 1441 }] },
        'TRIGGER_SCHEDULE_INVALID_WINDOW',
      ],
      [
        { ...businessHours('Backwards'), windows: [{ days: [1], startMinute: 600, endMinute: 600 }] },
        'TRIGGER_SCHEDULE_INVALID_WINDOW',
      ],
      [{ ...businessHours('No windows'), windows: [] }, 'GENERIC_INVALID_FIELD_VALUE'],
    ];
    for (const [payload, key] of bad) {
      await expectError(await call('POST', '/trigger-schedule', editor, payload), 400, key);
    }
    const created = await call('POST', '/trigger-schedule', editor, businessHours('Nights'));
    const { id } = created.json() as { id: string };
    await expectError(
      await call('GET', `/trigger-schedule/${id}`, outsider, undefined, otherOrgId),
      404,
      'TRIGGER_SCHEDULE_NOT_FOUND',
    );
    await expectError(
      await call('DELETE', `/trigger-schedule/${id}`, outsider, undefined, otherOrgId),
      404,
      'TRIGGER_SCHEDULE_NOT_FOUND',
    );
    await expectError(
      await call(
        'POST',
        '/trigger',
        outsider,
        threshold({ savedQueryId: otherOrgQueryId, scheduleId: id }),
        otherOrgId,
      ),
      404,
      'TRIGGER_SCHEDULE_NOT_FOUND',
    );
    await expectError(
      await call('PUT', `/trigger-schedule/${id}`, viewer, businessHours('Nights')),
      403,
      'PERMISSION_DENIED',
    );
    const names = (await call('GET', '/trigger-schedules', viewer)).json() as { items: { name: string }[] };
    expect(names.items.map((item) => item.name)).not.toContain('Bad tz');
  });
});
