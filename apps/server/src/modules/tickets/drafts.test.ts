import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { ticketDrafts, tickets } from './tables';

let ctx: TestContext;
const org = { provider: '', a: '', b: '', other: '' };
let engineer: SeededUser;
let taskEngineer: SeededUser;
let analyst: SeededUser;
let stranger: SeededUser;
let alphaPerson: SeededUser;

const ALL = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;

beforeAll(async () => {
  ctx = await createTestApp();
  const db = ctx.database.db;
  const inbox = { featureFlags: { universalTicketInbox: true } };
  org.provider = (await seedOrg(db, { name: 'Provider', isProvider: true, ...inbox })).id;
  org.a = (await seedOrg(db, { name: 'Alpha Bank' })).id;
  org.b = (await seedOrg(db, { name: 'Beta Credit Union' })).id;
  org.other = (await seedOrg(db, { name: 'Other Bank', ...inbox })).id;
  const authorisedOrgIds = [org.a, org.b];
  engineer = await seedUser(db, {
    homeOrgId: org.provider,
    permissions: ['TRAC_ENGINEER', ...ALL],
    authorisedOrgIds,
  });
  taskEngineer = await seedUser(db, {
    homeOrgId: org.provider,
    permissions: ['TRAC_ENGINEER', 'TASK_VIEW', 'TASK_EDIT'],
    authorisedOrgIds: [org.a],
  });
  analyst = await seedUser(db, { homeOrgId: org.provider, permissions: [...ALL], authorisedOrgIds });
  stranger = await seedUser(db, { homeOrgId: org.other, permissions: ['TRAC_ENGINEER', ...ALL] });
  alphaPerson = await seedUser(db, { homeOrgId: org.a, permissions: ['INCIDENT_VIEW'] });
});
afterAll(() => ctx.close());

interface Draft {
  id: string;
  orgId: string;
  orgName: string;
  kind: string;
  title: string;
  description: string;
  ownerId: string | null;
  version: number;
  createdByName: string | null;
}
interface DraftList {
  items: Draft[];
  total: number;
  orgs: { id: string; name: string }[];
}

const call = (orgId: string, method: HttpMethod, path: string, user = engineer, payload?: object) =>
  orgRequest(ctx, orgId, method, path, user, payload);

async function save(orgId: string, payload: object, user = engineer): Promise<Draft> {
  const response = await call(orgId, 'POST', '/ticket-draft', user, payload);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as Draft;
}

async function drafts(query = '', user = engineer, at = org.provider): Promise<DraftList> {
  const response = await call(at, 'GET', `/universal-inbox/drafts?${query}`, user);
  expect(response.statusCode, response.body).toBe(200);
  return response.json() as DraftList;
}

const expectError = (response: Awaited<ReturnType<typeof call>>, status: number, key: string) => {
  expect(response.statusCode, response.body).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
};

const draftCount = async () => (await ctx.database.db.select().from(ticketDrafts)).length;

describe('ticket drafts', () => {
  it('saves, lists across organisations with their names, opens, edits and deletes drafts', async () => {
    const alpha = await save(org.a, {
      kind: 'incident',
      title: 'Draft: wire fraud',
      description: 'first notes',
    });
    const beta = await save(org.b, { kind: 'task', title: 'Draft: rotate keys' });
    await save(org.other, { kind: 'incident', title: 'Draft: not yours' }, stranger);
    expect(alpha).toMatchObject({
      orgName: 'Alpha Bank',
      version: 1,
      ownerId: null,
      createdByName: expect.any(String),
    });

    const list = await drafts('q=Draft:');
    expect(list.items.map((item) => [item.title, item.orgName])).toEqual([
      ['Draft: rotate keys', 'Beta Credit Union'],
      ['Draft: wire fraud', 'Alpha Bank'],
    ]);
    expect(list.orgs.map((item) => item.name)).toEqual(['Alpha Bank', 'Beta Credit Union', 'Provider']);
    expect((await drafts('q=Draft:&kind=task')).items.map((item) => item.id)).toEqual([beta.id]);
    expect((await drafts('q=Draft:&pageSize=1&pageNumber=2')).items.map((item) => item.id)).toEqual([
      alpha.id,
    ]);
    // Only organisations where the user is an engineer: the task engineer sees Alpha's drafts only.
    expect((await drafts('q=Draft:', taskEngineer)).items.map((item) => item.id)).toEqual([alpha.id]);

    const opened = await call(org.a, 'GET', `/ticket-draft/${alpha.id}`);
    expect(opened.json()).toMatchObject({ title: 'Draft: wire fraud', description: 'first notes' });

    const edited = await call(org.a, 'PUT', `/ticket-draft/${alpha.id}`, engineer, {
      version: 1,
      kind: 'incident',
      title: 'Draft: wire fraud at branch 12',
      ownerId: alphaPerson.id,
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      version: 2,
      title: 'Draft: wire fraud at branch 12',
      description: '',
    });
    // A second editor who read version 1 is refused; nothing is overwritten.
    expectError(
      await call(org.a, 'PUT', `/ticket-draft/${alpha.id}`, taskEngineer, {
        version: 1,
        kind: 'task',
        title: 'Mine',
      }),
      409,
      'TICKET_MODIFIED',
    );
    expectError(
      await call(org.b, 'DELETE', `/ticket-draft/${beta.id}`, engineer, { version: 7 }),
      409,
      'TICKET_MODIFIED',
    );
    const deleted = await call(org.b, 'DELETE', `/ticket-draft/${beta.id}`, engineer, { version: 1 });
    expect(deleted.statusCode, deleted.body).toBe(204);
    expectError(await call(org.b, 'GET', `/ticket-draft/${beta.id}`), 404, 'TICKET_DRAFT_NOT_FOUND');
  });

  it('submits a draft as a ticket with its slug, once, removing the draft', async () => {
    const draft = await save(org.a, {
      kind: 'incident',
      title: 'Draft: card skimming',
      ownerId: alphaPerson.id,
      externalId: 'EXT-9',
    });
    const submitted = await call(org.a, 'POST', `/ticket-draft/${draft.id}/submit`, engineer, { version: 1 });
    expect(submitted.statusCode, submitted.body).toBe(201);
    const ticket = submitted.json() as { slug: string; state: string; ownerId: string; externalId: string };
    expect(ticket).toMatchObject({ state: 'ANALYSIS', ownerId: alphaPerson.id, externalId: 'EXT-9' });
    expect(ticket.slug).toMatch(/^INC-\d+$/);
    const read = await call(org.a, 'GET', `/incident/${ticket.slug}`);
    expect(read.statusCode).toBe(200);
    expectError(await call(org.a, 'GET', `/ticket-draft/${draft.id}`), 404, 'TICKET_DRAFT_NOT_FOUND');
    // Submitting again creates nothing more.
    const ticketsBefore = (await ctx.database.db.select().from(tickets).where(eq(tickets.orgId, org.a)))
      .length;
    expectError(
      await call(org.a, 'POST', `/ticket-draft/${draft.id}/submit`, engineer, { version: 1 }),
      404,
      'TICKET_DRAFT_NOT_FOUND',
    );
    expect((await ctx.database.db.select().from(tickets).where(eq(tickets.orgId, org.a))).length).toBe(
      ticketsBefore,
    );
  });

  it('refuses a submit by the rules of creation and keeps the draft', async () => {
    const past = await save(org.a, {
      kind: 'task',
      title: 'Draft: overdue',
      dueDate: '2020-01-01T00:00:00Z',
    });
    expectError(
      await call(org.a, 'POST', `/ticket-draft/${past.id}/submit`, engineer, { version: 1 }),
      400,
      'TICKET_INVALID_DUE_DATE',
    );
    const foreignOwner = await save(org.a, {
      kind: 'task',
      title: 'Draft: foreign owner',
      ownerId: stranger.id,
    });
    expectError(
      await call(org.a, 'POST', `/ticket-draft/${foreignOwner.id}/submit`, engineer, { version: 1 }),
      400,
      'TICKET_INVALID_OWNER',
    );
    // Submitting an incident needs INCIDENT_EDIT.
    const incident = await save(org.a, { kind: 'incident', title: 'Draft: needs incident rights' });
    expectError(
      await call(org.a, 'POST', `/ticket-draft/${incident.id}/submit`, taskEngineer, { version: 1 }),
      403,
      'PERMISSION_DENIED',
    );
    for (const draft of [past, foreignOwner, incident]) {
      expect((await call(org.a, 'GET', `/ticket-draft/${draft.id}`)).statusCode).toBe(200);
    }
  });

  it('refuses bad input whole, and keeps drafts to TRAC_ENGINEER and their organisation', async () => {
    const before = await draftCount();
    expect(
      (await call(org.a, 'POST', '/ticket-draft', engineer, { kind: 'incident', title: '  ' })).statusCode,
    ).toBe(400);
    expect(
      (await call(org.a, 'POST', '/ticket-draft', engineer, { kind: 'alert', title: 'x' })).statusCode,
    ).toBe(400);
    expectError(
      await call(org.a, 'POST', '/ticket-draft', analyst, { kind: 'incident', title: 'Not an engineer' }),
      403,
      'PERMISSION_DENIED',
    );
    expect(await draftCount()).toBe(before);
    expect((await call(org.provider, 'GET', '/universal-inbox/drafts', analyst)).statusCode).toBe(403);

    const alpha = await save(org.a, { kind: 'task', title: 'Draft: Alpha only' });
    expectError(
      await call(org.other, 'GET', `/ticket-draft/${alpha.id}`, stranger),
      404,
      'TICKET_DRAFT_NOT_FOUND',
    );
    expectError(
      await call(org.other, 'DELETE', `/ticket-draft/${alpha.id}`, stranger, { version: 1 }),
      404,
      'TICKET_DRAFT_NOT_FOUND',
    );
    // Named under another organisation of the engineer, the draft is not found either.
    expectError(await call(org.b, 'GET', `/ticket-draft/${alpha.id}`), 404, 'TICKET_DRAFT_NOT_FOUND');
    expect((await drafts('q=Alpha only', stranger, org.other)).items).toEqual([]);
  });
});
