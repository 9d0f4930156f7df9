import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi, type StubRoute } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, signedInRoutes, signedOutRoutes, testUser } from '../../test/session-fixtures';

const health = { body: { status: 'ok', version: '6.55.2', database: 'pglite' } };

/** A server where the password "right password" signs in, with `login` as the login answer. */
function loginServer(login: Record<string, unknown> = { secondFactorRequired: false }) {
  let signedIn = false;
  const routes: Record<string, StubRoute> = {
    ...signedInRoutes,
    'GET /api/health': health,
    'GET /api/user': () => (signedIn ? { body: testUser } : signedOutRoutes['GET /api/user']) as never,
    'GET /api/user/saml-enabled': { body: { ssoEnabled: false } },
    'POST /api/user/login': ({ init }) => {
      const expected = `Basic ${btoa('ada@bank.example:right password')}`;
      if (new Headers(init?.headers).get('Authorization') !== expected) {
        return { status: 401, body: apiError('LOGIN_FAILED', 'AuthenticationException') };
      }
      signedIn = login.secondFactorRequired !== true;
      return { body: { google2faInitialized: false, u2fInitialized: false, ...login } };
    },
    'POST /api/user/login/google2fa': ({ init }) => {
      if (init?.body !== '123456') return { status: 400, body: apiError('INVALID_TOTP') };
      signedIn = true;
      return { body: testUser };
    },
  };
  return stubApi(routes);
}

async function enterEmail(user: ReturnType<typeof renderApp>['user'], email = 'ada@bank.example') {
  await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), email);
  await user.click(screen.getByRole('button', { name: 'Next' }));
}

describe('login page', () => {
  it('asks for the password only after Next, for an address without single sign-on', async () => {
    const fetchMock = loginServer();
    const { user } = renderApp('/login');

    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toBeInTheDocument();
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Log in' })).not.toBeInTheDocument();

    await enterEmail(user);

    expect(await screen.findByLabelText('Password')).toBeRequired();
    expect(screen.getByRole('textbox', { name: 'E-mail' })).toBeRequired();
    expect(screen.getByRole('button', { name: 'Log in' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    );
    expect(fetchMock).toHaveBeenCalledWith(
      '/api/user/saml-enabled?email=ada%40bank.example',
      expect.objectContaining({ method: 'GET' }),
    );
  });

  it('refuses an invalid e-mail address without asking the server', async () => {
    const fetchMock = loginServer();
    const { user } = renderApp('/login');

    await enterEmail(user, 'ada');

    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(fetchMock.mock.calls.some(([url]) => String(url).includes('saml-enabled'))).toBe(false);
  });

  it('warns about a failed login until the user presses a key', async () => {
    loginServer();
    const { user } = renderApp('/login');
    await enterEmail(user);
    await user.type(await screen.findByLabelText('Password'), 'wrong password');
    await user.click(screen.getByRole('button', { name: 'Log in' }));

    expect(
      await screen.findByText('Login failed. Check your e-mail address and password.'),
    ).toBeInTheDocument();

    await user.type(screen.getByLabelText('Password'), 'r');
    expect(
      screen.queryByText('Login failed. Check your e-mail address and password.'),
    ).not.toBeInTheDocument();
  });

  it('signs in and opens the address the user came for, in the current organisation', async () => {
    loginServer();
    const { user, router } = renderApp(`/login?redirectUrl=${encodeURIComponent('/dashboards/default')}`);
    await enterEmail(user);
    await user.type(await screen.findByLabelText('Password'), 'right password{Enter}');

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });
    expect(screen.getByRole('button', { name: 'Ada Lovelace' })).toBeInTheDocument();
  });

  it('continues with the one-time code when the login needs a second factor', async () => {
    const fetchMock = loginServer({ secondFactorRequired: true, google2faInitialized: true });
    const { user, router } = renderApp('/login');
    await enterEmail(user);
    await user.type(await screen.findByLabelText('Password'), 'right password{Enter}');

    const code = await screen.findByRole('textbox', { name: 'Code' });
    const authenticate = screen.getByRole('button', { name: 'Authenticate' });
    expect(router.state.location.pathname).toBe('/totp-authentication');
    expect(authenticate).toBeDisabled();

    await user.type(code, '654321');
    await user.click(authenticate);
    expect(
      await screen.findByText('The code is not valid. Check your authenticator app and try again.'),
    ).toBeInTheDocument();

    await user.clear(code);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Authenticate' }));

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    const codeCall = fetchMock.mock.calls.find(([url]) => url === '/api/user/login/google2fa');
    expect(new Headers(codeCall?.[1]?.headers).get('Content-Type')).toBe('text/plain; charset=utf-8');
  });

  it('hands an address with single sign-on to the identity provider page', async () => {
    stubApi({
      ...signedOutRoutes,
      'GET /api/user/saml-enabled': {
        body: { ssoEnabled: true, ssoName: 'Okta', ssoUrl: 'https://idp.example/sso', samlRequest: 'req' },
      },
    });
    const { user, router } = renderApp('/login?freshdesk=true');

    expect(await screen.findByText('Log in to continue to the support desk.')).toBeInTheDocument();
    await enterEmail(user);

    expect(await screen.findByText('Redirecting to Okta…')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/saml-redirect');
    expect(router.state.location.search).toMatchObject({ email: 'ada@bank.example', ssoName: 'Okta' });
    expect(sessionStorage.getItem('vigil-freshdesk')).toBe('true');
  });

  it('shows a single sign-on failure the server sent the user back with, and only known keys', async () => {
    stubApi(signedOutRoutes);
    renderApp('/login?error=SAML_LOGIN_FAILED');
    expect(
      await screen.findByText('Single sign-on failed. Try again, or contact your administrator.'),
    ).toBeInTheDocument();
  });

  it('ignores an error parameter that is not a catalogue key', async () => {
    stubApi(signedOutRoutes);
    renderApp(`/login?error=${encodeURIComponent('Call 555-0100 now')}`);
    expect(await screen.findByRole('textbox', { name: 'E-mail' })).toBeInTheDocument();
    expect(screen.queryByText(/555-0100/)).not.toBeInTheDocument();
  });

  it('skips the form when the session cookie still signs the user in', async () => {
    stubApi({ ...signedInRoutes, 'GET /api/health': health });
    const { router } = renderApp('/login');

    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID }));
  });
});
