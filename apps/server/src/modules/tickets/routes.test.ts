import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startSmtpServer, type TestSmtpServer } from '../../../test/smtp';
import { ticketHistory, tickets } from './tables';

let ctx: TestContext;
let smtp: TestSmtpServer;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let colleague: SeededUser;
let viewer: SeededUser;
let incidentsOnly: SeededUser;
let stranger: SeededUser;

const FUTURE = new Date(Date.now() + 7 * 86_400_000).toISOString();
const PAST = new Date(Date.now() - 86_400_000).toISOString();

beforeAll(async () => {
  smtp = await startSmtpServer();
  ctx = await createTestApp(undefined, { config: { SMTP_URL: smtp.url }, startJobs: true });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  const all = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...all] });
  colleague = await seedUser(db, { homeOrgId: orgId, permissions: [...all] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW', 'TASK_VIEW'] });
  incidentsOnly = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW', 'INCIDENT_EDIT'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: [...all] });
});
afterAll(async () => {
  await ctx.close();
  await smtp.close();
});

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect(response.statusCode).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

interface Detail {
  id: string;
  slug: string;
  state: string;
  version: number;
  ownerId: string | null;
  resolution: string | null;
  title: string;
  links: { slug: string }[];
  subtasks: { slug: string }[];
  parent: { slug: string } | null;
  watchers: { id: string }[];
  comments: { body: string; authorId: string }[];
  history: { action: string; actorId: string; details: Record<string, unknown> }[];
}

async function create(kind: 'incident' | 'task', payload: object = {}, user = editor, org = orgId) {
  const response = await call('POST', `/${kind}`, user, { title: `A ${kind}`, ...payload }, org);
  expect(response.statusCode).toBe(201);
  return response.json() as Detail;
}

const get = async (kind: string, ref: string, user = editor) =>
  (await call('GET', `/${kind}/${ref}`, user)).json() as Detail;

describe('creating tickets', () => {
  it('gives each kind its own slugs per organisation, even when created at once', async () => {
    const first = await create('incident');
    expect(first).toMatchObject({ slug: 'INC-1', state: 'TRIAGE', version: 1 });
    expect(first.history).toMatchObject([{ action: 'created', actorId: editor.id }]);
    expect((await create('task')).slug).toBe('TASK-1');
    const created = await Promise.all(Array.from({ length: 8 }, () => create('incident')));
    expect(created.map((ticket) => ticket.slug).sort()).toEqual(
      ['INC-2', 'INC-3', 'INC-4', 'INC-5', 'INC-6', 'INC-7', 'INC-8', 'INC-9'].sort(),
    );
    expect((await create('incident', {}, stranger, otherOrgId)).slug).toBe('INC-1');
  });

  it('opens tickets by id or slug, and hides those of other organisations', async () => {
    const incident = await create('incident', { title: 'Phishing wave' });
    expect((await get('incident', incident.slug.toLowerCase())).title).toBe('Phishing wave');
    expect((await get('incident', incident.id)).slug).toBe(incident.slug);
    expectError(
      await call('GET', `/incident/${incident.id}`, stranger, undefined, otherOrgId),
      404,
      'TICKET_NOT_FOUND',
    );
    expectError(await call('GET', `/task/${incident.slug}`, editor), 404, 'TICKET_NOT_FOUND');
  });

  it('checks permissions per kind', async () => {
    expect((await call('POST', '/task', incidentsOnly, { title: 'x' })).statusCode).toBe(403);
    expect((await call('GET', '/tasks', incidentsOnly)).statusCode).toBe(403);
    expect((await call('POST', '/incident', viewer, { title: 'x' })).statusCode).toBe(403);
    expect((await call('GET', '/incidents', viewer)).statusCode).toBe(200);
  });

  it('refuses bad input and writes nothing', async () => {
    const before = await ctx.database.db.select().from(tickets).where(eq(tickets.orgId, orgId));
    expectError(await call('POST', '/incident', editor, { title: '' }), 400, 'GENERIC_INVALID_FIELD_VALUE');
    expectError(
      await call('POST', '/incident', editor, { title: 'x', ownerId: stranger.id }),
      400,
      'TICKET_INVALID_OWNER',
    );
    expectError(
      await call('POST', '/incident', editor, { title: 'x', watcherIds: [stranger.id] }),
      400,
      'TICKET_INVALID_WATCHER',
    );
    expectError(
      await call('POST', '/incident', editor, { title: 'x', dueDate: PAST }),
      400,
      'TICKET_INVALID_DUE_DATE',
    );
    expectError(
      await call('POST', '/task', editor, { title: 'x', parentSlug: 'INC-999' }),
      400,
      'TICKET_INVALID_PARENT',
    );
    const after = await ctx.database.db.select().from(tickets).where(eq(tickets.orgId, orgId));
    expect(after).toHaveLength(before.length);
  });

  it('takes owners and watchers among the people of the organisation and those authorised for it', async () => {
    const provider = await seedUser(ctx.database.db, {
      homeOrgId: otherOrgId,
      authorisedOrgIds: [orgId],
      permissions: ['INCIDENT_EDIT'],
    });
    const incident = await create('incident', { ownerId: provider.id, watcherIds: [provider.id] });
    expect(incident).toMatchObject({ ownerId: provider.id, state: 'ANALYSIS' });
    expect(incident.watchers.map((watcher) => watcher.id)).toEqual([provider.id]);
  });
});

describe('editing', () => {
  it('refuses a stale version with TICKET_MODIFIED and keeps the other change', async () => {
    const incident = await create('incident', { title: 'Original' });
    const first = await call('PATCH', `/incident/${incident.slug}`, editor, { version: 1, title: 'Mine' });
    expect(first.json()).toMatchObject({ title: 'Mine', version: 2 });
    const stale = await call('PATCH', `/incident/${incident.slug}`, colleague, {
      version: 1,
      title: 'Theirs',
    });
    expectError(stale, 409, 'TICKET_MODIFIED');
    expectError(
      await call('PUT', `/incident/${incident.slug}/state`, colleague, { version: 1, state: 'CLOSED' }),
      409,
      'TICKET_MODIFIED',
    );
    expect(await get('incident', incident.slug)).toMatchObject({
      title: 'Mine',
      state: 'TRIAGE',
      version: 2,
    });
  });

  it('moves an incident to Analysis when it gets an owner and back to Triage without one', async () => {
    const incident = await create('incident');
    const owned = (
      await call('PATCH', `/incident/${incident.slug}`, editor, { version: 1, ownerId: colleague.id })
    ).json();
    expect(owned).toMatchObject({ state: 'ANALYSIS', ownerId: colleague.id, version: 2 });
    const unowned = (
      await call('PATCH', `/incident/${incident.slug}`, editor, { version: 2, ownerId: null })
    ).json();
    expect(unowned).toMatchObject({ state: 'TRIAGE', ownerId: null });
    expect(unowned.history.at(-1)).toMatchObject({
      action: 'updated',
      actorId: editor.id,
      details: { state: { from: 'ANALYSIS', to: 'TRIAGE' } },
    });
    expect((await create('incident', { ownerId: editor.id })).state).toBe('ANALYSIS');
    expect((await create('task', { ownerId: editor.id })).state).toBe('OPEN');
  });

  it('keeps watchers, due date, SLA, external id and summary note', async () => {
    const task = await create('task');
    const updated = await call('PATCH', `/task/${task.slug}`, editor, {
      version: 1,
      watcherIds: [colleague.id, viewer.id],
      dueDate: FUTURE,
      slaDate: FUTURE,
      externalId: 'SNOW-42',
      summaryNote: 'Waiting for the vendor',
    });
    expect(updated.statusCode).toBe(200);
    expect(updated.json()).toMatchObject({
      externalId: 'SNOW-42',
      summaryNote: 'Waiting for the vendor',
      dueDate: FUTURE,
      slaDate: FUTURE,
    });
    expect((updated.json() as Detail).watchers.map((watcher) => watcher.id).sort()).toEqual(
      [colleague.id, viewer.id].sort(),
    );
    expectError(
      await call('PATCH', `/task/${task.slug}`, editor, { version: 2, dueDate: PAST }),
      400,
      'TICKET_INVALID_DUE_DATE',
    );
  });
});

describe('states', () => {
  it('needs a resolution to resolve, allows resolutions only on incidents and refuses states of the other kind', async () => {
    const incident = await create('incident');
    const task = await create('task');
    const path = `/incident/${incident.slug}/state`;
    expectError(
      await call('PUT', path, editor, { version: 1, state: 'RESOLVED' }),
      400,
      'TICKET_RESOLUTION_REQUIRED',
    );
    const invalid = await call('PUT', path, editor, { version: 1, state: 'OPEN' });
    expectError(invalid, 400, 'TICKET_INVALID_STATE');
    expect((invalid.json() as { validValues: string[] }).validValues).toContain('REMEDIATION');
    expectError(await call('PUT', path, editor, { version: 1, state: 'TRIAGE' }), 409, 'TICKET_SAME_STATE');
    expectError(
      await call('PUT', `/task/${task.slug}/state`, editor, {
        version: 1,
        state: 'CLOSED',
        resolution: 'Fixed',
      }),
      400,
      'TICKET_RESOLUTION_INCIDENT_ONLY',
    );
    expectError(
      await call('PUT', `/task/${task.slug}/state`, editor, { version: 1, state: 'RESOLVED' }),
      400,
      'TICKET_INVALID_STATE',
    );
    const resolved = await call('PUT', path, editor, {
      version: 1,
      state: 'RESOLVED',
      resolution: 'Password reset',
    });
    expect(resolved.json()).toMatchObject({ state: 'RESOLVED', resolution: 'Password reset', version: 2 });
    const closed = await call('PUT', `/task/${task.slug}/state`, editor, { version: 1, state: 'CLOSED' });
    expect(closed.json()).toMatchObject({ state: 'CLOSED' });
    const history = await ctx.database.db
      .select()
      .from(ticketHistory)
      .where(eq(ticketHistory.ticketId, incident.id));
    expect(history.map((entry) => entry.action)).toEqual(['created', 'state-changed']);
  });

  it('claims only with an SLA and only once', async () => {
    const incident = await create('incident');
    expectError(
      await call('POST', `/incident/${incident.slug}/claim`, editor),
      400,
      'TICKET_CLAIM_NEEDS_SLA',
    );
    await call('PATCH', `/incident/${incident.slug}`, editor, { version: 1, slaDate: FUTURE });
    const claimed = await call('POST', `/incident/${incident.slug}/claim`, colleague);
    expect(claimed.json()).toMatchObject({ ownerId: colleague.id, state: 'ANALYSIS' });
    expectError(
      await call('POST', `/incident/${incident.slug}/claim`, editor),
      409,
      'TICKET_ALREADY_CLAIMED',
    );
  });

  it('starts the work when the owner comments on an incident in Triage', async () => {
    const incident = await create('incident', { ownerId: colleague.id });
    await call('PUT', `/incident/${incident.slug}/state`, editor, {
      version: 1,
      state: 'TRIAGE',
      resolution: undefined,
    });
    const otherComment = await call('POST', `/incident/${incident.slug}/comments`, editor, {
      body: 'Seen it',
    });
    expect(otherComment.statusCode).toBe(201);
    expect(otherComment.json()).toMatchObject({ state: 'TRIAGE' });
    const ownerComment = (
      await call('POST', `/incident/${incident.slug}/comments`, colleague, { body: 'On it' })
    ).json();
    expect(ownerComment.state).toBe('ANALYSIS');
    expect(ownerComment.comments.map((comment: { body: string }) => comment.body)).toEqual([
      'Seen it',
      'On it',
    ]);
    expectError(
      await call('POST', `/incident/${incident.slug}/comments`, editor, { body: ' ' }),
      400,
      'GENERIC_INVALID_FIELD_VALUE',
    );
  });
});

describe('links and subtasks', () => {
  it('links two tickets both ways, never a ticket with itself', async () => {
    const incident = await create('incident');
    const task = await create('task');
    expectError(
      await call('POST', `/incident/${incident.slug}/links`, editor, { slug: incident.slug }),
      400,
      'TICKET_SELF_LINK',
    );
    const foreign = await create('task', {}, stranger, otherOrgId);
    expectError(
      await call('POST', `/incident/${incident.slug}/links`, editor, { slug: foreign.slug + '0' }),
      400,
      'TICKET_NOT_FOUND',
    );
    const linked = await call('POST', `/incident/${incident.slug}/links`, editor, { slug: task.slug });
    expect((linked.json() as Detail).links.map((link) => link.slug)).toEqual([task.slug]);
    expect((await get('task', task.slug)).links.map((link) => link.slug)).toEqual([incident.slug]);
    expectError(
      await call('POST', `/task/${task.slug}/links`, editor, { slug: incident.slug }),
      409,
      'TICKET_ALREADY_LINKED',
    );
    const unlinked = await call('DELETE', `/task/${task.slug}/links/${incident.slug}`, editor);
    expect((unlinked.json() as Detail).links).toEqual([]);
    expectError(
      await call('DELETE', `/task/${task.slug}/links/${incident.slug}`, editor),
      404,
      'TICKET_NOT_FOUND',
    );
  });

  it('keeps subtasks under a parent and refuses cycles', async () => {
    const incident = await create('incident');
    const task = await create('task', { parentSlug: incident.slug });
    const sub = await create('task', { parentSlug: task.slug });
    expect(task.parent?.slug).toBe(incident.slug);
    expect((await get('incident', incident.slug)).subtasks.map((ref) => ref.slug)).toEqual([task.slug]);
    expectError(
      await call('PATCH', `/task/${task.slug}`, editor, { version: 1, parentSlug: sub.slug }),
      400,
      'TICKET_PARENT_CYCLE',
    );
    expectError(
      await call('PATCH', `/task/${task.slug}`, editor, { version: 1, parentSlug: task.slug }),
      400,
      'TICKET_PARENT_CYCLE',
    );
    const detached = await call('PATCH', `/task/${sub.slug}`, editor, { version: 1, parentSlug: null });
    expect((detached.json() as Detail).parent).toBeNull();
  });
});

describe('lists and CSV', () => {
  it('filters In Progress and Pending, searches, sorts and pages', async () => {
    const org = (await seedOrg(ctx.database.db)).id;
    const user = await seedUser(ctx.database.db, {
      homeOrgId: org,
      permissions: ['INCIDENT_EDIT', 'TASK_EDIT'],
    });
    const make = async (title: string, extra: object = {}) =>
      (await call('POST', '/incident', user, { title, ...extra }, org)).json() as Detail;
    const pending = await make('Malware on teller-01');
    const working = await make('Wire fraud', { ownerId: user.id });
    const remediating = await make('Phishing');
    await call('PUT', `/incident/${remediating.slug}/state`, user, { version: 1, state: 'REMEDIATION' }, org);
    const closed = await make('Old thing');
    await call('PUT', `/incident/${closed.slug}/state`, user, { version: 1, state: 'CLOSED' }, org);
    const list = async (query: string) =>
      (await call('GET', `/incidents?${query}`, user, undefined, org)).json() as {
        items: Detail[];
        total: number;
      };
    expect((await list('filter=pending')).items.map((item) => item.slug)).toEqual([pending.slug]);
    expect((await list('filter=inProgress')).items.map((item) => item.slug)).toEqual([
      remediating.slug,
      working.slug,
    ]);
    expect((await list('filter=open')).total).toBe(3);
    expect((await list('q=teller')).items.map((item) => item.slug)).toEqual([pending.slug]);
    expect((await list('q=INC-2')).items.map((item) => item.slug)).toEqual([working.slug]);
    expect((await list('state=CLOSED,REMEDIATION')).total).toBe(2);
    const page = await list('sortBy=title&desc=false&pageSize=2&pageNumber=2');
    expect(page.total).toBe(4);
    expect(page.items.map((item) => item.title)).toEqual(['Phishing', 'Wire fraud']);
    expectError(
      await call('GET', '/incidents?filter=mine', user, undefined, org),
      400,
      'GENERIC_INVALID_FIELD_VALUE',
    );
    const tasks = await call('POST', '/task', user, { title: 'Unowned' }, org);
    await call('POST', '/task', user, { title: 'Owned', ownerId: user.id }, org);
    const taskList = (await call('GET', '/tasks?filter=pending', user, undefined, org)).json();
    expect(taskList.items.map((item: Detail) => item.slug)).toEqual([(tasks.json() as Detail).slug]);
  });

  it('downloads at most 1,000 tickets as formula-safe CSV', async () => {
    const org = (await seedOrg(ctx.database.db)).id;
    const user = await seedUser(ctx.database.db, { homeOrgId: org, permissions: ['INCIDENT_VIEW'] });
    await ctx.database.db.insert(tickets).values(
      Array.from({ length: 1005 }, (_, index) => ({
        orgId: org,
        kind: 'incident',
        number: index + 1,
        slug: `INC-${index + 1}`,
        title: index === 1004 ? '=HYPERLINK("http://evil")' : `Incident ${index + 1}`,
        state: 'TRIAGE',
      })),
    );
    const response = await call('GET', '/incidents-csv?sortBy=number&desc=true', user, undefined, org);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toContain('text/csv');
    const lines = response.body.trim().split('\r\n');
    expect(lines[0]).toBe(
      'slug,title,state,owner,resolution,dueDate,slaDate,externalId,createdOn,modifiedOn,description',
    );
    expect(lines).toHaveLength(1001);
    expect(lines[1]).toContain(`INC-1005,"'=HYPERLINK(""http://evil"")"`);
  });
});

describe('e-mail', () => {
  it('tells the owner and watchers about changes, not the person making them', async () => {
    const incident = await create('incident', { ownerId: colleague.id, watcherIds: [viewer.id, editor.id] });
    await call('PUT', `/incident/${incident.slug}/state`, editor, {
      version: incident.version,
      state: 'RESOLVED',
      resolution: 'Contained',
    });
    const about = (to: string) =>
      smtp.waitForMessage(to, 20_000, (mail) =>
        Boolean(mail.subject?.includes(`${incident.slug} `) && mail.text?.includes('to RESOLVED')),
      );
    const toOwner = await about(colleague.email);
    expect(toOwner.text).toContain('state ANALYSIS to RESOLVED (resolution: Contained)');
    await about(viewer.email);
    expect(
      smtp.messages.some(
        (mail) =>
          mail.subject?.includes(`${incident.slug} `) &&
          JSON.stringify(mail.to).toLowerCase().includes(editor.email.toLowerCase()),
      ),
    ).toBe(false);
  });
});

describe('e-mail that cannot be queued', () => {
  it('keeps the change and answers it as made, since repeating it would be wrong', async () => {
    // A server whose job runner is stopped: nothing can be queued for sending.
    const stopped = await createTestApp(undefined, { config: { SMTP_URL: smtp.url } });
    try {
      const db = stopped.database.db;
      const org = (await seedOrg(db)).id;
      const all = ['INCIDENT_VIEW', 'INCIDENT_EDIT'] as const;
      const actor = await seedUser(db, { homeOrgId: org, permissions: [...all] });
      const watcher = await seedUser(db, { homeOrgId: org, permissions: [...all] });
      const created = await orgRequest(stopped, org, 'POST', '/incident', actor, {
        title: 'Card skimmer at branch 4',
        watcherIds: [watcher.id],
      });
      expect(created.statusCode).toBe(201);
      const { slug, version } = created.json() as Detail;
      const changed = await orgRequest(stopped, org, 'PUT', `/incident/${slug}/state`, actor, {
        version,
        state: 'INVALID',
      });
      expect(changed.statusCode).toBe(200);
      const saved = (await orgRequest(stopped, org, 'GET', `/incident/${slug}`, actor)).json() as Detail;
      expect(saved.state).toBe('INVALID');
    } finally {
      await stopped.close();
    }
  });
});
