import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import {
  asset,
  base,
  daysAgoDate,
  daysAgoMidnight,
  requestBody,
  untracked,
  withPermissions,
} from './test-fixtures';

type FetchMock = ReturnType<typeof stubApi>;

/** The query parameters of every GET /assets/search so far. */
const searches = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) => String(url).startsWith(`${base}/assets/search?`) && (init?.method ?? 'GET') === 'GET',
    )
    .map(([url]) => new URL(String(url), 'http://localhost').searchParams);

const lastSearch = (fetchMock: FetchMock) => searches(fetchMock).at(-1);

describe('asset list', { timeout: 30_000 }, () => {
  it('needs ASSET_VIEW', async () => {
    stubApi(withPermissions([]));
    renderApp(`/assets?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('lists assets with importance dots, label links, tracking and the range, filtered by a label link', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/assets/search`]: { body: { items: [asset(), untracked()], total: 120 } },
    });
    renderApp(`/assets?orgId=${HOME_ORG_ID}&labels=Firewall`);

    const row = (await screen.findByText('Core firewall')).closest('tr')!;
    expect(within(row).getByRole('img', { name: 'Importance: High' })).toHaveAttribute('data-dots', '3');
    expect(within(row).getByRole('link', { name: 'Firewall' })).toHaveAttribute(
      'href',
      `/assets?labels=Firewall&orgId=${HOME_ORG_ID}`,
    );
    expect(within(row).getByText('Tracked')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Details of Core firewall' })).toHaveAttribute(
      'href',
      `/assets/${asset().id}?orgId=${HOME_ORG_ID}`,
    );
    const other = screen.getByText('host-10-0-0-9').closest('tr')!;
    expect(within(other).getByRole('img', { name: 'Importance: None' })).toHaveAttribute('data-dots', '0');
    expect(within(other).getByText('Untracked')).toBeInTheDocument();
    expect(screen.getByText('1 - 25 of 120')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Label' })).toHaveValue('Firewall');

    const params = lastSearch(fetchMock)!;
    expect(Object.fromEntries(params)).toEqual({
      label: 'Firewall',
      tracked: 'both',
      active: 'true',
      importance: 'all',
      lastSeenAfter: daysAgoMidnight(30),
      sortBy: 'name',
      desc: 'false',
      pageSize: '25',
      pageId: '0',
    });
    // Without ASSET_EDIT there is nothing to change.
    expect(screen.queryByRole('button', { name: 'Add asset' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete all results' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Upload CSV' })).not.toBeInTheDocument();
  });

  it('puts the filters in the request and the address', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/assets/search`]: { body: { items: [asset()], total: 1 } },
    });
    const { user, router } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);
    await screen.findByText('Core firewall');

    await user.click(screen.getByRole('radio', { name: 'Untracked' }));
    await waitFor(() => expect(lastSearch(fetchMock)?.get('tracked')).toBe('untracked'));
    await user.click(screen.getByRole('radio', { name: 'Deleted' }));
    await waitFor(() => expect(lastSearch(fetchMock)?.get('active')).toBe('false'));

    await user.click(screen.getByRole('combobox', { name: 'Importance' }));
    await user.click(await screen.findByRole('option', { name: 'High' }));
    await waitFor(() => expect(lastSearch(fetchMock)?.get('importance')).toBe('high'));

    await user.click(screen.getByRole('combobox', { name: 'Software' }));
    await user.click(await screen.findByRole('option', { name: 'OpenSSH' }));
    await user.click(await screen.findByRole('option', { name: 'nginx' }));
    await waitFor(() => expect(lastSearch(fetchMock)?.getAll('softwareNames')).toEqual(['OpenSSH', 'nginx']));

    await user.type(screen.getByRole('textbox', { name: 'Search assets' }), ' mail ');
    await waitFor(() => expect(lastSearch(fetchMock)?.get('query')).toBe('mail'));

    expect(router.state.location.search).toMatchObject({
      tracked: 'untracked',
      status: 'deleted',
      importance: 'high',
      softwareNames: ['OpenSSH', 'nginx'],
      query: 'mail',
    });
    // Clearing the default window lists assets whenever they were seen.
    const after = screen.getByLabelText('Last seen after');
    expect(after).toHaveValue(daysAgoDate(30));
    await user.clear(after);
    await waitFor(() => expect(lastSearch(fetchMock)?.has('lastSeenAfter')).toBe(false));
  });

  it('sorts by a column header, marking it with aria-sort', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/assets/search`]: { body: { items: [asset()], total: 1 } },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}`);
    await screen.findByText('Core firewall');

    const nameHeader = screen.getByRole('columnheader', { name: /Name/ });
    const lastSeenHeader = screen.getByRole('columnheader', { name: /Last seen/ });
    expect(nameHeader).toHaveAttribute('aria-sort', 'ascending');
    expect(lastSeenHeader).toHaveAttribute('aria-sort', 'none');

    await user.click(within(lastSeenHeader).getByRole('button'));
    await waitFor(() => expect(lastSearch(fetchMock)?.get('sortBy')).toBe('lastSeen'));
    expect(lastSearch(fetchMock)?.get('desc')).toBe('false');
    expect(screen.getByRole('columnheader', { name: /Last seen/ })).toHaveAttribute('aria-sort', 'ascending');
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');

    await user.click(within(screen.getByRole('columnheader', { name: /Last seen/ })).getByRole('button'));
    await waitFor(() => expect(lastSearch(fetchMock)?.get('desc')).toBe('true'));
    expect(screen.getByRole('columnheader', { name: /Last seen/ })).toHaveAttribute(
      'aria-sort',
      'descending',
    );
  });

  it('deletes every result after a confirmation stating the count, with the same filters', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['ASSET_VIEW', 'ASSET_EDIT']),
      [`GET ${base}/assets/search`]: { body: { items: [asset()], total: 123 } },
      [`DELETE ${base}/assets/search`]: { body: { deleted: 123 } },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}&labels=Firewall&importance=high`);
    await screen.findByText('Core firewall');

    await user.click(screen.getByRole('button', { name: 'Delete all results' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete 123 assets?' });
    expect(fetchMock).not.toHaveBeenCalledWith(
      expect.anything(),
      expect.objectContaining({ method: 'DELETE' }),
    );
    await user.click(within(dialog).getByRole('button', { name: 'Delete assets' }));

    expect(await screen.findByText('123 assets have been deleted.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    const url = new URL(String(call?.[0]), 'http://localhost');
    expect(url.pathname).toBe(`${base}/assets/search`);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      label: 'Firewall',
      tracked: 'both',
      active: 'true',
      importance: 'high',
      lastSeenAfter: daysAgoMidnight(30),
    });
  });

  it('exports the current search as a CSV file', async () => {
    const createObjectURL = vi.fn(() => 'blob:assets');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetchMock = stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/assets/search`]: { body: { items: [asset()], total: 1 } },
      [`POST ${base}/assets/search`]: { body: 'name,importance\nCore firewall,high\n' },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}&tracked=tracked&sortBy=owner&desc=true`);
    await screen.findByText('Core firewall');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));

    await waitFor(() => expect(click).toHaveBeenCalled());
    const anchor = click.mock.contexts.at(-1) as HTMLAnchorElement;
    expect(anchor.download).toBe('assets.csv');
    expect(anchor.href).toBe('blob:assets');
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(post?.[0]).toBe(`${base}/assets/search`);
    expect(requestBody(post?.[1])).toEqual({
      tracked: 'tracked',
      active: true,
      importance: 'all',
      lastSeenAfter: daysAgoMidnight(30),
      sortBy: 'owner',
      desc: true,
    });
    click.mockRestore();
  });

  it('says when nothing matches, differently when filtered, and names assets that stopped sending data', async () => {
    stubApi({
      ...withPermissions(['ASSET_VIEW', 'ASSET_EDIT']),
      [`GET ${base}/assets/search`]: { body: { items: [], total: 0 } },
      [`GET ${base}/assets/down`]: {
        body: {
          items: ['Core switch', 'Mail gateway', 'VPN concentrator', 'Branch router'].map((name, index) => ({
            id: `00000000-0000-4000-8000-00000000d00${index}`,
            name,
            importance: 'high',
            tracked: true,
            dataLastSent: null,
          })),
          total: 6,
        },
      },
    });
    renderApp(`/assets?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('No assets seen recently')).toBeInTheDocument();
    const notice = screen
      .getByText('6 high-importance assets are not sending data')
      .closest<HTMLElement>('[role="alert"]')!;
    expect(
      within(notice)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Core switch', 'Mail gateway', 'VPN concentrator']);
    expect(notice).toHaveTextContent('and 3 more');
    expect(screen.getByRole('button', { name: 'Delete all results' })).toBeDisabled();
    expect(screen.getByRole('link', { name: 'Upload CSV' })).toHaveAttribute(
      'href',
      `/asset-upload?orgId=${HOME_ORG_ID}`,
    );
  });

  it('shows the filtered empty state and a failed load with a retry', async () => {
    let fail = true;
    stubApi({
      ...withPermissions(['ASSET_VIEW']),
      [`GET ${base}/assets/search`]: () =>
        fail
          ? {
              status: 403,
              body: { type: 'AccessDeniedException', key: 'PERMISSION_DENIED', message: '', errorId: 'e' },
            }
          : { body: { items: [], total: 0 } },
    });
    const { user } = renderApp(`/assets?orgId=${HOME_ORG_ID}&tracked=untracked`);

    expect(await screen.findByText('The assets could not be loaded.')).toBeInTheDocument();
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No matching assets')).toBeInTheDocument();
  });
});
