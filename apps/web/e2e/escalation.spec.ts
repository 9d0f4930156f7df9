import { expect, test } from '@playwright/test';
import { baseUrl, orgIdOf, readLatestMail, signInThroughPage } from './support';

const csrf = { 'x-requested-with': 'XMLHttpRequest' };

test('the escalation page reorders the demo contact steps, and an escalated alert e-mails the first step', async ({
  page,
}) => {
  test.setTimeout(240_000);
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  const orgId = await orgIdOf(page.request, 'First Harbor Bank');

  await page.goto(`${baseUrl()}/settings/escalation?orgId=${orgId}`);
  const steps = page.getByRole('table', { name: 'Contact steps' });
  await expect(steps.getByRole('row')).toHaveCount(4);
  await expect(steps.getByRole('row').nth(3)).toContainText('Chief information security officer');
  await page.getByRole('button', { name: 'Move Chief information security officer up' }).click();
  await expect(steps.getByRole('row').nth(2)).toContainText('Chief information security officer');
  await expect(steps.getByRole('row').nth(1)).toContainText('SOC on-call analyst');
  await expect(page.getByRole('combobox', { name: 'Time zone' })).toHaveValue('America/New_York');
  await expect(page.getByRole('checkbox', { name: 'Monday' })).toBeChecked();

  // A new alert escalated to a new incident: the tick e-mails the first step, the analyst.
  const list = await page.request.get(`${baseUrl()}/api/org/${orgId}/alerts?state=NEW`);
  const { items } = (await list.json()) as { items: { id: string }[] };
  expect(items.length).toBeGreaterThan(0);
  const title = `Escalated from the browser test ${Date.now().toString(36)}`;
  const escalated = await page.request.post(`${baseUrl()}/api/org/${orgId}/alerts/escalate`, {
    headers: csrf,
    data: { ids: [items[0]!.id], title },
  });
  expect(escalated.status()).toBe(201);
  const { slug } = (await escalated.json()) as { slug: string };
  await expect(async () => {
    const text = await readLatestMail('analyst@firstharbor.example', 5_000);
    expect(text).toContain(`${slug} ${title}`);
    expect(text).toContain('You are contact step 1 (SOC on-call analyst) of 3');
  }).toPass({ timeout: 180_000, intervals: [5_000] });
});
