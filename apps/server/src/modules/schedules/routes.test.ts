import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { taskScheduleTimeframeRange } from '@vigil/contracts';
import { tickets } from '../tickets/tables';
import { runDueSchedules } from './engine';
import { taskScheduleRuns, taskSchedules } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let providerOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;
let admin: SeededUser;
let engineer: SeededUser;
let queryId: string;

const DAY = 86_400_000;
/** The 1st and the 15th of next month at 09:00 UTC, and a day that is neither. */
const now = new Date();
const FIRST = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1, 9)).toISOString();
const FIFTEENTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 15, 9)).toISOString();
const TENTH = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 10, 9)).toISOString();
const SOON = new Date(Date.now() + DAY).toISOString();
const PAST = new Date(Date.now() - 60_000).toISOString();

const EDIT = ['TASK_SCHEDULE_VIEW', 'TASK_SCHEDULE_EDIT', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  providerOrgId = (await seedOrg(db, { name: 'Provider', isProvider: true })).id;
  orgId = (await seedOrg(db, { name: 'Harbor' })).id;
  otherOrgId = (await seedOrg(db, { name: 'Prairie' })).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...EDIT] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['TASK_SCHEDULE_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...EDIT] });
  admin = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_ADMIN', 'TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId, otherOrgId],
  });
  engineer = await seedUser(db, {
    homeOrgId: providerOrgId,
    permissions: ['TRAC_USER', ...EDIT],
    authorisedOrgIds: [orgId],
  });
  const query = await call('POST', '/saved-query', editor, { name: 'Privileged sign-ins', query: 'admin' });
  expect(query.statusCode, query.body).toBe(201);
  queryId = (query.json() as { id: string }).id;
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

const expectError = (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

interface Schedule {
  id: string;
  name: string;
  state: string;
  nextRunAt: string;
  runAt: string;
  queries: { id: string; name: string }[];
  parent: { id: string; name: string } | null;
  children: { id: string; name: string }[];
  copiedFromId: string | null;
}

const input = (overrides: object = {}) => ({
  name: 'Weekly review of privileged accounts',
  interval: { count: 1, unit: 'week' },
  nextRunAt: SOON,
  taskTitle: 'Review privileged accounts',
  ...overrides,
});

async function create(overrides: object = {}, user = editor, org = orgId): Promise<Schedule> {
  const response = await call('POST', '/task-schedule', user, input(overrides), org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Schedule;
}

const rowCount = async () => (await ctx.database.db.select().from(taskSchedules)).length;

const activity = (org: string, action: string) =>
  ctx.database.db
    .select()
    .from(activityLog)
    .where(and(eq(activityLog.orgId, org), eq(activityLog.action, action)));

describe('task schedules', () => {
  it('creates, reads, lists and changes a schedule, with activity rows', async () => {
    const created = await create({ queryIds: [queryId], dueIn: { count: 2, unit: 'month' } });
    expect(created).toMatchObject({
      name: 'Weekly review of privileged accounts',
      state: 'ACTIVE',
      queries: [{ id: queryId, name: 'Privileged sign-ins' }],
      dueIn: { count: 2, unit: 'month' },
    });
    const read = await call('GET', `/task-schedule/${created.id}`, viewer);
    expect(read.json()).toMatchObject({ id: created.id });
    const listed = await call('GET', '/task-schedules?search=PRIVILEGED', viewer);
    expect((listed.json() as { items: Schedule[] }).items.map((item) => item.id)).toContain(created.id);

    const changed = await call('PUT', `/task-schedule/${created.id}`, editor, input({ name: 'Renamed' }));
    expect(changed.statusCode, changed.body).toBe(200);
    expect((changed.json() as Schedule).name).toBe('Renamed');
    expect(await activity(orgId, 'task-schedule.created')).not.toHaveLength(0);
    expect(await activity(orgId, 'task-schedule.updated')).toHaveLength(1);
  });

  it('sorts and pages the list', async () => {
    await create({ name: 'Zulu schedule' });
    await create({ name: 'Alpha schedule' });
    const page = await call('GET', '/task-schedules?sortBy=name&desc=true&pageSize=1&pageNumber=1', viewer);
    const body = page.json() as { items: Schedule[]; total: number };
    expect(body.items.map((item) => item.name)).toEqual(['Zulu schedule']);
    expect(body.total).toBeGreaterThan(1);
  });

  it('moves a run falling on a weekend to Monday when weekends are skipped', async () => {
    const saturday = new Date(Date.now() + 7 * DAY);
    saturday.setUTCDate(saturday.getUTCDate() + ((6 - saturday.getUTCDay() + 7) % 7));
    const schedule = await create({ nextRunAt: saturday.toISOString(), skipWeekends: true });
    expect(new Date(schedule.runAt).getUTCDay()).toBe(1);
    expect(new Date(schedule.runAt).getTime() - saturday.getTime()).toBe(2 * DAY);
  });

  it('refuses a next run in the past, or a monthly one off its day, writing nothing', async () => {
    const before = await rowCount();
    expectError(
      await call('POST', '/task-schedule', editor, input({ nextRunAt: PAST })),
      400,
      'TASK_SCHEDULE_NEXT_RUN_IN_PAST',
    );
    expectError(
      await call(
        'POST',
        '/task-schedule',
        editor,
        input({ interval: { count: 1, unit: 'month_begin' }, nextRunAt: TENTH }),
      ),
      400,
      'TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY',
    );
    expectError(
      await call(
        'POST',
        '/task-schedule',
        editor,
        input({ interval: { count: 1, unit: 'month_15' }, nextRunAt: FIRST }),
      ),
      400,
      'TASK_SCHEDULE_NEXT_RUN_NOT_MONTH_DAY',
    );
    expectError(
      await call('POST', '/task-schedule', editor, input({ interval: { count: 1, unit: 'fortnight' } })),
      400,
      'GENERIC_INVALID_FIELD_VALUE',
    );
    expect(await rowCount()).toBe(before);
    await create({ interval: { count: 1, unit: 'month_begin' }, nextRunAt: FIRST });
    await create({ interval: { count: 1, unit: 'month_15' }, nextRunAt: FIFTEENTH });
  });

  it('refuses queries, owners and watchers from elsewhere', async () => {
    const foreign = await call('POST', '/saved-query', stranger, { name: 'Theirs', query: 'x' }, otherOrgId);
    const foreignId = (foreign.json() as { id: string }).id;
    const before = await rowCount();
    expectError(
      await call('POST', '/task-schedule', editor, input({ queryIds: [foreignId] })),
      400,
      'TASK_SCHEDULE_INVALID_QUERY',
    );
    expectError(
      await call('POST', '/task-schedule', editor, input({ ownerId: stranger.id })),
      400,
      'TASK_SCHEDULE_INVALID_OWNER',
    );
    expectError(
      await call('POST', '/task-schedule', editor, input({ watcherIds: [viewer.id, stranger.id] })),
      400,
      'TASK_SCHEDULE_INVALID_WATCHER',
    );
    expect(await rowCount()).toBe(before);
    await create({ ownerId: viewer.id, watcherIds: [editor.id] });
  });

  it('keeps the parent and child rules', async () => {
    const monthly = await create({
      name: 'Monthly',
      interval: { count: 1, unit: 'month_begin' },
      nextRunAt: FIRST,
    });
    const daily = await create({ name: 'Daily', interval: { count: 1, unit: 'day' }, parentId: monthly.id });
    expect((await call('GET', `/task-schedule/${monthly.id}`, viewer)).json()).toMatchObject({
      children: [{ id: daily.id, name: 'Daily' }],
    });
    expect(daily.parent).toEqual({ id: monthly.id, name: 'Monthly' });

    const withQueries = await create({ name: 'With queries', queryIds: [queryId] });
    const foreign = await create({}, stranger, otherOrgId);
    const before = await rowCount();
    const refuse = async (payload: object, key: string, id?: string) =>
      expectError(
        await call(id ? 'PUT' : 'POST', `/task-schedule${id ? `/${id}` : ''}`, editor, input(payload)),
        400,
        key,
      );
    await refuse({ parentId: foreign.id }, 'TASK_SCHEDULE_INVALID_PARENT');
    await refuse({ parentId: withQueries.id }, 'TASK_SCHEDULE_PARENT_HAS_QUERIES');
    // A parent's interval is at least the child's: a weekly child under a daily parent is refused.
    await refuse(
      { parentId: daily.id, interval: { count: 1, unit: 'week' } },
      'TASK_SCHEDULE_PARENT_INTERVAL',
    );
    // The monthly parent cannot shrink below its daily child, nor take queries.
    await refuse(
      { name: 'Monthly', interval: { count: 1, unit: 'hour' } },
      'TASK_SCHEDULE_CHILDREN_INTERVAL',
      monthly.id,
    );
    await refuse(
      { name: 'Monthly', interval: { count: 1, unit: 'month_begin' }, nextRunAt: FIRST, queryIds: [queryId] },
      'TASK_SCHEDULE_PARENT_HAS_QUERIES',
      monthly.id,
    );
    // Cycles: itself, or below its own child.
    await refuse(
      {
        name: 'Monthly',
        interval: { count: 1, unit: 'month_begin' },
        nextRunAt: FIRST,
        parentId: monthly.id,
      },
      'TASK_SCHEDULE_PARENT_CYCLE',
      monthly.id,
    );
    await refuse(
      { name: 'Monthly', interval: { count: 1, unit: 'day' }, parentId: daily.id },
      'TASK_SCHEDULE_PARENT_CYCLE',
      monthly.id,
    );
    const hourly = await create({ name: 'Hourly', interval: { count: 1, unit: 'hour' }, parentId: daily.id });
    await refuse(
      { name: 'Monthly', interval: { count: 1, unit: 'month_begin' }, nextRunAt: FIRST, parentId: hourly.id },
      'TASK_SCHEDULE_PARENT_INTERVAL',
      monthly.id,
    );
    const root = await create({
      name: 'Yearly root',
      interval: { count: 12, unit: 'month_begin' },
      nextRunAt: FIRST,
    });
    // A cycle with intervals that would allow it: root under a child of itself.
    const rootChild = await create({
      name: 'Root child',
      interval: { count: 12, unit: 'month_begin' },
      nextRunAt: FIRST,
      parentId: root.id,
    });
    await refuse(
      {
        name: 'Yearly root',
        interval: { count: 12, unit: 'month_begin' },
        nextRunAt: FIRST,
        parentId: rootChild.id,
      },
      'TASK_SCHEDULE_PARENT_CYCLE',
      root.id,
    );
    expect(await rowCount()).toBe(before + 3);
  });

  it('refuses a sixth level', async () => {
    let parent = await create({ name: 'Level 1', interval: { count: 5, unit: 'day' } });
    for (let level = 2; level <= 5; level++) {
      parent = await create({
        name: `Level ${level}`,
        interval: { count: 6 - level, unit: 'day' },
        parentId: parent.id,
      });
    }
    const before = await rowCount();
    const sixth = await call(
      'POST',
      '/task-schedule',
      editor,
      input({ name: 'Level 6', interval: { count: 1, unit: 'hour' }, parentId: parent.id }),
    );
    expectError(sixth, 400, 'TASK_SCHEDULE_TOO_MANY_LEVELS');
    expect((sixth.json() as { params: { max: number } }).params.max).toBe(5);
    expect(await rowCount()).toBe(before);
  });

  it('checks concurrent parent changes in turn, so together they cannot make a cycle', async () => {
    const weekly = { interval: { count: 1, unit: 'week' } };
    for (let round = 0; round < 3; round++) {
      const first = await create({ name: `Pair ${round} A`, ...weekly });
      const second = await create({ name: `Pair ${round} B`, ...weekly });
      // Each change alone is valid; both together would put each schedule below the other.
      const answers = await Promise.all([
        call('PUT', `/task-schedule/${first.id}`, editor, input({ name: first.name, parentId: second.id })),
        call('PUT', `/task-schedule/${second.id}`, editor, input({ name: second.name, parentId: first.id })),
      ]);
      expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400]);
      expectError(
        answers.find((answer) => answer.statusCode === 400)!,
        400,
        'TASK_SCHEDULE_PARENT_CYCLE',
      );
      const rows = await ctx.database.db
        .select({ id: taskSchedules.id, parentId: taskSchedules.parentId })
        .from(taskSchedules)
        .where(inArray(taskSchedules.id, [first.id, second.id]));
      expect(rows.filter((row) => row.parentId !== null)).toHaveLength(1);
    }
  });

  it('checks concurrent creates in turn, so together they cannot pass the maximum depth', async () => {
    let parent = await create({ name: 'Depth 1', interval: { count: 5, unit: 'day' } });
    for (let level = 2; level <= 4; level++) {
      parent = await create({
        name: `Depth ${level}`,
        interval: { count: 6 - level, unit: 'day' },
        parentId: parent.id,
      });
    }
    // Two fifth levels are fine side by side; a sixth below a fifth being created at the same time is not.
    const fifth = await create({ name: 'Depth 5', interval: { count: 1, unit: 'day' }, parentId: parent.id });
    const [sixth, otherFifth] = await Promise.all([
      call(
        'POST',
        '/task-schedule',
        editor,
        input({ name: 'Depth 6', interval: { count: 1, unit: 'hour' }, parentId: fifth.id }),
      ),
      call(
        'POST',
        '/task-schedule',
        editor,
        input({ name: 'Depth 5 too', interval: { count: 1, unit: 'day' }, parentId: parent.id }),
      ),
    ]);
    expectError(sixth, 400, 'TASK_SCHEDULE_TOO_MANY_LEVELS');
    expect(otherFifth.statusCode, otherFifth.body).toBe(201);
  });

  it('counts the tasks each schedule created in a timeframe, and their states now', async () => {
    const db = ctx.database.db;
    const hourly = await create({ name: 'Counted hourly', interval: { count: 1, unit: 'hour' } });
    const idle = await create({ name: 'Counted idle' });
    // Three runs make three tasks; then their run times are moved to fixed distances before now.
    const start = new Date(SOON).getTime();
    for (let run = 0; run < 3; run++) await runDueSchedules(db, new Date(start + run * 3_600_000 + 60_000));
    const runs = await db
      .select()
      .from(taskScheduleRuns)
      .where(eq(taskScheduleRuns.scheduleId, hourly.id))
      .orderBy(taskScheduleRuns.scheduledFor);
    expect(runs).toHaveLength(3);
    const now = Date.now();
    const ago = [2 * 3_600_000, 3 * DAY, 40 * DAY];
    for (const [index, run] of runs.entries()) {
      await db
        .update(taskScheduleRuns)
        .set({ ranAt: new Date(now - ago[2 - index]!) })
        .where(eq(taskScheduleRuns.id, run.id));
    }
    await db
      .update(taskSchedules)
      .set({ lastRanAt: new Date(now - ago[0]!) })
      .where(eq(taskSchedules.id, hourly.id));
    // The newest task is overdue, the middle one closed.
    await db
      .update(tickets)
      .set({ dueDate: new Date(now - 60_000) })
      .where(eq(tickets.id, runs[2]!.ticketId!));
    await db.update(tickets).set({ state: 'CLOSED' }).where(eq(tickets.id, runs[1]!.ticketId!));

    const counts = async (timeframe: string) => {
      const response = await call('GET', `/task-schedules/task-counts?timeframe=${timeframe}`, viewer);
      expect(response.statusCode, response.body).toBe(200);
      const body = response.json() as {
        from: string | null;
        items: { scheduleId: string; created: number; open: number; closed: number; overdue: number }[];
      };
      return { from: body.from, of: (id: string) => body.items.find((item) => item.scheduleId === id) };
    };
    const day = await counts('LAST_24_HOURS');
    expect(day.of(hourly.id)).toMatchObject({ created: 1, open: 1, closed: 0, overdue: 1 });
    expect(day.of(idle.id)).toMatchObject({ created: 0, open: 0, closed: 0, overdue: 0 });
    expect((await counts('SINCE_LAST_RUN')).of(hourly.id)).toMatchObject({ created: 1, overdue: 1 });
    expect((await counts('LAST_7_DAYS')).of(hourly.id)).toMatchObject({ created: 2, open: 1, closed: 1 });
    expect((await counts('LAST_90_DAYS')).of(hourly.id)).toMatchObject({
      created: 3,
      open: 2,
      closed: 1,
      overdue: 1,
    });
    // Calendar timeframes count the runs that fall in them.
    for (const timeframe of ['PREVIOUS_MONTH', 'PREVIOUS_QUARTER'] as const) {
      const range = taskScheduleTimeframeRange(timeframe, new Date())!;
      const inside = ago.filter((gap) => now - gap >= range.from.getTime() && now - gap < range.to.getTime());
      const answer = await counts(timeframe);
      expect(answer.from).toBe(range.from.toISOString());
      expect(answer.of(hourly.id)!.created).toBe(inside.length);
    }
    expect((await call('GET', '/task-schedules/task-counts?timeframe=LAST_YEAR', viewer)).statusCode).toBe(
      400,
    );
    // Another organisation's schedules are not counted there.
    const theirs = await call('GET', '/task-schedules/task-counts', stranger, undefined, otherOrgId);
    expect(
      (theirs.json() as { items: { scheduleId: string }[] }).items.map((item) => item.scheduleId),
    ).not.toContain(hourly.id);
  });

  it('pauses, resumes, deletes and restores', async () => {
    const schedule = await create({ name: 'Lifecycle' });
    const paused = await call('PUT', `/task-schedule/${schedule.id}/state`, editor, { state: 'PAUSED' });
    expect((paused.json() as Schedule).state).toBe('PAUSED');
    const resumed = await call('PUT', `/task-schedule/${schedule.id}/state`, editor, { state: 'ACTIVE' });
    expect((resumed.json() as Schedule).state).toBe('ACTIVE');
    expect((await call('DELETE', `/task-schedule/${schedule.id}`, editor)).statusCode).toBe(200);
    const listed = (await call('GET', '/task-schedules?search=Lifecycle', viewer)).json() as {
      total: number;
    };
    expect(listed.total).toBe(0);
    const deleted = (await call('GET', '/task-schedules?state=DELETED&search=Lifecycle', viewer)).json() as {
      total: number;
    };
    expect(deleted.total).toBe(1);
    expectError(await call('DELETE', `/task-schedule/${schedule.id}`, editor), 409, 'ALREADY_DELETED');
    const restored = await call('POST', `/task-schedule/${schedule.id}/restore`, editor);
    expect((restored.json() as Schedule).state).toBe('PAUSED');
    expectError(await call('POST', `/task-schedule/${schedule.id}/restore`, editor), 409, 'NOT_DELETED');
    expect(await activity(orgId, 'task-schedule.deleted')).toHaveLength(1);
    expect(await activity(orgId, 'task-schedule.restored')).toHaveLength(1);
  });

  it('hides schedules of other organisations and refuses changes without TASK_SCHEDULE_EDIT', async () => {
    const schedule = await create({ name: 'Private' });
    expectError(
      await call('GET', `/task-schedule/${schedule.id}`, stranger, undefined, otherOrgId),
      404,
      'TASK_SCHEDULE_NOT_FOUND',
    );
    expectError(
      await call('PUT', `/task-schedule/${schedule.id}`, stranger, input(), otherOrgId),
      404,
      'TASK_SCHEDULE_NOT_FOUND',
    );
    expectError(
      await call('DELETE', `/task-schedule/${schedule.id}`, stranger, undefined, otherOrgId),
      404,
      'TASK_SCHEDULE_NOT_FOUND',
    );
    expectError(await call('GET', '/task-schedules', stranger), 403, 'ORG_NOT_AUTHORISED');
    expectError(await call('POST', '/task-schedule', viewer, input()), 403, 'PERMISSION_DENIED');
  });
});

describe('library task schedules', () => {
  const libraryInput = (overrides: object = {}) => ({
    name: 'Quarterly access recertification',
    interval: { count: 3, unit: 'month_begin' },
    nextRunAt: FIRST,
    taskTitle: 'Recertify access',
    ...overrides,
  });

  it('is kept by provider administrators in the provider organisation only', async () => {
    const before = await rowCount();
    expectError(
      await call('POST', '/library-task-schedule', engineer, libraryInput(), providerOrgId),
      403,
      'TASK_SCHEDULE_LIBRARY_ADMIN_ONLY',
    );
    expectError(
      await call('POST', '/library-task-schedule', admin, libraryInput(), orgId),
      403,
      'TASK_SCHEDULE_LIBRARY_ADMIN_ONLY',
    );
    expectError(
      await call('POST', '/library-task-schedule', editor, libraryInput()),
      403,
      'TASK_SCHEDULE_LIBRARY_ADMIN_ONLY',
    );
    expectError(
      await call('POST', '/library-task-schedule', admin, libraryInput({ nextRunAt: PAST }), providerOrgId),
      400,
      'TASK_SCHEDULE_NEXT_RUN_IN_PAST',
    );
    expect(await rowCount()).toBe(before);
  });

  it('copies to customer organisations, skipping and reporting those that hold a copy', async () => {
    const created = await call('POST', '/library-task-schedule', admin, libraryInput(), providerOrgId);
    expect(created.statusCode, created.body).toBe(201);
    const library = created.json() as Schedule;
    // Readable from any organisation, but not one of the organisation's own schedules.
    const seen = (await call('GET', '/library-task-schedules', viewer)).json() as { items: Schedule[] };
    expect(seen.items.map((item) => item.id)).toContain(library.id);
    expectError(
      await call('GET', `/task-schedule/${library.id}`, admin, undefined, providerOrgId),
      404,
      'TASK_SCHEDULE_NOT_FOUND',
    );

    const first = await call(
      'POST',
      `/library-task-schedule/${library.id}/copy`,
      admin,
      { orgIds: [orgId] },
      providerOrgId,
    );
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json()).toMatchObject({ copied: [{ orgId, orgName: 'Harbor' }], skipped: [] });
    const second = await call(
      'POST',
      `/library-task-schedule/${library.id}/copy`,
      admin,
      { orgIds: [orgId, otherOrgId] },
      providerOrgId,
    );
    expect(second.json()).toMatchObject({
      copied: [{ orgId: otherOrgId, orgName: 'Prairie' }],
      skipped: [{ orgId, orgName: 'Harbor' }],
    });
    const copies = (await call('GET', '/task-schedules?search=Quarterly', viewer)).json() as {
      items: Schedule[];
    };
    expect(copies.items).toMatchObject([{ copiedFromId: library.id, state: 'ACTIVE' }]);
    expect(await activity(orgId, 'task-schedule.copied-from-library')).toHaveLength(1);
    expect(await activity(providerOrgId, 'library-task-schedule.copied')).toHaveLength(2);

    // Only organisations the administrator may act in, never the provider's own.
    const stray = await seedOrg(ctx.database.db, { name: 'Elsewhere' });
    expectError(
      await call(
        'POST',
        `/library-task-schedule/${library.id}/copy`,
        admin,
        { orgIds: [stray.id] },
        providerOrgId,
      ),
      403,
      'ORG_NOT_AUTHORISED',
    );
    expectError(
      await call(
        'POST',
        `/library-task-schedule/${library.id}/copy`,
        engineer,
        { orgIds: [orgId] },
        providerOrgId,
      ),
      403,
      'TASK_SCHEDULE_LIBRARY_ADMIN_ONLY',
    );
  });

  it('changes, deletes and restores library schedules', async () => {
    const library = (
      await call('POST', '/library-task-schedule', admin, libraryInput({ name: 'Old' }), providerOrgId)
    ).json() as Schedule;
    const changed = await call(
      'PUT',
      `/library-task-schedule/${library.id}`,
      admin,
      libraryInput({ name: 'New' }),
      providerOrgId,
    );
    expect((changed.json() as Schedule).name).toBe('New');
    expect(
      (await call('DELETE', `/library-task-schedule/${library.id}`, admin, undefined, providerOrgId))
        .statusCode,
    ).toBe(200);
    expectError(
      await call(
        'POST',
        `/library-task-schedule/${library.id}/copy`,
        admin,
        { orgIds: [orgId] },
        providerOrgId,
      ),
      404,
      'TASK_SCHEDULE_NOT_FOUND',
    );
    const restored = await call(
      'POST',
      `/library-task-schedule/${library.id}/restore`,
      admin,
      undefined,
      providerOrgId,
    );
    expect(restored.statusCode, restored.body).toBe(200);
  });
});
