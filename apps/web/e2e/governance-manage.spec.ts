import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('an administrator restores a deleted policy from the Deleted view', async ({ page }) => {
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/governance/policies`);
  await expect(page.getByRole('link', { name: 'Information Security Policy' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Clean Desk Policy' })).toHaveCount(0);

  await page.getByText('Deleted', { exact: true }).click();
  const deleted = page.getByRole('table', { name: 'Deleted' });
  await deleted.getByRole('button', { name: 'Restore Clean Desk Policy' }).click();
  await expect(page.getByText('Clean Desk Policy restored.')).toBeVisible();
  await expect(page.getByText('No deleted policies.')).toBeVisible();

  await page.getByText('Current', { exact: true }).click();
  await page.getByRole('link', { name: 'Clean Desk Policy' }).click();
  const policyUrl = page.url();
  // The spec's singular address leads to the same page.
  await page.goto(policyUrl.replace('/governance/policies/', '/governance/policy/'));
  await expect(page).toHaveURL(policyUrl);
  await expect(page.getByRole('heading', { name: 'Clean Desk Policy', level: 2 })).toBeVisible();
});

test('an administrator gives a framework tiers, renames it, and deletes it', async ({ page }) => {
  test.setTimeout(90_000);
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/governance/frameworks`);
  await page
    .getByRole('button', { name: 'Adopt CISA Cross-Sector Cybersecurity Performance Goals 1.0.1' })
    .click();
  await expect(page).toHaveURL(/\/governance\/frameworks\/[0-9a-f-]{36}/);
  await expect(page.getByText(/No maturity tiers/)).toBeVisible();

  await page.getByRole('button', { name: 'Maturity tiers' }).click();
  const tiers = page.getByRole('dialog', { name: 'Maturity tiers' });
  for (const tier of ['Planned', 'In place']) {
    await tiers.getByRole('button', { name: 'Add tier' }).click();
    await tiers.getByRole('textbox').last().fill(tier);
  }
  await tiers.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByText('Maturity tiers, lowest first: Planned → In place')).toBeVisible();
  await page.getByRole('combobox', { name: 'Target tier' }).click();
  await page.getByRole('option', { name: 'In place' }).click();
  await expect(page.getByText('Target tier saved.')).toBeVisible();

  // A tier held as a target is kept.
  await page.getByRole('button', { name: 'Maturity tiers' }).click();
  await tiers.getByRole('button', { name: 'Remove tier 2' }).click();
  await tiers.getByRole('button', { name: 'Save' }).click();
  await expect(tiers.getByRole('alert')).toContainText('The tier In place is a target');
  await tiers.getByRole('button', { name: 'Cancel' }).click();

  await page.getByRole('button', { name: 'Edit', exact: true }).click();
  const edit = page.getByRole('dialog', { name: 'Edit framework' });
  await edit.getByRole('textbox', { name: 'Name' }).fill('CPG 1.0.1 (bank profile)');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(page.getByRole('heading', { name: 'CPG 1.0.1 (bank profile)' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete framework' });
  await expect(confirm).toContainText('This cannot be undone.');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/governance\/frameworks(\?|$)/);
  await expect(page.getByText('CPG 1.0.1 (bank profile) deleted.')).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Adopt CISA Cross-Sector Cybersecurity Performance Goals 1.0.1' }),
  ).toBeVisible();
});
