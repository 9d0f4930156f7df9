import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiError, stubApi } from '../../test/fetch-stub';
import { renderApp } from '../../test/render-app';
import { signedOutRoutes } from '../../test/session-fixtures';

describe('forgot-password page', () => {
  it('needs a valid e-mail address, then says the link is on its way', async () => {
    const fetchMock = stubApi({ ...signedOutRoutes, 'POST /api/user/forgot': { status: 204 } });
    const { user } = renderApp('/forgot-password');

    const send = await screen.findByRole('button', { name: 'Send reset link' });
    await user.click(send);
    expect(screen.getByText('This field is required.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), 'ada');
    expect(screen.getByText('Enter a valid e-mail address.')).toBeInTheDocument();

    await user.type(screen.getByRole('textbox', { name: 'E-mail' }), '@bank.example{Enter}');
    expect(
      await screen.findByText('If the address belongs to an account, a password-reset e-mail is on its way.'),
    ).toBeInTheDocument();
    const call = fetchMock.mock.calls.find(([url]) => url === '/api/user/forgot');
    expect(JSON.parse(String(call?.[1]?.body))).toEqual({ email: 'ada@bank.example' });
  });

  it('says when the e-mail could not be sent', async () => {
    stubApi({
      ...signedOutRoutes,
      'POST /api/user/forgot': { status: 500, body: apiError('SMTP_DOWN', 'ServerException') },
    });
    const { user } = renderApp('/forgot-password');

    await user.type(await screen.findByRole('textbox', { name: 'E-mail' }), 'ada@bank.example{Enter}');
    expect(await screen.findByText('The password-reset e-mail could not be sent.')).toBeInTheDocument();
  });
});
