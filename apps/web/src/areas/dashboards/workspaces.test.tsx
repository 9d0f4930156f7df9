import { screen, waitFor, within } from '@testing-library/react';
import type { Workspace } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { dashboardAccess } from './test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const id = (n: number) => `00000000-0000-4000-8000-00000000030${n}`;

const workspace = (n: number, name: string, overrides: Partial<Workspace> = {}): Workspace => ({
  id: id(n),
  orgId: HOME_ORG_ID,
  name,
  description: '',
  dashboards: [{ id: id(8), name: 'Security operations' }],
  ownerId: id(7),
  ownerName: 'Avery Admin',
  sharing: 'NOBODY',
  sharedUsers: [],
  editableByOthers: false,
  premiumOnly: false,
  library: false,
  copyToCustomers: false,
  copiedFromId: null,
  editable: true,
  owned: true,
  labels: ['PERSONAL', 'EDITOR'],
  lastModifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const withAccess = dashboardAccess;

const list = (...items: Workspace[]) => ({ body: { items, total: items.length } });

describe('workspaces', () => {
  it('shows tiles with their labels and dashboards, and the same in the list view', async () => {
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/workspaces`]: list(
        workspace(1, 'My notes'),
        workspace(2, 'Shift handover', {
          owned: false,
          editable: false,
          ownerName: 'Sam Lead',
          sharing: 'USERS',
          labels: ['SHARED_WITH_ME', 'VIEWER'],
        }),
      ),
    });
    const { user } = renderApp(`/dashboards/workspace-tiles?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Workspaces' })).toBeInTheDocument();
    const mine = await screen.findByRole('article', { name: 'My notes' });
    expect(within(mine).getByText('Personal')).toBeInTheDocument();
    expect(within(mine).getByText('Editor')).toBeInTheDocument();
    expect(within(mine).getByRole('link', { name: 'Security operations' })).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: 'Edit My notes' })).toBeInTheDocument();

    const shared = screen.getByRole('article', { name: 'Shift handover' });
    expect(within(shared).getByText('Shared with me')).toBeInTheDocument();
    expect(within(shared).getByText('Viewer')).toBeInTheDocument();
    expect(within(shared).getByText('Owner: Sam Lead')).toBeInTheDocument();
    expect(within(shared).queryByRole('button', { name: /Edit|Delete/ })).not.toBeInTheDocument();

    await user.click(screen.getByText('List'));
    const row = await screen.findByRole('row', { name: /Shift handover/ });
    expect(within(row).getByText('Sam Lead')).toBeInTheDocument();
    expect(within(row).getByText('Viewer')).toBeInTheDocument();
  });

  it('shares a new workspace with chosen users, view-only', async () => {
    let created: Record<string, unknown> | undefined;
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/workspaces`]: list(),
      [`GET ${base}/dashboards`]: {
        body: {
          items: [
            {
              id: id(8),
              orgId: HOME_ORG_ID,
              name: 'Security operations',
              description: '',
              chartsPerRow: 3,
              intervalType: '24H',
              refreshSeconds: 0,
              type: 'NORMAL',
              copiedFromId: null,
              state: 'ACTIVE',
              editable: true,
              isDefault: false,
              createdByName: null,
              lastModifiedOn: '2026-03-01T09:00:00.000Z',
              chartCount: 2,
            },
          ],
          total: 1,
        },
      },
      [`GET ${base}/workspaces/people`]: { body: { items: [{ id: id(6), name: 'Alex Analyst' }] } },
      [`POST ${base}/workspace`]: ({ init }) => {
        created = JSON.parse(String(init?.body));
        return { status: 201, body: workspace(3, 'Shift handover', { sharing: 'USERS' }) };
      },
    });
    const { user } = renderApp(`/dashboards/workspace-tiles?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText(/No workspaces yet/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New workspace' }));
    const dialog = await screen.findByRole('dialog', { name: 'New workspace' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Shift handover');
    await user.click(within(dialog).getByRole('combobox', { name: 'Dashboards' }));
    await user.click(await screen.findByRole('option', { name: 'Security operations' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Shared with' }));
    await user.click(await screen.findByRole('option', { name: 'Specific users' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Users it is shared with' }));
    await user.click(await screen.findByRole('option', { name: 'Alex Analyst' }));
    expect(within(dialog).getByRole('checkbox', { name: /Others may edit it/ })).not.toBeChecked();
    // No Reporting Premium: no premium-only choice.
    expect(within(dialog).queryByRole('checkbox', { name: /Premium only/ })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      name: 'Shift handover',
      dashboardIds: [id(8)],
      sharing: 'USERS',
      sharedUserIds: [id(6)],
      editableByOthers: false,
      library: false,
    });
  });

  it('shows the workspace permission error when a change is refused', async () => {
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/workspaces`]: list(
        workspace(1, 'Team board', { owned: false, labels: ['PUBLIC', 'EDITOR'] }),
      ),
      [`GET ${base}/dashboards`]: list(),
      [`PUT ${base}/workspace/${id(1)}`]: { status: 403, body: apiError('WORKSPACE_PERMISSION_DENIED') },
    });
    const { user } = renderApp(`/dashboards/workspace-tiles?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Team board' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit workspace' });
    // Only the owner decides who sees it.
    expect(within(dialog).queryByRole('combobox', { name: 'Shared with' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/You do not have permission to change this workspace/),
    ).toBeInTheDocument();
  });

  it('shows the library with Default and Premium Only, and copies it to customers for provider admins', async () => {
    let copied = false;
    stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'TRAC_ADMIN'], true),
      [`GET ${base}/workspaces`]: list(
        workspace(4, 'Fraud analytics', {
          library: true,
          orgId: null,
          ownerId: null,
          ownerName: null,
          copyToCustomers: true,
          premiumOnly: true,
          owned: false,
          labels: ['EDITOR', 'DEFAULT', 'PREMIUM_ONLY'],
        }),
      ),
      [`POST ${base}/workspaces/library/copy-to-customers`]: () => {
        copied = true;
        return { body: { copied: 2, skipped: 1, orgs: 3 } };
      },
    });
    const { user } = renderApp(`/dashboards/library/workspace-tiles?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Workspace library' })).toBeInTheDocument();
    const card = await screen.findByRole('article', { name: 'Fraud analytics' });
    expect(within(card).getByText('Default')).toBeInTheDocument();
    expect(within(card).getByText('Premium Only')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy to customers' }));
    expect(
      await screen.findByText('2 workspace copies made, 1 skipped, across 3 organisations.'),
    ).toBeInTheDocument();
    expect(copied).toBe(true);
  });
});
