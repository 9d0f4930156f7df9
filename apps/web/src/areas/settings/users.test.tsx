import { screen, waitFor, within } from '@testing-library/react';
import type { User } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const withPermissions = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', { permissions, org: { isProvider: false } })),
});

const person = (overrides: Partial<User>): User => ({
  id: '00000000-0000-4000-8000-0000000000b1',
  firstName: 'Grace',
  lastName: 'Hopper',
  fullName: 'Grace Hopper',
  username: null,
  email: 'grace@bank.example',
  emails: [{ email: 'grace@bank.example' }],
  homeOrgId: HOME_ORG_ID,
  roleId: 'r-analyst',
  roleName: 'Client Analyst',
  active: true,
  google2faEnabled: false,
  jobDescriptorIds: [],
  contactNumbers: [],
  lastLoginAt: null,
  createdAt: '2025-01-01T00:00:00.000Z',
  ...overrides,
});

const role = (id: string, name: string, permissions: string[]) => ({
  id,
  name,
  description: '',
  permissions,
  shared: true,
  provider: false,
  hidden: false,
  deleted: false,
  userCount: 1,
});

describe('users page', () => {
  it('needs USER_VIEW', async () => {
    stubApi(withPermissions(['DASHBOARD_VIEW']));
    renderApp(`/settings/users?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('lists users with the range, sorts by a column and hides edit controls without USER_EDIT', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['USER_VIEW']),
      [`GET ${base}/users`]: { body: { items: [person({})], total: 1 } },
    });
    const { user } = renderApp(`/settings/users?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByText('1 - 1 of 1')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create user' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Grace Hopper' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Export CSV' })).toHaveAttribute(
      'href',
      `${base}/users-csv?active=ACTIVE&sortBy=name&desc=false`,
    );

    await user.click(screen.getByRole('button', { name: /E-mail/ }));
    await waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(
        `${base}/users?active=ACTIVE&sortBy=email&desc=false&pageSize=25&pageNumber=1`,
        expect.anything(),
      ),
    );
  });

  it('shows an empty state', async () => {
    stubApi({ ...withPermissions(['USER_VIEW']), [`GET ${base}/users`]: { body: { items: [], total: 0 } } });
    renderApp(`/settings/users?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No users')).toBeInTheDocument();
  });

  it('validates the create form and shows a taken e-mail beside the field', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['USER_VIEW', 'USER_EDIT', 'ASSET_VIEW']),
      [`GET ${base}/users`]: { body: { items: [], total: 0 } },
      [`GET ${base}/roles`]: {
        body: {
          items: [
            role('r-asset', 'Asset readers', ['ASSET_VIEW']),
            role('r-admin', 'Admins', ['USER_EDIT', 'RISK_EDIT']),
          ],
          total: 2,
        },
      },
      [`GET ${base}/job-descriptors`]: { body: { items: [], total: 0 } },
      [`POST ${base}/user`]: {
        status: 409,
        body: { ...apiError('USER_EMAIL_TAKEN', 'ConflictException'), field: 'email' },
      },
    });
    const { user } = renderApp(`/settings/users?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Create user' }));
    const drawer = await screen.findByRole('dialog', { name: 'Create user' });
    await user.click(within(drawer).getByRole('button', { name: 'Create user' }));
    expect(within(drawer).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(fetchMock).not.toHaveBeenCalledWith(`${base}/user`, expect.objectContaining({ method: 'POST' }));

    await user.type(within(drawer).getByRole('textbox', { name: 'E-mail' }), 'grace@bank.example');
    await user.type(within(drawer).getByRole('textbox', { name: 'First name' }), 'Grace');
    await user.type(within(drawer).getByRole('textbox', { name: 'Last name' }), 'Hopper');
    await user.click(within(drawer).getByRole('combobox', { name: 'Role' }));
    // A role holding more than the administrator is offered but cannot be chosen.
    expect(await screen.findByRole('option', { name: 'Admins' })).toHaveAttribute(
      'data-combobox-disabled',
      'true',
    );
    await user.click(screen.getByRole('option', { name: 'Asset readers' }));
    await user.click(within(drawer).getByRole('button', { name: 'Create user' }));

    expect(await within(drawer).findByText('This e-mail address is already in use.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/user` && init?.method === 'POST',
    );
    expect(JSON.parse(String(post?.[1]?.body))).toEqual({
      email: 'grace@bank.example',
      firstName: 'Grace',
      lastName: 'Hopper',
      roleId: 'r-asset',
      jobDescriptorIds: [],
    });
  });

  it('asks before deactivating a user', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['USER_VIEW', 'USER_EDIT']),
      [`GET ${base}/users`]: { body: { items: [person({})], total: 1 } },
      [`POST ${base}/user/${person({}).id}/deactivate`]: { body: person({ active: false }) },
    });
    const { user } = renderApp(`/settings/users?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Actions for Grace Hopper' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Deactivate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Grace Hopper?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));

    expect(await screen.findByText('The user has been deactivated.')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith(
      `${base}/user/${person({}).id}/deactivate`,
      expect.objectContaining({ method: 'POST' }),
    );
  });
});
