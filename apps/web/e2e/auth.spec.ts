import { expect, test } from '@playwright/test';
import * as OTPAuth from 'otpauth';
import { baseUrl, demoPassword, readLatestMail, signInThroughPage } from './support';

test('a demo analyst signs in with a password, lands on the dashboards and logs out', async ({ page }) => {
  await signInThroughPage(page, 'analyst@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default\?orgId=[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();
  await page.getByRole('button', { name: /Jordan Reyes/ }).click();
  await page.getByRole('menuitem', { name: 'Log out' }).click();
  await expect(page).toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/dashboards/default`);
  await expect(page).toHaveURL(/\/login\?redirectUrl=/);
});

test('a wrong password shows the login warning until the user types again', async ({ page }) => {
  await signInThroughPage(page, 'analyst@firstharbor.example', 'not-the-password');
  const warning = page.getByRole('alert').filter({ hasText: /Login failed/i });
  await expect(warning).toBeVisible();
  await page.getByLabel('Password').focus();
  await expect(warning).toHaveCount(0);
});

test('a user whose bank requires two-factor sets up an authenticator, then signs in with a code', async ({
  page,
}) => {
  await signInThroughPage(page, 'admin@coastalcb.example');
  await expect(page).toHaveURL(/\/setup-totp-login/);
  const grouped = await page.getByText(/^([A-Z2-7]{4} ){3}[A-Z2-7]{4}$/).textContent();
  const totp = new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(grouped!.replace(/\s/g, '')) });
  await page.getByLabel('Code').fill(totp.generate());
  await page.getByRole('button', { name: 'Setup complete' }).click();
  // Coastal Community Bank has no defaultRevealDashboards, so its users land on the old dashboards.
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();

  await page.context().clearCookies();
  await signInThroughPage(page, 'admin@coastalcb.example');
  await expect(page).toHaveURL(/\/totp-authentication/);
  // The code of the next step: the one just used is never accepted twice.
  await page.getByLabel('Code').fill(totp.generate({ timestamp: Date.now() + 30_000 }));
  await page.getByRole('button', { name: 'Authenticate' }).click();
  await expect(page).toHaveURL(/\/dashboard(\?|$)/);
});

test('a user registers a security key and signs in with it', async ({ page }) => {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  await signInThroughPage(page, 'admin@prairiecu.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/settings/profile`);
  await page.getByRole('button', { name: 'Register security key' }).click();
  await expect(page.getByText(/security key (was )?registered/i)).toBeVisible();

  await page.context().clearCookies();
  await signInThroughPage(page, 'admin@prairiecu.example');
  await expect(page).toHaveURL(/\/dashboards\/default/, { timeout: 15_000 });

  // The user removes the key again, confirming with the password; the next sign-in asks for no key.
  await page.goto(`${baseUrl()}/settings/profile`);
  await page.getByRole('button', { name: 'Remove security keys' }).click();
  await page.getByRole('dialog').getByLabel('Current password').fill(demoPassword());
  await page.getByRole('dialog').getByRole('button', { name: 'Remove' }).click();
  await expect(page.getByText('The security keys have been removed.')).toBeVisible();
  await expect(page.getByText('Not registered')).toBeVisible();
  await page.context().clearCookies();
  const signIn = await page.request.post(`${baseUrl()}/api/user/login`, {
    headers: {
      authorization: `Basic ${Buffer.from(`admin@prairiecu.example:${demoPassword()}`).toString('base64')}`,
      'x-requested-with': 'XMLHttpRequest',
    },
  });
  expect((await signIn.json()).secondFactorRequired).toBe(false);
});

test('a forgotten password is reset through the e-mailed link', async ({ page }) => {
  await page.goto(`${baseUrl()}/login`);
  await page.getByLabel('E-mail').fill('analyst@prairiecu.example');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByRole('link', { name: 'Forgot password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password/);
  // The login page's own e-mail field is gone once the forgot-password page is shown.
  await expect(page.getByRole('heading', { name: 'Forgot password' })).toBeVisible();
  await page.getByLabel('E-mail').fill('analyst@prairiecu.example');
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('a password-reset e-mail is on its way').first()).toBeVisible();

  const mail = await readLatestMail('analyst@prairiecu.example');
  const link = /https?:\/\/\S+\/reset-password\?\S+/.exec(mail)![0];
  await page.goto(link);
  await expect(page.getByRole('button', { name: 'Reset password' })).toBeVisible();
  const newPassword = 'granite-Meadow-47-sail';
  await page.getByLabel('New password', { exact: true }).fill(newPassword);
  await page.getByLabel(/Confirm/).fill(newPassword);
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText(/password has been reset/i).first()).toBeVisible();
  await expect(page).toHaveURL(/\/login/, { timeout: 10_000 });

  await signInThroughPage(page, 'analyst@prairiecu.example', newPassword);
  await expect(page).toHaveURL(/\/dashboards\/default/);
});
