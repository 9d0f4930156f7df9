import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughPage } from './support';

test('a risk officer scores a new risk from two linked controls and a system, overrides a recommendation with its reason, gives it a review schedule and marks it reviewed', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Card-not-present fraud ${Date.now().toString(36)}`;
  await signInThroughPage(page, 'compliance@firstharbor.example');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/risk`);
  // First Harbor holds risk products: /risk leads to the assessments, with the demo's two.
  await expect(page).toHaveURL(/\/risk\/assessments/);
  await expect(page.getByRole('button', { name: 'A-0001' })).toBeVisible();

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

  // The wire transfer system's data sensitivity is High and its business criticality Very High.
  await expect(page.getByText('Recommended: Very High')).toBeVisible();
  const useRecommended = page.getByRole('button', { name: 'Use recommended' });
  await useRecommended.nth(0).click();
  await expect(page.getByRole('combobox', { name: 'Potential impact' })).toHaveValue('Very High');
  await page.getByRole('combobox', { name: 'Likelihood' }).click();
  await page.getByRole('option', { name: 'High', exact: true }).click();
  await expect(page.getByText('Recommended: Very High')).toHaveCount(2);
  // Both controls score Strong overall.
  await expect(page.getByText('Recommended: Strong')).toBeVisible();
  await useRecommended.nth(1).click();
  await useRecommended.nth(2).click();
  await expect(page.getByText('Recommended: Moderate')).toBeVisible();
  await page.getByRole('combobox', { name: 'Residual risk' }).click();
  await page.getByRole('option', { name: 'High', exact: true }).click();
  await page.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText('Give a reason for overriding the recommendation.')).toBeVisible();
  await page.getByRole('textbox', { name: /Reason for overriding/ }).fill('Chargebacks doubled this quarter');
  await page.getByLabel('Due date').fill('2026-01-15');
  await page.getByRole('button', { name: 'Create' }).click();

  await expect(page).toHaveURL(/\/risk\/risks\/register\/R-\d{4}/);
  await expect(page.getByRole('heading', { name })).toBeVisible();
  await expect(page.getByRole('textbox', { name: /Reason for overriding/ })).toHaveValue(
    'Chargebacks doubled this quarter',
  );
  await expect(page.getByRole('cell', { name: 'CREATED', exact: true })).toBeVisible();
  await expect(page.getByText('Due 2026-01-15: Late')).toBeVisible();

  // A review schedule whose next review has passed: marking it reviewed opens at once and moves it on.
  await expect(page.getByText('No review schedule yet.')).toBeVisible();
  await page.getByRole('button', { name: 'Add review schedule' }).click();
  const schedule = page.getByRole('dialog', { name: 'Review schedule' });
  await schedule.getByRole('textbox', { name: 'Repeat every' }).fill('3');
  await schedule.getByRole('combobox', { name: 'Unit' }).click();
  await page.getByRole('option', { name: 'months' }).click();
  const passed = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
  await schedule.getByLabel('Next review').fill(passed);
  await schedule.getByRole('combobox', { name: 'Watchers' }).click();
  await page.getByRole('option').first().click();
  await schedule.getByRole('textbox', { name: 'Repeat every' }).click();
  await schedule.getByRole('button', { name: 'Save' }).click();
  await expect(schedule).toHaveCount(0);
  await expect(page.getByText('Late', { exact: true })).toBeVisible();
  await expect(page.getByText(`Every 3 months; next review ${passed}`)).toBeVisible();
  await page.getByRole('button', { name: 'Mark as reviewed' }).click();
  await expect(page.getByText('Early', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Mark as reviewed' })).toBeDisabled();
  await expect(page.getByRole('cell', { name: 'REVIEW', exact: true }).first()).toBeVisible();

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

  // The demo's patching risk is late for review: its watchers were reminded at start and a task opened;
  // marking it reviewed moves the next review on and closes the task.
  await page.goto(`${baseUrl()}/risk/risks/register/R-0006`);
  await expect(page.getByText('Late', { exact: true })).toBeVisible();
  await expect(page.getByText(/^Last reminder: Late, .*, to 2 watchers$/)).toBeVisible();
  const task = page.getByRole('link', { name: /^TASK-\d+ Review risk R-0006 / });
  await expect(task).toBeVisible();
  await page.getByRole('button', { name: 'Mark as reviewed' }).click();
  await expect(page.getByText('Early', { exact: true })).toBeVisible();
  await expect(task).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Mark as reviewed' })).toBeDisabled();
  await expect(page.getByRole('cell', { name: 'REVIEW', exact: true })).toBeVisible();
});

test('a risk officer completes an assessment once its summary is written, then exports it as PDF', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const name = `Quarterly risk review ${Date.now().toString(36)}`;
  await signInThroughPage(page, 'compliance@firstharbor.example');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/risk/assessments`);
  await page.getByRole('button', { name: 'New assessment' }).click();
  const dialog = page.getByRole('dialog', { name: 'New assessment' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Risks assessed' }).click();
  await page.getByRole('option', { name: /R-0001/ }).click();
  await page.getByRole('option', { name: /R-0002/ }).click();
  await dialog.getByRole('textbox', { name: 'Name' }).click();

  // Completing without the executive summary is refused at the field; the assessment stays saved.
  await dialog.getByRole('button', { name: 'Complete' }).click();
  await page
    .getByRole('dialog', { name: 'Complete the assessment?' })
    .getByRole('button', { name: 'Complete' })
    .click();
  const refusal = 'Write the executive summary before completing the assessment.';
  await expect(dialog.getByRole('alert').filter({ hasText: refusal })).toBeVisible();
  // Saved, it shows the aggregates recommended from the two risks' scores.
  await expect(dialog.getByText(/^Recommended: /).first()).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Executive summary' }).fill('Both risks are within appetite.');
  await dialog.getByRole('button', { name: 'Complete' }).click();
  await page
    .getByRole('dialog', { name: 'Complete the assessment?' })
    .getByRole('button', { name: 'Complete' })
    .click();
  await expect(page.getByText(/Assessment A-\d{4} completed and published/)).toBeVisible();

  // Completed: published read-only, with its PDF.
  const row = page.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('Completed', { exact: true })).toBeVisible();
  await row.getByRole('button').click();
  const completed = page.getByRole('dialog');
  await expect(
    completed.getByText('This assessment is completed and published: it is read-only.'),
  ).toBeVisible();
  await expect(completed.getByText('Both risks are within appetite.')).toBeVisible();
  await expect(completed.getByRole('textbox')).toHaveCount(0);
  const downloading = page.waitForEvent('download');
  await completed.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^A-\d{4}\.pdf$/);
  const pdf = await readFile((await download.path())!);
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
});

test('a risk officer links an incident to a risk from the risk page, sees it on both sides and unlinks it', async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signInThroughPage(page, 'compliance@firstharbor.example');
  await expect(page).not.toHaveURL(/\/login/);
  await page.goto(`${baseUrl()}/risk/risks/register/R-0003`);
  const incidents = page.getByRole('table', { name: 'Incidents that realised this risk' });
  await expect(page.getByRole('heading', { name: 'Incidents that realised this risk' })).toBeVisible();

  await page.getByRole('combobox', { name: 'Link an incident' }).fill('Malware');
  await page.getByRole('option', { name: /Malware on teller-07/ }).click();
  await page.getByRole('button', { name: 'Link an incident' }).click();
  await expect(page.getByText('Links saved.')).toBeVisible();
  const row = incidents.getByRole('row').filter({ hasText: 'Malware on teller-07' });
  await expect(row).toBeVisible();

  // The incident's Risks panel lists the risk.
  await row.getByRole('link', { name: /^INC-\d+$/ }).click();
  await expect(page).toHaveURL(/\/tickets\/incident\/INC-\d+/);
  await expect(
    page.getByRole('table', { name: 'Risks' }).getByRole('link', { name: 'R-0003' }),
  ).toBeVisible();

  // Back on the risk, unlinking asks first.
  await page.goto(`${baseUrl()}/risk/risks/register/R-0003`);
  const slug = (await row.getByRole('link').textContent())!;
  await page.getByRole('button', { name: `Unlink ${slug}` }).click();
  await page
    .getByRole('dialog', { name: 'Unlink the incident' })
    .getByRole('button', { name: 'Unlink' })
    .click();
  await expect(incidents.getByText('Malware on teller-07')).toHaveCount(0);

  // The demo's closed port-scan incident left a risk's scores to revisit: the register finds it.
  await page.getByRole('link', { name: 'Risk register' }).click();
  await page.getByRole('checkbox', { name: 'Scores to revisit only' }).check();
  await expect(page.getByRole('row').filter({ hasText: 'Scores to revisit' }).first()).toBeVisible();
});

test('the provider administrator adds a control to the library, and a bank copies it into its register once', async ({
  page,
  browser,
}) => {
  test.setTimeout(90_000);
  const name = `Immutable backups ${Date.now().toString(36)}`;
  await signInThroughPage(page, 'admin@vigil.example');
  await expect(page.getByRole('heading', { name: 'Select an organisation' })).toBeVisible();
  // Provider staff work in the provider's own organisation.
  const provider = await orgIdOf(page.request, 'Vigil Managed Security');
  await page.goto(`${baseUrl()}/risk/controls/library?orgId=${provider}`);
  await page.getByRole('button', { name: 'New control' }).click();
  const dialog = page.getByRole('dialog', { name: 'New control' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(name);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Preventative' }).click();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(page.getByText(/^LC-\d{4} saved\.$/)).toBeVisible();
  await page.getByRole('textbox', { name: 'Search' }).fill(name);
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();

  // A bank's risk officer, in a browser of their own, copies it; the library then marks it as held.
  const bank = await (await browser.newContext()).newPage();
  await signInThroughPage(bank, 'compliance@firstharbor.example');
  await expect(bank).not.toHaveURL(/\/login/);
  await bank.goto(`${baseUrl()}/risk/controls/library`);
  await expect(bank.getByRole('heading', { name: 'Control library' })).toBeVisible();
  await bank.getByRole('textbox', { name: 'Search' }).fill(name);
  const row = bank.getByRole('row').filter({ hasText: name });
  await expect(row.getByText('In the register')).toHaveCount(0);
  // The bank reads the library but does not write it.
  await expect(bank.getByRole('button', { name: 'New control' })).toHaveCount(0);
  await row.getByRole('checkbox', { name: `Choose ${name}` }).check();
  await bank.getByRole('button', { name: 'Copy to register (1)' }).click();
  await expect(bank.getByText('1 item(s) copied to the register.')).toBeVisible();
  await expect(row.getByText('In the register')).toBeVisible();
  await bank.getByRole('link', { name: 'Control register' }).click();
  await bank.getByRole('textbox', { name: 'Search' }).fill(name);
  await expect(bank.getByRole('row').filter({ hasText: name })).toBeVisible();
});
