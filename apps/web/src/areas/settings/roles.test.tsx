import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { brokenDependencies, codesOf, levelsOf } from './role-form';

const base = `/api/org/${HOME_ORG_ID}`;
const withPermissions = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions, org: { isProvider: false } })),
});

const role = (overrides: object) => ({
  id: 'r1',
  name: 'Client Analyst',
  description: 'Shared analyst role',
  permissions: ['EVENT_VIEW'],
  shared: true,
  provider: false,
  hidden: false,
  deleted: false,
  userCount: 2,
  ...overrides,
});

describe('the permission matrix', () => {
  it('reads and writes levels, keeping codes that are not areas', () => {
    const levels = levelsOf(['EVENT_EDIT', 'ASSET_VIEW', 'TRAC_USER']);
    expect(levels).toMatchObject({ EVENT: 'EDIT', ASSET: 'VIEW', REPORT: 'NONE' });
    expect(
      codesOf({ ...levels, ASSET: 'NONE', RISK: 'VIEW' }, ['EVENT_EDIT', 'ASSET_VIEW', 'TRAC_USER']),
    ).toEqual(['EVENT_EDIT', 'RISK_VIEW', 'TRAC_USER']);
  });

  it('names broken dependencies', () => {
    expect(brokenDependencies(['DASHBOARD_VIEW']).map((dep) => [dep.kind, dep.needs])).toEqual([
      ['requires', 'EVENT_VIEW'],
    ]);
    expect(brokenDependencies(['DASHBOARD_VIEW', 'EVENT_VIEW'])).toEqual([]);
  });
});

describe('roles page', () => {
  it('shows shared roles read-only and custom ones editable', async () => {
    stubApi({
      ...withPermissions(['USER_VIEW', 'USER_EDIT', 'EVENT_EDIT', 'EVENT_VIEW']),
      [`GET ${base}/roles`]: {
        body: {
          items: [role({}), role({ id: 'r2', name: 'Fraud desk', shared: false, userCount: 0 })],
          total: 2,
        },
      },
    });
    renderApp(`/settings/roles?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('button', { name: 'View Client Analyst' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Client Analyst' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Edit Fraud desk' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete Fraud desk' })).toBeInTheDocument();
  });

  it('creates a role from the matrix, warning about a required dependency', async () => {
    const fetchMock = stubApi({
      ...withPermissions([
        'USER_VIEW',
        'USER_EDIT',
        'EVENT_EDIT',
        'EVENT_VIEW',
        'DASHBOARD_EDIT',
        'DASHBOARD_VIEW',
      ]),
      [`GET ${base}/roles`]: { body: { items: [role({})], total: 1 } },
      [`POST ${base}/role/custom`]: {
        status: 201,
        body: role({ id: 'r3', name: 'Dashboards', shared: false }),
      },
    });
    const { user } = renderApp(`/settings/roles?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Create role' }));
    const drawer = await screen.findByRole('dialog', { name: 'Create role' });
    await user.type(within(drawer).getByRole('textbox', { name: 'Name' }), 'Dashboards');
    const dashboards = within(drawer).getByRole('radiogroup', { name: 'Dashboards' });
    await user.click(within(dashboards).getByRole('radio', { name: 'Read Only' }));
    expect(
      within(drawer).getByText('Dashboards (Read Only) requires Event Search (Read Only).'),
    ).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: 'Create role' })).toBeDisabled();
    // Areas the administrator does not hold cannot be granted.
    expect(
      within(within(drawer).getByRole('radiogroup', { name: 'Risk' })).getByRole('radio', {
        name: 'Read Only',
      }),
    ).toBeDisabled();

    await user.click(
      within(within(drawer).getByRole('radiogroup', { name: 'Event Search' })).getByRole('radio', {
        name: 'Read Only',
      }),
    );
    await user.click(within(drawer).getByRole('button', { name: 'Create role' }));

    expect(await screen.findByText('The role has been created.')).toBeInTheDocument();
    await waitFor(() => {
      const post = fetchMock.mock.calls.find(([url]) => url === `${base}/role/custom`);
      expect(JSON.parse(String(post?.[1]?.body))).toEqual({
        name: 'Dashboards',
        description: '',
        permissions: ['EVENT_VIEW', 'DASHBOARD_VIEW'],
      });
    });
  });

  it('asks for a target role when deleting a role in use', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['USER_VIEW', 'USER_EDIT', 'EVENT_EDIT', 'EVENT_VIEW']),
      [`GET ${base}/roles`]: {
        body: {
          items: [role({}), role({ id: 'r2', name: 'Fraud desk', shared: false, userCount: 3 })],
          total: 2,
        },
      },
      [`DELETE ${base}/role/custom/r2`]: { status: 204 },
    });
    const { user } = renderApp(`/settings/roles?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Delete Fraud desk' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Fraud desk?' });
    expect(
      within(dialog).getByText('3 users hold this role. Choose the role they move to.'),
    ).toBeInTheDocument();
    const confirm = within(dialog).getByRole('button', { name: 'Delete' });
    expect(confirm).toBeDisabled();
    await user.click(within(dialog).getByRole('combobox', { name: 'Move its users to' }));
    await user.click(await screen.findByRole('option', { name: 'Client Analyst' }));
    await user.click(confirm);

    expect(await screen.findByText('The role has been deleted.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `${base}/role/custom/r2?targetRoleId=r1`,
      expect.objectContaining({ method: 'DELETE' }),
    );
  });
});
