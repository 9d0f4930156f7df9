import { screen, waitFor, within } from '@testing-library/react';
import type { Chart } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { chartFixture, dashboardAccess } from '../dashboards/test-fixtures';
import { savedQueryFixture } from '../triggers/test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const id = (n: number) => `00000000-0000-4000-8000-00000000010${n}`;
const chart = (n: number, name: string, overrides: Partial<Chart> = {}) =>
  chartFixture(id(n), name, { modifiedOn: `2026-03-0${n}T09:00:00.000Z`, ...overrides });

const EDITOR = [
  'CHART_VIEW',
  'CHART_EDIT',
  'EVENT_VIEW',
  'EVENT_EDIT',
  'SAVED_SEARCH_VIEW',
  'SAVED_SEARCH_EDIT',
];
const withAccess = (permissions: string[]) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

describe('charts list', () => {
  it('lists charts with their type and source, and reports a partly failed bulk delete', async () => {
    const charts = [
      chart(1, 'Events by data source', { type: 'line' }),
      chart(2, 'Alerts by severity', { family: 'ALERT_COUNTS', type: 'pie' }),
      chart(3, 'Failed logins', { type: 'badge' }),
    ];
    let deleteBody: unknown;
    stubApi({
      ...withAccess(EDITOR),
      [`GET ${base}/charts`]: { body: { items: charts, total: 3 } },
      [`POST ${base}/charts/bulk-delete`]: ({ init }) => {
        deleteBody = JSON.parse(String(init?.body));
        return { body: { deleted: 1, failed: 1, failedIds: [id(2)] } };
      },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Charts' })).toBeInTheDocument();
    const row = await screen.findByRole('row', { name: /Alerts by severity/ });
    expect(within(row).getByText('Pie')).toBeInTheDocument();
    expect(within(row).getByText('Alert counts by severity')).toBeInTheDocument();

    await user.click(screen.getByRole('checkbox', { name: 'Select Events by data source' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Alerts by severity' }));
    await user.click(screen.getByRole('button', { name: 'Delete 2 charts' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete charts' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    expect(
      await screen.findByText(
        'Deleting 1 chart(s) succeeded, but another 1 chart(s) failed. They may have been modified by another user.',
      ),
    ).toBeInTheDocument();
    expect(deleteBody).toEqual({
      items: [
        { id: id(1), modifiedOn: '2026-03-01T09:00:00.000Z' },
        { id: id(2), modifiedOn: '2026-03-02T09:00:00.000Z' },
      ],
    });
  });

  it('restores a deleted chart from the Deleted view', async () => {
    let restored = '';
    stubApi({
      ...withAccess(EDITOR),
      [`GET ${base}/charts`]: ({ url }) => ({
        body: url.includes('state=DELETED')
          ? {
              items: [chart(4, 'Old trend', { state: 'DELETED', family: 'ALERT_TRENDS', type: 'line' })],
              total: 1,
            }
          : { items: [], total: 0 },
      }),
      [`POST ${base}/chart/${id(4)}/restore`]: ({ url }) => {
        restored = url;
        return { body: chart(4, 'Old trend', { family: 'ALERT_TRENDS', type: 'line' }) };
      },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('No charts yet')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Deleted' }));
    await user.click(await screen.findByRole('button', { name: 'Restore Old trend' }));
    await waitFor(() => expect(restored).toBe(`${base}/chart/${id(4)}/restore`));
    expect(await screen.findByText('Chart restored.')).toBeInTheDocument();
  });

  it('shows the catalogue text of a refused chart', async () => {
    stubApi({
      ...withAccess(EDITOR),
      [`GET ${base}/charts`]: { body: { items: [], total: 0 } },
      [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
      [`POST ${base}/chart`]: { status: 400, body: apiError('CHART_NEEDS_ONE_NON_AGGREGATE_QUERY') },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'New chart' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Failed logins');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/Badge, events table and map charts need exactly one non-aggregate query/),
    ).toBeInTheDocument();
  });

  it('creates an incident list of up to 1000 rows without asking for queries or a domain', async () => {
    let created: Record<string, unknown> | undefined;
    stubApi({
      ...withAccess(EDITOR),
      [`GET ${base}/charts`]: { body: { items: [], total: 0 } },
      [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
      [`POST ${base}/chart`]: ({ init }) => {
        created = JSON.parse(String(init?.body));
        return { status: 201, body: chart(5, 'Open incidents', { family: 'INCIDENT_LIST', type: 'table' }) };
      },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'New chart' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Open incidents');
    await user.click(within(dialog).getByRole('combobox', { name: 'Data source' }));
    await user.click(await screen.findByRole('option', { name: 'Incident list' }));
    expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveValue('Table');
    expect(
      within(dialog).queryByRole('combobox', { name: 'Saved or library queries' }),
    ).not.toBeInTheDocument();
    const rows = within(dialog).getByRole('textbox', { name: 'Rows shown (1 to 1,000)' });
    await user.clear(rows);
    await user.type(rows, '1000');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toBeDefined());
    expect(created).toMatchObject({
      family: 'INCIDENT_LIST',
      type: 'table',
      rowLimit: 1000,
      savedQueryIds: [],
    });
  });

  it('offers no changes to a chart viewer', async () => {
    stubApi({
      ...withAccess(['CHART_VIEW', 'CHART_EDIT']),
      [`GET ${base}/charts`]: { body: { items: [chart(1, 'Events by data source')], total: 1 } },
    });
    renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('row', { name: /Events by data source/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New chart' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Events by data source' })).not.toBeInTheDocument();
  });
});

describe('library charts', () => {
  const listing = ({ url }: { url: string }) => ({
    body: url.includes('library=true')
      ? { items: [chart(7, 'Library alerts', { library: true, orgId: null, editable: false })], total: 1 }
      : { items: [chart(1, 'Our alerts', { copiedFromId: id(7) })], total: 1 },
  });

  it('lets provider administrators make library charts of library queries', async () => {
    let created: Record<string, unknown> | undefined;
    stubApi({
      ...dashboardAccess([...EDITOR, 'TRAC_ADMIN'], true),
      [`GET ${base}/charts`]: listing,
      [`GET ${base}/saved-queries`]: {
        body: {
          items: [savedQueryFixture(id(8), 'Our logins'), savedQueryFixture(id(9), 'Library logins', true)],
          total: 2,
        },
      },
      [`POST ${base}/chart`]: ({ init }) => {
        created = JSON.parse(String(init?.body));
        return { status: 201, body: chart(8, 'Starter logins', { library: true, orgId: null }) };
      },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    const ours = await screen.findByRole('row', { name: /Our alerts/ });
    expect(within(ours).getByText('From the library')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Library' }));
    expect(await screen.findByRole('row', { name: /Library alerts/ })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New library chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'Library chart' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Starter logins');
    await user.click(within(dialog).getByRole('combobox', { name: 'Saved or library queries' }));
    expect(await screen.findByRole('option', { name: 'Library logins' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Our logins' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Library logins' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(created).toMatchObject({
        name: 'Starter logins',
        family: 'SAVED_QUERIES',
        savedQueryIds: [id(9)],
        library: true,
      }),
    );
  }, 30_000);

  it('shows the library read-only to everyone else', async () => {
    stubApi({ ...withAccess(EDITOR), [`GET ${base}/charts`]: listing });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('button', { name: 'New chart' })).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Library' }));
    expect(await screen.findByRole('row', { name: /Library alerts/ })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New library chart' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New chart' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Library alerts' })).not.toBeInTheDocument();
    expect(screen.queryByRole('checkbox', { name: 'Select Library alerts' })).not.toBeInTheDocument();
  });
});

describe('premium-only data sources', () => {
  const premiumAccess = (productSkus: string[]) => ({
    ...signedInRoutes,
    ...orgShellRoutes(
      orgContextOf(HOME_ORG_ID, 'Provider', {
        permissions: ['DASHBOARD_VIEW', ...EDITOR],
        org: { productSkus: productSkus as never },
      }),
    ),
    [`GET ${base}/charts`]: { body: { items: [], total: 0 } },
    [`GET ${base}/saved-queries`]: { body: { items: [], total: 0 } },
  });

  it('badges premium-only sources and offers them only with Reporting Premium', async () => {
    stubApi(premiumAccess([]));
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'New chart' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Data source' }));
    const funnel = await screen.findByRole('option', { name: /Alert activity funnel/ });
    expect(within(funnel).getByText('Premium Only')).toBeInTheDocument();
    expect(funnel).toHaveAttribute('data-combobox-disabled', 'true');
    const counts = screen.getByRole('option', { name: /Alert counts by severity/ });
    expect(within(counts).queryByText('Premium Only')).not.toBeInTheDocument();
    expect(counts).not.toHaveAttribute('data-combobox-disabled');
  });

  it('lets a Reporting Premium organisation pick one, saying what it needs', async () => {
    let created: Record<string, unknown> | undefined;
    stubApi({
      ...premiumAccess(['REPORTING_PREMIUM']),
      [`POST ${base}/chart`]: ({ init }) => {
        created = JSON.parse(String(init?.body));
        return { status: 201, body: chart(6, 'Funnel', { family: 'ACTIVITY_FUNNEL', type: 'bar' }) };
      },
    });
    const { user } = renderApp(`/reports/charts/list?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New chart' }));
    const dialog = await screen.findByRole('dialog', { name: 'New chart' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Funnel');
    await user.click(within(dialog).getByRole('combobox', { name: 'Data source' }));
    const funnel = await screen.findByRole('option', { name: /Alert activity funnel/ });
    expect(funnel).not.toHaveAttribute('data-combobox-disabled');
    await user.click(funnel);
    expect(
      within(dialog).getByText(
        'A Premium Only data source: it draws in organisations with Reporting Premium.',
      ),
    ).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(created).toMatchObject({ family: 'ACTIVITY_FUNNEL', type: 'bar' }));
  });
});
