import { screen, waitFor, within } from '@testing-library/react';
import { resolveFeatureFlags, type Action, type PendingAction } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;
const PERMISSIONS = ['DASHBOARD_VIEW', 'INTEGRATION_VIEW', 'INTEGRATION_EDIT', 'ACTION_VIEW', 'ACTION_EDIT'];

const shell = (automatedIntervention: boolean) =>
  orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions: PERMISSIONS,
      features: resolveFeatureFlags({ automatedIntervention }),
    }),
  );

const action: Action = {
  id: 'a1',
  name: 'Fraud hold',
  type: 'ADD_WARNING_CODE',
  provider: 'SYMXCHANGE',
  fields: ['account'],
  multipleValues: 'SEND_ALL',
  warningCode: 42,
  createdOn: '2026-03-01T09:00:00.000Z',
};

const executed: PendingAction = {
  id: 'p1',
  actionId: 'a1',
  actionName: 'Fraud hold',
  provider: 'SYMXCHANGE',
  type: 'ADD_WARNING_CODE',
  value: '2001',
  triggerId: null,
  alertId: null,
  state: 'EXECUTED',
  request: { method: 'POST' },
  response: { status: 201 },
  error: null,
  executedAt: '2026-03-01T09:00:00.000Z',
  revertedAt: null,
  createdOn: '2026-03-01T09:00:00.000Z',
};

describe('action integrations page', () => {
  it('says so when automated intervention is off', async () => {
    stubApi({ ...signedInRoutes, ...shell(false) });
    renderApp(`/settings/action-integrations?orgId=${HOME_ORG_ID}`);
    expect(
      await screen.findByText('Automated intervention is not enabled for this organisation.'),
    ).toBeInTheDocument();
  });

  it('adds an integration with its rules, runs an action and undoes an executed one', async () => {
    let pending: PendingAction[] = [
      executed,
      { ...executed, id: 'p2', value: '2002', state: 'FAILED', error: 'refused' },
    ];
    const fetchMock = stubApi({
      ...signedInRoutes,
      ...shell(true),
      [`GET ${base}/action-integrations`]: { body: { items: [], total: 0 } },
      [`POST ${base}/action-integrations`]: () => ({
        status: 409,
        body: {
          ...apiError('ACTION_INTEGRATION_EXISTS', 'ConflictException'),
          field: 'provider',
          params: { provider: 'Q2' },
        },
      }),
      [`GET ${base}/actions`]: { body: { items: [action], total: 1 } },
      [`GET ${base}/pending-actions`]: () => ({ body: { items: pending, total: pending.length } }),
      [`POST ${base}/action/a1/run`]: () => ({ body: { items: [{ ...executed, id: 'p3', value: '2003' }] } }),
      [`POST ${base}/pending-action/p1/undo`]: () => {
        pending = pending.map((item) => (item.id === 'p1' ? { ...item, state: 'REVERTED' as const } : item));
        return { body: pending[0] };
      },
    });
    const { user } = renderApp(`/settings/action-integrations?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByText('No action integrations yet.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Add action integration' }));
    const form = await screen.findByRole('dialog', { name: 'Add action integration' });
    await user.type(within(form).getByRole('textbox', { name: /API base URL/ }), 'q2.example');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(within(form).getByText('q2.example is not a valid base URL.')).toBeInTheDocument();
    expect(within(form).getAllByText('This field is required.').length).toBeGreaterThan(0);
    await user.clear(within(form).getByRole('textbox', { name: /API base URL/ }));
    await user.type(within(form).getByRole('textbox', { name: /API base URL/ }), 'https://api.q2.example');
    await user.type(
      within(form).getByRole('textbox', { name: /Authentication base URL/ }),
      'https://auth.q2.example',
    );
    await user.type(within(form).getByRole('textbox', { name: /Client ID/ }), 'vigil');
    await user.type(within(form).getByLabelText(/Client secret/), 'secret');
    await user.click(within(form).getByRole('button', { name: 'Save' }));
    expect(await within(form).findByText('An action integration for Q2 already exists.')).toBeInTheDocument();
    await user.click(within(form).getByRole('button', { name: 'Cancel' }));

    const pendingList = screen.getByRole('region', { name: 'Pending actions' });
    const failedRow = (await within(pendingList).findByText('2002')).closest('tr')!;
    expect(within(failedRow).getByText('refused')).toBeInTheDocument();
    expect(within(failedRow).queryByRole('button', { name: /Undo/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Run Fraud hold' }));
    const run = await screen.findByRole('dialog', { name: 'Run Fraud hold' });
    await user.type(within(run).getByRole('textbox', { name: /Accounts or users/ }), '2003');
    await user.click(within(run).getByRole('button', { name: 'Run' }));
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).endsWith('/action/a1/run'))).toBe(true),
    );
    const runCall = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/action/a1/run'))!;
    expect(body(runCall[1])).toEqual({ values: ['2003'] });

    await user.click(screen.getByRole('button', { name: 'Undo Fraud hold on 2001' }));
    const confirm = await screen.findByRole('dialog', { name: 'Undo action' });
    await user.click(within(confirm).getByRole('button', { name: 'Undo' }));
    expect(await within(pendingList).findByText('Reverted')).toBeInTheDocument();
  });
});
