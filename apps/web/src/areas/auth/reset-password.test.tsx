import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signedOutRoutes } from '../../test/session-fixtures';

const LENGTH_MESSAGE = 'The password must have at least 8 characters.';
const MATCH_MESSAGE = 'The passwords must match.';

function stubResetApi() {
  return stubApi({
    ...signedOutRoutes,
    'POST /api/user/password-check': ({ init }) => ({
      body: { common: JSON.parse(String(init?.body)).password === 'Summer2024!' },
    }),
    'POST /api/user/password-reset': { status: 204 },
  });
}

describe('reset-password page', () => {
  it('shows the rule messages only once a field has been edited, and keeps the button disabled', async () => {
    stubResetApi();
    const { user } = renderApp('/reset-password?id=u1&confirmation=c1');

    const password = await screen.findByLabelText('New password');
    const confirmation = screen.getByLabelText('Confirm password');
    const submit = screen.getByRole('button', { name: 'Reset password' });
    expect(submit).toBeDisabled();
    expect(screen.queryByText(LENGTH_MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByText('This field is required.')).not.toBeInTheDocument();

    await user.type(password, 'short');
    expect(screen.getByText(LENGTH_MESSAGE)).toBeInTheDocument();
    expect(screen.queryByText(MATCH_MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByText('This field is required.')).not.toBeInTheDocument();

    await user.type(confirmation, 'shorter');
    expect(screen.getByText(MATCH_MESSAGE)).toBeInTheDocument();
    expect(submit).toBeDisabled();

    await user.clear(password);
    await user.type(password, 'Vigilant-Otter-42');
    await user.clear(confirmation);
    await user.type(confirmation, 'Vigilant-Otter-42');
    expect(screen.queryByText(LENGTH_MESSAGE)).not.toBeInTheDocument();
    expect(screen.queryByText(MATCH_MESSAGE)).not.toBeInTheDocument();
    expect(submit).toBeEnabled();
  });

  it('warns about a common password without refusing it, and resets the password', async () => {
    const fetchMock = stubResetApi();
    const { user } = renderApp('/reset-password?id=u1&confirmation=c1');

    await user.type(await screen.findByLabelText('New password'), 'Summer2024!');
    await user.type(screen.getByLabelText('Confirm password'), 'Summer2024!');

    expect(await screen.findByText(/This password is common/)).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Reset password' }));

    expect(await screen.findByText('Your password has been reset. You can now log in.')).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/user/password-reset');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({
      id: 'u1',
      confirmation: 'c1',
      newPassword: 'Summer2024!',
    });
  });

  it('welcomes a new user with a Set password button', async () => {
    stubResetApi();
    renderApp('/new-user?id=u1&confirmation=c1');

    expect(await screen.findByRole('heading', { name: 'Welcome to Vigil' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Set password' })).toBeDisabled();
  });

  it('sends a link without its parameters to /forgot-password', async () => {
    stubResetApi();
    const { router } = renderApp('/reset-password?id=u1');

    expect(await screen.findByRole('button', { name: 'Send reset link' })).toBeInTheDocument();
    expect(
      screen.getByText('This password-reset link is incomplete. Request a new one.'),
    ).toBeInTheDocument();
    await waitFor(() => expect(router.state.location.pathname).toBe('/forgot-password'));
  });
});
