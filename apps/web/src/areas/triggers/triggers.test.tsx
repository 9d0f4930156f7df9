import { screen, waitFor, within } from '@testing-library/react';
import { resolveFeatureFlags, type ProductSku, type TriggerSchedule } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';
import { base, requestBody } from '../assets/test-fixtures';
import { savedQueryFixture, triggerFixture } from './test-fixtures';

const trigger = triggerFixture;
const savedQuery = (id: string, name: string) => savedQueryFixture(id, name);

const schedule = (overrides: Partial<TriggerSchedule> = {}): TriggerSchedule => ({
  id: 's1',
  name: 'Business hours',
  description: '',
  timezone: 'Europe/London',
  windows: [{ days: [1, 2, 3, 4, 5], startMinute: 540, endMinute: 1020 }],
  triggerCount: 2,
  createdOn: '2026-03-01T09:00:00.000Z',
  modifiedOn: '2026-03-01T09:00:00.000Z',
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

const EDIT = ['TRIGGER_VIEW', 'TRIGGER_EDIT', 'SAVED_SEARCH_VIEW'];
const pickers = {
  [`GET ${base}/saved-queries`]: {
    body: { items: [savedQuery('q1', 'Failed logins'), savedQuery('q2', 'Admin logins')], total: 2 },
  },
  [`GET ${base}/trigger-schedules`]: { body: { items: [], total: 0 } },
  [`GET ${base}/user/summary`]: { body: [] },
};

describe('triggers page', () => {
  it('lists triggers, sorts and filters them, and pauses one after confirming', async () => {
    let items = [
      trigger(),
      trigger({ id: 't2', name: 'Large wires', type: 'EVERY_EVENT', severity: 'CRITICAL' }),
    ];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/triggers`]: () => ({ body: { items, total: items.length } }),
      [`POST ${base}/trigger/t1/pause`]: () => {
        items = items.map((item) => (item.id === 't1' ? { ...item, state: 'PAUSED' as const } : item));
        return { body: items[0] };
      },
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);

    const row = async (name: string) => (await screen.findByText(name)).closest('tr')!;
    expect(within(await row('Brute force logins')).getByText('Failed logins')).toBeInTheDocument();
    expect(within(await row('Brute force logins')).getByText('Threshold')).toBeInTheDocument();
    expect(within(await row('Large wires')).getByText('Critical')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Actions for Brute force logins' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Pause' }));
    const confirm = await screen.findByRole('dialog', { name: 'Pause trigger' });
    await user.click(within(confirm).getByRole('button', { name: 'Pause' }));
    await waitFor(() =>
      expect(
        within(screen.getByText('Brute force logins').closest('tr')!).getByText('Paused'),
      ).toBeInTheDocument(),
    );
    expect(
      fetchMock.mock.calls.some(
        ([url, init]) => url === `${base}/trigger/t1/pause` && init?.method === 'POST',
      ),
    ).toBe(true);

    await user.click(screen.getByRole('button', { name: 'Severity' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('sortField=severity'))).toBe(true),
    );
    await user.type(screen.getByRole('textbox', { name: 'Label' }), 'identity');
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('label=identity'))).toBe(true),
    );
  });

  it('checks the form like the server and creates a trigger', async () => {
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      ...pickers,
      [`GET ${base}/triggers`]: { body: { items: [], total: 0 } },
      [`POST ${base}/trigger`]: ({ init }) => ({
        status: 201,
        body: trigger({ id: 't9', name: String(requestBody(init).name) }),
      }),
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No triggers yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'New trigger' }));
    const dialog = await screen.findByRole('dialog', { name: 'New trigger' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Choose a saved query for this trigger.')).toBeInTheDocument();
    expect(within(dialog).getByText(/Minimum and maximum match must be whole numbers/)).toBeInTheDocument();

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Failed logins burst');
    await user.click(within(dialog).getByRole('combobox', { name: 'Saved query' }));
    await user.click(await screen.findByRole('option', { name: 'Failed logins' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'Minimum matches' }), '5');
    const interval = within(dialog).getByRole('textbox', { name: 'Interval (seconds)' });
    await user.clear(interval);
    await user.type(interval, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      within(dialog).getByText('The interval must be between 60 and 604800 seconds.'),
    ).toBeInTheDocument();
    await user.clear(interval);
    await user.type(interval, '300');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'New trigger' })).not.toBeInTheDocument(),
    );
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/trigger` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toMatchObject({
      name: 'Failed logins burst',
      type: 'THRESHOLD',
      savedQueryId: 'q1',
      intervalSeconds: 300,
      minMatch: 5,
      maxMatch: null,
      domain: 'security',
    });
  });

  it('asks before archiving a version when the alert conditions change', async () => {
    const bodies: Record<string, unknown>[] = [];
    stubApi({
      ...withAccess(EDIT),
      ...pickers,
      [`GET ${base}/triggers`]: { body: { items: [trigger()], total: 1 } },
      [`PUT ${base}/trigger/t1`]: ({ init }) => {
        const body = requestBody(init);
        bodies.push(body);
        return body.confirmArchive
          ? { body: trigger({ id: 't3', version: 2, previousVersionId: 't1', minMatch: 8 }) }
          : { status: 409, body: apiError('TRIGGER_MISSING_ARCHIVE_CONFIRMATION', 'ConflictException') };
      },
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Brute force logins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit trigger' });
    const minimum = within(dialog).getByRole('textbox', { name: 'Minimum matches' });
    await user.clear(minimum);
    await user.type(minimum, '8');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    const confirm = await screen.findByRole('dialog', { name: 'Archive this version?' });
    await user.click(within(confirm).getByRole('button', { name: 'Save new version' }));
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Edit trigger' })).not.toBeInTheDocument(),
    );
    expect(bodies.map((body) => body.confirmArchive)).toEqual([false, true]);
    expect(bodies[1]).toMatchObject({ minMatch: 8 });
  });

  const withActions = (automatedIntervention: boolean, bodies: Record<string, unknown>[]) =>
    stubApi({
      ...signedInRoutes,
      ...orgShellRoutes(
        orgContextOf(HOME_ORG_ID, 'Provider', {
          permissions: ['DASHBOARD_VIEW', ...EDIT, 'ACTION_VIEW'],
          features: resolveFeatureFlags({ automatedIntervention }),
        }),
      ),
      ...pickers,
      [`GET ${base}/actions`]: {
        body: {
          items: [
            {
              id: 'a1',
              name: 'Fraud hold',
              type: 'ADD_WARNING_CODE',
              provider: 'SYMXCHANGE',
              fields: ['account'],
              multipleValues: 'SEND_ALL',
              warningCode: 42,
              createdOn: '2026-03-01T09:00:00.000Z',
            },
          ],
          total: 1,
        },
      },
      [`GET ${base}/triggers`]: { body: { items: [trigger()], total: 1 } },
      [`PUT ${base}/trigger/t1`]: ({ init }) => {
        bodies.push(requestBody(init));
        return { body: trigger({ actionIds: ['a1'] }) };
      },
    });

  it('attaches actions with automatedIntervention', async () => {
    const bodies: Record<string, unknown>[] = [];
    withActions(true, bodies);
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Brute force logins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit trigger' });
    await user.click(within(dialog).getByRole('combobox', { name: 'Actions on alerts' }));
    await user.click(await screen.findByRole('option', { name: 'Fraud hold' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).toMatchObject({ actionIds: ['a1'] });
  });

  it('leaves actions alone without automatedIntervention', async () => {
    const bodies: Record<string, unknown>[] = [];
    withActions(false, bodies);
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    await user.click(await screen.findByRole('button', { name: 'Edit Brute force logins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit trigger' });
    expect(within(dialog).queryByRole('combobox', { name: 'Actions on alerts' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toHaveLength(1));
    expect(bodies[0]).not.toHaveProperty('actionIds');
  });

  it('shows a server rule beside its field and offers a retry when the list fails', async () => {
    let failing = true;
    stubApi({
      ...withAccess(EDIT),
      ...pickers,
      [`GET ${base}/triggers`]: () =>
        failing
          ? { status: 403, body: apiError('PERMISSION_DENIED', 'AccessDeniedException') }
          : { body: { items: [trigger()], total: 1 } },
      [`PUT ${base}/trigger/t1`]: {
        status: 400,
        body: { ...apiError('TRIGGER_INVALID_EMAIL'), params: { value: 'soc@' } },
      },
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('The triggers could not be loaded.')).toBeInTheDocument();
    failing = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await user.click(await screen.findByRole('button', { name: 'Edit Brute force logins' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit trigger' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('soc@ is not a valid e-mail address.')).toBeInTheDocument();
  });

  it('hides editing from viewers and from ops-managed triggers', async () => {
    stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/triggers`]: { body: { items: [trigger({ managedBy: 'OPS' })], total: 1 } },
    });
    renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Managed by ops')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Brute force logins' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Actions for Brute force logins' })).not.toBeInTheDocument();
  });

  it('lets provider staff change ops-managed triggers', async () => {
    stubApi({
      ...withAccess([...EDIT, 'TRAC_USER']),
      ...pickers,
      [`GET ${base}/triggers`]: { body: { items: [trigger({ managedBy: 'OPS' })], total: 1 } },
    });
    const { user } = renderApp(`/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Managed by ops')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Edit Brute force logins' }));
    expect(await screen.findByRole('dialog', { name: 'Edit trigger' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actions for Brute force logins' })).toBeInTheDocument();
  });

  it('gives fraud triggers only to organisations with the fraud product', async () => {
    const fetchMock = stubApi({
      ...withAccess(['TRIGGER_VIEW'], ['CYBERFRAUD_STANDARD']),
      [`GET ${base}/triggers`]: {
        body: { items: [trigger({ domain: 'fraud', name: 'Mule transfers' })], total: 1 },
      },
    });
    renderApp(`/fraud/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Fraud triggers' })).toBeInTheDocument();
    expect(await screen.findByText('Mule transfers')).toBeInTheDocument();
    expect(String(fetchMock.mock.calls.find(([url]) => String(url).includes('/triggers?'))?.[0])).toContain(
      'domain=fraud',
    );
    expect(screen.queryByRole('button', { name: 'New trigger' })).not.toBeInTheDocument();
  });

  it('refuses the fraud page without the product', async () => {
    const fetchMock = stubApi({ ...withAccess(EDIT) });
    renderApp(`/fraud/triggers?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/triggers'))).toBe(false);
  });
});

describe('trigger schedules page', () => {
  it('lists schedules, creates one with weekdays and hours, and deletes after confirming', async () => {
    let items = [schedule()];
    const fetchMock = stubApi({
      ...withAccess(EDIT),
      [`GET ${base}/trigger-schedules`]: () => ({ body: { items, total: items.length } }),
      [`POST ${base}/trigger-schedule`]: ({ init }) => {
        const created = schedule({ id: 's2', name: String(requestBody(init).name), triggerCount: 0 });
        items = [...items, created];
        return { status: 201, body: created };
      },
      [`DELETE ${base}/trigger-schedule/s1`]: () => {
        items = items.filter((item) => item.id !== 's1');
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/trigger-schedules?orgId=${HOME_ORG_ID}`);
    const row = (await screen.findByText('Business hours')).closest('tr')!;
    expect(within(row).getByText('Mon, Tue, Wed, Thu, Fri 09:00–17:00')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'New schedule' }));
    const dialog = await screen.findByRole('dialog', { name: 'New trigger schedule' });
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Weekends');
    for (const day of ['Mon', 'Tue', 'Wed', 'Thu', 'Fri']) {
      await user.click(within(dialog).getByRole('checkbox', { name: day }));
    }
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText(/Each window needs weekdays from 1 to 7/)).toBeInTheDocument();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Sat' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Sun' }));
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Weekends')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/trigger-schedule` && init?.method === 'POST',
    );
    expect(requestBody(post?.[1])).toMatchObject({
      name: 'Weekends',
      windows: [{ days: [6, 7], startMinute: 540, endMinute: 1020 }],
    });

    await user.click(screen.getByRole('button', { name: 'Delete Business hours' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete trigger schedule' });
    expect(
      within(confirm).getByText('Delete Business hours? The 2 triggers using it will run at any time.'),
    ).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByText('Business hours')).not.toBeInTheDocument());
  });
});
