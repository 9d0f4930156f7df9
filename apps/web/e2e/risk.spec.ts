import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('a risk officer scores a new risk from two linked controls and a system, overrides a recommendation with its reason and marks a late review done', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Card-not-present fraud ${Date.now().toString(36)}`;
  await signInThroughPage(page, 'compliance@firstharbor.example');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/risk`);
  // First Harbor holds risk products: /risk leads to the assessments, which say they are not built yet.
  await expect(page).toHaveURL(/\/risk\/assessments/);
  await expect(page.getByText('Not available yet', { exact: true })).toBeVisible();

  await page.getByRole('link', { name: 'Risk register' }).click();
  await expect(page.getByRole('link', { name: 'R-0001' })).toBeVisible();
  await page.getByRole('link', { name: 'New risk' }).click();
  await page.getByRole('textbox', { name: 'Name' }).fill(name);

  const controls = page.getByRole('combobox', { name: 'Linked controls' });
  await controls.click();
  await page.getByRole('option', { name: /Multi-factor authentication/ }).click();
  await page.getByRole('option', { name: /Dual control on outgoing wires/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Systems, applications and vendors' }).click();
  await page.getByRole('option', { name: /Wire transfer system/ }).click();
  await page.keyboard.press('Escape');
  await page.getByRole('combobox', { name: 'Line items' }).click();
  await page.getByRole('option', { name: /Wire transfer system: Fedwire/ }).click();
  await page.keyboard.press('Escape');

  await page.getByRole('combobox', { name: 'Potential impact' }).click();
  await page.getByRole('option', { name: 'Very High' }).click();
  await page.getByRole('combobox', { name: 'Likelihood' }).click();
  await page.getByRole('option', { name: 'High', exact: true }).click();
  await expect(page.getByText('Recommended: Very High')).toBeVisible();
  // Both controls score Strong overall.
  await expect(page.getByText('Recommended: Strong')).toBeVisible();
  const useRecommended = page.getByRole('button', { name: 'Use recommended' });
  await useRecommended.nth(0).click();
  await useRecommended.nth(1).click();
  await expect(page.getByText('Recommended: Moderate')).toBeVisible();
  await page.getByRole('combobox', { name: 'Residual risk' }).click();
  await page.getByRole('option', { name: 'High', exact: true }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Give a reason for overriding the recommendation.')).toBeVisible();
  await page.getByRole('textbox', { name: /Reason for overriding/ }).fill('Chargebacks doubled this quarter');
  await page.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/risk\/risks\/register\/R-\d{4}/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Reason for overriding/ })).toHaveValue(
    'Chargebacks doubled this quarter',
  );
  await expect(page.getByRole('cell', { name: 'CREATED', exact: true })).toBeVisible();

  // The register lists it with its scores.
  await page.getByRole('link', { name: 'Risk register' }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill(name);
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Very High')).toBeVisible();
  await expect(row.getByText('High', { exact: true })).toBeVisible();

  // The wire transfer system lists the new risk among its linked risks.
  await page.getByRole('link', { name: 'Inventory register' }).click();
  await page.getByRole('textbox', { name: 'Search' }).fill('Wire transfer');
  await page.getByRole('row').filter({ hasText: 'Wire transfer system' }).getByRole('button').click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByText(name)).toBeVisible();
  await expect(dialog.getByRole('textbox', { name: 'Line item 1' })).toHaveValue('Fedwire');
  await page.keyboard.press('Escape');

  // The demo's patching risk is late for review: marking it reviewed moves the next review on.
  await page.goto(`${baseUrl()}/risk/risks/register/R-0006`);
  await expect(page.getByText('Late', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Mark as reviewed' }).click();
  await expect(page.getByText('Early', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as reviewed' })).toBeDisabled();
  await expect(page.getByRole('cell', { name: 'REVIEW', exact: true })).toBeVisible();
});
