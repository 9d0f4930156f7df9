import { screen, waitFor, within } from '@testing-library/react';
import type { Chart, ChartData, Dashboard } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { chartFixture } from './test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const chart = (
  chartId: string,
  name: string,
  type: Chart['type'],
  family: Chart['family'] = 'SAVED_QUERIES',
) => chartFixture(chartId, name, { type, family });
const id = (n: number) => `00000000-0000-4000-8000-00000000000${n}`;

const dashboard = (tiles: Chart[]): Dashboard => ({
  id: 'd1',
  orgId: HOME_ORG_ID,
  name: 'Security operations overview for the retail banking division of First Harbor',
  description: 'Live view of the last week',
  chartsPerRow: 3,
  tiles: tiles.map((tileChart) => ({ chartId: tileChart.id, width: 1, height: 1, chart: tileChart })),
  intervalType: '7D',
  refreshSeconds: 0,
  type: 'NORMAL',
  copiedFromId: null,
  state: 'ACTIVE',
  editable: true,
  isDefault: true,
  createdByName: null,
  lastModifiedOn: '2026-03-01T09:00:00.000Z',
});

const range = { begin: '2026-03-01T00:00:00.000Z', end: '2026-03-08T00:00:00.000Z', timeAxis: false };

const routes = (permissions: string[], extra: Record<string, unknown>) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
  'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'postgres' } },
  ...extra,
});

describe('default dashboard', () => {
  it('is where the empty path leads and draws each tile of the default dashboard', async () => {
    const failed = chart(id(1), 'Failed logins', 'badge');
    const latest = chart(id(2), 'Latest core banking events', 'events_table');
    const hosts = chart(id(3), 'Top hosts', 'table');
    const bySource = chart(id(4), 'Events by data source', 'line');
    const events: ChartData = {
      ...range,
      events: [
        {
          id: 'e1',
          timestamp: '2026-03-07T10:00:00.000Z',
          receivedAt: '2026-03-07T10:00:00.000Z',
          host: 'core-01',
          srcIp: null,
          dstIp: null,
          userName: null,
          dataSource: 'core-banking',
          message: 'wire of 120000.00 USD via online',
          fields: {},
        },
      ],
      total: 1,
    };
    const fetchMock = stubApi(
      routes([], {
        [`GET ${base}/dashboards/default`]: {
          body: { dashboard: dashboard([failed, latest, hosts, bySource]) },
        },
        [`POST ${base}/chart/${id(1)}/data`]: { body: { ...range, value: 1234 } },
        [`POST ${base}/chart/${id(2)}/data`]: { body: events },
        [`POST ${base}/chart/${id(3)}/data`]: {
          body: { ...range, categories: ['web-01', 'db-01'], series: [{ name: 'By host', values: [12, 5] }] },
        },
        [`POST ${base}/chart/${id(4)}/data`]: {
          body: {
            ...range,
            timeAxis: true,
            categories: ['2026-03-01T00:00:00.000Z', '2026-03-02T00:00:00.000Z'],
            series: [
              { name: 'firewall', values: [3, 4] },
              { name: 'web-proxy', values: [1, 2] },
            ],
          },
        },
      }),
    );
    const { router } = renderApp('/');

    // The name is shown up to 50 characters.
    expect(
      await screen.findByRole('heading', { name: 'Security operations overview for the retail banki…' }),
    ).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboards/default');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });

    const badge = screen.getByRole('region', { name: 'Failed logins' });
    expect(await within(badge).findByText('1,234')).toBeInTheDocument();
    const table = screen.getByRole('region', { name: 'Latest core banking events' });
    expect(
      await within(table).findByRole('row', { name: /core-01 wire of 120000.00 USD via online/ }),
    ).toBeInTheDocument();
    const top = screen.getByRole('region', { name: 'Top hosts' });
    expect(await within(top).findByRole('row', { name: 'web-01 12' })).toBeInTheDocument();
    const line = screen.getByRole('region', { name: 'Events by data source' });
    expect(await within(line).findByRole('img', { name: /10 items/ })).toBeInTheDocument();

    // Every tile asks for the dashboard's range.
    const dataCall = fetchMock.mock.calls.find(([url]) => String(url) === `${base}/chart/${id(1)}/data`);
    expect(JSON.parse(String(dataCall?.[1]?.body))).toEqual({ intervalType: '7D' });

    const card = screen.getByRole('region', { name: 'System status' });
    expect(await within(card).findByRole('row', { name: 'Version 6.55.2' })).toBeInTheDocument();
  });

  it('shows a failed tile with its reason and a retry, and an empty one as such, beside the others', async () => {
    stubApi(
      routes([], {
        [`GET ${base}/dashboards/default`]: {
          body: {
            dashboard: dashboard([
              chart(id(1), 'Alerts by severity', 'bar', 'ALERT_COUNTS'),
              chart(id(2), 'Quiet', 'pie'),
            ]),
          },
        },
        [`POST ${base}/chart/${id(1)}/data`]: {
          status: 403,
          body: apiError('PERMISSION_DENIED', 'AccessDeniedException'),
        },
        [`POST ${base}/chart/${id(2)}/data`]: {
          body: { ...range, categories: ['a'], series: [{ name: 'x', values: [0] }] },
        },
      }),
    );
    renderApp('/dashboards/default');

    const failed = await screen.findByRole('region', { name: 'Alerts by severity' });
    expect(await within(failed).findByText('The chart could not be loaded.')).toBeInTheDocument();
    expect(within(failed).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
    const quiet = screen.getByRole('region', { name: 'Quiet' });
    expect(await within(quiet).findByText('No data in this range')).toBeInTheDocument();
  });

  it('offers to create a dashboard when the organisation has none, and keeps the system status', async () => {
    stubApi(
      routes(['DASHBOARD_EDIT'], { [`GET ${base}/dashboards/default`]: { body: { dashboard: null } } }),
    );
    renderApp('/dashboards/default');

    expect(await screen.findByText('No dashboard yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New dashboard' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'From the library' })).toBeInTheDocument();
    const card = screen.getByRole('region', { name: 'System status' });
    await waitFor(() =>
      expect(within(card).getByRole('row', { name: 'Status Operational' })).toBeInTheDocument(),
    );
  });

  it('shows why the system status could not be loaded', async () => {
    stubApi({
      ...routes([], { [`GET ${base}/dashboards/default`]: { body: { dashboard: null } } }),
      'GET /api/health': { status: 429, body: apiError('GENERIC_RATE_LIMITED', 'RateLimitException') },
    });
    renderApp('/dashboards/default');

    const card = await screen.findByRole('region', { name: 'System status' });
    expect(await within(card).findByText('System status could not be loaded.')).toBeInTheDocument();
    expect(within(card).getByText('Too many requests. Wait a moment and try again.')).toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
