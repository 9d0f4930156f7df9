import { screen, waitFor, within } from '@testing-library/react';
import type { TicketDetail } from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { ticket } from './test-fixtures';

const detail = (overrides: Partial<TicketDetail> = {}): TicketDetail => ({
  ...ticket(),
  parent: null,
  watchers: [],
  links: [],
  subtasks: [],
  comments: [],
  files: [],
  history: [
    {
      id: 'h1',
      actorId: 'u1',
      actorName: 'Nora Quinn',
      action: 'created',
      details: { state: 'TRIAGE' },
      at: '2026-03-01T09:00:00.000Z',
    },
  ],
  ...overrides,
});

const withAccess = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

const EDIT = ['INCIDENT_VIEW', 'INCIDENT_EDIT', 'TASK_VIEW', 'TASK_EDIT'];
const incidentPanels = {
  [`GET ${base}/incident/INC-7/alerts`]: {
    body: [
      {
        id: 'a1',
        title: 'Brute-force logins: 42 failures',
        severity: 'HIGH',
        triggerName: 'Brute-force logins',
        firedAt: '2026-03-01T08:00:00.000Z',
        escalatedAt: '2026-03-01T08:30:00.000Z',
      },
    ],
  },
  [`GET ${base}/incident/INC-7/similar`]: {
    body: [
      {
        id: 'i2',
        kind: 'incident',
        slug: 'INC-2',
        title: 'Earlier phishing',
        state: 'CLOSED',
        shared: { hosts: ['mail-01'], ips: [], users: ['j.smith'], triggers: [] },
      },
    ],
  },
  [`GET ${base}/user/summary`]: {
    body: [
      { id: 'u1', fullName: 'Nora Quinn', active: true, roleId: 'r1', homeOrgId: HOME_ORG_ID },
      { id: 'u2', fullName: 'Ivan Petrov', active: true, roleId: 'r1', homeOrgId: HOME_ORG_ID },
    ],
  },
};

describe('ticket lists', () => {
  it('lists open incidents, switches to In progress and Pending, searches and sorts', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/incidents`]: {
        body: {
          items: [
            ticket(),
            ticket({ id: 'i2', slug: 'INC-8', title: 'Malware', ownerName: 'Nora Quinn', state: 'ANALYSIS' }),
          ],
          total: 2,
        },
      },
    });
    const { user } = renderApp(`/tickets/incident?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByRole('link', { name: 'INC-8' })).closest('tr')!;
    expect(within(row).getByText('Analysis')).toBeInTheDocument();
    expect(within(row).getByText('Nora Quinn')).toBeInTheDocument();
    const calls = () =>
      fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(`${base}/incidents?`));
    expect(calls()[0]).toContain('filter=open');

    await user.click(screen.getByRole('tab', { name: 'In progress' }));
    await waitFor(() => expect(calls().at(-1)).toContain('filter=inProgress'));
    await user.click(screen.getByRole('tab', { name: 'Pending' }));
    await waitFor(() => expect(calls().at(-1)).toContain('filter=pending'));
    await user.type(screen.getByRole('textbox', { name: 'Search' }), 'phish');
    await waitFor(() => expect(calls().at(-1)).toContain('q=phish'));
    await user.click(screen.getByRole('button', { name: 'Title' }));
    await waitFor(() => expect(calls().at(-1)).toContain('sortBy=title&desc=false'));
  });

  it('creates a task and opens it', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      ...incidentPanels,
      [`GET ${base}/tasks`]: { body: { items: [], total: 0 } },
      [`POST ${base}/task`]: {
        status: 201,
        body: detail({ kind: 'task', slug: 'TASK-4', state: 'OPEN', title: 'Rotate keys' }),
      },
      [`GET ${base}/task/TASK-4`]: {
        body: detail({ kind: 'task', slug: 'TASK-4', state: 'OPEN', title: 'Rotate keys' }),
      },
    });
    const { user } = renderApp(`/tickets/task?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No tasks')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New task' }));
    const dialog = await screen.findByRole('dialog', { name: 'New task' });
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(within(dialog).getByText('A ticket needs a title.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Rotate keys');
    await user.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('heading', { name: 'TASK-4 Rotate keys' })).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/task` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toMatchObject({ title: 'Rotate keys', ownerId: null, dueDate: null });
  });

  it('is refused without the permission of the kind', async () => {
    stubApi({ ...withAccess(['INCIDENT_VIEW']) });
    renderApp(`/tickets/task?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New task' })).not.toBeInTheDocument();
  });
});

describe('the ticket page', () => {
  it('saves only the changed fields with the version read, and offers a reload when someone else changed it', async () => {
    let current = detail();
    const patches: Record<string, unknown>[] = [];
    stubApi({
      ...withAccess(EDIT),
      ...incidentPanels,
      [`GET ${base}/incident/INC-7`]: () => ({ body: current }),
      [`PATCH ${base}/incident/INC-7`]: ({ init }) => {
        const body = requestBody(init);
        patches.push(body);
        if (body.version !== current.version) {
          return { status: 409, body: apiError('TICKET_MODIFIED', 'ConflictException') };
        }
        current = detail({ ...current, ...body, version: current.version + 1 } as Partial<TicketDetail>);
        return { body: current };
      },
    });
    const { user } = renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    const title = await screen.findByRole('textbox', { name: 'Title' });
    // Someone else saves meanwhile.
    current = detail({ title: 'Phishing wave (theirs)', version: 4 });
    await user.clear(title);
    await user.type(title, 'Phishing wave, finance');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Ticket modified while editing')).toBeInTheDocument();
    expect(patches[0]).toEqual({ title: 'Phishing wave, finance', version: 3 });

    await user.click(screen.getByRole('button', { name: 'Reload' }));
    await waitFor(() =>
      expect(screen.getByRole('textbox', { name: 'Title' })).toHaveValue('Phishing wave (theirs)'),
    );
    expect(screen.queryByText('Ticket modified while editing')).not.toBeInTheDocument();
    await user.type(screen.getByRole('textbox', { name: 'External id' }), 'SNOW-1');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(patches).toHaveLength(2));
    expect(patches[1]).toEqual({ externalId: 'SNOW-1', version: 4 });
  });

  it('needs a resolution to resolve, claims, comments and links', async () => {
    let current = detail({ slaDate: '2026-03-02T09:00:00.000Z' });
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      ...incidentPanels,
      [`GET ${base}/incident/INC-7`]: () => ({ body: current }),
      [`PUT ${base}/incident/INC-7/state`]: ({ init }) => {
        const body = requestBody(init) as { state: TicketDetail['state']; resolution?: string };
        current = detail({
          ...current,
          state: body.state,
          resolution: body.resolution ?? null,
          version: current.version + 1,
        });
        return { body: current };
      },
      [`POST ${base}/incident/INC-7/claim`]: () => {
        current = detail({
          ...current,
          ownerId: 'u1',
          ownerName: 'Nora Quinn',
          state: 'ANALYSIS',
          version: current.version + 1,
        });
        return { body: current };
      },
      [`POST ${base}/incident/INC-7/comments`]: ({ init }) => {
        const body = requestBody(init) as { body: string };
        current = detail({
          ...current,
          comments: [
            {
              id: 'c1',
              authorId: 'u1',
              authorName: 'Nora Quinn',
              body: body.body,
              createdOn: '2026-03-01T10:00:00.000Z',
            },
          ],
        });
        return { status: 201, body: current };
      },
      [`POST ${base}/incident/INC-7/links`]: () => ({
        status: 400,
        body: apiError('TICKET_SELF_LINK'),
      }),
    });
    const { user } = renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Brute-force logins: 42 failures')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'INC-2' })).toBeInTheDocument();
    expect(screen.getByText('Hosts: mail-01 · Users: j.smith')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Claim' }));
    expect(await screen.findByText('Owner: Nora Quinn')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'New state' }));
    await user.click(screen.getByRole('option', { name: 'Resolved' }));
    expect(screen.getByText('The resolved state needs a resolution.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Change state' })).toBeDisabled();
    await user.type(screen.getByRole('textbox', { name: 'Resolution' }), 'Blocked the domain');
    await user.click(screen.getByRole('button', { name: 'Change state' }));
    expect(await screen.findByText('Resolution: Blocked the domain')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(requestBody(put?.[1])).toEqual({
      state: 'RESOLVED',
      resolution: 'Blocked the domain',
      version: 4,
    });

    await user.type(screen.getByRole('textbox', { name: 'Comment' }), 'Blocked at the gateway');
    await user.click(screen.getByRole('button', { name: 'Add comment' }));
    expect(
      await within(screen.getByRole('list', { name: 'Comments' })).findByText('Blocked at the gateway'),
    ).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Link a ticket' }), 'INC-7');
    await user.click(screen.getByRole('button', { name: 'Link' }));
    expect(
      await screen.findByText('Error occurred while saving the ticket A ticket cannot link to itself.', {
        exact: false,
      }),
    ).toBeInTheDocument();
  });

  it('attaches dropped and chosen files, downloads one and deletes one after confirming', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:file'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const report = {
      id: 'f1',
      name: 'report.pdf',
      contentType: 'application/pdf',
      size: 2048,
      createdBy: 'u1',
      createdByName: 'Nora Quinn',
      createdOn: '2026-03-01T10:00:00.000Z',
    };
    let current = detail();
    const uploads: string[][] = [];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      ...incidentPanels,
      [`GET ${base}/incident/INC-7`]: () => ({ body: current }),
      [`POST ${base}/incident/INC-7/files`]: ({ init }) => {
        const names = [...(init?.body as FormData).getAll('file')].map((file) => (file as File).name);
        uploads.push(names);
        if (names.includes('tool.exe')) {
          return {
            status: 415,
            body: {
              ...apiError('TICKET_FILE_UNSUPPORTED_TYPE', 'UnsupportedMediaTypeException'),
              params: { 0: 'tool.exe' },
            },
          };
        }
        current = detail({
          ...current,
          history: [
            ...current.history,
            {
              id: `h${uploads.length}`,
              actorId: 'u1',
              actorName: 'Nora Quinn',
              action: 'file-added',
              details: { files: names.map((name) => ({ id: 'x', name })) },
              at: '2026-03-01T10:00:00.000Z',
            },
          ],
          files: [
            ...current.files,
            ...names.map((name, index) => ({ ...report, id: `f${uploads.length}${index}`, name })),
          ],
        });
        return { status: 201, body: current };
      },
      [`GET ${base}/incident/INC-7/files/f10`]: { body: 'pdf bytes' },
      [`DELETE ${base}/incident/INC-7/files/f10`]: () => {
        current = detail({ ...current, files: current.files.filter((file) => file.id !== 'f10') });
        return { body: current };
      },
    });
    const { user } = renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No files attached.')).toBeInTheDocument();

    const pdf = new File(['%PDF-1.7'], 'report.pdf', { type: 'application/pdf' });
    const drop = screen.getByTestId('ticket-file-drop');
    drop.dispatchEvent(
      Object.assign(new Event('drop', { bubbles: true }), { dataTransfer: { files: [pdf] } }),
    );
    const files = await screen.findByRole('table', { name: 'Files' });
    expect(within(files).getByText('report.pdf')).toBeInTheDocument();
    expect(within(files).getByText('2 KB')).toBeInTheDocument();
    expect(uploads).toEqual([['report.pdf']]);
    expect(screen.getByText('File attached · report.pdf')).toBeInTheDocument();

    const exe = new File(['MZ'], 'tool.exe');
    await user.upload(document.querySelector<HTMLInputElement>('input[type="file"]')!, exe);
    expect(
      await screen.findByText(
        'tool.exe is not a PDF, image, ZIP or Office document, or text file, or its content does not match its type.',
        { exact: false },
      ),
    ).toBeInTheDocument();

    await user.click(within(files).getByRole('button', { name: 'Download report.pdf' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts.at(-1) as HTMLAnchorElement).download).toBe('report.pdf');

    await user.click(within(files).getByRole('button', { name: 'Delete report.pdf' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete the file?' });
    expect(within(confirm).getByText(/report\.pdf is removed from the ticket/)).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('No files attached.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });

  it('lists files without upload or delete for a user who may only view', async () => {
    stubApi({
      ...withAccess(['INCIDENT_VIEW']),
      ...incidentPanels,
      [`GET ${base}/incident/INC-7`]: {
        body: detail({
          files: [
            {
              id: 'f1',
              name: 'hosts.csv',
              contentType: 'text/csv',
              size: 120,
              createdBy: null,
              createdByName: null,
              createdOn: '2026-03-01T10:00:00.000Z',
            },
          ],
        }),
      },
    });
    renderApp(`/tickets/incident/INC-7?orgId=${HOME_ORG_ID}`);
    const files = await screen.findByRole('table', { name: 'Files' });
    expect(within(files).getByText('120 B')).toBeInTheDocument();
    expect(within(files).getByRole('button', { name: 'Download hosts.csv' })).toBeInTheDocument();
    expect(within(files).queryByRole('button', { name: 'Delete hosts.csv' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Choose files' })).not.toBeInTheDocument();
  });
});
