import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../test/fetch-stub';
import { renderApp } from '../test/render-app';
import {
  CLIENT_ORG_ID,
  HOME_ORG_ID,
  signedInRoutes,
  signedInWithClientRoutes,
  signedOutRoutes,
} from '../test/session-fixtures';

const health = { body: { status: 'ok', version: '6.55.2', database: 'pglite' } };

describe('route guards', () => {
  it('send a signed-out user to /login, remembering the address', async () => {
    stubApi(signedOutRoutes);
    const { router } = renderApp(`/dashboards/default?orgId=${CLIENT_ORG_ID}`);

    expect(await screen.findByRole('button', { name: 'Next' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.search).toMatchObject({
      redirectUrl: `/dashboards/default?orgId=${CLIENT_ORG_ID}`,
    });
  });

  it('refuse /login to a user the app knows as signed in', async () => {
    stubApi({ ...signedInRoutes, 'GET /api/health': health });
    const { router } = renderApp('/dashboards/default');
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();

    await router.navigate({ to: '/login' });

    expect(await screen.findByRole('heading', { name: 'Not authorised' })).toBeInTheDocument();
    expect(router.state.location.search).toMatchObject({ url: '/login' });
  });

  it('open the two-factor pages only while a login waits for its second factor', async () => {
    stubApi(signedOutRoutes);
    const { router } = renderApp('/totp-authentication');

    expect(await screen.findByRole('button', { name: 'Next' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });

  it('drop a redirectUrl that leaves the site', async () => {
    stubApi(signedOutRoutes);
    const { router } = renderApp(`/login?redirectUrl=${encodeURIComponent('//evil.example/x')}`);

    expect(await screen.findByRole('button', { name: 'Next' })).toBeInTheDocument();
    const loginMatch = router.state.matches.find((match) => match.routeId === '/login');
    expect(loginMatch?.search.redirectUrl).toBeUndefined();
  });
});

describe('current organisation', () => {
  it('is asked for when the user has several and the address names none; h picks the home one', async () => {
    stubApi({ ...signedInWithClientRoutes, 'GET /api/health': health });
    const { router, user } = renderApp('/dashboards/default');

    expect(await screen.findByRole('heading', { name: 'Select an organisation' })).toBeInTheDocument();
    const buttons = screen.getAllByRole('button', { name: /Acme Bank|Provider/ });
    expect(buttons.map((button) => button.textContent)).toEqual(['Acme Bank', 'Provider']);
    expect(screen.getByRole('img', { name: 'Home organisation' })).toBeInTheDocument();

    await user.keyboard('h');

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });
  });

  it('is the one the address names when the user may work in it', async () => {
    stubApi({ ...signedInWithClientRoutes, 'GET /api/health': health });
    const { router } = renderApp(`/dashboards/default?orgId=${CLIENT_ORG_ID}`);

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ orgId: CLIENT_ORG_ID });
  });
});

describe('signing out', () => {
  it('logs out from the user menu and forgets the user', async () => {
    const fetchMock = stubApi({ ...signedInRoutes, 'GET /api/health': health });
    const { router, user } = renderApp('/dashboards/default');

    await user.click(await screen.findByRole('button', { name: 'Ada Lovelace' }));
    await user.click(await screen.findByRole('menuitem', { name: 'Log out' }));

    expect(await screen.findByRole('button', { name: 'Next' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
    expect(screen.queryByRole('button', { name: 'Ada Lovelace' })).not.toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledWith('/api/user/logout', expect.objectContaining({ method: 'POST' }));
  });

  it('ends the session on a 401 from any other call, keeping the address to return to', async () => {
    stubApi({
      ...signedInRoutes,
      'GET /api/health': { status: 401, body: apiError('NOT_AUTHENTICATED', 'AuthenticationException') },
    });
    const { router } = renderApp(`/dashboards/default?orgId=${HOME_ORG_ID}`);

    expect(await screen.findByText('Your session has ended. Log in again.')).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(router.state.location.search).toMatchObject({
      redirectUrl: `/dashboards/default?orgId=${HOME_ORG_ID}`,
    });
  });
});
