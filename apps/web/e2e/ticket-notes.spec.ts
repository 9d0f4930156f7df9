import { expect, test } from '@playwright/test';
import { baseUrl, signInThroughPage } from './support';

test('a note with a log type and a reply to it on an incident timeline', async ({ page }) => {
  const marker = Date.now().toString(36);
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/tickets/incident/INC-1`);
  const timeline = page.getByLabel('Activity log', { exact: true });
  // The demo's notes and reply are there.
  await expect(timeline.getByText('Left a voicemail for jmartin and e-mailed his manager.')).toBeVisible();

  await page.getByRole('combobox', { name: 'Log type' }).click();
  await page.getByRole('option', { name: 'Remediation', exact: true }).click();
  const note = `Reset the VPN token ${marker}`;
  await page.getByRole('textbox', { name: 'New note' }).fill(note);
  await page.getByRole('button', { name: 'Add note' }).click();
  const item = timeline.locator('.mantine-Timeline-item').filter({ hasText: note });
  await expect(item).toBeVisible();
  await expect(item.getByText('Remediation', { exact: true })).toBeVisible();

  await item.getByRole('button', { name: 'Reply' }).click();
  const reply = `Token reset confirmed ${marker}`;
  await item.getByRole('textbox', { name: 'Reply' }).fill(reply);
  await item.getByRole('button', { name: 'Send reply' }).click();
  await expect(item.getByRole('listitem').filter({ hasText: reply })).toBeVisible();

  // After a reload the note leads the timeline with its reply.
  await page.reload();
  const first = page.getByLabel('Activity log', { exact: true }).locator('.mantine-Timeline-item').first();
  await expect(first).toContainText(note);
  await expect(first).toContainText(reply);
});
