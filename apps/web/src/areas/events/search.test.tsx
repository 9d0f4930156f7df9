import { screen, waitFor, within } from '@testing-library/react';
import type { Event } from '@vigil/contracts';
import { describe, expect, it, vi } from 'vitest';
import { apiError, stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { base, requestBody, withPermissions } from '../assets/test-fixtures';

type FetchMock = ReturnType<typeof stubApi>;

const event = (overrides: Partial<Event> = {}): Event => ({
  id: 'e1',
  timestamp: '2026-03-01T10:00:00.000Z',
  receivedAt: '2026-03-01T10:00:01.000Z',
  host: 'fw01',
  srcIp: '10.0.0.1',
  dstIp: '8.8.8.8',
  userName: 'alice',
  dataSource: 'firewall',
  message: 'connection accepted',
  fields: { sha256: 'a'.repeat(64), action: 'accept' },
  ...overrides,
});

const searchAnswer = {
  items: [event(), event({ id: 'e2', host: 'fw02' })],
  total: 120,
  totalIsLowerBound: false,
};

const routes = (
  search: StubRoute = { body: { ...searchAnswer, begin: '', end: '' } },
): Record<string, StubRoute> => ({
  ...withPermissions(['EVENT_VIEW']),
  [`POST ${base}/search`]: search,
  [`POST ${base}/search/aggregate`]: {
    body: {
      type: 'date_histogram',
      field: null,
      buckets: [
        { key: '2026-03-01T09:00:00.000Z', count: 70 },
        { key: '2026-03-01T10:00:00.000Z', count: 50 },
      ],
      interval: '1h',
      begin: '2026-03-01T09:00:00.000Z',
      end: '2026-03-01T11:00:00.000Z',
    },
  },
  [`GET ${base}/search/fields`]: {
    body: {
      fields: [
        { name: 'host', kind: 'column', count: 50 },
        { name: 'action', kind: 'field', count: 20 },
      ],
      sampleSize: 50,
    },
  },
  [`POST ${base}/search/field-values`]: {
    body: {
      field: 'host',
      values: [
        { value: 'fw01', count: 30 },
        { value: 'fw02', count: 20 },
      ],
      total: 50,
    },
  },
  [`PATCH ${base}/user/preferences`]: ({ init }) => ({ body: { ...requestBody(init) } }),
});

/** The bodies of every POST /search so far. */
const searches = (fetchMock: FetchMock) =>
  fetchMock.mock.calls
    .filter(([url, init]) => String(url) === `${base}/search` && init?.method === 'POST')
    .map(([, init]) => requestBody(init));

describe('event search', { timeout: 30_000 }, () => {
  it('needs EVENT_VIEW', async () => {
    stubApi(withPermissions([]));
    renderApp(`/search?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
  });

  it('shows an invalid query with its position and sends nothing', async () => {
    const fetchMock = stubApi(routes());
    const { user } = renderApp(`/search?orgId=${HOME_ORG_ID}`);
    await screen.findAllByText('connection accepted');
    const sent = searches(fetchMock).length;

    await user.type(screen.getByRole('textbox', { name: 'Query' }), 'a:b){Enter}');

    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Unexpected ")" at position 4')).toBeInTheDocument();
    expect(screen.getByTestId('query-caret')).toHaveTextContent(/a:b\)\s+\^/);
    expect(screen.getByTestId('query-caret')).toHaveAttribute(
      'aria-label',
      'Query with its fault marked at position 4',
    );
    expect(searches(fetchMock)).toHaveLength(sent);
  });

  it('sends the query, range and filters, and lists the events with their count and histogram', async () => {
    const fetchMock = stubApi(routes());
    const filters = encodeURIComponent(
      JSON.stringify([{ field: 'action', values: ['deny'], exclude: true }]),
    );
    const { user, router } = renderApp(`/search?orgId=${HOME_ORG_ID}&intervalType=7D&filters=${filters}`);
    await screen.findAllByText('connection accepted');
    expect(searches(fetchMock).at(-1)).toEqual({
      query: '',
      intervalType: '7D',
      filters: [{ field: 'action', values: ['deny'], exclude: true }],
      sortField: 'timestamp',
      sortOrder: 'desc',
      pageSize: 25,
      pageNumber: 1,
    });
    expect(screen.getByText('NOT action: deny')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'Query' }), 'host:fw01{Enter}');
    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ query: 'host:fw01' }));
    expect(searches(fetchMock).at(-1)).toMatchObject({
      intervalType: '7D',
      filters: [{ field: 'action', values: ['deny'], exclude: true }],
    });
    expect(router.state.location.search).toMatchObject({ query: 'host:fw01', intervalType: '7D' });

    expect(await screen.findByText('1 - 25 of 120')).toBeInTheDocument();
    const table = screen.getByRole('table', { name: 'Events found' });
    expect(within(table).getByText('fw02')).toBeInTheDocument();
    expect(
      screen.getByRole('group', { name: /Hits over time: 120 events in 2 intervals of 1h/ }),
    ).toBeInTheDocument();

    // Sorting by time flips the order.
    await user.click(within(table).getByRole('button', { name: /Time/ }));
    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ sortOrder: 'asc' }));
  });

  it('adds an include filter from a sidebar value and searches again', async () => {
    const fetchMock = stubApi(routes());
    const { user } = renderApp(`/search?orgId=${HOME_ORG_ID}`);
    await screen.findAllByText('connection accepted');

    const sidebar = screen.getByRole('navigation', { name: 'Fields' });
    await user.click(within(sidebar).getByRole('button', { name: /host/ }));
    await user.click(await within(sidebar).findByRole('button', { name: 'Include host = fw01' }));

    expect(await screen.findByText('host: fw01')).toBeInTheDocument();
    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({
        intervalType: '24H',
        filters: [{ field: 'host', values: ['fw01'] }],
      }),
    );
    const valuesCall = fetchMock.mock.calls.find(([url]) => String(url) === `${base}/search/field-values`);
    expect(requestBody(valuesCall?.[1])).toMatchObject({ field: 'host', size: 10, query: '' });

    await user.click(screen.getByRole('button', { name: 'Remove filter host: fw01' }));
    await waitFor(() => expect(searches(fetchMock).at(-1)).toMatchObject({ filters: [] }));
  });

  it('offers to retry a search that timed out, and sends it again', async () => {
    let calls = 0;
    const fetchMock = stubApi(
      routes(() => {
        calls += 1;
        return calls === 1
          ? { status: 503, body: apiError('SEARCH_TIMEOUT', 'ServiceUnavailableException') }
          : { body: { ...searchAnswer, begin: '', end: '' } };
      }),
    );
    const { user } = renderApp(`/search?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('The search timed out')).toBeInTheDocument();
    expect(screen.getByText(/The search took too long/)).toBeInTheDocument();
    expect(searches(fetchMock)).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('1 - 25 of 120')).toBeInTheDocument();
    expect(searches(fetchMock)).toHaveLength(2);
    expect(searches(fetchMock)[1]).toEqual(searches(fetchMock)[0]);
  });

  it('opens an event with its fields and pivots', async () => {
    stubApi({ ...routes(), [`GET ${base}/ip/assets`]: { body: { items: [] } } });
    const { user } = renderApp(
      `/search?orgId=${HOME_ORG_ID}&begin=2026-03-01T09:00:00.000Z&end=2026-03-01T11:00:00.000Z`,
    );
    const row = (await screen.findAllByText('connection accepted'))[0]!.closest('tr')!;
    await user.click(row);

    const drawer = await screen.findByRole('dialog', { name: 'Event details' });
    expect(within(drawer).getByRole('button', { name: /10\.0\.0\.1/ })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: /8\.8\.8\.8/ })).toBeInTheDocument();
    expect(within(drawer).getByRole('button', { name: new RegExp('a'.repeat(64)) })).toBeInTheDocument();
    expect(within(drawer).getByText('accept')).toBeInTheDocument();
  });

  it('searches every event or the host of an event 1 or 5 minutes around it', async () => {
    const fetchMock = stubApi({ ...routes(), [`GET ${base}/ip/assets`]: { body: { items: [] } } });
    const { user, router } = renderApp(`/search?orgId=${HOME_ORG_ID}&query=action:accept&intervalType=7D`);
    await user.click((await screen.findAllByText('connection accepted'))[0]!.closest('tr')!);
    const drawer = await screen.findByRole('dialog', { name: 'Event details' });

    await user.click(within(drawer).getByRole('button', { name: 'Search around' }));
    const hostGroup = await screen.findByText('Events of fw01');
    expect(screen.getByText('Every event')).toBeInTheDocument();
    const items = screen.getAllByRole('menuitem', { name: 'Search ±5 minutes' });
    expect(items).toHaveLength(2);
    expect(hostGroup).toBeInTheDocument();
    await user.click(items[1]!);

    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({
        query: 'host:"fw01"',
        begin: '2026-03-01T09:55:00.000Z',
        end: '2026-03-01T10:05:00.000Z',
      }),
    );
    expect(router.state.location.search).not.toHaveProperty('intervalType');
    expect(screen.getByRole('textbox', { name: 'Query' })).toHaveValue('host:"fw01"');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Event details' })).not.toBeInTheDocument(),
    );
  });

  it('zooms into a histogram bar by click or keyboard', async () => {
    const fetchMock = stubApi(routes());
    const { user } = renderApp(`/search?orgId=${HOME_ORG_ID}`);
    await screen.findAllByText('connection accepted');

    const bar = screen.getByRole('button', { name: /Zoom in on .*: 50/ });
    bar.focus();
    await user.keyboard('{Enter}');
    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({
        begin: '2026-03-01T10:00:00.000Z',
        end: '2026-03-01T10:59:59.999Z',
      }),
    );
  });

  it('adds field columns by the column rules, sorts by them, sends them with the CSV and removes them', async () => {
    vi.stubGlobal(
      'URL',
      Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:events'), revokeObjectURL: vi.fn() }),
    );
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => {});
    const fetchMock = stubApi({ ...routes(), [`POST ${base}/search/csv`]: { body: 'timestamp\n' } });
    const { user } = renderApp(
      `/search?orgId=${HOME_ORG_ID}&filters=${encodeURIComponent(
        JSON.stringify([{ field: 'host', values: ['fw01'] }]),
      )}`,
    );
    await screen.findAllByText('connection accepted');

    await user.click(screen.getByRole('button', { name: 'Columns' }));
    const field = await screen.findByRole('combobox', { name: 'Field to show as a column' });
    await user.click(screen.getByRole('button', { name: 'Add column' }));
    expect(await screen.findByText('Enter a field name.')).toBeInTheDocument();
    await user.type(field, 'host');
    await user.click(screen.getByRole('button', { name: 'Add column' }));
    expect(await screen.findByText('This column is shown already.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'nosuch');
    await user.click(screen.getByRole('button', { name: 'Add column' }));
    expect(await screen.findByText('No event of this search has this field.')).toBeInTheDocument();
    // The fields offered are those of the search with its filters.
    const fieldsCall = fetchMock.mock.calls.find(([url]) => String(url).startsWith(`${base}/search/fields`));
    expect(new URL(String(fieldsCall?.[0]), 'http://x').searchParams.get('query')).toBe('host:"fw01"');
    await user.clear(field);
    await user.type(field, 'action');
    await user.click(screen.getByRole('button', { name: 'Add column' }));

    const table = await screen.findByRole('table', { name: 'Events found' });
    expect(await within(table).findAllByText('accept')).toHaveLength(2);
    await user.click(within(table).getByRole('button', { name: /^action/ }));
    await waitFor(() =>
      expect(searches(fetchMock).at(-1)).toMatchObject({ sortField: 'action', sortOrder: 'desc' }),
    );

    await user.click(screen.getByRole('button', { name: 'Download CSV' }));
    await waitFor(() => expect(click).toHaveBeenCalled());
    expect((click.mock.contexts.at(-1) as HTMLAnchorElement).download).toBe('events.csv');
    const csv = fetchMock.mock.calls.find(([url]) => String(url) === `${base}/search/csv`);
    expect(requestBody(csv?.[1])).toMatchObject({ columns: ['action'], sortField: 'action' });

    await user.click(within(table).getByRole('button', { name: 'Remove column action' }));
    await waitFor(() => expect(within(table).queryByText('accept')).not.toBeInTheDocument());
    expect(searches(fetchMock).at(-1)).toMatchObject({ sortField: 'timestamp' });
  });
});
