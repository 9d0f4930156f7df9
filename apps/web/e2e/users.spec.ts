import { expect, test } from '@playwright/test';
import { baseUrl, readLatestMail, signInThroughPage } from './support';

test('an administrator creates a custom role and a user, who sets a password and sees only those areas', async ({
  page,
  browser,
}) => {
  const suffix = Date.now().toString(36);
  const roleName = `Asset and event readers ${suffix}`;
  const email = `reader-${suffix}@firstharbor.example`;

  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);

  await page.goto(`${baseUrl()}/settings/roles`);
  await page.getByRole('button', { name: 'Create role' }).click();
  const roleDrawer = page.getByRole('dialog', { name: 'Create role' });
  await roleDrawer.getByRole('textbox', { name: 'Name' }).fill(roleName);
  for (const area of ['Event Search', 'Assets']) {
    await roleDrawer.getByRole('radiogroup', { name: area }).getByText('Read Only').click();
  }
  await roleDrawer.getByRole('button', { name: 'Create role' }).click();
  await expect(page.getByText('The role has been created.')).toBeVisible();
  await expect(page.getByRole('button', { name: `Edit ${roleName}` })).toBeVisible();

  await page.goto(`${baseUrl()}/settings/users`);
  await page.getByRole('button', { name: 'Create user' }).click();
  const userDrawer = page.getByRole('dialog', { name: 'Create user' });
  await userDrawer.getByRole('textbox', { name: 'E-mail' }).fill(email);
  await userDrawer.getByRole('textbox', { name: 'First name' }).fill('Riley');
  await userDrawer.getByRole('textbox', { name: 'Last name' }).fill('Reader');
  await userDrawer.getByRole('combobox', { name: 'Role' }).click();
  await page.getByRole('option', { name: roleName }).click();
  await userDrawer.getByRole('button', { name: 'Create user' }).click();
  await expect(page.getByText('The user has been created')).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill('riley');
  await expect(page.getByRole('row').filter({ hasText: email })).toContainText(roleName);

  // The new user follows the link of the new-user e-mail in a browser of their own.
  const mail = await readLatestMail(email);
  const link = /https?:\/\/\S+\/new-user\?\S+/.exec(mail)![0];
  const context = await browser.newContext();
  const newcomer = await context.newPage();
  await newcomer.goto(link);
  await expect(newcomer.getByText('Choose a password to activate your account.')).toBeVisible();
  const password = 'harbour-Lantern-62-quay';
  await newcomer.getByLabel('New password', { exact: true }).fill(password);
  await newcomer.getByLabel(/Confirm/).fill(password);
  await newcomer.getByRole('button', { name: 'Set password' }).click();
  await expect(newcomer).toHaveURL(/\/login/, { timeout: 10_000 });

  await signInThroughPage(newcomer, email, password);
  await expect(newcomer.getByRole('link', { name: 'Assets' })).toBeVisible();
  await expect(newcomer.getByRole('link', { name: 'Events' })).toBeVisible();
  for (const hidden of ['Reports', 'Tickets', 'Dashboards', 'Governance']) {
    await expect(newcomer.getByRole('link', { name: hidden, exact: true })).toHaveCount(0);
  }
  await context.close();
});
