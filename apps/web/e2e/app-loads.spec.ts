import { expect, test } from '@playwright/test';

import { baseUrl, signInThroughApi } from './support';

test('the app loads on the dashboards page and reports a healthy server', async ({ page }) => {
  await signInThroughApi(page.request, 'analyst@firstharbor.example');
  await page.goto(baseUrl());
  await expect(page).toHaveURL(/\/dashboards\/default\?orgId=/);
  await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();
  await expect(page.getByText('pglite').or(page.getByText('postgres'))).toBeVisible();
});

test('an unknown path shows the not-found page with the path', async ({ page }) => {
  await page.goto(`${baseUrl()}/no/such/page?tab=1`);
  await expect(page.getByRole('heading', { name: 'Page not found' })).toBeVisible();
  await expect(page.getByText('/no/such/page')).toBeVisible();
});

test('the unauthorised page shows the refused path without its query string', async ({ page }) => {
  await page.goto(`${baseUrl()}/unauthorized?url=${encodeURIComponent('/settings/users?orgId=42')}`);
  await expect(page.getByRole('heading', { name: 'Not authorised' })).toBeVisible();
  await expect(page.getByText('/settings/users', { exact: false })).toBeVisible();
  await expect(page.getByText('orgId=42')).toHaveCount(0);
});

test('dark mode can be switched on from the header', async ({ page }) => {
  await page.goto(`${baseUrl()}/login`);
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});
