import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { tickets } from './tables';

let ctx: TestContext;
const org = { provider: '', a: '', b: '', other: '', featureless: '' };
let staff: SeededUser;
let readOnly: SeededUser;
let incidentsOnly: SeededUser;
let stranger: SeededUser;

const ALL = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const inbox = { featureFlags: { universalTicketInbox: true } };
  org.provider = (await seedOrg(db, { name: 'Provider', isProvider: true, ...inbox })).id;
  org.a = (await seedOrg(db, { name: 'Alpha Bank' })).id;
  org.b = (await seedOrg(db, { name: 'Beta Credit Union' })).id;
  org.other = (await seedOrg(db, { name: 'Other Bank', ...inbox })).id;
  org.featureless = (await seedOrg(db, { name: 'No inbox' })).id;
  const authorisedOrgIds = [org.a, org.b];
  staff = await seedUser(db, { homeOrgId: org.provider, permissions: [...ALL], authorisedOrgIds });
  readOnly = await seedUser(db, {
    homeOrgId: org.provider,
    permissions: [...ALL],
    authorisedOrgIds,
    readOnlyMode: true,
  });
  incidentsOnly = await seedUser(db, {
    homeOrgId: org.provider,
    permissions: ['INCIDENT_VIEW', 'INCIDENT_EDIT'],
    authorisedOrgIds,
  });
  stranger = await seedUser(db, { homeOrgId: org.other, permissions: [...ALL] });
});
afterAll(() => ctx.close());

interface Item {
  id: string;
  slug: string;
  title: string;
  state: string;
  version: number;
  orgId: string;
  orgName: string;
}
interface List {
  items: Item[];
  total: number;
  orgs: { id: string; name: string }[];
}
interface Outcome {
  orgId: string;
  id: string;
  slug: string | null;
  outcome: string;
}

async function create(orgId: string, kind: 'incident' | 'task', title: string, user = staff, payload = {}) {
  const response = await orgRequest(ctx, orgId, 'POST', `/${kind}`, user, { title, ...payload });
  expect(response.statusCode).toBe(201);
  return response.json() as Item;
}

const inbox = async (query: string, user = staff, kind = 'incidents', at = org.provider) => {
  const response = await orgRequest(ctx, at, 'GET', `/universal-inbox/${kind}?${query}`, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as List;
};

const close = (list: { orgId: string; id: string; version: number }[], user = staff, kind = 'incidents') =>
  orgRequest(ctx, org.provider, 'POST', `/universal-inbox/${kind}/close`, user, { tickets: list });

describe('universal ticket inbox', () => {
  it('lists the tickets of every organisation the user may read, each with its organisation', async () => {
    const alpha = await create(org.a, 'incident', 'Inbox: card skimming');
    const beta = await create(org.b, 'incident', 'Inbox: phishing', staff, { ownerId: staff.id });
    await create(org.other, 'incident', 'Inbox: not yours', stranger);
    await create(org.a, 'task', 'Inbox: rotate keys');

    const all = await inbox('q=Inbox:&sortBy=title&desc=false');
    expect(all.items.map((item) => [item.title, item.orgName, item.slug])).toEqual([
      ['Inbox: card skimming', 'Alpha Bank', alpha.slug],
      ['Inbox: phishing', 'Beta Credit Union', beta.slug],
    ]);
    expect(all.items.every((item) => item.orgId !== org.other)).toBe(true);
    expect(all.orgs.map((entry) => entry.name)).toEqual(['Alpha Bank', 'Beta Credit Union', 'Provider']);

    expect((await inbox('q=Inbox:&filter=pending')).items.map((item) => item.title)).toEqual([
      'Inbox: card skimming',
    ]);
    expect((await inbox('q=Inbox:&filter=inProgress')).items.map((item) => item.title)).toEqual([
      'Inbox: phishing',
    ]);
    const page = await inbox('q=Inbox:&sortBy=title&desc=true&pageSize=1&pageNumber=2');
    expect([page.total, page.items.map((item) => item.title)]).toEqual([2, ['Inbox: card skimming']]);

    const tasks = await inbox('q=Inbox:', staff, 'tasks');
    expect(tasks.items.map((item) => [item.title, item.orgName])).toEqual([
      ['Inbox: rotate keys', 'Alpha Bank'],
    ]);
  });

  it('needs the feature and the kind’s view permission in the organisation it is opened in', async () => {
    const featureless = await seedUser(ctx.database.db, {
      homeOrgId: org.featureless,
      permissions: [...ALL],
    });
    const noFeature = await orgRequest(
      ctx,
      org.featureless,
      'GET',
      '/universal-inbox/incidents',
      featureless,
    );
    expect([noFeature.statusCode, noFeature.json().key]).toEqual([403, 'FEATURE_NOT_ENABLED']);
    const noTasks = await orgRequest(ctx, org.provider, 'GET', '/universal-inbox/tasks', incidentsOnly);
    expect([noTasks.statusCode, noTasks.json().key]).toEqual([403, 'PERMISSION_DENIED']);
    const bad = await orgRequest(ctx, org.provider, 'GET', '/universal-inbox/incidents?sortBy=owner', staff);
    expect([bad.statusCode, bad.json().key]).toEqual([400, 'GENERIC_INVALID_FIELD_VALUE']);
  });

  it('closes tickets of several organisations and says for each one why not', async () => {
    const first = await create(org.a, 'incident', 'Close me');
    const second = await create(org.b, 'incident', 'Close me too');
    const stale = await create(org.b, 'incident', 'Changed meanwhile');
    await orgRequest(ctx, org.b, 'PATCH', `/incident/${stale.slug}`, staff, { version: 1, title: 'Changed' });
    const done = await create(org.a, 'incident', 'Closed already');
    await orgRequest(ctx, org.a, 'PUT', `/incident/${done.slug}/state`, staff, {
      version: 1,
      state: 'CLOSED',
    });
    const foreign = await create(org.other, 'incident', 'Someone else’s', stranger);
    const task = await create(org.a, 'task', 'A task, not an incident');

    const response = await close([
      { orgId: org.a, id: first.id, version: first.version },
      { orgId: org.b, id: second.id, version: second.version },
      { orgId: org.b, id: stale.id, version: 1 },
      { orgId: org.a, id: done.id, version: 2 },
      { orgId: org.other, id: foreign.id, version: 1 },
      { orgId: org.b, id: first.id, version: first.version },
      { orgId: org.a, id: task.id, version: 1 },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const body = response.json() as { results: Outcome[]; closed: number; failed: number };
    expect(body.results.map((result) => [result.slug, result.outcome])).toEqual([
      [first.slug, 'closed'],
      [second.slug, 'closed'],
      [stale.slug, 'TICKET_MODIFIED'],
      [done.slug, 'TICKET_SAME_STATE'],
      [null, 'ORG_NOT_AUTHORISED'],
      [null, 'TICKET_NOT_FOUND'],
      [null, 'TICKET_NOT_FOUND'],
    ]);
    expect([body.closed, body.failed]).toEqual([2, 5]);
    const states = async (ids: string[]) =>
      Promise.all(
        ids.map(
          async (id) => (await ctx.database.db.select().from(tickets).where(eq(tickets.id, id)))[0]!.state,
        ),
      );
    expect(await states([first.id, second.id, stale.id, foreign.id, task.id])).toEqual([
      'CLOSED',
      'CLOSED',
      'TRIAGE',
      'TRIAGE',
      'OPEN',
    ]);
    const history = (await orgRequest(ctx, org.a, 'GET', `/incident/${first.slug}`, staff)).json() as {
      history: { action: string; details: { to?: string } }[];
    };
    expect(history.history.at(-1)).toMatchObject({ action: 'state-changed', details: { to: 'CLOSED' } });
  });

  it('refuses to close without the edit permission, and refuses bad input writing nothing', async () => {
    const ticket = await create(org.a, 'incident', 'Read-only users cannot close');
    const response = await close([{ orgId: org.a, id: ticket.id, version: ticket.version }], readOnly);
    expect(response.statusCode).toBe(200);
    expect((response.json() as { results: Outcome[] }).results).toMatchObject([
      { outcome: 'PERMISSION_DENIED', slug: null },
    ]);
    for (const payload of [
      { tickets: [] },
      { tickets: [{ orgId: org.a, id: 'not-a-uuid', version: 1 }] },
      { tickets: [{ orgId: org.a, id: ticket.id, version: 0 }] },
      { tickets: Array.from({ length: 101 }, () => ({ orgId: org.a, id: ticket.id, version: 1 })) },
    ]) {
      const refused = await orgRequest(
        ctx,
        org.provider,
        'POST',
        '/universal-inbox/incidents/close',
        staff,
        payload,
      );
      expect([refused.statusCode, refused.json().key]).toEqual([400, 'GENERIC_INVALID_FIELD_VALUE']);
    }
    const [row] = await ctx.database.db.select().from(tickets).where(eq(tickets.id, ticket.id));
    expect([row!.state, row!.version]).toEqual(['TRIAGE', 1]);
  });
});
