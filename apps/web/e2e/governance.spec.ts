import { readFile } from 'node:fs/promises';
import { expect, test } from '@playwright/test';
import { extractText, getDocumentProxy } from 'unpdf';
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

  // Automatic evidence: Prairie has no review schedule yet, so the source has nothing to measure.
  await expect(drawer.getByText(/No automatic evidence yet/)).toBeVisible();
  await drawer.getByRole('combobox', { name: 'Source' }).click();
  await page.getByRole('option', { name: 'Reviews done' }).click();
  await drawer.getByRole('button', { name: 'Add source' }).click();
  await expect(drawer.getByText('No review schedule is set.')).toBeVisible();
  await drawer.getByRole('button', { name: 'Evaluate now' }).click();
  await expect(drawer.getByRole('list', { name: 'Earlier evaluations' })).toContainText('Unknown');
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

  // The evidence report of the finalized period, downloaded from the browser.
  await page.goto(`${baseUrl()}/governance/frameworks/${framework!.id}`);
  await page.getByRole('button', { name: 'Evidence report (PDF)' }).click();
  const reportDialog = page.getByRole('dialog', { name: 'Evidence report: CSF first assessment' });
  await reportDialog.getByRole('checkbox', { name: 'Incident statistics' }).uncheck();
  const downloading = page.waitForEvent('download');
  await reportDialog.getByRole('button', { name: 'Download PDF' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe(
    'evidence-NIST Cybersecurity Framework 2.0-CSF first assessment.pdf',
  );
  const bytes = await readFile((await download.path())!);
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  expect(text).toContain('NIST Cybersecurity Framework 2.0: CSF first assessment');
  expect(text).toContain('1 of 106 controls answered');
  expect(text).toContain('Evidence items: 2');
  expect(text).toContain('Finalized on');
  expect(text).not.toContain('Incident statistics');
});

test('a policy is written, approved after confirming and acknowledged', async ({ page }) => {
  test.setTimeout(90_000);
  await signInThroughPage(page, 'admin@prairiecu.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/governance/policies`);
  await page.getByRole('button', { name: 'New policy' }).click();
  const form = page.getByRole('dialog', { name: 'New policy' });
  await form.getByRole('textbox', { name: 'Name' }).fill('Password Policy');
  await form.getByRole('textbox', { name: 'Policy text' }).fill('Passwords are at least 14 characters.');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(page).toHaveURL(/\/governance\/policies\/[0-9a-f-]{36}/);
  await expect(page.getByRole('heading', { name: 'No approved version' })).toBeVisible();

  await page.getByRole('button', { name: 'Approve version 1' }).click();
  await page
    .getByRole('dialog', { name: 'Approve version' })
    .getByRole('button', { name: 'Approve' })
    .click();
  const current = page.getByRole('region', { name: 'Current text' });
  await expect(current.getByRole('heading', { name: 'Current: version 1' })).toBeVisible();
  await expect(current.getByText('Passwords are at least 14 characters.')).toBeVisible();
  await current.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(current.getByText('You acknowledged this version')).toBeVisible();
  await expect(page.getByRole('list', { name: 'People who acknowledged' }).getByRole('listitem')).toHaveCount(
    1,
  );
});

test('the governance tasks page counts the tasks of the demo compliance calendar', async ({ page }) => {
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/governance/tasks`);
  const scheduled = page.getByRole('region', { name: 'Scheduled tasks' });
  await scheduled.getByRole('combobox', { name: 'Timeframe' }).click();
  await page.getByRole('option', { name: 'Last 90 days' }).click();
  const table = scheduled.getByRole('table', { name: 'Tasks created by schedules' });
  // Schedule, created, open, closed, overdue: last month's vendor check is still open past its due date.
  await expect(table.getByRole('row', { name: /^Monthly vendor check \d+ \d+ \d+ 1$/ })).toBeVisible();
  // Five weekly runs, the latest open while not due yet.
  await expect(table.getByRole('row', { name: /^Weekly backup check 5 [01] [45] 0$/ })).toBeVisible();
  await expect(table.getByRole('row', { name: /^Annual policy review 1 0 1 0$/ })).toBeVisible();
});
