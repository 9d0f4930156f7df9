import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
import { signInThroughPage } from './support';

test('a bank user requests a report, waits for it to be built and downloads the PDF', async ({ page }) => {
  test.setTimeout(120_000);
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);

  await page.getByRole('link', { name: 'Reports', exact: true }).click();
  await expect(page).toHaveURL(/\/reports(\?|$)/);
  // The demo's report of the last 7 days (built by the report job's first tick).
  await expect(page.getByRole('row', { name: /Weekly security summary.*Last 7 days/ })).toBeVisible();

  await page.getByRole('button', { name: 'Request report' }).click();
  const dialog = page.getByRole('dialog', { name: 'Request a report' });
  await dialog.getByRole('combobox', { name: 'Template' }).click();
  await page.getByRole('option', { name: 'Weekly security summary' }).click();
  await dialog.getByRole('combobox', { name: 'Range' }).click();
  await page.getByRole('option', { name: 'Last 24 hours' }).click();
  await dialog.getByRole('button', { name: 'Request' }).click();

  const requested = page.getByRole('row', { name: /Weekly security summary.*Last 24 hours/ });
  await expect(requested).toBeVisible();
  await expect(requested.getByTestId('report-state')).toHaveText('Completed', { timeout: 60_000 });

  const downloading = page.waitForEvent('download');
  await requested.getByRole('button', { name: 'Download Weekly security summary' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('Weekly security summary.pdf');
  const bytes = await readFile((await download.path())!);
  expect(bytes.subarray(0, 5).toString()).toBe('%PDF-');
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: false });
  expect(text[0]).toContain('Weekly security summary');
  expect(text[0]).toContain('First Harbor Bank');
  expect(text[0]).toContain('Last 24 hours');
  expect(text.join('\n')).toContain('Top hosts');

  // The provider's library schedule waits as Not copied until the bank copies it with its recipients.
  await page.getByRole('tab', { name: 'Schedules' }).click();
  const offered = page.getByRole('row', { name: /Monthly alert desk review/ });
  await expect(offered.getByText('Not copied')).toBeVisible();
  await offered
    .getByRole('button', { name: 'Copy the schedule of Monthly alert desk review to my organisation' })
    .click();
  const copy = page.getByRole('dialog', { name: 'Copy to my organisation' });
  await copy.getByRole('combobox', { name: /Recipients/ }).fill('soc@firstharbor.example');
  await copy.getByRole('combobox', { name: /Recipients/ }).press('Enter');
  await copy.getByRole('button', { name: 'Copy to my organisation' }).click();
  await expect(offered.getByText('Active')).toBeVisible();
  await expect(offered.getByText('soc@firstharbor.example')).toBeVisible();
});
