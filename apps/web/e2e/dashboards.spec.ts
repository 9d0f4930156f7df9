import { expect, test } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughApi, signInThroughPage } from './support';

test('a bank user lands on a live dashboard, adds a chart on a saved query and puts it on the dashboard', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughPage(page, 'admin@firstharbor.example');

  await expect(page).toHaveURL(/\/dashboards\/default/);
  await expect(page.getByRole('heading', { name: 'Security operations' })).toBeVisible();
  const failed = page.getByRole('region', { name: 'Failed sign-ins' });
  await expect(failed.getByTestId('badge-value')).toHaveText(/^\d[\d,]*$/);
  const bySource = page.getByRole('region', { name: 'Events by data source' });
  await expect(bySource.locator('svg path').first()).toBeVisible();
  const latest = page.getByRole('region', { name: 'Latest core-banking events' });
  await expect(latest.getByRole('row').nth(1)).toContainText('USD');
  await expect(page.getByRole('region', { name: 'System status' })).toBeVisible();

  // A chart of its own on a saved query of the bank.
  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await page.getByRole('link', { name: 'Charts', exact: true }).click();
  await page.getByRole('button', { name: 'New chart' }).click();
  const dialog = page.getByRole('dialog', { name: 'New chart' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill('Large wires');
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Badge (single number)' }).click();
  await dialog.getByRole('combobox', { name: 'Saved or library queries' }).click();
  await page.getByRole('option', { name: 'Large wire transfers' }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).click();
  await dialog.getByRole('button', { name: 'Preview' }).click();
  await expect(dialog.getByTestId('badge-value')).toBeVisible();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: /Large wires/ })).toBeVisible();

  // On the dashboard, through the QuickStart editor.
  await page.getByRole('link', { name: 'Dashboards', exact: true }).click();
  await page.getByRole('button', { name: 'Dashboard', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit dashboard' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit dashboard' });
  await editor.getByRole('combobox', { name: 'Charts' }).click();
  await page.getByRole('option', { name: 'Large wires' }).click();
  await editor.getByRole('textbox', { name: 'Name' }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Large wires' }).getByTestId('badge-value')).toBeVisible();
});

test('a bank without defaultRevealDashboards starts on the old dashboards until the user switches; the readiness page scores a bank', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughApi(page.request, 'admin@vigil.example');
  const coastal = await orgIdOf(page.request, 'Coastal Community Bank');
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${coastal}`);
  await expect(page).toHaveURL(new RegExp(`/dashboard\\?orgId=${coastal}`));
  await expect(page.getByRole('combobox', { name: 'Dashboard' })).toHaveValue(/.+/);
  const toggle = page.getByRole('switch', { name: 'New dashboards (beta)' });
  await expect(toggle).not.toBeChecked();
  await toggle.dispatchEvent('click');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  // Remembered for this user in this bank.
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${coastal}`);
  await expect(page.getByRole('switch', { name: 'New dashboards (beta)' })).toBeChecked();
  await expect(page).toHaveURL(/\/dashboards\/default/);

  const harbor = await orgIdOf(page.request, 'First Harbor Bank');
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${harbor}`);
  await page.getByRole('link', { name: 'Cyber risk readiness' }).click();
  await expect(page).toHaveURL(/\/home\?/);
  const risk = page.getByRole('region', { name: 'Risk Assessment' });
  // The demo's assessment was completed two months ago.
  await expect(
    risk.getByRole('row', { name: /Risk assessments completed in the last 12 months/ }),
  ).toBeVisible();
  const threat = page.getByRole('region', { name: 'Threat Surveillance' });
  await expect(threat.getByRole('row', { name: /Incidents closed in time 1 of 2 in time/ })).toBeVisible();
  await threat.getByRole('link', { name: 'Put right: Incidents closed in time' }).click();
  await expect(page).toHaveURL(/\/tickets\/incident/);
});
