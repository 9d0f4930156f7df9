import { screen, waitFor, within } from '@testing-library/react';
import {
  DEFAULT_PREFERENCES,
  resolveFeatureFlags,
  type Chart,
  type Dashboard,
  type Preferences,
} from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { chartFixture } from './test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const id = (n: number) => `00000000-0000-4000-8000-00000000010${n}`;
const range = { begin: '2026-03-01T00:00:00.000Z', end: '2026-03-08T00:00:00.000Z', timeAxis: false };

const dashboard = (dashboardId: string, name: string, tiles: Chart[], isDefault = false): Dashboard => ({
  id: dashboardId,
  orgId: HOME_ORG_ID,
  name,
  description: '',
  chartsPerRow: 2,
  tiles: tiles.map((chart) => ({ chartId: chart.id, width: 1, height: 1, chart })),
  intervalType: '7D',
  refreshSeconds: 0,
  type: 'NORMAL',
  copiedFromId: null,
  state: 'ACTIVE',
  editable: true,
  isDefault,
  createdByName: null,
  lastModifiedOn: '2026-03-01T09:00:00.000Z',
});
const summary = (item: Dashboard) => ({ ...item, chartCount: item.tiles.length });

const failed = chartFixture(id(1), 'Failed logins', { type: 'badge' });
const wires = chartFixture(id(2), 'Wire transfers', { type: 'badge' });
const soc = dashboard(
  id(5),
  'Security operations overview for the retail banking division of First Harbor',
  [failed],
  true,
);
const fraud = dashboard(id(6), 'Fraud desk', [wires]);

/** A user of the home organisation, with the organisation's flags and their stored preferences. */
const routes = (features: Record<string, boolean>, preferences: Partial<Preferences>) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: ['DASHBOARD_VIEW', 'DASHBOARD_EDIT'],
      features: resolveFeatureFlags(features),
    }),
    preferences,
  ),
  'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'postgres' } },
  [`GET ${base}/dashboards/default`]: { body: { dashboard: soc } },
  [`GET ${base}/dashboards`]: { body: { items: [summary(soc), summary(fraud)], total: 2 } },
  [`GET ${base}/dashboard/${id(6)}`]: { body: fraud },
  [`POST ${base}/chart/${id(1)}/data`]: { body: { ...range, value: 17 } },
  [`POST ${base}/chart/${id(2)}/data`]: { body: { ...range, value: 4 } },
  [`PATCH ${base}/user/preferences`]: ({ init }: { init?: RequestInit }) => ({
    body: { ...DEFAULT_PREFERENCES, ...(JSON.parse(String(init?.body)) as object) },
  }),
});

describe('old dashboards and the new dashboards switch', () => {
  it.each([
    [
      'without defaultRevealDashboards and no stored choice',
      '/dashboard',
      {},
      { newDashboardsEnabled: null },
    ],
    [
      'who chose the old ones, despite defaultRevealDashboards',
      '/dashboard',
      { defaultRevealDashboards: true },
      { newDashboardsEnabled: false },
    ],
    [
      'with defaultRevealDashboards and no stored choice',
      '/dashboards/default',
      { defaultRevealDashboards: true },
      { newDashboardsEnabled: null },
    ],
    [
      'who chose the new ones, without defaultRevealDashboards',
      '/dashboards/default',
      {},
      { newDashboardsEnabled: true },
    ],
  ])('lands a user %s on %s', async (_case, landing, features, preferences) => {
    stubApi(routes(features, preferences));
    const { router } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe(landing));
    expect(router.state.location.search).toMatchObject({ orgId: HOME_ORG_ID });
    const toggle = await screen.findByRole('switch', { name: 'New dashboards (beta)' });
    if (landing === '/dashboard') expect(toggle).not.toBeChecked();
    else expect(toggle).toBeChecked();
  });

  it('shows the default dashboard, picks another from the dropdown, and switches back to the new ones', async () => {
    const fetchMock = stubApi(routes({}, { newDashboardsEnabled: null }));
    const { router, user } = renderApp(`/dashboard?orgId=${HOME_ORG_ID}`);

    const picker = await screen.findByRole('combobox', { name: 'Dashboard' });
    // Names are shown up to 50 characters.
    expect(picker).toHaveValue('Security operations overview for the retail banki…');
    const tile = screen.getByRole('region', { name: 'Failed logins' });
    expect(await within(tile).findByText('17')).toBeInTheDocument();

    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Fraud desk' }));
    await waitFor(() => expect(router.state.location.search).toMatchObject({ dashboardId: id(6) }));
    const other = await screen.findByRole('region', { name: 'Wire transfers' });
    expect(await within(other).findByText('4')).toBeInTheDocument();

    await user.click(screen.getByRole('switch', { name: 'New dashboards (beta)' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboards/default'));
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ newDashboardsEnabled: true });
  });

  it('lists the templates and opens one in the old dashboards; /dashboard/template leads there', async () => {
    const template = {
      ...summary(fraud),
      id: id(7),
      orgId: null,
      type: 'LIBRARY' as const,
      name: 'Fraud template',
    };
    stubApi({
      ...routes({}, { newDashboardsEnabled: null }),
      [`GET ${base}/dashboards`]: ({ url }: { url: string }) => ({
        body: url.includes('library=true')
          ? { items: [template], total: 1 }
          : { items: [summary(soc)], total: 1 },
      }),
      [`GET ${base}/dashboard/${id(7)}`]: { body: { ...fraud, ...template } },
    });
    const { router, user } = renderApp(`/dashboard/template?orgId=${HOME_ORG_ID}`);

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/template/list'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Dashboard templates' })).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /Fraud template/ });
    await user.click(within(row).getByRole('button', { name: 'Preview' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'));
    expect(await screen.findByRole('combobox', { name: 'Dashboard' })).toHaveValue('Fraud template');
  });

  it('offers the templates when the organisation has no dashboard', async () => {
    stubApi({
      ...routes({}, { newDashboardsEnabled: false }),
      [`GET ${base}/dashboards/default`]: { body: { dashboard: null } },
      [`GET ${base}/dashboards`]: { body: { items: [], total: 0 } },
    });
    renderApp(`/dashboard?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No dashboard yet')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Dashboard templates' })).toBeInTheDocument();
  });
});
