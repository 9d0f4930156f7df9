import { screen, waitFor, within } from '@testing-library/react';
import type { Report, ReportSchedule, ReportTemplate } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID } from '../../test/session-fixtures';
import { chartFixture, dashboardAccess } from '../dashboards/test-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const id = (n: number) => `00000000-0000-4000-8000-00000000020${n}`;

const template = (n: number, name: string, charts: ReportTemplate['charts'] = []): ReportTemplate => ({
  id: id(n),
  name,
  description: '',
  charts,
  library: false,
  copiedFromId: null,
  createdByName: 'Ann Lee',
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
});

const report = (n: number, name: string, overrides: Partial<Report> = {}): Report => ({
  id: id(n),
  templateId: id(1),
  scheduleId: null,
  name,
  range: '7D',
  begin: '2026-03-01T00:00:00.000Z',
  end: '2026-03-08T00:00:00.000Z',
  state: 'COMPLETED',
  errorKey: null,
  size: 20_000,
  requestedByName: 'Ann Lee',
  requestedOn: '2026-03-08T00:00:00.000Z',
  completedOn: '2026-03-08T00:00:10.000Z',
  ...overrides,
});

const EDITOR = ['REPORT_VIEW', 'REPORT_EDIT', 'CHART_VIEW'];

describe('reports', () => {
  it('requests a report, shows it being built until it completes, and shows a failure', async () => {
    let requested: unknown;
    let calls = 0;
    stubApi({
      ...dashboardAccess(EDITOR),
      [`GET ${base}/report-templates`]: { body: { items: [template(1, 'Weekly SOC')], total: 1 } },
      [`GET ${base}/reports`]: () => {
        calls++;
        const items = [
          report(3, 'Monthly fraud', {
            state: 'FAILED',
            errorKey: 'REPORT_GENERATION_FAILED',
            size: null,
            completedOn: null,
          }),
        ];
        if (requested)
          items.unshift(report(2, 'Weekly SOC', calls < 4 ? { state: 'BUILDING', size: null } : {}));
        return { body: { items, total: items.length } };
      },
      [`POST ${base}/report`]: ({ init }) => {
        requested = JSON.parse(String(init?.body));
        return { status: 202, body: report(2, 'Weekly SOC', { state: 'REQUESTED', size: null }) };
      },
    });
    const { user } = renderApp(`/reports?orgId=${HOME_ORG_ID}`);
    const failed = await screen.findByRole('row', { name: /Monthly fraud/ });
    expect(within(failed).getByText('Failed')).toBeInTheDocument();
    expect(within(failed).getByText('There has been an error generating your report.')).toBeInTheDocument();
    expect(within(failed).queryByRole('button', { name: /Download/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Request report' }));
    const dialog = await screen.findByRole('dialog', { name: 'Request a report' });
    await user.click(within(dialog).getByRole('combobox', { name: /Template/ }));
    await user.click(await screen.findByRole('option', { name: 'Weekly SOC' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Range' }));
    await user.click(await screen.findByRole('option', { name: 'Last 30 days' }));
    await user.click(within(dialog).getByRole('button', { name: 'Request' }));

    await waitFor(() => expect(requested).toEqual({ templateId: id(1), range: '30D' }));
    const building = await screen.findByRole('row', { name: /Weekly SOC/ });
    expect(within(building).getByText('Building')).toBeInTheDocument();
    // The list is read again while a report is being built, until it is completed.
    await waitFor(
      () =>
        expect(
          within(screen.getByRole('row', { name: /Weekly SOC/ })).getByText('Completed'),
        ).toBeInTheDocument(),
      {
        timeout: 10_000,
      },
    );
    expect(screen.getByRole('button', { name: 'Download Weekly SOC' })).toBeInTheDocument();
  }, 30_000);

  it('shows the reports read-only without REPORT_EDIT', async () => {
    stubApi({
      ...dashboardAccess(['REPORT_VIEW']),
      [`GET ${base}/reports`]: { body: { items: [report(2, 'Weekly SOC')], total: 1 } },
    });
    renderApp(`/reports?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('button', { name: 'Download Weekly SOC' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Request report' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Delete Weekly SOC' })).not.toBeInTheDocument();
  });
});

describe('report schedules', () => {
  it('schedules a template for recipients, refusing what is not an address, and pauses it', async () => {
    let saved: unknown;
    let paused = '';
    const schedule = {
      id: id(7),
      templateId: id(1),
      templateName: 'Weekly SOC',
      range: 'LAST_WEEK' as const,
      frequency: 'WEEKLY' as const,
      recipients: ['soc@bank.example'],
      state: 'ACTIVE' as const,
      library: false,
      copiedFromId: null,
      nextRunAt: '2026-03-09T00:00:00.000Z',
      lastRunAt: null,
      lastRunState: null,
      createdByName: 'Ann Lee',
      createdOn: '2026-03-01T09:00:00.000Z',
    };
    stubApi({
      ...dashboardAccess(EDITOR),
      [`GET ${base}/reports`]: { body: { items: [], total: 0 } },
      [`GET ${base}/report-templates`]: { body: { items: [template(1, 'Weekly SOC')], total: 1 } },
      [`GET ${base}/report-schedules`]: () => ({
        body: saved ? { items: [schedule], total: 1 } : { items: [], total: 0 },
      }),
      [`POST ${base}/report-schedule`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { status: 201, body: schedule };
      },
      [`POST ${base}/report-schedule/${id(7)}/pause`]: () => {
        paused = id(7);
        return { body: { ...schedule, state: 'PAUSED' } };
      },
    });
    const { user } = renderApp(`/reports?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('tab', { name: 'Schedules' }));
    expect(await screen.findByText('No report schedules')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'Schedule a report' });
    await user.click(within(dialog).getByRole('combobox', { name: /Template/ }));
    await user.click(await screen.findByRole('option', { name: 'Weekly SOC' }));
    await user.click(within(dialog).getByRole('combobox', { name: 'Range' }));
    await user.click(await screen.findByRole('option', { name: 'Last week' }));
    const recipients = within(dialog).getByRole('combobox', { name: /Recipients/ });
    await user.type(recipients, 'not-an-address{enter}');
    expect(await within(dialog).findByText('not-an-address is not an e-mail address.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(recipients, '{backspace}soc@bank.example{enter}');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual({
        templateId: id(1),
        range: 'LAST_WEEK',
        frequency: 'WEEKLY',
        recipients: ['soc@bank.example'],
        library: false,
      }),
    );
    const row = await screen.findByRole('row', { name: /Weekly SOC/ });
    expect(within(row).getByText('soc@bank.example')).toBeInTheDocument();
    await user.click(within(row).getByRole('button', { name: 'Pause the schedule of Weekly SOC' }));
    await waitFor(() => expect(paused).toBe(id(7)));
  }, 30_000);
});

describe('library report schedules', () => {
  const offered: ReportSchedule = {
    id: id(8),
    templateId: id(9),
    templateName: 'Provider weekly digest',
    range: '7D',
    frequency: 'WEEKLY',
    recipients: [],
    state: 'NOT_COPIED',
    library: false,
    copiedFromId: id(6),
    nextRunAt: null,
    lastRunAt: null,
    lastRunState: null,
    createdByName: null,
    createdOn: '2026-03-01T09:00:00.000Z',
  };

  it('shows a library schedule as not copied until it is copied to the organisation with its recipients', async () => {
    let activated: unknown;
    stubApi({
      ...dashboardAccess(EDITOR),
      [`GET ${base}/reports`]: { body: { items: [], total: 0 } },
      [`GET ${base}/report-schedules`]: ({ url }) => {
        if (url.includes('library=true')) {
          return { body: { items: [{ ...offered, id: id(6), library: true, state: 'ACTIVE' }], total: 1 } };
        }
        const item = activated
          ? {
              ...offered,
              state: 'ACTIVE',
              recipients: ['soc@bank.example'],
              nextRunAt: '2026-03-09T00:00:00.000Z',
            }
          : offered;
        return { body: { items: [item], total: 1 } };
      },
      [`POST ${base}/report-schedule/${id(8)}/activate`]: ({ init }) => {
        activated = JSON.parse(String(init?.body));
        return { body: { ...offered, state: 'ACTIVE', recipients: ['soc@bank.example'] } };
      },
    });
    const { user } = renderApp(`/reports?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('tab', { name: 'Schedules' }));
    const row = await screen.findByRole('row', { name: /Provider weekly digest/ });
    expect(within(row).getByText('Not copied')).toBeInTheDocument();
    expect(within(row).getByText('Added when copied')).toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Pause/ })).not.toBeInTheDocument();
    expect(within(row).queryByRole('button', { name: /Edit/ })).not.toBeInTheDocument();

    await user.click(
      within(row).getByRole('button', {
        name: 'Copy the schedule of Provider weekly digest to my organisation',
      }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Copy to my organisation' });
    const copy = within(dialog).getByRole('button', { name: 'Copy to my organisation' });
    expect(copy).toBeDisabled();
    await user.type(within(dialog).getByRole('combobox', { name: /Recipients/ }), 'soc@bank.example{enter}');
    await user.click(copy);
    await waitFor(() => expect(activated).toEqual({ recipients: ['soc@bank.example'] }));
    expect(await screen.findByText('Report schedule copied to your organisation.')).toBeInTheDocument();
    const copied = await screen.findByRole('row', { name: /Provider weekly digest/ });
    await waitFor(() => expect(within(copied).getByText('Active')).toBeInTheDocument());
    expect(within(copied).getByRole('button', { name: /Pause the schedule/ })).toBeInTheDocument();

    // The library view: what the provider offers, managed by provider administrators only.
    await user.click(screen.getByRole('radio', { name: 'Library' }));
    const libraryRow = await screen.findByRole('row', { name: /Offered/ });
    expect(within(libraryRow).getByText('Provider weekly digest')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New library schedule' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Copy to all customers' })).not.toBeInTheDocument();
    expect(within(libraryRow).queryByRole('button', { name: /Delete/ })).not.toBeInTheDocument();
  }, 30_000);
});

describe('report templates', () => {
  it('builds a template by picking charts and putting them in order', async () => {
    let saved: unknown;
    stubApi({
      ...dashboardAccess(EDITOR),
      [`GET ${base}/report-templates`]: { body: { items: [], total: 0 } },
      [`GET ${base}/charts`]: {
        body: {
          items: [chartFixture(id(5), 'Logins by host'), chartFixture(id(6), 'Alerts by severity')],
          total: 2,
        },
      },
      [`POST ${base}/report-template`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { status: 201, body: template(1, 'Board pack') };
      },
    });
    const { user } = renderApp(`/reports/templates/list?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No report templates yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New template' }));
    const dialog = await screen.findByRole('dialog', { name: 'New report template' });
    expect(within(dialog).getByText('A template needs at least one chart.')).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Board pack');
    const picker = within(dialog).getByRole('combobox', { name: /Add a chart/ });
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Logins by host' }));
    await user.click(picker);
    await user.click(await screen.findByRole('option', { name: 'Alerts by severity' }));
    await user.click(within(dialog).getByRole('button', { name: 'Move Alerts by severity up' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual({
        name: 'Board pack',
        description: '',
        chartIds: [id(6), id(5)],
        library: false,
      }),
    );
  });

  it('lets provider administrators build library templates of library charts', async () => {
    let saved: unknown;
    stubApi({
      ...dashboardAccess([...EDITOR, 'TRAC_ADMIN'], true),
      [`GET ${base}/report-templates`]: ({ url }) => ({
        body: url.includes('library=true')
          ? { items: [], total: 0 }
          : { items: [{ ...template(2, 'Our pack'), copiedFromId: id(9) }], total: 1 },
      }),
      [`GET ${base}/charts`]: ({ url }) => ({
        body: url.includes('library=true')
          ? { items: [chartFixture(id(5), 'Library alerts', { library: true })], total: 1 }
          : { items: [chartFixture(id(6), 'Our alerts')], total: 1 },
      }),
      [`POST ${base}/report-template`]: ({ init }) => {
        saved = JSON.parse(String(init?.body));
        return { status: 201, body: { ...template(3, 'Starter'), library: true } };
      },
    });
    const { user } = renderApp(`/reports/templates/list?orgId=${HOME_ORG_ID}`);
    const ours = await screen.findByRole('row', { name: /Our pack/ });
    expect(within(ours).getByText('From the library')).toBeInTheDocument();
    await user.click(screen.getByRole('radio', { name: 'Library' }));
    await user.click(await screen.findByRole('button', { name: 'New library template' }));
    const dialog = await screen.findByRole('dialog', { name: 'Library report template' });
    await user.type(within(dialog).getByRole('textbox', { name: /Name/ }), 'Starter');
    await user.click(within(dialog).getByRole('combobox', { name: /Add a chart/ }));
    expect(screen.queryByRole('option', { name: 'Our alerts' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Library alerts' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(saved).toEqual({ name: 'Starter', description: '', chartIds: [id(5)], library: true }),
    );
  }, 30_000);
});
