import { screen, waitFor, within } from '@testing-library/react';
import type { LibraryStats, LibraryTrigger, PersonSummary, Trigger } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
  signedInWithClientRoutes,
} from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { savedQueryFixture, triggerFixture } from './test-fixtures';

/** The search field of a multi-select (beside it, the hidden input that carries its value). */
const multiSelect = (container: HTMLElement, label: string | RegExp) =>
  within(container)
    .getAllByLabelText(label)
    .find((element) => element.getAttribute('type') !== 'hidden')!;

const LIBRARY_ID = '0a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const COMPACT_ID = '0a1b2c3d4e5f4a6b8c7d0e1f2a3b4c5d';
const GROUP_ID = '11111111-2222-4333-8444-555555555555';
const client = `/api/org/${CLIENT_ORG_ID}`;

const trigger = (overrides: Partial<Trigger> = {}): Trigger =>
  triggerFixture({
    name: 'Brute-force logins',
    description: 'Five failed sign-ins of one user within ten minutes.',
    savedQueryName: 'Failed sign-ins',
    managedBy: 'OPS',
    nextRunAt: null,
    ...overrides,
  });

const libraryTrigger = (overrides: Partial<LibraryTrigger> = {}): LibraryTrigger => ({
  ...trigger({ id: LIBRARY_ID, orgId: null, version: 2 }),
  groupId: GROUP_ID,
  groupName: 'Identity and access',
  copyCount: 3,
  copyHereId: null,
  resyncAnalysedAt: null,
  ...overrides,
});

const library = (triggers: LibraryTrigger[]) => ({
  groups: [
    {
      id: GROUP_ID,
      domain: 'security',
      name: 'Identity and access',
      description: 'Sign-in abuse',
      baseQuery: 'data_source:windows-security',
      createdOn: '2026-03-01T09:00:00.000Z',
      triggers,
    },
  ],
});

const providerAdmin = (
  permissions: string[] = ['TRAC_ADMIN', 'TRAC_USER', 'TRIGGER_VIEW', 'TRIGGER_EDIT'],
) => ({
  ...signedInWithClientRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] }),
  ),
});

describe('trigger library page', () => {
  it('shows the groups with their base query and copies, and creates a group after a refused base query', async () => {
    let attempts = 0;
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/trigger-library`]: { body: library([libraryTrigger()]) },
      [`POST ${base}/trigger-library/group`]: () =>
        ++attempts === 1
          ? {
              status: 400,
              body: {
                ...apiError('TRIGGER_LIBRARY_INVALID_BASE_QUERY'),
                params: { position: 5, message: 'Unclosed group' },
              },
            }
          : {
              status: 201,
              body: { ...library([]).groups[0], id: 'g2', name: 'Payments', triggers: undefined },
            },
    });
    const { user } = renderApp(`/triggers/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Trigger library' })).toBeInTheDocument();
    const group = await screen.findByRole('region', { name: 'Identity and access' });
    expect(within(group).getByText('data_source:windows-security')).toBeInTheDocument();
    const row = within(group).getByText('Brute-force logins').closest('tr')!;
    expect(within(row).getByText('3')).toBeInTheDocument();
    expect(within(row).getByRole('link', { name: 'Statistics of Brute-force logins' })).toHaveAttribute(
      'href',
      expect.stringContaining(`/triggers/${COMPACT_ID}/stats`),
    );

    await user.click(screen.getByRole('button', { name: 'New group' }));
    const dialog = await screen.findByRole('dialog', { name: 'New library group' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Group name' }), 'Payments');
    await user.type(within(dialog).getByRole('textbox', { name: 'Base query' }), 'host:(');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('Invalid base query at position 5: Unclosed group'),
    ).toBeInTheDocument();
    const baseQuery = within(dialog).getByRole('textbox', { name: 'Base query' });
    await user.clear(baseQuery);
    await user.type(baseQuery, 'data_source:core-banking');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New library group' })).not.toBeInTheDocument(),
    );
    const posts = fetchMock.mock.calls.filter(
      ([url, init]) => url === `${base}/trigger-library/group` && init?.method === 'POST',
    );
    expect(requestBody(posts[1]?.[1])).toEqual({
      domain: 'security',
      name: 'Payments',
      description: '',
      baseQuery: 'data_source:core-banking',
    });
  });

  it('copies a library trigger to the chosen organisations and reports the skipped ones', async () => {
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/trigger-library`]: { body: library([libraryTrigger()]) },
      [`POST ${base}/trigger-library/trigger/${LIBRARY_ID}/copy`]: {
        body: {
          copied: [],
          skipped: [
            { orgId: CLIENT_ORG_ID, orgName: 'Acme Bank', reason: 'ALREADY_COPIED', triggerId: 'c1' },
          ],
        },
      },
    });
    const { user } = renderApp(`/triggers/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Copy Brute-force logins to organisations' }));
    const dialog = await screen.findByRole('dialog', { name: 'Copy Brute-force logins' });
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(within(dialog).getByText('Choose at least one organisation.')).toBeInTheDocument();
    await user.click(multiSelect(dialog, /^Organisations/));
    await user.click(await screen.findByRole('option', { name: 'Acme Bank' }));
    await user.click(within(dialog).getByRole('button', { name: 'Copy' }));
    expect(await within(dialog).findByText('Copied to 0 organisations.')).toBeInTheDocument();
    expect(within(dialog).getByText('Acme Bank: it already holds a copy')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/copy'));
    expect(requestBody(post?.[1])).toEqual({ orgIds: [CLIENT_ORG_ID], managedBy: 'OPS' });
  });

  it("shows a bank whether it holds a copy, without the provider's tools", async () => {
    stubApi({
      ...signedInWithClientRoutes,
      ...orgShellRoutes(
        orgContextOf(CLIENT_ORG_ID, 'Acme Bank', {
          permissions: ['DASHBOARD_VIEW', 'TRIGGER_VIEW', 'TRIGGER_EDIT'],
        }),
      ),
      [`GET ${client}/trigger-library`]: {
        body: library([
          libraryTrigger({ copyHereId: 'c1', copyCount: 1 }),
          libraryTrigger({ id: 'l2', name: 'Impossible travel', copyCount: 0 }),
        ]),
      },
    });
    renderApp(`/triggers/library?orgId=${CLIENT_ORG_ID}`);
    const copied = (await screen.findByText('Brute-force logins')).closest('tr')!;
    expect(within(copied).getByText('Copied')).toBeInTheDocument();
    const notCopied = screen.getByText('Impossible travel').closest('tr')!;
    expect(within(notCopied).getByText('Not copied')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New group' })).not.toBeInTheDocument();
    expect(screen.queryByRole('link', { name: /Statistics of/ })).not.toBeInTheDocument();
  });

  it('serves the fraud library at /fraud/library and old /triggers/default addresses at the library', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', {
          permissions: ['DASHBOARD_VIEW', 'TRIGGER_VIEW'],
          org: { productSkus: ['CYBERFRAUD_STANDARD'] },
        }),
      ),
      [`GET ${base}/trigger-library`]: { body: { groups: [] } },
    });
    renderApp(`/fraud/library?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Fraud trigger library' })).toBeInTheDocument();
    expect(await screen.findByText('The library is empty')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('trigger-library?domain=fraud'))).toBe(
      true,
    );
  });

  it('lets the provider reach its fraud library without a fraud product of its own', async () => {
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/trigger-library`]: { body: library([libraryTrigger()]) },
    });
    const { user } = renderApp(`/triggers/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('link', { name: 'Fraud trigger library' }));
    expect(await screen.findByRole('heading', { name: 'Fraud trigger library' })).toBeInTheDocument();
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('trigger-library?domain=fraud'))).toBe(
        true,
      ),
    );
  });

  it('redirects /triggers/default to the trigger library', async () => {
    stubApi({
      ...providerAdmin(['TRIGGER_VIEW']),
      [`GET ${base}/trigger-library`]: { body: library([libraryTrigger()]) },
    });
    renderApp(`/triggers/default?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Trigger library' })).toBeInTheDocument();
    expect(await screen.findByText('Brute-force logins')).toBeInTheDocument();
  });
});

const stats = (overrides: Partial<LibraryStats> = {}): LibraryStats => ({
  trigger: libraryTrigger({ resyncAnalysedAt: '2026-03-02T10:00:00.000Z' }),
  copies: [
    {
      orgId: CLIENT_ORG_ID,
      orgName: 'Acme Bank',
      triggerId: 'c1',
      name: 'Brute-force logins',
      state: 'ACTIVE',
      severity: 'MEDIUM',
      labels: ['identity'],
      managedBy: 'OPS',
      libraryVersion: 1,
      upToDate: false,
      differences: ['severity', 'matches'],
      alertsLast30Days: 4,
    },
  ],
  counts: { active: 1, paused: 0, disabled: 0 },
  alertsLast30Days: 4,
  ...overrides,
});

describe('library statistics page', () => {
  it('shows the copies, their differences and alerts, and resyncs the chosen fields', async () => {
    let analysed = false;
    const fetchMock = stubApi({
      ...providerAdmin(),
      [`GET ${base}/trigger-library/trigger/${LIBRARY_ID}/stats`]: { body: stats() },
      [`POST ${base}/trigger-library/trigger/${LIBRARY_ID}/resync`]: () =>
        analysed
          ? { body: { synced: [{ orgId: CLIENT_ORG_ID, triggerId: 'c1' }] } }
          : { status: 409, body: apiError('TRIGGER_RESYNC_NO_ANALYSIS_RUN', 'ConflictException') },
    });
    const { user } = renderApp(`/triggers/${COMPACT_ID}/stats?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Library statistics' })).toBeInTheDocument();
    expect(within(await screen.findByLabelText('Alerts (last 30 days)')).getByText('4')).toBeInTheDocument();
    expect(within(screen.getByLabelText('Active copies')).getByText('1')).toBeInTheDocument();
    const row = screen.getByRole('cell', { name: 'Acme Bank' }).closest('tr')!;
    expect(within(row).getByText('Out of date')).toBeInTheDocument();
    expect(within(row).getByText('Severity, Minimum and maximum matches')).toBeInTheDocument();

    expect(screen.getByRole('button', { name: 'Resync selected' })).toBeDisabled();
    await user.click(within(row).getByRole('checkbox', { name: 'Select the copy of Acme Bank' }));
    await user.click(screen.getByRole('button', { name: 'Resync selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Resync 1 copy' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Severity' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Minimum and maximum matches' }));
    await user.click(within(dialog).getByRole('button', { name: 'Resync selected' }));
    expect(
      await screen.findByText(
        'No resync analysis has been run for this library trigger. Run the analysis first.',
        {
          exact: false,
        },
      ),
    ).toBeInTheDocument();
    analysed = true;
    await user.click(within(dialog).getByRole('button', { name: 'Resync selected' }));
    expect(await screen.findByText('1 copy was resynced.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.filter(([url]) => String(url).endsWith('/resync')).at(-1);
    expect(requestBody(post?.[1])).toEqual({ triggerIds: ['c1'], fields: ['severity', 'matches'] });
  });

  it('bulk edits the copies and reports organisations the user is not authorised for', async () => {
    const fetchMock = stubApi({
      ...providerAdmin(['TRAC_USER', 'TRIGGER_VIEW', 'TRIGGER_EDIT']),
      [`GET ${base}/trigger-library/trigger/${LIBRARY_ID}/stats`]: { body: stats() },
      [`POST ${base}/trigger-library/trigger/${LIBRARY_ID}/bulk-edit`]: {
        body: {
          changed: [{ orgId: CLIENT_ORG_ID, triggerId: 'c1' }],
          failed: [],
          notAuthorisedOrgIds: ['someone-else'],
          key: 'TRIGGER_BULK_EDIT_NOT_AUTHORISED_SOME_ORGS',
        },
      },
    });
    const { user } = renderApp(`/triggers/${COMPACT_ID}/stats?orgId=${HOME_ORG_ID}`);
    // Without TRAC_ADMIN there is no resync, but staff may bulk edit.
    await screen.findByRole('cell', { name: 'Acme Bank' });
    expect(screen.queryByRole('button', { name: 'Resync selected' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Select every copy' }));
    await user.click(screen.getByRole('button', { name: 'Bulk edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change the copies in several organisations' });
    await user.click(within(dialog).getByRole('combobox', { name: 'State' }));
    await user.click(await screen.findByRole('option', { name: 'Paused' }));
    await user.click(within(dialog).getByRole('button', { name: 'Apply' }));
    expect(await within(dialog).findByText('1 organisation was changed.')).toBeInTheDocument();
    expect(
      within(dialog).getByText(
        'You are not authorised for some organisations (1); their triggers were not changed.',
      ),
    ).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/bulk-edit'));
    expect(requestBody(post?.[1])).toEqual({ orgIds: [CLIENT_ORG_ID], changes: { state: 'PAUSED' } });
  });

  it('is for provider staff only', async () => {
    const fetchMock = stubApi({ ...providerAdmin(['TRIGGER_VIEW']) });
    renderApp(`/triggers/${COMPACT_ID}/stats?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/stats'))).toBe(false);
  });
});

const person = (id: string, fullName: string, homeOrgId = HOME_ORG_ID, active = true): PersonSummary => ({
  id,
  fullName,
  active,
  roleId: 'r1',
  homeOrgId,
});

const savedQuery = savedQueryFixture;

describe('trigger editor', () => {
  it("picks the ticket owner and watchers among the organisation's own active users", async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', {
          permissions: ['DASHBOARD_VIEW', 'TRIGGER_VIEW', 'TRIGGER_EDIT', 'SAVED_SEARCH_VIEW'],
        }),
      ),
      [`GET ${base}/triggers`]: { body: { items: [trigger({ managedBy: 'CLIENT' })], total: 1 } },
      [`GET ${base}/saved-queries`]: { body: { items: [savedQuery('q1', 'Failed sign-ins')], total: 1 } },
      [`GET ${base}/trigger-schedules`]: { body: { items: [], total: 0 } },
      [`GET ${base}/user/summary`]: {
        body: [
          person('u1', 'Dana Lee'),
          person('u2', 'Sam Ortiz'),
          person('u3', 'Former Analyst', HOME_ORG_ID, false),
          person('u4', 'Visiting Engineer', CLIENT_ORG_ID),
        ],
      },
      [`PUT ${base}/trigger/t1`]: ({ init }) => ({ body: trigger({ ...requestBody(init) }) }),
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Brute-force logins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit trigger' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Ticket owner' }));
    expect(await screen.findByRole('option', { name: 'Sam Ortiz' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Former Analyst' })).not.toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Visiting Engineer' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('option', { name: 'Dana Lee' }));
    await user.click(multiSelect(dialog, 'Watchers'));
    await user.click(await screen.findByRole('option', { name: 'Sam Ortiz' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit trigger' })).not.toBeInTheDocument(),
    );
    const put = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/trigger/t1` && init?.method === 'PUT',
    );
    expect(requestBody(put?.[1])).toMatchObject({ ticketOwnerId: 'u1', watcherIds: ['u2'] });
  });

  it('offers library triggers only library queries and no people', async () => {
    const fetchMock = stubApi({
      ...providerAdmin([...['TRAC_ADMIN', 'TRAC_USER', 'TRIGGER_VIEW', 'TRIGGER_EDIT'], 'SAVED_SEARCH_VIEW']),
      [`GET ${base}/trigger-library`]: { body: library([]) },
      [`GET ${base}/saved-queries`]: {
        body: {
          items: [savedQuery('q1', 'Provider only'), savedQuery('q2', 'Failed sign-ins', true)],
          total: 2,
        },
      },
      [`POST ${base}/trigger-library/trigger`]: {
        status: 201,
        body: libraryTrigger(),
      },
    });
    const { user } = renderApp(`/triggers/library?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'New library trigger' }));
    const dialog = await screen.findByRole('dialog', { name: 'New library trigger' });
    expect(within(dialog).queryByRole('combobox', { name: 'Ticket owner' })).not.toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox', { name: 'Schedule' })).not.toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Brute-force logins');
    await user.click(within(dialog).getByRole('combobox', { name: 'Saved query' }));
    expect(screen.queryByRole('option', { name: 'Provider only' })).not.toBeInTheDocument();
    await user.click(await screen.findByRole('option', { name: 'Failed sign-ins' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Minimum matches' }), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New library trigger' })).not.toBeInTheDocument(),
    );
    const post = fetchMock.mock.calls.find(([url]) => url === `${base}/trigger-library/trigger`);
    const body = requestBody(post?.[1]);
    expect(body).toMatchObject({ groupId: GROUP_ID, savedQueryId: 'q2', minMatch: 5 });
    expect(body).not.toHaveProperty('ticketOwnerId');
    expect(body).not.toHaveProperty('domain');
  });
});
