import { screen, waitFor, within } from '@testing-library/react';
import type { ProductSku, Watchlist } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const watchlist = (overrides: Partial<Watchlist> = {}): Watchlist => ({
  id: 'w1',
  domain: 'security',
  name: 'Privileged accounts',
  description: 'Service and admin accounts',
  field: 'user_name',
  itemCount: 3,
  nearLimit: false,
  createdBy: 'u1',
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const withAccess = (permissions: string[], productSkus: ProductSku[] = []) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', ...permissions],
      org: { productSkus },
    }),
  ),
});

const EDIT = ['THREATMATCH_VIEW', 'THREATMATCH_EDIT'];

describe('watchlists page', () => {
  it('lists watchlists, creates one with its values, and deletes after confirming', async () => {
    let items = [watchlist(), watchlist({ id: 'w2', name: 'Card BINs', itemCount: 29_000, nearLimit: true })];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/watchlists`]: () => ({ body: { items, total: items.length } }),
      [`POST ${base}/watchlist`]: ({ init }) => {
        const created = watchlist({ id: 'w3', name: String(requestBody(init).name), itemCount: 2 });
        items = [...items, created];
        return { status: 201, body: created };
      },
      [`DELETE ${base}/watchlist/w1`]: () => {
        items = items.filter((item) => item.id !== 'w1');
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/watchlists?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Privileged accounts')).toBeInTheDocument();
    const row = (name: string) => screen.getByText(name).closest('tr')!;
    expect(within(row('Privileged accounts')).getByText('user_name')).toBeInTheDocument();
    expect(within(row('Card BINs')).getByLabelText('Near the item limit')).toBeInTheDocument();
    expect(
      within(row('Privileged accounts')).queryByLabelText('Near the item limit'),
    ).not.toBeInTheDocument();
    const listCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith(`${base}/watchlists?`));
    expect(String(listCall?.[0])).toContain('domain=security');

    await user.click(screen.getByRole('button', { name: 'New watchlist' }));
    const dialog = await screen.findByRole('dialog', { name: 'New watchlist' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('A watchlist needs at least one value.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Admins');
    await user.type(within(dialog).getByRole('combobox', { name: 'Field' }), 'user_name');
    await user.type(
      within(dialog).getByRole('textbox', { name: 'Values' }),
      'root{Enter}{Enter} admin {Enter}',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Admins')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/watchlist` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toEqual({
      name: 'Admins',
      description: '',
      field: 'user_name',
      domain: 'security',
      items: ['root', 'admin'],
    });

    await user.click(screen.getByRole('button', { name: 'Delete Privileged accounts' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete watchlist' });
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Privileged accounts')).not.toBeInTheDocument());
  });

  it('shows a taken name beside the field', async () => {
    stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/watchlists`]: { body: { items: [], total: 0 } },
      [`POST ${base}/watchlist`]: {
        status: 409,
        body: { ...apiError('WATCHLIST_NAME_TAKEN', 'ConflictException'), params: { name: 'Admins' } },
      },
    });
    const { user } = renderApp(`/watchlists?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No watchlists yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New watchlist' }));
    const dialog = await screen.findByRole('dialog', { name: 'New watchlist' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Admins');
    await user.type(within(dialog).getByRole('combobox', { name: 'Field' }), 'user_name');
    await user.type(within(dialog).getByRole('textbox', { name: 'Values' }), 'root');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('A watchlist named Admins already exists.')).toBeInTheDocument();
  });

  it('shows values, removes one after confirming, and names the file of a refused upload', async () => {
    const full = watchlist({ itemCount: 29_500, nearLimit: true });
    let values = ['admin', 'root', 'svc_backup'];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/watchlists`]: { body: { items: [full], total: 1 } },
      [`GET ${base}/watchlist/w1`]: { body: full },
      [`GET ${base}/watchlist/w1/items`]: () => ({ body: { items: values, total: values.length } }),
      [`DELETE ${base}/watchlist/w1/items`]: ({ init }) => {
        const removed = (requestBody(init).values as string[])[0];
        values = values.filter((value) => value !== removed);
        return { body: full };
      },
      [`POST ${base}/watchlist/w1/upload`]: {
        status: 400,
        body: { ...apiError('WATCHLIST_TOO_MANY_ITEMS'), params: { max: 30000, overflow: 12 } },
      },
    });
    const { user } = renderApp(`/watchlists?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open Privileged accounts' }));
    const drawer = await screen.findByRole('dialog', { name: 'Privileged accounts: user_name' });
    expect(
      within(drawer).getByText(
        'This watchlist holds 29500 of at most 30000 items. Remove values before adding more.',
      ),
    ).toBeInTheDocument();
    expect(await within(drawer).findByText('svc_backup')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Remove root' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove value' });
    expect(within(confirm).getByText('Remove root from Privileged accounts?')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(within(drawer).queryByText('root')).not.toBeInTheDocument());
    const removal = fetchMock.mock.calls.find(([, init]) => init?.method === 'DELETE');
    expect(requestBody(removal?.[1])).toEqual({ values: ['root'] });

    const input = drawer.querySelector<HTMLInputElement>('input[type="file"]')!;
    await user.upload(input, new File(['a\nb\n'], 'more.txt', { type: 'text/plain' }));
    await user.click(within(drawer).getByRole('button', { name: 'Upload file' }));
    expect(
      await screen.findByText('A watchlist holds at most 30000 items; this would be 12 too many.'),
    ).toBeInTheDocument();
  });

  it('gives fraud watchlists only to organisations with the fraud product', async () => {
    stubApi({
      ...withAccess(['THREATMATCH_VIEW'], ['CYBERFRAUD_STANDARD']),
      [`GET ${base}/watchlists`]: ({ url }) => ({
        body: url.includes('domain=fraud')
          ? { items: [watchlist({ domain: 'fraud', name: 'Mule accounts' })], total: 1 }
          : { items: [], total: 0 },
      }),
    });
    renderApp(`/fraud/watchlists?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Fraud watchlists' })).toBeInTheDocument();
    expect(await screen.findByText('Mule accounts')).toBeInTheDocument();
    // Viewers do not get the editing controls.
    expect(screen.queryByRole('button', { name: 'New watchlist' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Mule accounts' })).not.toBeInTheDocument();
  });

  it('refuses the fraud page without the product', async () => {
    const fetchMock = stubApi({ ...withAccess(EDIT) });
    renderApp(`/fraud/watchlists?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Fraud watchlists' })).toBeInTheDocument();
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/watchlists'))).toBe(false);
  });

  it('offers a retry when the list fails', async () => {
    let failing = true;
    stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/watchlists`]: () =>
        failing
          ? { status: 403, body: apiError('PRODUCT_NOT_ENTITLED', 'AccessDeniedException') }
          : { body: { items: [watchlist()], total: 1 } },
    });
    const { user } = renderApp(`/watchlists?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('The watchlists could not be loaded.')).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Privileged accounts')).toBeInTheDocument();
  });
});
