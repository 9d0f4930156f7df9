import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('an analyst keeps the asset inventory: addresses, conflicts, CSV upload, label filter and export', async ({
  page,
}) => {
  const suffix = Date.now().toString(36);
  const label = `E2E ${suffix}`;
  const octet = (Date.now() % 200) + 20;
  const firstIp = `10.231.${octet}.10`;
  const secondIp = `fd00::${octet}:10`;

  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/assets`);
  await expect(page.getByRole('heading', { name: 'Assets' })).toBeVisible();

  // An asset with two address pairs.
  await page.getByRole('button', { name: 'Add asset' }).click();
  const dialog = page.getByRole('dialog', { name: 'Add asset' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Teller workstation ${suffix}`);
  await dialog.getByRole('combobox', { name: 'Importance' }).click();
  await page.getByRole('option', { name: 'High' }).click();
  await dialog.getByRole('combobox', { name: 'Labels' }).fill(label);
  await dialog.getByRole('combobox', { name: 'Labels' }).press('Enter');
  await dialog.getByRole('tab', { name: 'IP/MAC' }).click();
  await dialog.getByRole('button', { name: 'Add IP/MAC pair' }).click();
  await dialog.getByRole('button', { name: 'Add IP/MAC pair' }).click();
  await dialog.getByRole('textbox', { name: 'IP address 1' }).fill(firstIp);
  await dialog
    .getByRole('textbox', { name: 'MAC address 1' })
    .fill(`02:e2:e2:00:${octet.toString(16).padStart(2, '0')}:01`);
  await dialog.getByRole('textbox', { name: 'IP address 2' }).fill('not-an-ip');
  await dialog.getByRole('textbox', { name: 'MAC address 2' }).click();
  await expect(dialog.getByText('Enter a valid IP address.')).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Add asset' })).toBeDisabled();
  await dialog.getByRole('textbox', { name: 'IP address 2' }).fill(secondIp);
  await dialog.getByRole('button', { name: 'Add asset' }).click();
  await expect(page.getByText('The asset has been added.')).toBeVisible();

  // A second asset may not take an address the first one holds: the conflict shows on that field.
  await page.getByRole('button', { name: 'Add asset' }).click();
  const second = page.getByRole('dialog', { name: 'Add asset' });
  await second.getByRole('textbox', { name: 'Name' }).fill(`Branch printer ${suffix}`);
  await second.getByRole('combobox', { name: 'Importance' }).click();
  await page.getByRole('option', { name: 'Low' }).click();
  await second.getByRole('tab', { name: 'IP/MAC' }).click();
  await second.getByRole('button', { name: 'Add IP/MAC pair' }).click();
  await second
    .getByRole('textbox', { name: 'IP address 1' })
    .fill(secondIp.toUpperCase().replace('FD00', 'fd00:0'));
  await second.getByRole('button', { name: 'Add asset' }).click();
  await expect(second.getByText('This IP or MAC address already belongs to another asset.')).toBeVisible();
  await expect(second.getByRole('textbox', { name: 'IP address 1' })).toHaveAttribute('aria-invalid', 'true');
  await second.getByRole('button', { name: 'Cancel' }).click();

  // A CSV upload with errors lists them by line; the valid line can still be imported.
  await page.goto(`${baseUrl()}/asset-upload`);
  const csv = [
    'name,id,hostname,ip,mac,importance,label',
    `ATM ${suffix},,atm-${suffix}.fhb.example,10.232.${octet}.5,,medium,${label}`,
    `Bad address ${suffix},,,10.300.1.1,,low,`,
    `,,nameless-${suffix}.fhb.example,,,low,`,
    `Urgent ${suffix},,urgent-${suffix}.fhb.example,,,urgent,`,
  ].join('\n');
  await page
    .locator('input[type="file"]')
    .setInputFiles({ name: `branch-${suffix}.csv`, mimeType: 'text/csv', buffer: Buffer.from(csv) });
  await page.getByRole('button', { name: 'Check file' }).click();
  const errors = page.getByRole('table', { name: 'Line errors' });
  await expect(errors.getByRole('row').filter({ hasText: 'This is not a valid IP address.' })).toContainText(
    '10.300.1.1',
  );
  await expect(errors.getByRole('row').filter({ hasText: 'A name is required.' })).toContainText('4');
  await expect(
    errors.getByRole('row').filter({ hasText: 'The importance must be low, medium or high.' }),
  ).toContainText('urgent');
  await page.getByRole('button', { name: 'Import 1 valid line' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Import/ })
    .click();
  await expect(page.getByText('Assets imported')).toBeVisible();

  // The label link form lists exactly the labelled assets, and the export carries them.
  await page.goto(`${baseUrl()}/assets?labels=${encodeURIComponent(label)}`);
  const rows = page.getByRole('row').filter({ hasText: suffix });
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: `Teller workstation ${suffix}` })).toBeVisible();
  await expect(rows.filter({ hasText: `ATM ${suffix}` })).toBeVisible();
  await expect(page.getByText('1 - 2 of 2')).toBeVisible();
  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export CSV' }).click();
  const download = await downloading;
  const exported = await readFile((await download.path())!, 'utf8');
  const lines = exported.trim().split(/\r?\n/);
  expect(lines).toHaveLength(3);
  expect(exported).toContain(`Teller workstation ${suffix}`);
  expect(exported).toContain(`ATM ${suffix}`);
  expect(exported).toContain(firstIp);
  expect(exported).not.toContain(`Bad address ${suffix}`);
});
