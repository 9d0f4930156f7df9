import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { EscalationOutOfOffice, EscalationSchedule, EscalationStep } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const step = (id: string, position: number, name: string, email: string): EscalationStep => ({
  id,
  position,
  name,
  userId: null,
  userName: null,
  email,
  hours: 'ALWAYS',
  active: true,
  updatedAt: '2026-03-01T09:00:00.000Z',
});

const weekdays: EscalationSchedule = {
  mode: 'WEEKDAYS',
  timezone: 'UTC',
  days: [1, 2, 3, 4, 5].map((day) => ({ day, start: '09:00', end: '17:00' })),
  businessHoursNow: false,
  updatedAt: null,
};

const withPermissions = (permissions: string[], features: Record<string, boolean> = {}) => {
  const context = orgContextOf(HOME_ORG_ID, 'Provider', { permissions: ['DASHBOARD_VIEW', ...permissions] });
  return orgShellRoutes({ ...context, features: { ...context.features, ...features } });
};

function escalationApi(initial: EscalationStep[], permissions = ['ESCALATION_VIEW', 'ESCALATION_EDIT']) {
  let steps = initial;
  const renumber = () => (steps = steps.map((item, index) => ({ ...item, position: index + 1 })));
  const fetchMock = stubApi({
    ...signedInRoutes,
    ...withPermissions(permissions),
    [`GET ${base}/escalation/steps`]: () => ({ body: { items: steps, max: 10, intervalMinutes: 10 } }),
    [`GET ${base}/escalation/schedule`]: { body: weekdays },
    [`GET ${base}/escalation/out-of-office`]: { body: { items: [] } },
    [`GET ${base}/user/summary`]: { body: [] },
    [`POST ${base}/escalation/step`]: ({ init }) => {
      const input = body(init);
      if (input.email === 'lead@bank.example') {
        return { status: 409, body: apiError('ESCALATION_STEP_DUPLICATE_CONTACT', 'ConflictException') };
      }
      const created = step(`s${steps.length + 1}`, steps.length + 1, String(input.name), String(input.email));
      steps = [...steps, created];
      return { status: 201, body: created };
    },
    [`PUT ${base}/escalation/steps/order`]: ({ init }) => {
      const ids = body(init).ids as string[];
      steps = ids.map((id) => steps.find((item) => item.id === id)!);
      renumber();
      return { body: { items: steps, max: 10, intervalMinutes: 10 } };
    },
    [`DELETE ${base}/escalation/step/s1`]: () => {
      steps = steps.filter((item) => item.id !== 's1');
      renumber();
      return { status: 204 };
    },
    [`PUT ${base}/escalation/schedule`]: ({ init }) => ({ body: { ...weekdays, ...body(init) } }),
  });
  return fetchMock;
}

const rowNames = () =>
  within(screen.getByRole('table', { name: 'Contact steps' }))
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell')[1]!.textContent);

describe('escalation page', () => {
  it('adds a step, shows a refused contact, moves a step up and removes one after confirming', async () => {
    const fetchMock = escalationApi([
      step('s1', 1, 'SOC lead', 'lead@bank.example'),
      step('s2', 2, 'CISO', 'ciso@bank.example'),
    ]);
    const { user } = renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(
      await screen.findByText('2 of 10 steps, contacted 10 minutes apart in this order.'),
    ).toBeInTheDocument();
    expect(rowNames()).toEqual(['SOC lead', 'CISO']);

    await user.click(screen.getByRole('button', { name: 'Add step' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add contact step' });
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getAllByText('This field is required.').length).toBeGreaterThan(0);
    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Duty manager');
    await user.click(within(dialog).getByText('E-mail address'));
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail address' }), 'lead@bank.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/Another contact step already notifies this contact/)).toBeInTheDocument();
    await user.clear(within(dialog).getByRole('textbox', { name: 'E-mail address' }));
    await user.type(within(dialog).getByRole('textbox', { name: 'E-mail address' }), 'duty@bank.example');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(rowNames()).toEqual(['SOC lead', 'CISO', 'Duty manager']));
    const post = fetchMock.mock.calls.filter(
      ([url, init]) => url === `${base}/escalation/step` && init?.method === 'POST',
    );
    expect(body(post.at(-1)?.[1])).toEqual({
      name: 'Duty manager',
      hours: 'ALWAYS',
      email: 'duty@bank.example',
    });

    await user.click(screen.getByRole('button', { name: 'Move Duty manager up' }));
    await waitFor(() => expect(rowNames()).toEqual(['SOC lead', 'Duty manager', 'CISO']));
    expect(screen.getByRole('button', { name: 'Move SOC lead up' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Remove SOC lead' }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove contact step?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    await waitFor(() => expect(rowNames()).toEqual(['Duty manager', 'CISO']));
  });

  it('saves custom business hours with the days ticked', async () => {
    const fetchMock = escalationApi([]);
    const { user } = renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No contact steps')).toBeInTheDocument();
    expect(screen.getByText('Outside business hours now')).toBeInTheDocument();
    await user.click(screen.getByText('Custom'));
    expect(screen.getByRole('checkbox', { name: 'Monday' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Saturday' }));
    await user.click(screen.getByRole('checkbox', { name: 'Friday' }));
    await user.click(screen.getByRole('button', { name: 'Save business hours' }));
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.some(
          ([url, init]) => url === `${base}/escalation/schedule` && init?.method === 'PUT',
        ),
      ).toBe(true),
    );
    const put = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/escalation/schedule` && init?.method === 'PUT',
    );
    expect(body(put?.[1])).toEqual({
      mode: 'CUSTOM',
      timezone: 'UTC',
      days: [1, 2, 3, 4, 6].map((day) => ({ day, start: '09:00', end: '17:00' })),
    });
  });

  it('shows the steps without controls to a viewer', async () => {
    escalationApi([step('s1', 1, 'SOC lead', 'lead@bank.example')], ['ESCALATION_VIEW']);
    renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('SOC lead')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Add step' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Remove SOC lead' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Save business hours' })).not.toBeInTheDocument();
  });

  it('tells a user without the permission that the page is not for them', async () => {
    stubApi({ ...signedInRoutes, ...withPermissions([]) });
    renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Escalation', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Contact steps')).not.toBeInTheDocument();
  });

  it('shows nothing of the page when the escalation page is switched off for the organisation', async () => {
    stubApi({ ...signedInRoutes, ...withPermissions(['ESCALATION_EDIT'], { escalationPage: false }) });
    renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Escalation', level: 1 })).toBeInTheDocument();
    expect(screen.queryByText('Contact steps')).not.toBeInTheDocument();
  });

  it('adds an out-of-office period with a note and removes it after confirming', async () => {
    let periods: EscalationOutOfOffice[] = [];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...withPermissions(['ESCALATION_VIEW', 'ESCALATION_EDIT']),
      [`GET ${base}/escalation/steps`]: { body: { items: [], max: 10, intervalMinutes: 10 } },
      [`GET ${base}/escalation/schedule`]: { body: weekdays },
      [`GET ${base}/escalation/out-of-office`]: () => ({ body: { items: periods } }),
      [`POST ${base}/escalation/out-of-office`]: ({ init }) => {
        const input = body(init);
        const created = {
          ...input,
          id: 'p1',
          createdAt: '2026-03-01T09:00:00.000Z',
        } as EscalationOutOfOffice;
        periods = [created];
        return { status: 201, body: created };
      },
      [`DELETE ${base}/escalation/out-of-office/p1`]: () => {
        periods = [];
        return { status: 204 };
      },
    });
    const { user } = renderApp(`/settings/escalation?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No out-of-office periods')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Add period' }));
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    fireEvent.change(screen.getByLabelText(/^From/), { target: { value: '2026-12-24T00:00' } });
    fireEvent.change(screen.getByLabelText(/^To/), { target: { value: '2026-12-27T00:00' } });
    await user.type(screen.getByRole('textbox', { name: 'Note' }), 'Christmas closure');
    await user.click(screen.getByRole('button', { name: 'Add period' }));
    expect(await screen.findByText('Christmas closure')).toBeInTheDocument();
    const post = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/escalation/out-of-office` && init?.method === 'POST',
    );
    expect(body(post?.[1])).toEqual({
      startsAt: new Date('2026-12-24T00:00').toISOString(),
      endsAt: new Date('2026-12-27T00:00').toISOString(),
      note: 'Christmas closure',
    });
    await user.click(screen.getByRole('button', { name: /^Remove period from/ }));
    const confirm = await screen.findByRole('dialog', { name: 'Remove out-of-office period?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText('No out-of-office periods')).toBeInTheDocument();
  });
});
