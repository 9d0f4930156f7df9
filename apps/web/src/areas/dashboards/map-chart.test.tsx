import { screen, waitFor, within } from '@testing-library/react';
import type { Dashboard } from '@vigil/contracts';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import worldUrl from 'world-atlas/countries-110m.json?url';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { chartFixture, dashboardAccess } from './test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const chartId = '00000000-0000-4000-8000-000000000201';
const map = chartFixture(chartId, 'Logins by country', { type: 'map', savedQueryIds: [chartId] });
const dashboard: Dashboard = {
  id: 'd1',
  orgId: HOME_ORG_ID,
  name: 'Access',
  description: '',
  chartsPerRow: 1,
  tiles: [{ chartId, width: 1, height: 1, chart: map }],
  intervalType: '7D',
  refreshSeconds: 0,
  type: 'NORMAL',
  copiedFromId: null,
  state: 'ACTIVE',
  editable: true,
  isDefault: true,
  createdByName: null,
  lastModifiedOn: '2026-03-01T09:00:00.000Z',
};
const world = JSON.parse(
  readFileSync(createRequire(import.meta.url).resolve('world-atlas/countries-110m.json'), 'utf8'),
) as unknown;

const routes = (geometry: { status?: number; body?: unknown }) => ({
  ...dashboardAccess([]),
  'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'postgres' } },
  [`GET ${base}/dashboards/default`]: { body: { dashboard } },
  [`POST ${base}/chart/${chartId}/data`]: {
    body: {
      begin: '2026-03-01T00:00:00.000Z',
      end: '2026-03-08T00:00:00.000Z',
      timeAxis: false,
      categories: ['US', 'DE', 'JP', 'NL'],
      series: [{ name: 'Logins', values: [3, 1, 1, 1] }],
      total: 7,
    },
  },
  [`GET ${worldUrl}`]: geometry,
});

describe('map charts', () => {
  it('say so when the borders cannot be loaded (and try again for the next map)', async () => {
    stubApi(routes({ status: 404 }));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
    const tile = await screen.findByRole('region', { name: 'Logins by country' });
    expect(await within(tile).findByText('The chart could not be drawn.')).toBeInTheDocument();
  });

  it('draw the events per country on the world map, loading the borders on first use', async () => {
    const fetchMock = stubApi(routes({ body: world }));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    const tile = await screen.findByRole('region', { name: 'Logins by country' });
    expect(
      await within(tile).findByRole('img', { name: 'Map of 6 events located in 4 countries' }),
    ).toBeInTheDocument();
    expect(within(tile).getByText(/GeoLite2 data created by MaxMind/)).toBeInTheDocument();
    await waitFor(() => expect(fetchMock.mock.calls.some(([url]) => String(url) === worldUrl)).toBe(true));
    await waitFor(() =>
      expect(within(tile).queryByText('The chart could not be drawn.')).not.toBeInTheDocument(),
    );
  });

  it('are offered in the chart dialog for saved queries', async () => {
    stubApi({
      ...dashboardAccess([
        'CHART_VIEW',
        'CHART_EDIT',
        'EVENT_VIEW',
        'EVENT_EDIT',
        'SAVED_SEARCH_VIEW',
        'SAVED_SEARCH_EDIT',
      ]),
      [`GET ${base}/charts`]: { body: { items: [], total: 0 } },
      [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'New chart' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Type' }));
    await user.click(await screen.findByRole('option', { name: 'Map (events by country of source IP)' }));
    expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveValue(
      'Map (events by country of source IP)',
    );
    expect(within(dialog).getByText(/badges, events tables and maps take exactly one/)).toBeInTheDocument();
  });
});
