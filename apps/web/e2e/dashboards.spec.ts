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
  // A tall tile: two rows of the grid.
  await expect(latest.locator('..')).toHaveCSS('grid-row-start', 'span 2');
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

  // On the dashboard, through the QuickStart editor, and first after a drag in Expert Mode.
  await page.getByRole('link', { name: 'Dashboards', exact: true }).click();
  await page.getByRole('button', { name: 'Dashboard', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit dashboard' }).click();
  const editor = page.getByRole('dialog', { name: 'Edit dashboard' });
  await editor.getByRole('combobox', { name: 'Charts' }).click();
  await page.getByRole('option', { name: 'Large wires' }).click();
  await editor.getByRole('textbox', { name: 'Name' }).click();
  await editor.getByRole('tab', { name: 'Expert Mode' }).click();
  await editor
    .getByRole('region', { name: 'Large wires' })
    .dragTo(editor.getByRole('region', { name: 'Events by data source' }));
  await expect(editor.getByRole('region').first()).toHaveAccessibleName('Large wires');
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Large wires' }).getByTestId('badge-value')).toBeVisible();
  await expect(page.getByRole('region').first()).toHaveAccessibleName('Large wires');
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

test('a provider administrator lands on the provider dashboard and builds the library: a library chart, a library dashboard of it, and a copy', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughApi(page.request, 'admin@vigil.example');
  const provider = await orgIdOf(page.request, 'Vigil Managed Security');
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${provider}`);
  await expect(page.getByRole('heading', { name: 'Platform operations' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Failed sign-ins' }).getByTestId('badge-value')).toHaveText(
    /^[1-9][\d,]*$/,
  );

  // A library chart, under the charts list's Library view.
  await page.goto(`${baseUrl()}/reports/charts/list?orgId=${provider}`);
  await page.getByRole('radiogroup', { name: 'Organisation or library' }).getByText('Library').click();
  await expect(page.getByRole('row', { name: /Latest alerts/ })).toBeVisible();
  await page.getByRole('button', { name: 'New library chart' }).click();
  const chartDialog = page.getByRole('dialog', { name: 'Library chart' });
  await chartDialog.getByRole('textbox', { name: 'Name' }).fill('Alert outcomes');
  await chartDialog.getByRole('combobox', { name: 'Data source' }).click();
  await page.getByRole('option', { name: 'Alert counts by severity' }).click();
  await chartDialog.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('row', { name: /Alert outcomes/ })).toBeVisible();

  // A library dashboard of it, from the dashboard library.
  await page.goto(`${baseUrl()}/dashboards/library?orgId=${provider}`);
  await page.getByRole('button', { name: 'New library dashboard' }).click();
  const editor = page.getByRole('dialog', { name: 'Library dashboard' });
  await editor.getByRole('textbox', { name: 'Name' }).fill('Provider starter');
  await editor.getByRole('combobox', { name: 'Charts' }).click();
  await page.getByRole('option', { name: 'Alert outcomes' }).click();
  await editor.getByRole('textbox', { name: 'Name' }).click();
  await editor.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/dashboards\/[0-9a-f-]+\/view/);
  await expect(page.getByRole('heading', { name: 'Provider starter' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Alert outcomes' })).toBeVisible();

  // Changed later, it still picks library charts.
  await page.getByRole('button', { name: 'Dashboard', exact: true }).click();
  await page.getByRole('menuitem', { name: 'Edit dashboard' }).click();
  const again = page.getByRole('dialog', { name: 'Library dashboard' });
  await again.getByRole('combobox', { name: 'Charts' }).click();
  await page.getByRole('option', { name: 'Latest alerts' }).click();
  await again.getByRole('textbox', { name: 'Name' }).click();
  await again.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('region', { name: 'Latest alerts' })).toBeVisible();

  // Added to the organisation from its preview.
  const libraryUrl = page.url();
  await page.getByRole('button', { name: 'Add to my dashboards' }).click();
  await expect(page.getByText('Dashboard added from the library.')).toBeVisible();
  await expect(page).not.toHaveURL(libraryUrl);
  await expect(page.getByRole('heading', { name: 'Provider starter' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Add to my dashboards' })).toHaveCount(0);

  // The default library workspace holds the Alert desk.
  await page.goto(`${baseUrl()}/dashboards/library/workspace-tiles?orgId=${provider}`);
  const workspace = page.getByRole('article', { name: 'SOC essentials' });
  await expect(workspace.getByText('Default', { exact: true })).toBeVisible();
  await expect(workspace.getByRole('link', { name: 'Alert desk' })).toBeVisible();
});
