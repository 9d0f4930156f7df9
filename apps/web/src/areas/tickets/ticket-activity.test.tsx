import { screen, waitFor, within } from '@testing-library/react';
import type { ActivityNote, TicketDetail, TicketSearch } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { ticket } from './test-fixtures';

const detail: TicketDetail = {
  ...ticket({ kind: 'task', slug: 'TASK-3', title: 'Rotate keys', state: 'OPEN' }),
  parent: null,
  watchers: [],
  links: [],
  subtasks: [],
  comments: [],
  files: [],
  history: [],
};

const routes = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
  [`GET ${base}/task/TASK-3`]: { body: detail },
  [`GET ${base}/user/summary`]: { body: [] },
});

const note = (overrides: Partial<ActivityNote>): ActivityNote => ({
  id: 'n1',
  parentId: null,
  logType: 'INVESTIGATION',
  body: 'Keys found in the old vault',
  authorId: 'u1',
  authorName: 'Nora Quinn',
  createdOn: '2026-03-01T10:00:00.000Z',
  replies: [],
  ...overrides,
});

const search: TicketSearch = {
  id: 's1',
  query: 'host:vault-01',
  begin: '2026-03-01T00:00:00.000Z',
  end: '2026-03-02T00:00:00.000Z',
  total: 240,
  events: [
    {
      id: 'e1',
      timestamp: '2026-03-01T09:00:00.000Z',
      receivedAt: '2026-03-01T09:00:01.000Z',
      host: 'vault-01',
      srcIp: null,
      dstIp: null,
      userName: null,
      dataSource: 'vault',
      message: 'key exported',
      fields: {},
    },
  ],
  hiddenCount: 99,
  createdBy: 'u1',
  createdByName: 'Nora Quinn',
  createdOn: '2026-03-01T10:00:00.000Z',
};

describe('the activity log and searches of a ticket', () => {
  it('adds a note with its log type and replies to a note', async () => {
    let timeline = [note({})];
    const fetchMock = stubApi({
      ...routes(['TASK_VIEW', 'TASK_EDIT', 'EVENT_VIEW']),
      [`GET ${base}/task/TASK-3/searches`]: { body: [search] },
      [`GET ${base}/task/TASK-3/notes`]: () => ({ body: timeline }),
      [`POST ${base}/task/TASK-3/notes`]: ({ init }) => {
        const body = requestBody(init) as {
          body: string;
          logType: ActivityNote['logType'];
          parentId: string | null;
        };
        const added = note({ id: `n${Date.now()}`, ...body, authorName: 'Ivan Petrov' });
        timeline = body.parentId
          ? timeline.map((entry) =>
              entry.id === body.parentId ? { ...entry, replies: [...entry.replies, added] } : entry,
            )
          : [added, ...timeline];
        return { status: 201, body: timeline };
      },
    });
    const { user } = renderApp(`/tickets/task/TASK-3?orgId=${HOME_ORG_ID}`);
    const log = await screen.findByLabelText('Activity log');
    expect(await within(log).findByText('Keys found in the old vault')).toBeInTheDocument();
    expect(within(log).getByText('Investigation')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Add note' })).toBeDisabled();
    await user.click(screen.getByRole('combobox', { name: 'Log type' }));
    await user.click(await screen.findByRole('option', { name: 'Remediation' }));
    await user.type(screen.getByRole('textbox', { name: 'New note' }), 'Rotated the signing key');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await within(log).findByText('Rotated the signing key')).toBeInTheDocument();
    const posts = () => fetchMock.mock.calls.filter(([, init]) => init?.method === 'POST');
    expect(requestBody(posts()[0]?.[1])).toEqual({
      body: 'Rotated the signing key',
      logType: 'REMEDIATION',
      parentId: null,
    });

    const [, first] = within(log).getAllByRole('button', { name: 'Reply' });
    await user.click(first!);
    await user.type(within(log).getByRole('textbox', { name: 'Reply' }), 'Which vault?');
    await user.click(within(log).getByRole('button', { name: 'Send reply' }));
    const replies = await within(log).findByRole('list', { name: /Replies to Keys found/ });
    expect(within(replies).getByText('Which vault?')).toBeInTheDocument();
    expect(requestBody(posts()[1]?.[1])).toEqual({ body: 'Which vault?', logType: 'NOTE', parentId: 'n1' });

    // The attached search shows its kept events and what the viewer's restrictions hide.
    expect(screen.getByText('host:vault-01')).toBeInTheDocument();
    expect(screen.getByText('key exported')).toBeInTheDocument();
    expect(screen.getByText('99 kept events are hidden by your data restrictions.')).toBeInTheDocument();
  });

  it('shows notes read-only, and no searches without the event permission', async () => {
    stubApi({
      ...routes(['TASK_VIEW']),
      [`GET ${base}/task/TASK-3/notes`]: { body: [note({})] },
    });
    renderApp(`/tickets/task/TASK-3?orgId=${HOME_ORG_ID}`);
    const log = await screen.findByLabelText('Activity log');
    await within(log).findByText('Keys found in the old vault');
    expect(screen.queryByRole('textbox', { name: 'New note' })).not.toBeInTheDocument();
    expect(within(log).queryByRole('button', { name: 'Reply' })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(
        screen.getByText('Searches show events: they need the Event Search permission.'),
      ).toBeInTheDocument(),
    );
  });
});
