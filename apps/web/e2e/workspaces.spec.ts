import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('an administrator shares a workspace view-only with the analyst, who sees it read-only', async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/dashboards/workspace-tiles`);
  await expect(page.getByRole('heading', { name: 'Workspaces' })).toBeVisible();

  await page.getByRole('button', { name: 'New workspace' }).click();
  const dialog = page.getByRole('dialog', { name: 'New workspace' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Fraud watch');
  await dialog.getByRole('combobox', { name: 'Dashboards' }).click();
  await page.getByRole('option', { name: 'Security operations' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await dialog.getByRole('combobox', { name: 'Shared with', exact: true }).click();
  await page.getByRole('option', { name: 'Specific users' }).click();
  await dialog.getByRole('combobox', { name: 'Users it is shared with' }).click();
  await page.getByRole('option', { name: 'Jordan Reyes' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await expect(dialog.getByRole('checkbox', { name: /Others may edit it/ })).not.toBeChecked();
  await dialog.getByRole('button', { name: 'Save' }).click();
  const mine = page.getByRole('article', { name: 'Fraud watch' });
  await expect(mine.getByText('Shared', { exact: true })).toBeVisible();
  await expect(mine.getByText('Editor')).toBeVisible();

  // The analyst, in a browser of their own.
  const analystContext = await browser.newContext();
  const analyst = await analystContext.newPage();
  await signInThroughPage(analyst, 'analyst@firstharbor.example');
  await expect(analyst).toHaveURL(/\/dashboards\/default/);
  await analyst.goto(`${baseUrl()}/dashboards/workspace-tiles`);
  const shared = analyst.getByRole('article', { name: 'Fraud watch' });
  await expect(shared.getByText('Shared with me')).toBeVisible();
  await expect(shared.getByText('Viewer')).toBeVisible();
  await expect(shared.getByRole('button', { name: /Edit|Delete/ })).toHaveCount(0);
  await shared.getByRole('link', { name: 'Security operations' }).click();
  await expect(analyst).toHaveURL(/\/dashboards\/[0-9a-f-]+\/view/);
  await expect(analyst.getByRole('heading', { name: 'Security operations' })).toBeVisible();
  await analystContext.close();
});
