import { screen, waitFor, within } from '@testing-library/react';
import type { SavedQuery } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, requestBody, withPermissions } from '../assets/test-fixtures';

const savedQuery = (overrides: Partial<SavedQuery> = {}): SavedQuery => ({
  id: 'q1',
  orgId: HOME_ORG_ID,
  name: 'Failed logins',
  description: 'Brute force attempts',
  query: 'action:login AND outcome:failure',
  aggregation: null,
  primaryField: null,
  library: false,
  editable: true,
  createdBy: 'u1',
  createdByName: 'Grace Hopper',
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const library = savedQuery({
  id: 'q2',
  orgId: null,
  name: 'Malware seen',
  description: '',
  query: 'event_type:malware',
  library: true,
  editable: false,
});

const searchRoutes = {
  [`POST ${base}/search`]: { body: { items: [], total: 0, totalIsLowerBound: false, begin: '', end: '' } },
  [`POST ${base}/search/aggregate`]: {
    body: { type: 'date_histogram', field: null, buckets: [], interval: '1h', begin: '', end: '' },
  },
  [`GET ${base}/search/fields`]: { body: { fields: [], sampleSize: 0 } },
};

describe('saved queries page', () => {
  it('lists saved and library queries, opens one in search, and deletes after confirming', async () => {
    let items = [savedQuery(), library];
    const fetchMock = stubApi({
      ...withPermissions(['EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT']),
      ...searchRoutes,
      [`GET ${base}/saved-queries`]: () => ({ body: { items, total: items.length } }),
      [`DELETE ${base}/saved-query/q1`]: () => {
        items = items.filter((item) => item.id !== 'q1');
        return { status: 204 };
      },
    });
    const { user, router } = renderApp(`/search/saved?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Failed logins')).toBeInTheDocument();
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    expect(within(row('Failed logins')).getByText('action:login AND outcome:failure')).toBeInTheDocument();
    expect(within(row('Malware seen')).getByText('Library')).toBeInTheDocument();
    expect(within(row('Failed logins')).queryByText('Library')).not.toBeInTheDocument();
    // Library queries are not editable here.
    expect(screen.queryByRole('button', { name: 'Edit Malware seen' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Malware seen' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Delete Failed logins' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Failed logins')).not.toBeInTheDocument());
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => String(url).endsWith('/saved-query/q1') && init?.method === 'DELETE',
      ),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Open Malware seen in search' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/search'));
    expect(router.state.location.search).toMatchObject({ query: 'event_type:malware' });
  });
});

describe('save query dialog', () => {
  it('opens from the search page with the current query and shows a taken name beside the field', async () => {
    const posted: Record<string, unknown>[] = [];
    stubApi({
      ...withPermissions(['EVENT_VIEW', 'SAVED_SEARCH_VIEW', 'SAVED_SEARCH_EDIT']),
      ...searchRoutes,
      [`POST ${base}/saved-query`]: ({ init }) => {
        const body = requestBody(init);
        posted.push(body);
        if (body.name === 'Taken')
          return { status: 409, body: apiError('SAVED_QUERY_NAME_TAKEN', 'ConflictException') };
        return { status: 201, body: savedQuery({ name: String(body.name), query: String(body.query) }) };
      },
    });
    const { user } = renderApp(`/search?orgId=${HOME_ORG_ID}&query=${encodeURIComponent('host:fw01')}`);

    await user.click(await screen.findByRole('button', { name: 'Save query' }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByLabelText(/^Query/)).toHaveValue('host:fw01');

    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('This field is required.', { exact: false })).toBeInTheDocument();
    expect(posted).toHaveLength(0);

    await user.type(within(dialog).getByLabelText(/^Name/), 'Taken');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A saved query named Taken already exists.')).toBeInTheDocument();

    await user.clear(within(dialog).getByLabelText(/^Name/));
    await user.type(within(dialog).getByLabelText(/^Name/), 'Firewall 1');
    await user.type(within(dialog).getByLabelText(/^Description/), 'Edge firewall');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(posted.at(-1)).toEqual({
      name: 'Firewall 1',
      description: 'Edge firewall',
      query: 'host:fw01',
      aggregation: null,
      primaryField: null,
    });
  });
});
