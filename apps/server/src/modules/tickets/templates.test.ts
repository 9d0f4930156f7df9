import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type HttpMethod, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { ticketTemplates } from './tables';

let ctx: TestContext;
let orgId: string;
let otherOrgId: string;
let admin: SeededUser;
let editor: SeededUser;
let watcher: SeededUser;
let stranger: SeededUser;

beforeAll(async () => {
  ctx = await createTestApp(undefined, { startJobs: true });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  const tickets = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'] as const;
  admin = await seedUser(db, { homeOrgId: orgId, permissions: ['TRAC_USER', ...tickets] });
  editor = await seedUser(db, { homeOrgId: orgId, permissions: [...tickets] });
  watcher = await seedUser(db, { homeOrgId: orgId, permissions: ['INCIDENT_VIEW'] });
  stranger = await seedUser(db, { homeOrgId: otherOrgId, permissions: ['TRAC_USER', ...tickets] });
});
afterAll(() => ctx.close());

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

function expectError(response: { statusCode: number; json: () => unknown }, status: number, key: string) {
  expect(response.statusCode, JSON.stringify(response.json())).toBe(status);
  expect((response.json() as { key: string }).key).toBe(key);
}

const PHISHING = {
  name: 'Phishing',
  title: 'Phishing report',
  description: 'A suspicious e-mail was reported.',
  tasks: [{ title: 'Block the sender', description: 'At the mail gateway' }, { title: 'Tell the staff' }],
};

interface Template {
  id: string;
  name: string;
  tasks: { title: string; description: string }[];
  watchers: { id: string }[];
}

describe('ticket templates', () => {
  it('are created, listed, replaced and deleted by TRAC_USER holders', async () => {
    const created = await call('POST', '/ticket-template', admin, { ...PHISHING, watcherIds: [watcher.id] });
    expect(created.statusCode).toBe(201);
    const template = created.json() as Template;
    expect(template).toMatchObject({
      name: 'Phishing',
      title: 'Phishing report',
      tasks: [
        { title: 'Block the sender', description: 'At the mail gateway' },
        { title: 'Tell the staff', description: '' },
      ],
      watchers: [{ id: watcher.id, name: 'Test User' }],
    });
    const listed = await call('GET', '/ticket-templates', editor);
    expect((listed.json() as Template[]).map((entry) => entry.name)).toContain('Phishing');

    const replaced = await call('PUT', `/ticket-template/${template.id}`, admin, {
      ...PHISHING,
      name: 'Phishing (mail)',
      tasks: [],
    });
    expect(replaced.json()).toMatchObject({ name: 'Phishing (mail)', tasks: [], watchers: [] });
    expect((await call('DELETE', `/ticket-template/${template.id}`, admin)).statusCode).toBe(204);
    expectError(
      await call('DELETE', `/ticket-template/${template.id}`, admin),
      404,
      'TICKET_TEMPLATE_NOT_FOUND',
    );
  });

  it('refuses a name in use, bad watchers and bad input, writing nothing', async () => {
    await call('POST', '/ticket-template', admin, { ...PHISHING, name: 'Malware' });
    const before = (
      await ctx.database.db.select().from(ticketTemplates).where(eq(ticketTemplates.orgId, orgId))
    ).length;
    expectError(
      await call('POST', '/ticket-template', admin, { ...PHISHING, name: 'MALWARE' }),
      409,
      'TICKET_TEMPLATE_NAME_IN_USE',
    );
    expectError(
      await call('POST', '/ticket-template', admin, {
        ...PHISHING,
        name: 'Other',
        watcherIds: [stranger.id],
      }),
      400,
      'TICKET_INVALID_WATCHER',
    );
    for (const payload of [
      { ...PHISHING, name: ' ' },
      { ...PHISHING, title: '' },
      { ...PHISHING, tasks: Array.from({ length: 21 }, () => ({ title: 'x' })) },
      { ...PHISHING, tasks: [{ title: '' }] },
      { ...PHISHING, watcherIds: ['nobody'] },
    ]) {
      expectError(await call('POST', '/ticket-template', admin, payload), 400, 'GENERIC_INVALID_FIELD_VALUE');
    }
    const after = (
      await ctx.database.db.select().from(ticketTemplates).where(eq(ticketTemplates.orgId, orgId))
    ).length;
    expect(after).toBe(before);
  });

  it('needs TRAC_USER to change, and answers 404 for templates of other organisations', async () => {
    const template = (
      await call('POST', '/ticket-template', admin, { ...PHISHING, name: 'Fraud' })
    ).json() as Template;
    expect((await call('POST', '/ticket-template', editor, { ...PHISHING, name: 'Mine' })).statusCode).toBe(
      403,
    );
    expect((await call('DELETE', `/ticket-template/${template.id}`, editor)).statusCode).toBe(403);
    expect((await call('GET', '/ticket-templates', watcher)).statusCode).toBe(403);
    expectError(
      await call('PUT', `/ticket-template/${template.id}`, stranger, PHISHING, otherOrgId),
      404,
      'TICKET_TEMPLATE_NOT_FOUND',
    );
    expectError(
      await call('DELETE', `/ticket-template/${template.id}`, stranger, undefined, otherOrgId),
      404,
      'TICKET_TEMPLATE_NOT_FOUND',
    );
    const theirs = (
      await call('GET', '/ticket-templates', stranger, undefined, otherOrgId)
    ).json() as Template[];
    expect(theirs).toEqual([]);
  });

  it('creates a ticket from a template with its tasks as subtasks and its watchers', async () => {
    const template = (
      await call('POST', '/ticket-template', admin, {
        ...PHISHING,
        name: 'Phishing again',
        watcherIds: [watcher.id],
      })
    ).json() as Template;
    const created = await call('POST', '/incident', editor, {
      title: 'Phishing at the branch',
      templateId: template.id,
      watcherIds: [admin.id],
    });
    expect(created.statusCode, created.body).toBe(201);
    const incident = created.json() as {
      slug: string;
      subtasks: { title: string; kind: string; state: string }[];
      watchers: { id: string }[];
    };
    expect(incident.subtasks.map(({ title, kind, state }) => ({ title, kind, state }))).toEqual([
      { title: 'Block the sender', kind: 'task', state: 'OPEN' },
      { title: 'Tell the staff', kind: 'task', state: 'OPEN' },
    ]);
    expect(incident.watchers.map((entry) => entry.id).sort()).toEqual([admin.id, watcher.id].sort());

    const foreign = (
      await call('POST', '/ticket-template', stranger, { ...PHISHING, name: 'Theirs' }, otherOrgId)
    ).json() as Template;
    expectError(
      await call('POST', '/incident', editor, { title: 'Not from theirs', templateId: foreign.id }),
      400,
      'TICKET_TEMPLATE_NOT_FOUND',
    );
  });
});
