import { act, screen, waitFor } from '@testing-library/react';
import { SECOND_FACTOR_TIMEOUT_MS } from '@vigil/contracts';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signedInRoutes, signedOutRoutes, testUser } from '../../test/session-fixtures';

const URI = 'otpauth://totp/Vigil:ada%40bank.example?secret=JBSWY3DPEHPK3PXP&issuer=Vigil';

/** Signs in with e-mail and password against a server whose login answers `login`. */
async function logInNeedingSecondFactor(login: Record<string, unknown>) {
  let signedIn = false;
  stubApi({
    ...signedInRoutes,
    'GET /api/health': { body: { status: 'ok', version: '6.55.2', database: 'pglite' } },
    'GET /api/user': () => (signedIn ? { body: testUser } : (signedOutRoutes['GET /api/user'] as never)),
    'GET /api/user/saml-enabled': { body: { ssoEnabled: false } },
    'POST /api/user/login': {
      body: { secondFactorRequired: true, google2faInitialized: false, u2fInitialized: false, ...login },
    },
    'POST /api/user/login/google2fa': () => {
      signedIn = true;
      return { body: testUser };
    },
  });
  const app = renderApp('/login');
  await app.user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ada@bank.example{Enter}');
  await app.user.type(await screen.findByLabelText('Password'), 'right password{Enter}');
  return app;
}

describe('two-factor pages', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('set up an authenticator app when the organisation requires one, then finish logging in', async () => {
    const { user, router } = await logInNeedingSecondFactor({ google2faUri: URI });

    expect(
      await screen.findByRole('heading', { name: 'Set up two-factor authentication' }),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/setup-totp-login');
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    for (const platform of ['Android', 'BlackBerry', 'iOS', 'Windows Phone']) {
      expect(screen.getByRole('tab', { name: platform })).toBeInTheDocument();
    }

    await user.type(screen.getByRole('textbox', { name: 'Code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Setup complete' }));

    expect(await screen.findByText('Two-factor authentication is set up.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Dashboards' })).toBeInTheDocument();
  });

  it('ask for the security key, offer the authenticator app instead, and explain a lost device', async () => {
    const { user } = await logInNeedingSecondFactor({ u2fInitialized: true, google2faInitialized: true });

    expect(await screen.findByRole('heading', { name: 'Security key' })).toBeInTheDocument();
    // This browser has no WebAuthn: a failure that is not a dismissed prompt.
    expect(
      await screen.findByText('Login failed. Check your e-mail address and password.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Retry' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Lost your device?' }));
    expect(await screen.findByRole('dialog', { name: 'Lost your device?' })).toBeInTheDocument();
    // The dialog's corner icon and its footer button are both named Close; the footer one is last.
    await user.click(screen.getAllByRole('button', { name: 'Close' }).at(-1)!);
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Lost your device?' })).not.toBeInTheDocument(),
    );

    await user.click(screen.getByRole('link', { name: 'Use the authenticator app instead' }));
    expect(await screen.findByRole('button', { name: 'Authenticate' })).toBeInTheDocument();
  });

  it('log out when the second factor is not given within 10 minutes', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { router } = await logInNeedingSecondFactor({ google2faInitialized: true });
    expect(await screen.findByRole('button', { name: 'Authenticate' })).toBeInTheDocument();

    await act(() => vi.advanceTimersByTimeAsync(SECOND_FACTOR_TIMEOUT_MS));

    expect(
      await screen.findByText('Two-factor verification took too long. Log in again.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
