import { screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PREFERENCES, resolveFeatureFlags, type OrgContext } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi, type StubRoute } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import { HOME_ORG_ID, orgContextOf, orgShellRoutes, signedInRoutes } from '../test/session-fixtures';

const base = `/api/org/${HOME_ORG_ID}`;

function shellWith(context: Partial<OrgContext>, extra: Record<string, StubRoute> = {}) {
  return {
    ...signedInRoutes,
    ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider', context)),
    [`PATCH ${base}/user/preferences`]: ({ init }: { init?: RequestInit }) => ({
      body: { ...DEFAULT_PREFERENCES, ...(JSON.parse(String(init?.body)) as object) },
    }),
    ...extra,
  };
}

const flags = (on: Record<string, boolean>) => ({ ...resolveFeatureFlags({}), ...on });

describe('header', () => {
  it('links to the knowledge base and connect, and shows cyber risk readiness only with its flags', async () => {
    stubApi(shellWith({ features: flags({ cyberRiskReadinessDashboard: true }) }));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    const readiness = await screen.findByRole('link', { name: 'Cyber risk readiness' });
    expect(readiness).toHaveAttribute('href', `/home?orgId=${HOME_ORG_ID}`);
    expect(screen.getByRole('link', { name: 'Knowledge base' })).toHaveAttribute(
      'href',
      `/knowledge-base?orgId=${HOME_ORG_ID}`,
    );
    expect(screen.getByRole('link', { name: 'Connect' })).toBeInTheDocument();
  });

  it('has no cyber risk readiness button and no contact without their flags', async () => {
    stubApi(shellWith({ csm: { csmName: 'Grace Hopper', csmEmailAddress: 'grace@provider.example' } }));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('link', { name: 'Knowledge base' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Cyber risk readiness' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Customer success' })).not.toBeInTheDocument();
  });

  it('shows the customer-success contact with feature csmInformation', async () => {
    stubApi(
      shellWith({
        features: flags({ csmInformation: true }),
        csm: { csmName: 'Grace Hopper', csmEmailAddress: 'grace@provider.example' },
      }),
    );
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Customer success' }));

    expect(await screen.findByText('Grace Hopper')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'grace@provider.example' })).toHaveAttribute(
      'href',
      'mailto:grace@provider.example',
    );
  });
});

describe('user menu', () => {
  it('offers read-only mode only with feature readonlyToggle and the right to switch it', async () => {
    stubApi(shellWith({ canToggleReadOnly: true }));
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));

    expect(await screen.findByRole('menuitemcheckbox', { name: 'Dark mode' })).toBeInTheDocument();
    expect(screen.getByRole('menuitem', { name: 'View profile' })).toBeInTheDocument();
    expect(screen.getByRole('menuitemcheckbox', { name: 'Inactivity timeout' })).toBeChecked();
    expect(screen.getByRole('menuitemcheckbox', { name: 'Shortcut keys' })).toBeChecked();
    expect(screen.queryByRole('menuitemcheckbox', { name: 'Read-only mode' })).not.toBeInTheDocument();
  });

  it('switches read-only mode, narrowing the permissions at once, then reloads them', async () => {
    let readOnly = false;
    const permissions = ['DASHBOARD_VIEW', 'DASHBOARD_EDIT', 'TRAC_USER'];
    const context = () =>
      orgContextOf(HOME_ORG_ID, 'Provider', {
        features: flags({ readonlyToggle: true }),
        canToggleReadOnly: true,
        readOnlyMode: readOnly,
        permissions: readOnly ? ['DASHBOARD_VIEW'] : permissions,
      });
    const fetchMock = stubApi(
      shellWith(
        {},
        {
          [`GET ${base}/context`]: () => ({ body: context() }),
          [`GET ${base}/user/permissions`]: () => ({ body: { permissions: context().permissions } }),
          [`PUT ${base}/user/read-only`]: ({ init }) => {
            readOnly = (JSON.parse(String(init?.body)) as { enabled: boolean }).enabled;
            return { status: 204 };
          },
          [`GET ${base}/info/metadata`]: {
            body: { orgId: HOME_ORG_ID, title: 'All clear', threatLevel: 'FOUR' },
          },
        },
      ),
    );
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('button', { name: 'Info panel' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Ada Lovelace' }));
    const item = await screen.findByRole('menuitemcheckbox', { name: 'Read-only mode' });
    expect(item).not.toBeChecked();
    await user.click(item);

    // TRAC_USER holds no _VIEW: the info-panel button goes with it.
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Info panel' })).not.toBeInTheDocument());
    const put = fetchMock.mock.calls.find(
      ([url, init]) => url === `${base}/user/read-only` && init?.method === 'PUT',
    );
    expect(JSON.parse(String(put?.[1]?.body))).toEqual({ enabled: true });
    await waitFor(() =>
      expect(
        fetchMock.mock.calls.filter(([url]) => url === `${base}/user/permissions`).length,
      ).toBeGreaterThan(1),
    );
    expect(await screen.findByRole('menuitemcheckbox', { name: 'Read-only mode' })).toBeChecked();
  });

  it('switches dark mode and stores it as a preference', async () => {
    const fetchMock = stubApi(shellWith({}));
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitemcheckbox', { name: 'Dark mode' }));

    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ darkMode: true });
    expect(screen.queryByRole('button', { name: /Switch to/ })).not.toBeInTheDocument();
  });

  it('applies the stored dark-mode preference', async () => {
    stubApi({
      ...shellWith({}),
      ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider'), { darkMode: true }),
    });
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await waitFor(() =>
      expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark'),
    );
    expect(localStorage.getItem('vigil-color-scheme')).toBe('dark');
  });
});

describe('shortcut keys', () => {
  it('list themselves on ? while switched on', async () => {
    stubApi(shellWith({}));
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();

    await user.keyboard('?');

    const dialog = await screen.findByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(within(dialog).getByText('Next organisation')).toBeInTheDocument();
  });

  it('do nothing while switched off', async () => {
    stubApi({
      ...shellWith({}),
      ...orgShellRoutes(orgContextOf(HOME_ORG_ID, 'Provider'), { shortcutKeys: false }),
    });
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument());

    await user.keyboard('?');

    expect(screen.queryByRole('dialog', { name: 'Keyboard shortcuts' })).not.toBeInTheDocument();
  });
});
