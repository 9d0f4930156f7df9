import { screen, waitFor, within } from '@testing-library/react';
import type { ManagedOrg } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../../test/session-fixtures';

const managed = `/api/org/${HOME_ORG_ID}/managed-orgs`;
const body = (init?: RequestInit) => JSON.parse(String(init?.body)) as Record<string, unknown>;

const acme: ManagedOrg = {
  id: 'org-acme',
  name: 'Acme Bank',
  isProvider: false,
  productSkus: ['CYBERFRAUD_STANDARD', 'REPORTING_PREMIUM'],
  managementMode: 'CLIENT_MANAGED',
  featureFlags: { csmInformation: true },
  requireTwoFactor: true,
  csmName: 'Grace Hopper',
  csmEmailAddress: 'grace@provider.example',
  eventRetentionDays: 90,
  createdAt: '2026-01-01T00:00:00.000Z',
};

function adminRoutes(extra: Record<string, StubRoute>, isProvider = true) {
  return {
    ...signedInRoutes,
    ...orgShellRoutes(
      orgContextOf(HOME_ORG_ID, 'Provider', {
        org: { isProvider },
        permissions: ['DASHBOARD_VIEW', 'TRAC_ADMIN'],
      }),
    ),
    ...extra,
  };
}

describe('organisations page', () => {
  it('is for provider administrators in the provider organisation only', async () => {
    stubApi(adminRoutes({}, false));
    renderApp(`/settings/organisations?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Not permitted')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Create organisation' })).not.toBeInTheDocument();
  });

  it('starts empty, checks the form and creates an organisation', async () => {
    let items: ManagedOrg[] = [];
    const fetchMock = stubApi(
      adminRoutes({
        [`GET ${managed}`]: () => ({ body: { items, total: items.length } }),
        [`POST ${managed}`]: ({ init }) => {
          const created = { ...acme, ...body(init), id: 'org-new', createdAt: acme.createdAt } as ManagedOrg;
          items = [created];
          return { status: 201, body: created };
        },
      }),
    );
    const { user } = renderApp(`/settings/organisations?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('No organisations yet')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Create organisation' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create organisation' });

    await user.type(within(dialog).getByRole('textbox', { name: 'Contact e-mail' }), 'not an address');
    await user.click(within(dialog).getByRole('button', { name: 'Create organisation' }));
    expect(within(dialog).getByText('This field is required.')).toBeInTheDocument();
    expect(within(dialog).getByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url, init]) => url === managed && init?.method === 'POST')).toBe(
      false,
    );

    await user.type(within(dialog).getByRole('textbox', { name: 'Name' }), '  Coastal Bank ');
    await user.clear(within(dialog).getByRole('textbox', { name: 'Contact e-mail' }));
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cyber Fraud Premium' }));
    await user.click(within(dialog).getByRole('switch', { name: /Universal ticket inbox/ }));
    await user.click(within(dialog).getByRole('button', { name: 'Create organisation' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    const post = fetchMock.mock.calls.find(([url, init]) => url === managed && init?.method === 'POST');
    expect(body(post?.[1])).toEqual({
      name: 'Coastal Bank',
      productSkus: ['CYBERFRAUD_PREMIUM'],
      managementMode: 'ONBOARDING',
      featureFlags: { universalTicketInbox: true },
      requireTwoFactor: false,
      csmName: null,
      csmEmailAddress: null,
      eventRetentionDays: 90,
    });
    expect(await screen.findByRole('cell', { name: /Coastal Bank/ })).toBeInTheDocument();
    // The new organisation joins the selector's list.
    expect(fetchMock.mock.calls.filter(([url]) => url === '/api/orgs').length).toBeGreaterThan(1);
  });

  it('asks before an edit takes products away or shortens the event retention', async () => {
    const fetchMock = stubApi(
      adminRoutes({
        [`GET ${managed}`]: { body: { items: [acme], total: 1 } },
        [`PUT ${managed}/org-acme`]: ({ init }) => ({ body: { ...acme, ...body(init) } }),
      }),
    );
    const { user } = renderApp(`/settings/organisations?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Edit Acme Bank' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Acme Bank' });
    expect(within(dialog).getByRole('switch', { name: /Customer success contact/ })).toBeChecked();
    await user.click(within(dialog).getByRole('checkbox', { name: 'Cyber Fraud Standard' }));
    const retention = within(dialog).getByRole('textbox', { name: 'Event retention' });
    await user.clear(retention);
    await user.type(retention, '3');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Enter a whole number of days from 7 to 3650.')).toBeInTheDocument();
    await user.clear(retention);
    await user.type(retention, '30');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));

    const confirm = await screen.findByRole('dialog', { name: 'Save changes to Acme Bank?' });
    expect(within(confirm).getByText(/lose access to: Cyber Fraud Standard/)).toBeInTheDocument();
    expect(within(confirm).getByText(/Events older than 30 days will be deleted/)).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Save' }));

    await waitFor(() => expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const put = fetchMock.mock.calls.find(([, init]) => init?.method === 'PUT');
    expect(body(put?.[1])).toMatchObject({
      productSkus: ['REPORTING_PREMIUM'],
      featureFlags: { csmInformation: true },
      csmEmailAddress: 'grace@provider.example',
      eventRetentionDays: 30,
    });
  });
});
