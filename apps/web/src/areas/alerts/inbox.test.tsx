import { act, screen, waitFor, within } from '@testing-library/react';
import {
  ALERT_VIEWED_AFTER_MS,
  resolveFeatureFlags,
  type Alert,
  type AlertDetail,
  type ProductSku,
} from '@vigil/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';

const alert = (overrides: Partial<Alert> = {}): Alert => ({
  id: 'a1',
  domain: 'security',
  kind: 'TRIGGER',
  triggerId: 't1',
  triggerName: 'Brute-force logins',
  title: 'Brute-force logins: 42 failures for j.smith',
  state: 'NEW',
  severity: 'HIGH',
  firedAt: '2026-03-01T09:00:00.000Z',
  windowStart: null,
  windowEnd: null,
  matchCount: 42,
  groupKey: 'brute:j.smith',
  eventCount: 2,
  details: {},
  fraudType: null,
  fraudCertainty: null,
  dismissalReason: null,
  dismissalNotes: null,
  ticketId: null,
  ticketSlug: null,
  stateChangedAt: null,
  escalatedAt: null,
  dismissedAt: null,
  flaggedAt: null,
  viewed: false,
  ...overrides,
});

const detail = (overrides: Partial<AlertDetail> = {}): AlertDetail => ({
  ...alert(),
  history: [],
  viewers: [],
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

const EDIT = ['ALERT_INBOX_VIEW', 'ALERT_INBOX_EDIT'];
const listOf = (items: Alert[]) => ({ body: { view: 'alert', items, total: items.length } });
const inboxCalls = (fetchMock: ReturnType<typeof stubApi>) =>
  fetchMock.mock.calls.map(([url]) => String(url)).filter((url) => url.startsWith(`${base}/alerts?`));

afterEach(() => {
  vi.useRealTimers();
});

describe('alert inbox', () => {
  it('lists new alerts, switches state tabs, offers only valid sorts and sends filters', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/alerts`]: ({ url }) =>
        url.includes('state=DISMISSED')
          ? listOf([])
          : listOf([alert(), alert({ id: 'a2', title: 'Impossible travel' })]),
    });
    const { user } = renderApp(`/alerts?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Impossible travel')).toBeInTheDocument();
    expect(inboxCalls(fetchMock)[0]).toContain('domain=security');
    expect(inboxCalls(fetchMock)[0]).toContain('state=NEW');
    expect(screen.queryByRole('tab', { name: 'Fraud flagged' })).not.toBeInTheDocument();

    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    expect(screen.getByRole('option', { name: 'Severity' })).toBeInTheDocument();
    expect(screen.queryByRole('option', { name: 'Last dismissed' })).not.toBeInTheDocument();
    await user.keyboard('{Escape}');

    await user.click(screen.getByRole('tab', { name: 'Dismissed' }));
    expect(await screen.findByText('No alerts')).toBeInTheDocument();
    await user.click(screen.getByRole('combobox', { name: 'Sort by' }));
    await user.click(screen.getByRole('option', { name: 'Last dismissed' }));
    await waitFor(() => expect(inboxCalls(fetchMock).at(-1)).toContain('sort=dismissed'));

    await user.type(screen.getByRole('textbox', { name: 'Filter' }), 'severity:HIGH{Enter}');
    await waitFor(() => expect(inboxCalls(fetchMock).at(-1)).toContain('filter=severity%3AHIGH'));
    await user.click(screen.getByRole('button', { name: 'Remove filter severity:HIGH' }));
    await waitFor(() => expect(inboxCalls(fetchMock).at(-1)).not.toContain('filter='));
  });

  it('shows the trigger and story views', async () => {
    stubApi({
      ...withAccess(['ALERT_INBOX_VIEW']),
      [`GET ${base}/alerts`]: ({ url }) => {
        if (url.includes('view=trigger')) {
          return {
            body: {
              view: 'trigger',
              total: 1,
              items: [
                {
                  triggerId: 't1',
                  kind: 'TRIGGER',
                  name: 'Large wire transfer',
                  counts: { NEW: 3, ACKED: 1, ESCALATED: 0, DISMISSED: 2, FRAUD_FLAGGED: 0 },
                  total: 6,
                  latestFiredAt: '2026-03-01T09:00:00.000Z',
                },
              ],
            },
          };
        }
        if (url.includes('view=story')) {
          return {
            body: {
              view: 'story',
              total: 1,
              items: [
                {
                  groupKey: 'brute:j.smith',
                  title: 'Brute-force logins',
                  severity: 'HIGH',
                  count: 4,
                  firstFiredAt: '2026-03-01T08:00:00.000Z',
                  lastFiredAt: '2026-03-01T09:00:00.000Z',
                  latestAlertId: 'a1',
                },
              ],
            },
          };
        }
        return listOf([alert()]);
      },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Brute-force logins: 42 failures for j.smith')).toBeInTheDocument();
    // Without ALERT_INBOX_EDIT there is nothing to select.
    expect(
      screen.queryByRole('checkbox', { name: 'Select all alerts on this page' }),
    ).not.toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Triggers' }));
    const row = (await screen.findByText('Large wire transfer')).closest('tr')!;
    expect(within(row).getByText('6')).toBeInTheDocument();

    await user.click(screen.getByRole('radio', { name: 'Stories' }));
    const story = (await screen.findByText('Brute-force logins')).closest('tr')!;
    expect(within(story).getByText('4')).toBeInTheDocument();
    expect(
      within(story).getByRole('button', { name: 'Show the alerts of Brute-force logins' }),
    ).toBeInTheDocument();
  });

  it('reports a partial bulk failure', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/alerts`]: listOf([alert(), alert({ id: 'a2', title: 'Impossible travel' })]),
      [`POST ${base}/alerts/bulk-state`]: {
        body: {
          succeeded: 1,
          failed: 1,
          results: [
            { id: 'a1', ok: true },
            { id: 'a2', ok: false, key: 'ALERT_BULK_TOO_OLD', message: 'too old', params: { days: 30 } },
          ],
        },
      },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('checkbox', { name: 'Select all alerts on this page' }));
    expect(screen.getByText('2 alerts selected')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Dismiss selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss 2 alerts' });
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(within(dialog).getByText('Dismissing an alert needs a reason.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Reason' }));
    await user.click(screen.getByRole('option', { name: 'Duplicate' }));
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));

    expect(await screen.findByText('1 changed, 1 not changed')).toBeInTheDocument();
    expect(
      screen.getByText('1 alert: Bulk actions reach alerts fired in the last 30 days only.'),
    ).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => String(url) === `${base}/alerts/bulk-state`);
    expect(requestBody(post?.[1])).toEqual({ state: 'DISMISSED', reason: 'DUPLICATE', ids: ['a1', 'a2'] });
  });

  it('opens an alert: acknowledge, dismiss as Other with notes, and show events', async () => {
    let current = detail({ history: [] });
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/alerts`]: listOf([alert()]),
      [`GET ${base}/alert/a1`]: () => ({ body: current }),
      [`GET ${base}/alert/a1/similar`]: { body: { items: [], total: 0 } },
      [`GET ${base}/alert/a1/events`]: {
        body: {
          stored: 2,
          items: [
            {
              id: 'e1',
              timestamp: '2026-03-01T08:59:00.000Z',
              host: 'vpn-01',
              srcIp: null,
              dstIp: null,
              userName: 'j.smith',
              dataSource: 'vpn',
              message: 'login failed for j.smith',
              fields: {},
            },
          ],
        },
      },
      [`PUT ${base}/alert/a1/state`]: ({ init }) => {
        const body = requestBody(init) as { state: AlertDetail['state'] };
        current = detail({ state: body.state });
        return { body: current };
      },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(
      await screen.findByRole('button', { name: 'Open alert Brute-force logins: 42 failures for j.smith' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Alert details' });
    expect(within(drawer).queryByRole('button', { name: 'Flag fraud' })).not.toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Show events' }));
    expect(await within(drawer).findByText('login failed for j.smith')).toBeInTheDocument();
    expect(
      within(drawer).getByText('1 matched event is hidden by your data restrictions.'),
    ).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Acknowledge' }));
    expect(await screen.findByText('The alert is now Acknowledged.')).toBeInTheDocument();

    await user.click(within(drawer).getByRole('button', { name: 'Dismiss' }));
    const dialog = await screen.findByRole('dialog', { name: 'Dismiss the alert' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Reason' }));
    await user.click(screen.getByRole('option', { name: 'Other' }));
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    expect(within(dialog).getByText('Dismissing as Other needs details in the notes.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Notes' }), 'Red team exercise');
    await user.click(within(dialog).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Dismiss the alert' })).not.toBeInTheDocument(),
    );
    const puts = fetchMock.mock.calls
      .filter(([, init]) => init?.method === 'PUT')
      .map(([, init]) => requestBody(init));
    expect(puts).toEqual([
      { state: 'ACKED' },
      { state: 'DISMISSED', reason: 'OTHER', notes: 'Red team exercise' },
    ]);
  });

  it('counts the alert as viewed after 10 seconds on screen', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const fetchMock = stubApi({
      ...withAccess(['ALERT_INBOX_VIEW']),
      [`GET ${base}/alerts`]: listOf([alert()]),
      [`GET ${base}/alert/a1`]: { body: detail() },
      [`GET ${base}/alert/a1/similar`]: { body: { items: [], total: 0 } },
      [`POST ${base}/alert/a1/viewed`]: { status: 204 },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(
      await screen.findByRole('button', { name: 'Open alert Brute-force logins: 42 failures for j.smith' }),
    );
    await screen.findByRole('dialog', { name: 'Alert details' });
    const viewedCalls = () =>
      fetchMock.mock.calls.filter(([url]) => String(url) === `${base}/alert/a1/viewed`);
    await act(() => vi.advanceTimersByTimeAsync(ALERT_VIEWED_AFTER_MS - 1000));
    expect(viewedCalls()).toHaveLength(0);
    await act(() => vi.advanceTimersByTimeAsync(1000));
    await waitFor(() => expect(viewedCalls()).toHaveLength(1));
  });
});

describe('fraud inbox', () => {
  it('shows the actions its trigger ran for an alert, and undoes one after confirming', async () => {
    const fraud = alert({ domain: 'fraud', title: 'Large wire', triggerName: 'Large wire' });
    const pending = (id: string, value: string, state: 'EXECUTED' | 'FAILED' | 'REVERTED') => ({
      id,
      actionId: 'x1',
      actionName: 'Fraud hold',
      provider: 'SYMXCHANGE' as const,
      type: 'ADD_WARNING_CODE' as const,
      value,
      triggerId: 't1',
      alertId: 'a1',
      state,
      request: { method: 'POST' },
      response: { status: 201 },
      error: state === 'FAILED' ? 'No SYMXCHANGE integration: contact support' : null,
      executedAt: '2026-03-01T09:01:00.000Z',
      revertedAt: null,
      createdOn: '2026-03-01T09:00:00.000Z',
    });
    let items = [pending('p1', 'ACC-100', 'EXECUTED'), pending('p2', 'ACC-200', 'FAILED')];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', {
          permissions: ['DASHBOARD_VIEW', ...EDIT, 'ACTION_VIEW', 'ACTION_EDIT'],
          org: { productSkus: ['CYBERFRAUD_STANDARD'] },
          features: resolveFeatureFlags({ automatedIntervention: true }),
        }),
      ),
      [`GET ${base}/alerts`]: listOf([fraud]),
      [`GET ${base}/alert/a1`]: { body: { ...detail(), ...fraud } },
      [`GET ${base}/alert/a1/similar`]: { body: { items: [], total: 0 } },
      [`GET ${base}/pending-actions`]: () => ({ body: { items, total: items.length } }),
      [`POST ${base}/pending-action/p1/undo`]: () => {
        items = [pending('p1', 'ACC-100', 'REVERTED'), items[1]!];
        return { body: items[0] };
      },
    });
    const { user } = renderApp(`/fraud/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Open alert Large wire' }));
    const drawer = await screen.findByRole('dialog', { name: 'Alert details' });
    const section = await within(drawer).findByRole('region', { name: 'Actions run for this alert' });
    expect(await within(section).findByText('ACC-100')).toBeInTheDocument();
    expect(within(section).getByText('No SYMXCHANGE integration: contact support')).toBeInTheDocument();
    expect(
      fetchMock.mock.calls.some(
        ([url]) => String(url).includes('/pending-actions?') && String(url).includes('alertId=a1'),
      ),
    ).toBe(true);
    await user.click(within(section).getByRole('button', { name: /Fraud hold.*ACC-100/ }));
    const confirm = await screen.findByRole('dialog', { name: /Undo/ });
    await user.click(within(confirm).getByRole('button', { name: 'Undo' }));
    expect(await within(section).findByText('Reverted')).toBeInTheDocument();
  });

  it('needs the fraud product', async () => {
    stubApi({ ...withAccess(EDIT), [`GET ${base}/alerts`]: listOf([]) });
    renderApp(`/fraud/inbox?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Fraud alert inbox' })).toBeInTheDocument();
    expect(screen.queryByRole('tab', { name: 'New' })).not.toBeInTheDocument();
  });

  it('flags fraud with the type rules checked first', async () => {
    const fraud = alert({
      domain: 'fraud',
      title: 'New payee then transfer',
      triggerName: 'New payee then transfer',
    });
    const fetchMock = stubApi({
      ...withAccess(EDIT, ['CYBERFRAUD_STANDARD']),
      [`GET ${base}/alerts`]: listOf([fraud]),
      [`GET ${base}/alert/a1`]: { body: { ...detail(), ...fraud } },
      [`GET ${base}/alert/a1/similar`]: { body: { items: [], total: 0 } },
      [`PUT ${base}/alert/a1/state`]: { body: { ...detail(), ...fraud, state: 'FRAUD_FLAGGED' } },
    });
    const { user } = renderApp(`/fraud/inbox?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('tab', { name: 'Fraud flagged' })).toBeInTheDocument();
    expect(inboxCalls(fetchMock)[0]).toContain('domain=fraud');
    await user.click(await screen.findByRole('button', { name: 'Open alert New payee then transfer' }));
    const drawer = await screen.findByRole('dialog', { name: 'Alert details' });
    await user.click(await within(drawer).findByRole('button', { name: 'Flag fraud' }));
    const dialog = await screen.findByRole('dialog', { name: 'Flag fraud' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Fraud type' }));
    await user.click(screen.getByRole('option', { name: 'Other' }));
    await user.click(within(dialog).getByRole('button', { name: 'Flag fraud' }));
    expect(within(dialog).getByText('Suspected fraud cannot have the type Other.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('combobox', { name: 'Fraud type' }));
    await user.click(screen.getByRole('option', { name: 'Wire fraud' }));
    await user.click(within(dialog).getByRole('button', { name: 'Flag fraud' }));
    await waitFor(() => {
      const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
      expect(requestBody(put?.[1])).toEqual({
        state: 'FRAUD_FLAGGED',
        fraudType: 'WIRE_FRAUD',
        fraudCertainty: 'SUSPECTED',
      });
    });
  });
});

describe('escalation', () => {
  it('escalates selected alerts to a new incident named after the trigger', async () => {
    const fetchMock = stubApi({
      ...withAccess([...EDIT, 'INCIDENT_EDIT']),
      [`GET ${base}/alerts`]: listOf([alert(), alert({ id: 'a2', title: 'Impossible travel' })]),
      [`POST ${base}/alerts/escalate`]: {
        status: 201,
        body: { id: 'i1', kind: 'incident', slug: 'INC-7', title: 'Brute-force logins', state: 'TRIAGE' },
      },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('checkbox', { name: 'Select all alerts on this page' }));
    await user.click(screen.getByRole('button', { name: 'Escalate selected' }));
    const dialog = await screen.findByRole('dialog', { name: 'Escalate 2 alerts' });
    await user.click(within(dialog).getByRole('button', { name: 'Escalate' }));
    expect(await screen.findByText('Escalated to INC-7.')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(([url]) => url === `${base}/alerts/escalate`);
    expect(requestBody(post?.[1])).toEqual({ ids: ['a1', 'a2'] });
  });

  it('links an alert to an existing incident by slug, which it then names', async () => {
    let current = detail();
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/alerts`]: listOf([alert()]),
      [`GET ${base}/alert/a1`]: () => ({ body: current }),
      [`GET ${base}/alert/a1/similar`]: { body: { items: [], total: 0 } },
      [`PUT ${base}/alert/a1/state`]: () => {
        current = detail({ state: 'ESCALATED', ticketId: 'i1', ticketSlug: 'INC-3' });
        return { body: current };
      },
    });
    const { user } = renderApp(`/alerts/inbox?orgId=${HOME_ORG_ID}`);
    await user.click(
      await screen.findByRole('button', { name: 'Open alert Brute-force logins: 42 failures for j.smith' }),
    );
    const drawer = await screen.findByRole('dialog', { name: 'Alert details' });
    await user.click(within(drawer).getByRole('button', { name: 'Escalate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Escalate the alert' });
    // Without the Incidents edit permission only an existing incident is offered.
    expect(within(dialog).queryByText('New incident')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Escalate' }));
    expect(within(dialog).getByText('Escalation needs a ticket slug.')).toBeInTheDocument();
    await user.type(within(dialog).getByRole('textbox', { name: 'Incident' }), 'INC-3');
    await user.click(within(dialog).getByRole('button', { name: 'Escalate' }));
    expect(await within(drawer).findByRole('link', { name: 'INC-3' })).toBeInTheDocument();
    expect(within(drawer).getByText('This alert is escalated: its state cannot change.')).toBeInTheDocument();
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(requestBody(put?.[1])).toEqual({ state: 'ESCALATED', ticketSlug: 'INC-3' });
  });
});
