import { expect, test, type Page } from '@playwright/test';
import { baseUrl, readLatestMail, signInThroughPage } from './support';

async function changeState(page: Page, state: string, resolution?: string) {
  await page.getByRole('combobox', { name: 'New state' }).click();
  await page.getByRole('option', { name: state, exact: true }).click();
  if (resolution) await page.getByRole('textbox', { name: 'Resolution' }).fill(resolution);
  await page.getByRole('button', { name: 'Change state' }).click();
  await expect(stateBadge(page, state)).toBeVisible();
}

/** The badge of the ticket's current state, beside its owner. */
const stateBadge = (page: Page, state: string) =>
  page
    .locator('.mantine-Badge-root')
    .filter({ hasText: new RegExp(`^${state}$`) })
    .first();

test('an escalated alert pages the first contact step; the incident is worked to Resolved with a file attached', async ({
  page,
}) => {
  test.setTimeout(240_000);
  const marker = Date.now().toString(36);
  const title = `Card skimmer at branch 4 ${marker}`;
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);

  // A new alert from the inbox is escalated to a new incident.
  await page.goto(`${baseUrl()}/alerts/inbox`);
  await page
    .getByRole('button', { name: /^Open alert/ })
    .first()
    .click();
  const drawer = page.getByRole('dialog', { name: 'Alert details' });
  await drawer.getByRole('button', { name: 'Escalate' }).click();
  const escalate = page.getByRole('dialog', { name: 'Escalate the alert' });
  await escalate.getByRole('textbox', { name: 'Incident title' }).fill(title);
  await escalate.getByRole('button', { name: 'Escalate' }).click();
  const incident = drawer.getByRole('link', { name: /^INC-\d+$/ });
  await expect(incident).toBeVisible();
  const slug = (await incident.innerText()).trim();

  // Nobody has taken it yet: the escalation tick e-mails the first contact step.
  await expect(async () => {
    const mail = await readLatestMail('analyst@firstharbor.example', 5_000);
    expect(mail).toContain(`${slug} ${title}`);
  }).toPass({ timeout: 180_000, intervals: [5_000] });

  // The incident is worked through its states, with evidence attached.
  await incident.click();
  await expect(page).toHaveURL(new RegExp(`/tickets/incident/${slug}`));
  await expect(page.getByRole('heading', { name: `${slug} ${title}` })).toBeVisible();
  await expect(stateBadge(page, 'Triage')).toBeVisible();
  await changeState(page, 'Analysis');
  await changeState(page, 'Remediation');

  await page.locator('input[type="file"]').setInputFiles({
    name: `skimmer-${marker}.txt`,
    mimeType: 'text/plain',
    buffer: Buffer.from('Skimmer found on ATM 4 at 09:12; device bagged and logged.\n'),
  });
  const files = page.getByRole('table', { name: 'Files' });
  await expect(files.getByRole('row').filter({ hasText: `skimmer-${marker}.txt` })).toBeVisible();

  // Resolved needs a resolution: the button waits for one.
  await page.getByRole('combobox', { name: 'New state' }).click();
  await page.getByRole('option', { name: 'Resolved', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Change state' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'Resolution' }).fill('Device removed; cards reissued');
  await page.getByRole('button', { name: 'Change state' }).click();
  await expect(stateBadge(page, 'Resolved')).toBeVisible();
  await expect(page.getByText('Resolution: Device removed; cards reissued')).toBeVisible();

  // The history names each step, and the file.
  await page.reload();
  await expect(page.getByText('Resolution: Device removed; cards reissued')).toBeVisible();
  await expect(page.getByRole('cell', { name: 'File attached' }).first()).toBeVisible();
});
