import { screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PREFERENCES, resolveFeatureFlags } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  orgContextOf,
  orgShellRoutes,
  signedInRoutes,
  signedInWithClientRoutes,
} from '../test/session-fixtures';

const withPermissions = (permissions: string[], features: Record<string, boolean> = {}) => ({
  ...signedInRoutes,
  ...orgShellRoutes(
    orgContextOf(HOME_ORG_ID, 'Provider', {
      permissions,
      features: { ...resolveFeatureFlags({}), ...features },
    }),
  ),
});

const mainNav = () => screen.getByRole('navigation', { name: 'Main navigation' });

describe('left bar', () => {
  it('shows only the entries the user may open, each with its landing target', async () => {
    stubApi(withPermissions(['DASHBOARD_VIEW', 'THREATMATCH_VIEW', 'CLASSIFIER_VIEW']));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    const nav = mainNav();
    const links = within(nav).getAllByRole('link');
    expect(links.map((link) => link.textContent)).toEqual([
      'Dashboards',
      'Events',
      'Fraud',
      'Threat surveillance',
      'Settings',
    ]);
    const href = (name: string) => within(nav).getByRole('link', { name }).getAttribute('href');
    expect(href('Events')).toBe(`/classifiers?orgId=${HOME_ORG_ID}`);
    expect(href('Fraud')).toBe(`/fraud/offering?orgId=${HOME_ORG_ID}`);
    expect(href('Threat surveillance')).toBe(`/threat?orgId=${HOME_ORG_ID}`);
    expect(href('Settings')).toBe(`/settings/profile?orgId=${HOME_ORG_ID}`);
    for (const hidden of ['Home', 'Reports', 'Tickets', 'Assets', 'Governance', 'Risk']) {
      expect(within(nav).queryByRole('link', { name: hidden })).not.toBeInTheDocument();
    }
  });

  it('keeps orgId and feature across moves between areas', async () => {
    stubApi(withPermissions(['DASHBOARD_VIEW', 'ALERT_INBOX_VIEW', 'TRIGGER_VIEW', 'REPORT_VIEW']));
    const { router, user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}&feature=csmInformation`);
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();

    await user.click(within(mainNav()).getByRole('link', { name: 'Threat surveillance' }));

    expect(await screen.findByRole('heading', { name: 'Alert inbox' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/alerts/inbox');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID, feature: 'csmInformation' });
    await waitFor(() => expect(document.title).toBe('Provider - Alert inbox'));

    const tabs = screen.getByRole('navigation', { name: 'Threat surveillance pages' });
    expect(
      within(tabs)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Alert inbox', 'Triggers', 'Trigger schedules', 'Default triggers']);
    expect(within(tabs).getByRole('link', { name: 'Alert inbox' })).toHaveAttribute('aria-current', 'page');

    await user.click(within(tabs).getByRole('link', { name: 'Default triggers' }));
    expect(await screen.findByRole('heading', { name: 'Trigger library' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/triggers/library');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID, feature: 'csmInformation' });

    await user.click(within(mainNav()).getByRole('link', { name: 'Reports' }));
    expect(await screen.findByRole('heading', { name: 'Reports' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reports');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID, feature: 'csmInformation' });
  });

  it('follows legacy addresses to their current pages', async () => {
    stubApi(withPermissions(['CUSTOM_POLICY_VIEW']));
    const { router } = renderApp(`/compliance/policies?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Policies' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/governance/policies');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });
  });

  it('leads the singular framework and policy addresses of the spec to their pages', async () => {
    stubApi({
      ...withPermissions(['CUSTOM_POLICY_VIEW', 'POLICY_FRAMEWORK_VIEW']),
      [`GET /api/org/${HOME_ORG_ID}/governance/policy/p1`]: {
        status: 404,
        body: apiError('GOVERNANCE_POLICY_NOT_FOUND', 'NotFoundException'),
      },
      [`GET /api/org/${HOME_ORG_ID}/governance/framework/f1`]: {
        status: 404,
        body: apiError('GOVERNANCE_FRAMEWORK_NOT_FOUND', 'NotFoundException'),
      },
    });
    const { router } = renderApp(`/governance/policy/p1?orgId=${HOME_ORG_ID}`);
    await waitFor(() => expect(router.state.location.pathname).toBe('/governance/policies/p1'));
    expect(await screen.findByText('The policy could not be loaded')).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });

    await router.navigate({ href: `/compliance/framework/f1?orgId=${HOME_ORG_ID}` });
    await waitFor(() => expect(router.state.location.pathname).toBe('/governance/frameworks/f1'));
    expect(await screen.findByText('The framework could not be loaded')).toBeInTheDocument();
  });

  it('collapses to icons and remembers it as a preference', async () => {
    const fetchMock = stubApi({
      ...withPermissions(['DASHBOARD_VIEW']),
      [`PATCH /api/org/${HOME_ORG_ID}/user/preferences`]: ({ init }) => ({
        body: { ...DEFAULT_PREFERENCES, ...(JSON.parse(String(init?.body)) as object) },
      }),
    });
    const { user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    await user.click(await screen.findByRole('button', { name: 'Collapse navigation' }));

    expect(await screen.findByRole('button', { name: 'Expand navigation' })).toBeInTheDocument();
    expect(within(mainNav()).getByRole('link', { name: 'Dashboards' })).not.toHaveTextContent('Dashboards');
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ leftBarVisible: false });
  });

  it('is hidden on a page opened with isNewTab', async () => {
    stubApi(withPermissions(['DASHBOARD_VIEW']));
    renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}&isNewTab=true`);

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });
});

describe('organisation selector', () => {
  it('switches organisation from the list, cycles with the arrows and loads the new context', async () => {
    const fetchMock = stubApi({ ...signedInWithClientRoutes });
    const { router, user } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    const selector = await screen.findByRole('combobox', { name: 'Organisation' });
    expect(selector).toHaveValue('Provider');
    await user.click(selector);
    await user.clear(selector);
    await user.type(selector, 'acme');
    expect(screen.getAllByRole('option').map((option) => option.textContent)).toEqual(['Acme Bank']);
    await user.click(await screen.findByRole('option', { name: 'Acme Bank' }));

    await waitFor(() => expect(router.state.location.search).toEqual({ orgId: CLIENT_ORG_ID }));
    expect(router.state.location.pathname).toBe('/dashboards/default');
    await waitFor(() =>
      expect(screen.getByRole('combobox', { name: 'Organisation' })).toHaveValue('Acme Bank'),
    );
    expect(fetchMock).toHaveBeenCalledWith(`/api/org/${CLIENT_ORG_ID}/context`, expect.anything());
    await waitFor(() => expect(document.title).toBe('Acme Bank - Dashboards'));

    await user.click(screen.getByRole('button', { name: 'Next organisation' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID }));
    await user.click(screen.getByRole('button', { name: 'Next organisation' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ orgId: CLIENT_ORG_ID }));
    await user.click(screen.getByRole('button', { name: 'Previous organisation' }));
    await waitFor(() => expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID }));

    expect(screen.getByRole('link', { name: 'Open organisation in a new tab' })).toHaveAttribute(
      'href',
      `/dashboards/default?orgId=${HOME_ORG_ID}`,
    );
  });
});
