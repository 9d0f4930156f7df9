import { screen, within } from '@testing-library/react';
import type { DataRestriction } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const org = `/api/org/${HOME_ORG_ID}`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;
const ANALYST_ID = '00000000-0000-4000-8000-0000000000b1';

const payroll: DataRestriction = {
  id: 'r1',
  name: 'No payroll events',
  includeQuery: null,
  excludeQuery: 'source:payroll',
  users: [{ id: ANALYST_ID, fullName: 'Jordan Reyes' }],
  orgs: [],
  createdAt: '2026-03-01T09:00:00.000Z',
  updatedAt: '2026-03-01T09:00:00.000Z',
  deletedAt: null,
};

const routes = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

describe('data restrictions page', () => {
  it('validates the queries as they are typed and saves the restriction with its users', async () => {
    let items = [payroll];
    const fetchMock = stubApi({
      ...routes(['DATA_RESTRICTION_VIEW', 'DATA_RESTRICTION_EDIT']),
      [`GET ${org}/data-restrictions`]: () => ({ body: { items, total: items.length } }),
      [`GET ${org}/user/summary`]: {
        body: [
          { id: ANALYST_ID, fullName: 'Jordan Reyes', active: true, roleId: 'r', homeOrgId: HOME_ORG_ID },
        ],
      },
      [`POST ${org}/data-restriction`]: ({ init }) => {
        const created = { ...payroll, id: 'r2', ...body(init), users: [], orgs: [] } as DataRestriction;
        items = [...items, created];
        return { status: 201, body: created };
      },
    });
    const { user } = renderApp(`/settings/data-restrictions?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('No payroll events')).toBeInTheDocument();
    expect(screen.getByText('Jordan Reyes')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New data restriction' }));
    const dialog = await screen.findByRole('dialog', { name: 'New data restriction' });

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter an include query, an exclude query or both.')).toBeInTheDocument();

    const include = within(dialog).getByRole('textbox', { name: 'Include query' });
    await user.type(include, '(source:cards');
    expect(within(dialog).getByText(/^Invalid query: The query ends too early/)).toBeInTheDocument();
    await user.type(include, ')');
    expect(within(dialog).queryByText(/^Invalid query/)).not.toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Cards only');
    await user.click(within(dialog).getByRole('combobox', { name: 'Users' }));
    await user.click(await screen.findByRole('option', { name: 'Jordan Reyes' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Cards only')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${org}/data-restriction` && init?.method === 'POST',
    );
    expect(body(post?.[1])).toEqual({
      name: 'Cards only',
      includeQuery: '(source:cards)',
      excludeQuery: null,
      userIds: [ANALYST_ID],
      orgIds: [],
    });
  });

  it('keeps the chosen users when the list of people cannot be loaded', async () => {
    stubApi({
      ...routes(['DATA_RESTRICTION_VIEW', 'DATA_RESTRICTION_EDIT']),
      [`GET ${org}/data-restrictions`]: { body: { items: [payroll], total: 1 } },
    });
    const { user } = renderApp(`/settings/data-restrictions?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit No payroll events' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit data restriction' });
    expect(
      await within(dialog).findByText(
        'The list of people could not be loaded; users already chosen are kept.',
      ),
    ).toBeInTheDocument();
    expect(within(dialog).getAllByText('Jordan Reyes')).not.toHaveLength(0);
  });

  it('hides edit controls without DATA_RESTRICTION_EDIT and offers deleted ones to restore for editors', async () => {
    stubApi({
      ...routes(['DATA_RESTRICTION_VIEW']),
      [`GET ${org}/data-restrictions`]: { body: { items: [payroll], total: 1 } },
    });
    renderApp(`/settings/data-restrictions?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No payroll events')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New data restriction' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete No payroll events' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Users restricted by No payroll events' })).toBeInTheDocument();
  });
});
