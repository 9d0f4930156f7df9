import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('events sent with a token made in the console are found, filtered from the sidebar and exported', async ({
  page,
}) => {
  const marker = `marker${Date.now().toString(36)}`;
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);

  // An API token, whose secret is shown once.
  await page.goto(`${baseUrl()}/settings/input-tokens`);
  await page.getByRole('button', { name: 'Create API token' }).click();
  const create = page.getByRole('dialog', { name: 'New API token' });
  await create.getByRole('textbox', { name: 'Description' }).fill(`Branch collector ${marker}`);
  await create.getByRole('button', { name: 'Create' }).click();
  const secret = (await page.getByLabel('Token', { exact: true }).innerText()).trim();
  expect(secret).toMatch(/^vgl_\S+\.\S+$/);
  await page.getByRole('button', { name: 'I have copied it' }).click();
  await expect(page.getByRole('row').filter({ hasText: `Branch collector ${marker}` })).toContainText(
    'Active',
  );

  // A batch through the ingest API: the malformed line is reported by number, the others kept.
  const lines = [
    { host: 'teller-01', srcIp: '10.20.0.11', message: `login ok ${marker}`, fields: { outcome: 'success' } },
    'not json',
    {
      host: 'teller-02',
      srcIp: '10.20.0.12',
      message: `login failed ${marker}`,
      fields: { outcome: 'failure' },
    },
    {
      host: 'teller-02',
      srcIp: '10.20.0.12',
      message: `login failed ${marker}`,
      fields: { outcome: 'failure' },
    },
  ];
  const ingest = await page.request.post(`${baseUrl()}/api/ingest/events`, {
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/x-ndjson' },
    data: lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n'),
  });
  expect(ingest.status()).toBe(200);
  expect(await ingest.json()).toMatchObject({ accepted: 3, rejected: [{ line: 2 }] });

  // Search finds them; the sidebar narrows to one host.
  await page.goto(`${baseUrl()}/search?query=${marker}`);
  const results = page.getByRole('row').filter({ hasText: marker });
  await expect(results).toHaveCount(3);
  await page.getByRole('navigation', { name: 'Fields' }).getByRole('button', { name: /^host/ }).click();
  await page.getByRole('button', { name: 'Include host = teller-02' }).click();
  await expect(page.getByRole('group', { name: 'Filters' })).toContainText('teller-02');
  await expect(results).toHaveCount(2);
  await expect(results.filter({ hasText: 'teller-01' })).toHaveCount(0);

  // The search, its sidebar filter included, is saved and opened again from the saved queries.
  await page.getByRole('button', { name: 'Save query' }).click();
  const save = page.getByRole('dialog', { name: 'Save query' });
  await expect(save.getByRole('textbox', { name: 'Query' })).toHaveValue(
    `(${marker}) AND (host:"teller-02")`,
  );
  await save.getByRole('textbox', { name: 'Name' }).fill(`Teller failures ${marker}`);
  await save.getByRole('button', { name: 'Save' }).click();
  await expect(save).toBeHidden();

  const downloading = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Download CSV' }).click();
  const exported = await readFile((await (await downloading).path())!, 'utf8');
  const rows = exported.trim().split(/\r?\n/);
  expect(rows).toHaveLength(3);
  expect(rows.slice(1).every((row) => row.includes('teller-02') && row.includes(marker))).toBe(true);

  await page.goto(`${baseUrl()}/search/saved`);
  await page.getByRole('button', { name: `Open Teller failures ${marker} in search` }).click();
  await expect(page.getByRole('textbox', { name: 'Query' })).toHaveValue(
    `(${marker}) AND (host:"teller-02")`,
  );
  await expect(page.getByRole('row').filter({ hasText: marker })).toHaveCount(2);
});
