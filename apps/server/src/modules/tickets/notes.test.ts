import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { activityLog } from '../../platform/audit/tables';
import { activityNotes } from '../metadata/tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let colleague: SeededUser;
let viewer: SeededUser;
let stranger: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  const all = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;
  editor = await seedUser(db, {
    homeOrgId: orgId,
    permissions: [...all],
  });
  colleague = await seedUser(db, {
    homeOrgId: orgId,
    permissions: [...all],
  });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW', 'TASK_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...all] });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect(response.statusCode).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

interface Reply {
  id: string;
  parentId: string | null;
  logType: string;
  body: string;
  authorId: string | null;
  authorName: string | null;
}
type Note = Reply & { replies: Reply[] };

async function create(kind: 'incident' | 'task', user = editor, org = orgId) {
  const response = await call('POST', `/${kind}`, user, { title: `A ${kind}` }, org);
  expect(response.statusCode).toBe(201);
  return response.json() as { id: string; slug: string };
}

async function note(kind: string, slug: string, payload: object, user = editor): Promise<Note[]> {
  const response = await call('POST', `/${kind}/${slug}/notes`, user, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Note[];
}

const noteCount = async () => (await ctx.database.db.select().from(activityNotes)).length;

describe('activity log notes on tickets', () => {
  it('keeps top-level notes newest first, each with its replies oldest first', async () => {
    const incident = await create('incident');
    await note('incident', incident.slug, { body: 'Looked at the proxy logs', logType: 'INVESTIGATION' });
    const [first] = await note('incident', incident.slug, {
      body: '  Called the branch  ',
      logType: 'COMMUNICATION',
    });
    await note('incident', incident.slug, { body: 'Which branch?', parentId: first!.id }, colleague);
    const timeline = await note('incident', incident.slug, { body: 'Branch 12', parentId: first!.id });

    expect(timeline.map((item) => [item.body, item.logType, item.authorId])).toEqual([
      ['Called the branch', 'COMMUNICATION', editor.id],
      ['Looked at the proxy logs', 'INVESTIGATION', editor.id],
    ]);
    expect(timeline[0]!.replies.map((reply) => [reply.body, reply.logType, reply.authorId])).toEqual([
      ['Which branch?', 'NOTE', colleague.id],
      ['Branch 12', 'NOTE', editor.id],
    ]);
    expect(timeline[1]!.replies).toEqual([]);
    const read = await call('GET', `/incident/${incident.slug}/notes`, viewer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(timeline);

    const audit = await ctx.database.db
      .select()
      .from(activityLog)
      .where(and(eq(activityLog.orgId, orgId), eq(activityLog.targetId, incident.id)));
    expect(audit.map((row) => row.action).filter((action) => action.startsWith('activity-note.'))).toEqual([
      'activity-note.added',
      'activity-note.added',
      'activity-note.replied',
      'activity-note.replied',
    ]);
  });

  it('refuses replies to replies, parents of other tickets, empty notes and unknown log types', async () => {
    const task = await create('task');
    const other = await create('task');
    const [top] = await note('task', task.slug, { body: 'Keys rotated on the web tier' });
    const [withReply] = await note('task', task.slug, { body: 'And the API tier', parentId: top!.id });
    const reply = withReply!.replies[0]!;
    const [elsewhere] = await note('task', other.slug, { body: 'Another task' });
    const before = await noteCount();

    expectError(
      await call('POST', `/task/${task.slug}/notes`, editor, { body: 'Nested', parentId: reply.id }),
      400,
      'ACTIVITY_NOTE_REPLY_TO_REPLY',
    );
    expectError(
      await call('POST', `/task/${task.slug}/notes`, editor, {
        body: 'Wrong ticket',
        parentId: elsewhere!.id,
      }),
      400,
      'ACTIVITY_NOTE_INVALID_PARENT',
    );
    expectError(
      await call('POST', `/task/${task.slug}/notes`, editor, {
        body: 'Missing',
        parentId: '00000000-0000-4000-8000-000000000000',
      }),
      400,
      'ACTIVITY_NOTE_INVALID_PARENT',
    );
    for (const payload of [
      { body: '   ' },
      { body: '' },
      { body: 'x', logType: 'GOSSIP' },
      { body: 'x'.repeat(10_001) },
    ]) {
      expect((await call('POST', `/task/${task.slug}/notes`, editor, payload)).statusCode).toBe(400);
    }
    // The kind in the path is checked: the task's notes are not an incident's.
    expectError(await call('GET', `/incident/${task.slug}/notes`, editor), 404, 'TICKET_NOT_FOUND');
    expect(await noteCount()).toBe(before);
  });

  it('keeps notes to the organisation and to those who may edit the ticket', async () => {
    const incident = await create('incident');
    const [top] = await note('incident', incident.slug, { body: 'Internal' });
    const before = await noteCount();
    expectError(
      await call('GET', `/incident/${incident.id}/notes`, stranger, undefined, otherOrgId),
      404,
      'TICKET_NOT_FOUND',
    );
    expectError(
      await call('POST', `/incident/${incident.id}/notes`, stranger, { body: 'Hello' }, otherOrgId),
      404,
      'TICKET_NOT_FOUND',
    );
    // A note of this organisation is no parent for a ticket of another.
    const theirs = await create('incident', stranger, otherOrgId);
    expectError(
      await call(
        'POST',
        `/incident/${theirs.slug}/notes`,
        stranger,
        { body: 'Reply', parentId: top!.id },
        otherOrgId,
      ),
      400,
      'ACTIVITY_NOTE_INVALID_PARENT',
    );
    expectError(
      await call('POST', `/incident/${incident.slug}/notes`, viewer, { body: 'Read only' }),
      403,
      'PERMISSION_DENIED',
    );
    expect(await noteCount()).toBe(before);
  });
});
