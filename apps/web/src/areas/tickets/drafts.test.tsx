import { screen, waitFor, within } from '@testing-library/react';
import { resolveFeatureFlags, type TicketDraft } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
} from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { ticket } from './test-fixtures';

const draft = (overrides: Partial<TicketDraft>): TicketDraft => ({
  id: 'd1',
  orgId: CLIENT_ORG_ID,
  orgName: 'Alpha Bank',
  kind: 'incident',
  title: 'Card skimmer at the ATM',
  description: 'Found this morning',
  ownerId: null,
  watcherIds: [],
  dueDate: null,
  slaDate: null,
  externalId: null,
  version: 2,
  createdBy: null,
  createdByName: 'Ada Lane',
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T10:00:00.000Z',
  ...overrides,
});

const routes = (permissions: string[], inbox = true) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      features: resolveFeatureFlags({ universalTicketInbox: inbox }),
    }),
  ),
});

const PAGE = `/universal-ticket-inbox/draft?orgId=${HOME_ORG_ID}`;
const client = `/api/org/${CLIENT_ORG_ID}`;

describe('global drafts', () => {
  it('lists drafts with their organisation, edits one, submits one and deletes one after confirming', async () => {
    const items = [
      draft({}),
      draft({
        id: 'd2',
        orgId: HOME_ORG_ID,
        orgName: 'Provider',
        kind: 'task',
        title: 'Rotate keys',
        version: 1,
      }),
    ];
    const fetchMock = stubApi({
      ...routes(['TRAC_ENGINEER', 'INCIDENT_EDIT', 'TASK_EDIT']),
      [`GET ${base}/universal-inbox/drafts`]: {
        body: {
          items,
          total: 2,
          orgs: [
            { id: CLIENT_ORG_ID, name: 'Alpha Bank' },
            { id: HOME_ORG_ID, name: 'Provider' },
          ],
        },
      },
      [`GET ${client}/user/summary`]: { body: [] },
      [`PUT ${client}/ticket-draft/d1`]: { body: draft({ title: 'Card skimmer at ATM 4', version: 3 }) },
      [`POST ${base}/ticket-draft/d2/submit`]: {
        status: 201,
        body: {
          ...ticket({ kind: 'task', slug: 'TASK-8', title: 'Rotate keys', state: 'OPEN' }),
          parent: null,
          watchers: [],
          links: [],
          subtasks: [],
          comments: [],
          history: [],
          files: [],
        },
      },
      [`DELETE ${client}/ticket-draft/d1`]: { status: 204 },
    });
    const { user } = renderApp(PAGE);
    const table = await screen.findByRole('table');
    const skimmer = within(table).getByText('Card skimmer at the ATM').closest('tr')!;
    expect(within(skimmer).getByText('Alpha Bank')).toBeInTheDocument();
    expect(within(skimmer).getByText('Incident')).toBeInTheDocument();
    expect(within(skimmer).getByText('Ada Lane')).toBeInTheDocument();

    // Opened from the list, edited and saved with the version read.
    await user.click(within(skimmer).getByRole('button', { name: 'Card skimmer at the ATM' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit ticket draft' });
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await user.clear(title);
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    expect(within(dialog).getByText('A ticket needs a title.')).toBeInTheDocument();
    await user.type(title, 'Card skimmer at ATM 4');
    await user.click(within(dialog).getByRole('button', { name: 'Save draft' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit ticket draft' })).not.toBeInTheDocument(),
    );
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(requestBody(put?.[1])).toMatchObject({
      version: 2,
      kind: 'incident',
      title: 'Card skimmer at ATM 4',
    });

    await user.click(within(table).getByRole('button', { name: 'Submit Rotate keys' }));
    expect(await screen.findByText('Submitted as TASK-8 in Provider.')).toBeInTheDocument();
    const submit = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/submit'));
    expect(requestBody(submit?.[1])).toEqual({ version: 1 });

    await user.click(within(table).getByRole('button', { name: 'Delete Card skimmer at the ATM' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete draft' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true),
    );
  });

  it('is refused to those who are not engineers', async () => {
    stubApi({ ...routes(['INCIDENT_VIEW']) });
    renderApp(PAGE);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });
});
