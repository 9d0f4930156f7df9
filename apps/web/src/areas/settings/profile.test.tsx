import { screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PREFERENCES } from '@vigil/contracts';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { HOME_ORG_ID, signedInRoutes, testUser } from '../../test/session-fixtures';

const URI = 'otpauth://totp/Vigil:ada%40bank.example?secret=JBSWY3DPEHPK3PXP&issuer=Vigil';

describe('profile page', () => {
  it('shows the user and sets up an authenticator app through the code page', async () => {
    let confirmed = false;
    const fetchMock = stubApi({
      ...signedInRoutes,
      'GET /api/user': () => ({ body: { ...testUser, google2faEnabled: confirmed } }),
      'POST /api/user/google2fa/setup': { body: { google2faUri: URI, secret: 'JBSWY3DPEHPK3PXP' } },
      'POST /api/user/google2fa/confirm': () => {
        confirmed = true;
        return { status: 204 };
      },
    });
    const { user, router } = renderApp('/settings/profile');

    expect(await screen.findByRole('heading', { name: 'Profile' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Name Ada Lovelace' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'E-mail ada@bank.example' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Authenticator app Not set up' })).toBeInTheDocument();
    expect(screen.getByRole('row', { name: 'Security key Not registered' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Set up authenticator app' }));

    expect(await screen.findByText('JBSW Y3DP EHPK 3PXP')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/setup-totp-profile/input-code');
    expect(router.state.location.search).toEqual({ orgId: HOME_ORG_ID });

    await user.type(screen.getByRole('textbox', { name: 'Code' }), '123456');
    await user.click(screen.getByRole('button', { name: 'Setup complete' }));

    expect(await screen.findByText('Two-factor authentication is set up.')).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: 'Authenticator app Set up' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/settings/profile');
    const confirm = fetchMock.mock.calls.find(([url]) => url === '/api/user/google2fa/confirm');
    expect(confirm?.[1]?.body).toBe('123456');
  });

  it('changes the password once every field is valid', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      'POST /api/user/password-check': { body: { common: false } },
      [`POST /api/org/${HOME_ORG_ID}/user/${testUser.id}/password`]: { status: 204 },
    });
    const { user } = renderApp('/settings/profile');

    const submit = await screen.findByRole('button', { name: 'Change password' });
    expect(submit).toBeDisabled();

    await user.type(screen.getByLabelText('Current password'), 'old secret');
    await user.type(screen.getByLabelText('New password'), 'ada-lovelace-99');
    expect(
      screen.getByText('The password must not contain your name or e-mail address.'),
    ).toBeInTheDocument();

    await user.clear(screen.getByLabelText('New password'));
    await user.type(screen.getByLabelText('New password'), 'Vigilant-Otter-42');
    await user.type(screen.getByLabelText('Confirm password'), 'Vigilant-Otter-42');
    await user.click(submit);

    expect(await screen.findByText('Your password has been changed.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/password'));
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      requiredPassword: 'old secret',
      newPassword: 'Vigilant-Otter-42',
    });
  });

  it('saves the default timezone and page size as preferences', async () => {
    const fetchMock = stubApi({
      ...signedInRoutes,
      [`PATCH /api/org/${HOME_ORG_ID}/user/preferences`]: ({ init }) => ({
        body: { ...DEFAULT_PREFERENCES, ...(JSON.parse(String(init?.body)) as object) },
      }),
    });
    const { user } = renderApp('/settings/profile');

    const preferences = await screen.findByRole('region', { name: 'Preferences' });
    await user.click(within(preferences).getByRole('combobox', { name: 'Rows per page' }));
    await user.click(await screen.findByRole('option', { name: '100' }));

    await waitFor(() =>
      expect(within(preferences).getByRole('combobox', { name: 'Rows per page' })).toHaveValue('100'),
    );
    const patch = fetchMock.mock.calls.find(([, init]) => init?.method === 'PATCH');
    expect(JSON.parse(String(patch?.[1]?.body))).toEqual({ pageSize: 100 });
  });
});
