import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { Dashboard, DashboardSummary } from '@vigil/contracts';
import { notifications } from '@mantine/notifications';
import { afterEach, describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { chartFixture, dashboardAccess } from './test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;

// Notifications outlive a test's render: each test starts without those of the tests before it.
afterEach(() => notifications.clean());
const id = (n: number) => `00000000-0000-4000-8000-00000000020${n}`;
const chart = (n: number, name: string) =>
  chartFixture(id(n), name, { type: 'badge', family: 'ALERT_COUNTS' });

const dashboard = (overrides: Partial<Dashboard> = {}): Dashboard => ({
  id: id(9),
  orgId: HOME_ORG_ID,
  name: 'Fraud desk',
  description: '',
  chartsPerRow: 3,
  tiles: [{ chartId: id(1), width: 1, height: 1, chart: chart(1, 'Open alerts') }],
  intervalType: '24H',
  refreshSeconds: 0,
  type: 'NORMAL',
  copiedFromId: null,
  state: 'ACTIVE',
  editable: true,
  isDefault: false,
  createdByName: null,
  lastModifiedOn: '2026-03-01T09:00:00.000Z',
  ...overrides,
});

const { tiles: _tiles, ...summaryBase } = dashboard();
const summary = (overrides: Partial<DashboardSummary> = {}): DashboardSummary => ({
  ...summaryBase,
  chartCount: 1,
  ...overrides,
});

const withAccess = (permissions: string[], isProvider = false) => ({
  ...dashboardAccess(permissions, isProvider),
  'GET /api/health': { body: { status: 'ok', version: '1', database: 'postgres' } },
});

describe('dashboard editor', () => {
  it('changes the range of every tile and saves charts picked in QuickStart laid out in Expert Mode', async () => {
    let saved: Record<string, unknown> | undefined;
    const fetchMock = stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'CHART_VIEW']),
      [`GET ${base}/dashboard/${id(9)}`]: { body: dashboard() },
      [`POST ${base}/chart/${id(1)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } },
      [`POST ${base}/chart/${id(2)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 3 } },
      [`GET ${base}/charts`]: {
        body: { items: [chart(1, 'Open alerts'), chart(2, 'Dismissed today')], total: 2 },
      },
      [`PUT ${base}/dashboard/${id(9)}`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { body: dashboard({ chartsPerRow: 2 }) };
      },
    });
    const { user } = renderApp(`/dashboards/${id(9)}/view?orgId=${HOME_ORG_ID}`);

    const tile = await screen.findByRole('region', { name: 'Open alerts' });
    expect(await within(tile).findByText('7')).toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Time range' }));
    await user.click(await screen.findByRole('option', { name: 'Last 30 days' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => String(url).endsWith(`/chart/${id(1)}/data`) && String(init?.body).includes('30D'),
        ),
      ).toBe(true),
    );

    await user.click(screen.getByRole('button', { name: 'Dashboard' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit dashboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit dashboard' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Charts' }));
    await user.click(await screen.findByRole('option', { name: 'Dismissed today' }));
    await user.click(within(dialog).getByRole('tab', { name: 'Expert Mode' }));
    await user.click(within(dialog).getByRole('radio', { name: '2' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Width of Dismissed today' }));
    await user.click(await screen.findByRole('option', { name: '2 columns' }));
    await user.click(within(dialog).getAllByRole('button', { name: 'Move up' })[1]!);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(saved).toBeDefined());
    expect(saved).toMatchObject({
      name: 'Fraud desk',
      chartsPerRow: 2,
      tiles: [
        { chartId: id(2), width: 2 },
        { chartId: id(1), width: 1 },
      ],
    });
  });

  it('lays the tiles out in Expert Mode as the dashboard shows them, moved by dragging or buttons', async () => {
    let saved: Record<string, unknown> | undefined;
    const charts = [chart(1, 'Open alerts'), chart(2, 'Dismissed today'), chart(3, 'Blocked logins')];
    // The last is a tall tile.
    const tiles = charts.map((entry, at) => ({
      chartId: entry.id,
      width: 1,
      height: at === 2 ? 2 : 1,
      chart: entry,
    }));
    const value = { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } };
    stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'CHART_VIEW']),
      [`GET ${base}/dashboard/${id(9)}`]: { body: dashboard({ tiles }) },
      [`POST ${base}/chart/${id(1)}/data`]: value,
      [`POST ${base}/chart/${id(2)}/data`]: value,
      [`POST ${base}/chart/${id(3)}/data`]: value,
      [`GET ${base}/charts`]: { body: { items: charts, total: 3 } },
      [`PUT ${base}/dashboard/${id(9)}`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { body: dashboard({ tiles }) };
      },
    });
    const { user } = renderApp(`/dashboards/${id(9)}/view?orgId=${HOME_ORG_ID}`);

    const tall = await screen.findByRole('region', { name: 'Blocked logins' });
    expect(tall.parentElement).toHaveStyle({ gridRow: 'span 2', gridColumn: 'span 1' });
    await user.click(screen.getByRole('button', { name: 'Dashboard' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Edit dashboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit dashboard' });
    await user.click(within(dialog).getByRole('tab', { name: 'Expert Mode' }));
    const card = (name: string) => within(dialog).getByRole('region', { name });
    const order = () =>
      within(dialog)
        .getAllByRole('region')
        .map((region) => region.getAttribute('aria-label'));
    expect(order()).toEqual(['Open alerts', 'Dismissed today', 'Blocked logins']);

    await user.click(within(dialog).getByRole('combobox', { name: 'Height of Open alerts' }));
    await user.click(await screen.findByRole('option', { name: '2 rows' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Width of Dismissed today' }));
    await user.click(await screen.findByRole('option', { name: '2 columns' }));
    expect(card('Open alerts')).toHaveStyle({ gridRow: 'span 2', gridColumn: 'span 1' });
    expect(card('Dismissed today')).toHaveStyle({ gridRow: 'span 1', gridColumn: 'span 2' });

    // Dropped on the first tile, the last takes its place.
    const dataTransfer = { setData: () => undefined, getData: () => '' };
    fireEvent.dragStart(card('Blocked logins'), { dataTransfer });
    fireEvent.dragOver(card('Open alerts'), { dataTransfer });
    fireEvent.drop(card('Open alerts'), { dataTransfer });
    fireEvent.dragEnd(card('Blocked logins'), { dataTransfer });
    expect(order()).toEqual(['Blocked logins', 'Open alerts', 'Dismissed today']);

    await user.click(within(card('Open alerts')).getByRole('button', { name: 'Move down' }));
    expect(order()).toEqual(['Blocked logins', 'Dismissed today', 'Open alerts']);
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(saved).toBeDefined());
    expect(saved).toMatchObject({
      chartsPerRow: 3,
      tiles: [
        { chartId: id(3), width: 1, height: 2 },
        { chartId: id(2), width: 2, height: 1 },
        { chartId: id(1), width: 1, height: 2 },
      ],
    });
  });
});

describe('all dashboards', () => {
  it('deletes selected dashboards once confirmed, saying which another user changed meanwhile, and restores one', async () => {
    let deleteBody: unknown;
    let restored = false;
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/dashboards`]: ({ url }) => ({
        body: url.includes('state=DELETED')
          ? { items: [summary({ id: id(5), name: 'Old board', state: 'DELETED' })], total: 1 }
          : {
              items: [
                summary({ id: id(3), name: 'Fraud desk', isDefault: true }),
                summary({ id: id(4), name: 'Branches', lastModifiedOn: '2026-03-04T09:00:00.000Z' }),
              ],
              total: 2,
            },
      }),
      [`POST ${base}/dashboards/bulk-delete`]: ({ init }) => {
        deleteBody = JSON.parse(String(init?.body));
        return { body: { deleted: 1, failed: 1, failedIds: [id(4)] } };
      },
      [`POST ${base}/dashboard/${id(5)}/restore`]: () => {
        restored = true;
        return { body: dashboard({ id: id(5), name: 'Old board' }) };
      },
    });
    const { user } = renderApp(`/dashboards?orgId=${HOME_ORG_ID}`);

    const row = await screen.findByRole('row', { name: /Fraud desk/ });
    expect(within(row).getByText('Default')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select Fraud desk' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Branches' }));
    await user.click(screen.getByRole('button', { name: 'Delete 2 dashboards' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete dashboards' });
    expect(
      within(confirm).getByText('Delete 2 dashboards? They can be restored under Deleted.'),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(
      await screen.findByText(
        'Deleting 1 dashboard(s) succeeded, but another 1 dashboard(s) failed. They may have been modified by another user.',
      ),
    ).toBeInTheDocument();
    expect(deleteBody).toEqual({
      items: [
        { id: id(3), modifiedOn: '2026-03-01T09:00:00.000Z' },
        { id: id(4), modifiedOn: '2026-03-04T09:00:00.000Z' },
      ],
    });

    await user.click(screen.getByRole('radio', { name: 'Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Old board' }));
    expect(await screen.findByText('Dashboard restored.')).toBeInTheDocument();
    expect(restored).toBe(true);
  });

  it('asks before deleting one dashboard, and deletes nothing when cancelled', async () => {
    const deletes: unknown[] = [];
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/dashboards`]: {
        body: { items: [summary({ id: id(3), name: 'Fraud desk' })], total: 1 },
      },
      [`POST ${base}/dashboards/bulk-delete`]: ({ init }) => {
        deletes.push(JSON.parse(String(init?.body)));
        return { body: { deleted: 1, failed: 0, failedIds: [] } };
      },
    });
    const { user } = renderApp(`/dashboards?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Delete Fraud desk' }));
    const first = await screen.findByRole('dialog', { name: 'Delete dashboard' });
    expect(
      within(first).getByText('Delete Fraud desk? It can be restored under Deleted.'),
    ).toBeInTheDocument();
    await user.click(within(first).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(deletes).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Fraud desk' }));
    const second = await screen.findByRole('dialog', { name: 'Delete dashboard' });
    await user.click(within(second).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Dashboard deleted.')).toBeInTheDocument();
    expect(deletes).toEqual([{ items: [{ id: id(3), modifiedOn: '2026-03-01T09:00:00.000Z' }] }]);
  });
});

describe('dashboard library', () => {
  it('adds a library dashboard to the organisation and opens the copy', async () => {
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/dashboards`]: {
        body: {
          items: [summary({ id: id(8), name: 'Alert desk', type: 'LIBRARY', orgId: null, chartCount: 4 })],
          total: 1,
        },
      },
      [`POST ${base}/dashboard/${id(8)}/copy`]: {
        status: 201,
        body: dashboard({ id: id(7), name: 'Alert desk' }),
      },
      [`GET ${base}/dashboard/${id(7)}`]: { body: dashboard({ id: id(7), name: 'Alert desk' }) },
      [`POST ${base}/chart/${id(1)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } },
    });
    const { user, router } = renderApp(`/dashboards/library?orgId=${HOME_ORG_ID}`);

    const row = await screen.findByRole('row', { name: /Alert desk/ });
    expect(within(row).getByText('4')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy to all customers' })).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Add Alert desk to my dashboards' }));
    expect(await screen.findByText('Dashboard added from the library.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboards/${id(7)}/view`));
    expect(await screen.findByRole('heading', { name: 'Alert desk' })).toBeInTheDocument();
  });

  it('previews a library dashboard over 30 days', async () => {
    const fetchMock = stubApi({
      ...withAccess([]),
      [`GET ${base}/dashboards`]: {
        body: { items: [summary({ id: id(8), name: 'Alert desk', type: 'LIBRARY', orgId: null })], total: 1 },
      },
      [`GET ${base}/dashboard/${id(8)}`]: {
        body: dashboard({ id: id(8), name: 'Alert desk', type: 'LIBRARY', orgId: null }),
      },
      [`POST ${base}/chart/${id(1)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } },
    });
    const { user } = renderApp(`/dashboards/library?orgId=${HOME_ORG_ID}`);
    const row = await screen.findByRole('row', { name: /Alert desk/ });
    expect(
      within(row).queryByRole('button', { name: 'Add Alert desk to my dashboards' }),
    ).not.toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Preview' }));

    expect(await screen.findByRole('heading', { name: 'Alert desk' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add to my dashboards' })).not.toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Time range' })).toHaveValue('Last 30 days');
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => String(url).endsWith(`/chart/${id(1)}/data`) && String(init?.body).includes('30D'),
        ),
      ).toBe(true),
    );
  });

  it('lets provider administrators copy the library to every customer', async () => {
    stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'TRAC_ADMIN'], true),
      [`GET ${base}/dashboards`]: {
        body: { items: [summary({ name: 'Alert desk', type: 'LIBRARY' })], total: 1 },
      },
      [`POST ${base}/dashboards/library/copy-to-customers`]: { body: { copied: 3, skipped: 2, orgs: 5 } },
    });
    const { user } = renderApp(`/dashboards/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Copy to all customers' }));
    expect(
      await screen.findByText('3 dashboard(s) copied to 5 customer(s); 2 already there.'),
    ).toBeInTheDocument();
  });
});

describe('library dashboards in preview and in the making', () => {
  const libraryDashboard = dashboard({ id: id(8), name: 'Alert desk', type: 'LIBRARY', orgId: null });

  it('adds the previewed library dashboard to the organisation and opens the copy', async () => {
    let copied = false;
    stubApi({
      ...withAccess(['DASHBOARD_EDIT']),
      [`GET ${base}/dashboard/${id(8)}`]: { body: libraryDashboard },
      [`POST ${base}/dashboard/${id(8)}/copy`]: () => {
        copied = true;
        return { status: 201, body: dashboard({ id: id(7), name: 'Alert desk' }) };
      },
      [`GET ${base}/dashboard/${id(7)}`]: { body: dashboard({ id: id(7), name: 'Alert desk' }) },
      [`POST ${base}/chart/${id(1)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } },
    });
    const { user, router } = renderApp(`/dashboards/${id(8)}/view?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Add to my dashboards' }));
    expect(await screen.findByText('Dashboard added from the library.')).toBeInTheDocument();
    expect(copied).toBe(true);
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboards/${id(7)}/view`));
    // The copy is the organisation's own: nothing more to add.
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Add to my dashboards' })).not.toBeInTheDocument(),
    );
  });

  it('lets provider administrators make a library dashboard of library charts', async () => {
    let saved: Record<string, unknown> | undefined;
    stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'CHART_VIEW', 'TRAC_ADMIN'], true),
      [`GET ${base}/dashboards`]: { body: { items: [], total: 0 } },
      [`GET ${base}/charts`]: ({ url }) => ({
        body: url.includes('library=true')
          ? { items: [chart(5, 'Library alerts')], total: 1 }
          : { items: [chart(6, 'Our alerts')], total: 1 },
      }),
      [`POST ${base}/dashboard`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { status: 201, body: { ...libraryDashboard, name: 'Starter' } };
      },
      [`GET ${base}/dashboard/${id(8)}`]: { body: { ...libraryDashboard, name: 'Starter' } },
      [`POST ${base}/chart/${id(1)}/data`]: { body: { begin: 'a', end: 'b', timeAxis: false, value: 7 } },
    });
    const { user, router } = renderApp(`/dashboards/library?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'New library dashboard' }));
    const dialog = await screen.findByRole('dialog', { name: 'Library dashboard' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Starter');
    await user.click(within(dialog).getByRole('combobox', { name: 'Charts' }));
    expect(await screen.findByRole('option', { name: 'Library alerts' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Our alerts' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Library alerts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    await waitFor(() =>
      expect(saved).toMatchObject({ name: 'Starter', library: true, tiles: [{ chartId: id(5), width: 1 }] }),
    );
    await waitFor(() => expect(router.state.location.pathname).toBe(`/dashboards/${id(8)}/view`));
  }, 30_000);

  it('offers no library dashboard to make to anyone but provider administrators', async () => {
    stubApi({
      ...withAccess(['DASHBOARD_EDIT', 'CHART_VIEW']),
      [`GET ${base}/dashboards`]: {
        body: { items: [summary({ id: id(8), name: 'Alert desk', type: 'LIBRARY' })], total: 1 },
      },
    });
    renderApp(`/dashboards/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('row', { name: /Alert desk/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New library dashboard' })).not.toBeInTheDocument();
  });
});
