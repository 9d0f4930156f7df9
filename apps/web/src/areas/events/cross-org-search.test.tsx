import { screen, waitFor, within } from '@testing-library/react';
import type { CrossOrgEvent } from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInWithClientRoutes,
} from '../../test/session-fixtures';
import { base, requestBody, withPermissions } from '../assets/test-fixtures';
import { validateCrossOrgSearch } from './cross-org-search-params';

type FetchMock = ReturnType<typeof stubApi>;

const PAGE = `/search/cross-org-search?orgId=${HOME_ORG_ID}`;
const SEARCH = `${base}/search/cross-org`;

const hit = (overrides: Partial<CrossOrgEvent> = {}): CrossOrgEvent => ({
  id: 'e1',
  orgId: CLIENT_ORG_ID,
  orgName: 'Acme Bank',
  timestamp: '2026-03-01T10:00:00.000Z',
  receivedAt: '2026-03-01T10:00:01.000Z',
  host: 'fw01',
  srcIp: '10.0.0.1',
  dstIp: null,
  userName: 'alice',
  dataSource: 'firewall',
  message: 'connection accepted',
  fields: { action: 'accept' },
  ...overrides,
});

const answer = (overrides: object = {}) => ({
  body: {
    items: [
      hit(),
      hit({ id: 'e2', orgId: HOME_ORG_ID, orgName: 'Provider', host: 'soc01', message: 'edr alert' }),
    ],
    total: 60,
    totalIsLowerBound: false,
    begin: '',
    end: '',
    skippedOrgs: [],
    ...overrides,
  },
});

const routes = (search: StubRoute = answer()): Record<string, StubRoute> => ({
  ...signedInWithClientRoutes,
  ...withPermissions(['EVENT_VIEW']),
  'GET /api/orgs': signedInWithClientRoutes['GET /api/orgs']!,
  [`POST ${SEARCH}`]: search,
});

/** The JSON searches sent so far (CSV downloads ask for text/csv). */
const searches = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .filter(
      ([url, init]) => String(url) === SEARCH && new Headers(init?.headers).get('accept') !== 'text/csv',
    )
    .map(([, init]) => requestBody(init));

describe('cross-organisation search', { timeout: 30_000 }, () => {
  it('is for the provider organisation with EVENT_VIEW', async () => {
    stubApi(withPermissions([]));
    renderApp(PAGE);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('is not offered in a client organisation', async () => {
    stubApi({
      ...signedInWithClientRoutes,
      ...orgShellRoutes(orgContextOf(CLIENT_ORG_ID, 'Acme Bank', { permissions: ['EVENT_VIEW'] })),
    });
    renderApp(`/search/cross-org-search?orgId=${CLIENT_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('searches every organisation by default and labels each hit with its organisation', async () => {
    const fetchMock = stubApi(routes());
    const { user, router } = renderApp(PAGE);
    const table = await screen.findByRole('table', { name: 'Events found' });
    expect(searches(fetchMock).at(-1)).toEqual({
      query: '',
      intervalType: '24H',
      filters: [],
      sortField: 'timestamp',
      sortOrder: 'desc',
      pageSize: 25,
      pageNumber: 1,
    });
    const rows = within(table).getAllByRole('row');
    expect(within(rows[0]!).getAllByRole('columnheader')[0]).toHaveTextContent('Organisation');
    expect(within(rows[1]!).getAllByRole('cell')[0]).toHaveTextContent('Acme Bank');
    expect(within(rows[2]!).getAllByRole('cell')[0]).toHaveTextContent('Provider');
    expect(screen.getByText('1 - 25 of 60')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Query' }), 'host:fw01{Enter}');
    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ query: 'host:fw01' }));
    expect(router.state.location.search).toMatchObject({ query: 'host:fw01' });

    await user.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ pageNumber: 2 }));
    await user.click(within(table).getByRole('button', { name: /Time/ }));
    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({ sortOrder: 'asc', pageNumber: 1 }),
    );
  });

  it('keeps the chosen organisations in the address and sends them', async () => {
    const fetchMock = stubApi(routes());
    const { user, router } = renderApp(PAGE);
    await screen.findByRole('table', { name: 'Events found' });

    await user.click(screen.getByRole('combobox', { name: 'Organisations' }));
    await user.click(await screen.findByRole('option', { name: 'Acme Bank' }));

    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ orgIds: [CLIENT_ORG_ID] }));
    expect(router.state.location.search).toMatchObject({ orgIds: [CLIENT_ORG_ID] });
  });

  it('lists the organisations that were not searched', async () => {
    stubApi(
      routes(
        answer({ skippedOrgs: [{ id: CLIENT_ORG_ID, name: 'Acme Bank', reason: 'PERMISSION_DENIED' }] }),
      ),
    );
    renderApp(PAGE);
    const notice = await screen.findByRole('alert', { name: '1 organisation was not searched' });
    expect(notice).toHaveTextContent('Acme Bank: You do not have permission to do this.');
  });

  it('shows the empty state', async () => {
    stubApi(routes(answer({ items: [], total: 0 })));
    renderApp(PAGE);
    expect(await screen.findByText('No events found')).toBeInTheDocument();
  });

  it('offers to retry a failed search', async () => {
    let calls = 0;
    const fetchMock = stubApi(
      routes(() => {
        calls += 1;
        return calls === 1
          ? { status: 503, body: apiError('SEARCH_TIMEOUT', 'ServiceUnavailableException') }
          : answer();
      }),
    );
    const { user } = renderApp(PAGE);
    expect(await screen.findByText('The search timed out')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('table', { name: 'Events found' })).toBeInTheDocument();
    expect(searches(fetchMock)).toHaveLength(2);
  });

  it('downloads the CSV and opens an event in the detail drawer', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:events'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetchMock = stubApi(routes());
    const { user } = renderApp(PAGE);
    const table = await screen.findByRole('table', { name: 'Events found' });

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts.at(-1) as HTMLAnchorElement).download).toBe('cross-org-events.csv');
    const csv = fetchMock.mock.calls.find(
      ([url, init]) => String(url) === SEARCH && new Headers(init?.headers).get('accept') === 'text/csv',
    );
    expect(requestBody(csv?.[1])).toMatchObject({ query: '', sortOrder: 'desc' });

    await user.click(within(table).getByText('edr alert'));
    const drawer = await screen.findByRole('dialog', { name: 'Event details' });
    expect(within(drawer).getByText('soc01')).toBeInTheDocument();
  });
});

describe('cross-organisation search address', () => {
  it('keeps valid, distinct organisation ids and the event search keys it shares', () => {
    expect(
      validateCrossOrgSearch({
        orgIds: JSON.stringify([CLIENT_ORG_ID, 'nope', CLIENT_ORG_ID, 7]),
        query: 'host:fw01',
        filters: JSON.stringify([{ field: 'host', values: ['x'] }]),
        page: 2,
      }),
    ).toEqual({ orgIds: [CLIENT_ORG_ID], query: 'host:fw01', page: 2 });
    expect(validateCrossOrgSearch({ orgIds: ['nope'] }).orgIds).toBeUndefined();
  });
});
