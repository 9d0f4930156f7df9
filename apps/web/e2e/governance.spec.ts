import { expect, test } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughPage } from './support';

test('a compliance officer adopts CSF 2.0, answers a control with evidence and finalizes the period', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await signInThroughPage(page, 'admin@prairiecu.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);

  await page.goto(`${baseUrl()}/governance/frameworks`);
  await page.getByRole('button', { name: 'Adopt NIST Cybersecurity Framework 2.0' }).click();
  await expect(page).toHaveURL(/\/governance\/frameworks\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'NIST Cybersecurity Framework 2.0' })).toBeVisible();

  await page.getByRole('button', { name: 'New evaluation period' }).click();
  const create = page.getByRole('dialog', { name: 'New evaluation period' });
  await create.getByRole('textbox', { name: 'Name' }).fill('CSF first assessment');
  await create.getByRole('button', { name: 'Start period' }).click();
  await expect(page.getByText('0 of 106 controls answered')).toBeVisible();

  // The Govern function's first category, then its first subcategory.
  await page.getByRole('navigation', { name: 'Sections' }).getByText('GV GOVERN').click();
  await page.getByRole('button', { name: 'Open GV.OC-01' }).click();
  const drawer = page.getByRole('dialog');
  await expect(drawer.getByText('The organizational mission is understood')).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Implemented', exact: true }).click();
  await drawer.getByRole('textbox', { name: 'Notes' }).fill('Mission statement approved by the board.');
  await drawer.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByText('Answer saved.')).toBeVisible();

  await drawer.getByRole('textbox', { name: 'Link name' }).fill('Board minutes');
  await drawer.getByRole('textbox', { name: 'Address' }).fill('https://intranet.prairiecu.example/board');
  await drawer.getByRole('button', { name: 'Add link' }).click();
  await expect(drawer.getByRole('link', { name: 'Board minutes' })).toBeVisible();
  await drawer.locator('input[type="file"]').setInputFiles({
    name: 'mission.txt',
    mimeType: 'text/plain',
    buffer: Buffer.from('Our mission: serve the members of the prairie.\n'),
  });
  await expect(drawer.getByRole('button', { name: 'mission.txt', exact: true })).toBeVisible();
  await page.keyboard.press('Escape');

  const row = page.getByRole('row').filter({ has: page.getByRole('button', { name: 'Open GV.OC-01' }) });
  await expect(row.getByText('Implemented')).toBeVisible();
  await expect(row.getByText('2 evidence items')).toBeVisible();
  await expect(page.getByText('1 of 106 controls answered')).toBeVisible();

  await page.getByRole('button', { name: 'Finalize' }).click();
  const confirm = page.getByRole('dialog', { name: 'Finalize evaluation period' });
  await confirm.getByRole('button', { name: 'Finalize' }).click();
  await expect(page.getByRole('button', { name: 'Finalize' })).toHaveCount(0);

  await page.getByRole('button', { name: 'Open GV.OC-01' }).click();
  await expect(page.getByText('CSF first assessment is finalized: its answers are read-only.')).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Save', exact: true })).toHaveCount(0);

  // The API refuses any change of the finalized period.
  const orgId = await orgIdOf(page.request, 'Prairie Credit Union');
  const api = `${baseUrl()}/api/org/${orgId}/governance`;
  const [framework] = (await (await page.request.get(`${api}/frameworks`)).json()) as { id: string }[];
  const [period] = (await (await page.request.get(`${api}/framework/${framework!.id}/periods`)).json()) as {
    id: string;
  }[];
  const answers = (await (await page.request.get(`${api}/period/${period!.id}/answers`)).json()) as {
    controlId: string;
  }[];
  const refused = await page.request.put(`${api}/period/${period!.id}/control/${answers[0]!.controlId}`, {
    headers: { 'x-requested-with': 'XMLHttpRequest', origin: baseUrl() },
    data: { status: 'NOT_IMPLEMENTED' },
  });
  expect(refused.status()).toBe(409);
  expect(((await refused.json()) as { key: string }).key).toBe('GOVERNANCE_PERIOD_FINALIZED');
});
