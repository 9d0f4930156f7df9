import { expect, test, type Page } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughApi } from './support';

const orgIdInUrl = (page: Page) => new URL(page.url()).searchParams.get('orgId');

test('a provider user moves between organisations and the orgId follows every navigation', async ({
  page,
}) => {
  await signInThroughApi(page.request, 'admin@vigil.example');
  const ids = {
    coastal: await orgIdOf(page.request, 'Coastal Community Bank'),
    harbor: await orgIdOf(page.request, 'First Harbor Bank'),
    prairie: await orgIdOf(page.request, 'Prairie Credit Union'),
    provider: await orgIdOf(page.request, 'Vigil Managed Security'),
  };
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${ids.harbor}`);
  await expect(page).toHaveTitle(/^First Harbor Bank - /);

  const selector = page.getByRole('combobox', { name: 'Organisation' });
  await selector.click();
  await selector.fill('Prair');
  await page.getByRole('option', { name: 'Prairie Credit Union' }).click();
  await expect.poll(() => orgIdInUrl(page)).toBe(ids.prairie);
  await expect(page).toHaveTitle(/^Prairie Credit Union - /);

  // Organisations are in name order; the arrows cycle. Each switch is awaited until the page shows
  // the new organisation, as a user would look before clicking again.
  const step = async (arrow: 'Next organisation' | 'Previous organisation', orgId: string, name: string) => {
    await page.getByRole('button', { name: arrow }).click();
    await expect.poll(() => orgIdInUrl(page)).toBe(orgId);
    await expect(page).toHaveTitle(new RegExp(`^${name} - `));
    await expect(page.getByRole('combobox', { name: 'Organisation' })).toHaveValue(name);
  };
  await step('Next organisation', ids.provider, 'Vigil Managed Security');
  await step('Next organisation', ids.coastal, 'Coastal Community Bank');
  await step('Previous organisation', ids.provider, 'Vigil Managed Security');

  await page.getByRole('link', { name: 'Assets' }).click();
  await expect(page).toHaveURL(new RegExp(`/assets\\?orgId=${ids.provider}`));
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect.poll(() => orgIdInUrl(page)).toBe(ids.provider);
  await expect(page).toHaveURL(/\/settings\//);

  // Coastal Community Bank holds no fraud SKU: the Fraud entry explains the offering instead.
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${ids.coastal}`);
  await page.getByRole('link', { name: 'Fraud' }).click();
  await expect(page).toHaveURL(new RegExp(`/fraud/offering\\?orgId=${ids.coastal}`));
});

test('a client analyst sees only the settings open to everyone', async ({ page }) => {
  await signInThroughApi(page.request, 'analyst@firstharbor.example');
  await page.goto(`${baseUrl()}/dashboards/default`);
  await expect(page.getByRole('link', { name: 'Assets' })).toBeVisible();
  // Spec 1 section 2.6: Settings falls back to the profile, which every user has.
  await page.getByRole('link', { name: 'Settings' }).click();
  await expect(page).toHaveURL(/\/settings\/profile/);
  await expect(
    page.getByRole('tab', { name: 'Users' }).or(page.getByRole('link', { name: 'Users' })),
  ).toHaveCount(0);
  await page.goto(`${baseUrl()}/settings/org-settings`);
  await expect(page.getByText('Not permitted')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
});

test('read-only mode hides edit controls until it is switched off', async ({ page }) => {
  await signInThroughApi(page.request, 'admin@vigil.example');
  const providerId = await orgIdOf(page.request, 'Vigil Managed Security');
  await page.goto(`${baseUrl()}/settings/org-settings?orgId=${providerId}`);
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();

  const toggleReadOnly = async () => {
    await page.getByRole('button', { name: /Vigil Administrator/ }).click();
    await page.getByRole('menuitemcheckbox', { name: 'Read-only mode' }).click();
  };
  await toggleReadOnly();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'E-mail timezone' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Save' })).toHaveCount(0);
  await toggleReadOnly();
  await expect(page.getByRole('button', { name: 'Save' })).toBeVisible();
});

test('the info panel keeps notes: add, edit, pin and delete', async ({ page }) => {
  await signInThroughApi(page.request, 'analyst@vigil.example');
  const harborId = await orgIdOf(page.request, 'First Harbor Bank');
  await page.goto(`${baseUrl()}/dashboards/default?orgId=${harborId}`);
  await page.getByRole('button', { name: 'Info panel' }).click();
  const panel = page
    .getByRole('dialog', { name: 'Organisation information' })
    .or(page.getByRole('complementary', { name: 'Organisation information' }));
  await expect(panel).toBeVisible();
  await expect(panel.getByLabel('Organisation title')).toHaveValue('Suspected Activity');

  await panel.getByLabel('Note', { exact: true }).fill('Branch 12 reported a skimmer at the ATM');
  await panel.getByRole('button', { name: 'Add note' }).click();
  await expect(panel.getByText('Branch 12 reported a skimmer at the ATM')).toBeVisible();

  await panel
    .getByText('Branch 12 reported a skimmer at the ATM')
    .locator('..')
    .getByRole('button', { name: 'Edit' })
    .click();
  await panel.getByLabel('Edit note').fill('Branch 12 reported a skimmer at the drive-through ATM');
  await panel.getByRole('button', { name: 'Save' }).last().click();
  await expect(panel.getByText('Branch 12 reported a skimmer at the drive-through ATM')).toBeVisible();

  const edited = panel.getByText('Branch 12 reported a skimmer at the drive-through ATM').locator('..');
  await edited.getByRole('button', { name: 'Pin' }).click();
  await expect(edited.getByRole('button', { name: 'Unpin' })).toBeVisible();
  await edited.getByRole('button', { name: 'Delete' }).click();
  await page.getByRole('dialog', { name: 'Delete note?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(panel.getByText('Branch 12 reported a skimmer at the drive-through ATM')).toHaveCount(0);
});

test('dark mode chosen in the user menu survives a reload', async ({ page }) => {
  await signInThroughApi(page.request, 'compliance@firstharbor.example');
  await page.goto(`${baseUrl()}/dashboards/default`);
  await page.getByRole('button', { name: /Priya Natarajan/ }).click();
  await page.getByRole('menuitemcheckbox', { name: 'Dark mode' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(page.getByRole('link', { name: 'Dashboards' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
});
