import { expect, test, type Page } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughPage } from './support';

const csrf = { 'x-requested-with': 'XMLHttpRequest' };

/** One event of each host, stamped now, as a live gateway would send them. */
function eventsFor(hosts: string[], marker: string) {
  return hosts
    .map((host) =>
      JSON.stringify({
        host,
        srcIp: '10.20.0.40',
        message: `wire release denied ${marker}`,
        fields: { outcome: 'failure' },
      }),
    )
    .join('\n');
}

/**
 * The inbox row of an alert, reloading until the trigger engine (a one-minute tick over windows that
 * close a minute after their end) has raised it; `meanwhile` runs before each look.
 */
async function waitForAlertRow(page: Page, title: string, meanwhile: () => Promise<void>) {
  const row = page.getByRole('row').filter({ hasText: title });
  await expect(async () => {
    await meanwhile();
    await page.reload();
    await expect(row.first()).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 240_000, intervals: [3_000] });
  return row.first();
}

test('a trigger on a saved query fires on ingested events; its alerts are acknowledged, escalated to an incident and dismissed in the inbox', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const marker = `wire${Date.now().toString(36)}`;
  const [hostA, hostB] = [`vault-a-${marker}`, `vault-b-${marker}`];
  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  const orgId = await orgIdOf(page.request, 'First Harbor Bank');

  // Events will arrive through the ingest API with a token of the organisation.
  const token = await page.request.post(`${baseUrl()}/api/org/${orgId}/token/api`, {
    headers: csrf,
    data: { description: `Wire gateway ${marker}` },
  });
  expect(token.status()).toBe(201);
  const { secret } = (await token.json()) as { secret: string };
  const saved = await page.request.post(`${baseUrl()}/api/org/${orgId}/saved-query`, {
    headers: csrf,
    data: { name: `Denied wires ${marker}`, query: marker },
  });
  expect(saved.status()).toBe(201);

  // The trigger is made in the console: one alert per host with at least three events a minute.
  await page.goto(`${baseUrl()}/triggers`);
  await page.getByRole('button', { name: 'New trigger' }).click();
  const dialog = page.getByRole('dialog', { name: 'New trigger' });
  await dialog.getByRole('textbox', { name: 'Name' }).fill(`Denied wires ${marker}`);
  await dialog.getByRole('combobox', { name: 'Type' }).click();
  await page.getByRole('option', { name: 'Aggregation' }).click();
  await dialog.getByRole('combobox', { name: 'Saved query' }).click();
  await page.getByRole('option', { name: `Denied wires ${marker}` }).click();
  await dialog.getByRole('textbox', { name: 'Interval (seconds)' }).fill('60');
  await dialog.getByRole('combobox', { name: 'Aggregation', exact: true }).click();
  await page.getByRole('option', { name: 'terms' }).click();
  await dialog.getByRole('textbox', { name: 'Aggregation field' }).fill('host');
  await dialog.getByRole('textbox', { name: 'Minimum matches' }).fill('3');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: `Denied wires ${marker}` })).toContainText('Active');

  // Events keep arriving; the engine raises the alerts by itself and the inbox shows them.
  const send = async () => {
    const ingest = await page.request.post(`${baseUrl()}/api/ingest/events`, {
      headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/x-ndjson' },
      data: eventsFor([hostA, hostB], marker),
    });
    expect(ingest.status()).toBe(200);
    expect(await ingest.json()).toMatchObject({ accepted: 2, rejected: [] });
  };
  await page.goto(`${baseUrl()}/alerts/inbox`);
  const first = await waitForAlertRow(page, `Denied wires ${marker}: ${hostA}`, send);
  await first.getByRole('button', { name: /^Open alert/ }).click();
  const drawer = page.getByRole('dialog', { name: 'Alert details' });
  await drawer.getByRole('button', { name: 'Show events' }).click();
  await expect(drawer.getByRole('row').filter({ hasText: hostA }).first()).toBeVisible();
  await drawer.getByRole('button', { name: 'Acknowledge' }).click();
  await expect(page.getByText('The alert is now Acknowledged.')).toBeVisible();
  await expect(drawer.getByText('Acknowledged').first()).toBeVisible();

  // Escalated to a new incident, the alert is frozen and links to it.
  await drawer.getByRole('button', { name: 'Escalate' }).click();
  const escalate = page.getByRole('dialog', { name: 'Escalate the alert' });
  await escalate.getByRole('textbox', { name: 'Incident title' }).fill(`Wire gateway denials ${marker}`);
  await escalate.getByRole('button', { name: 'Escalate' }).click();
  await expect(page.getByText(/^Escalated to INC-\d+\.$/)).toBeVisible();
  await expect(drawer.getByText('This alert is escalated: its state cannot change.')).toBeVisible();
  const incident = drawer.getByRole('link', { name: /^INC-\d+$/ });
  const slug = (await incident.innerText()).trim();
  await drawer.getByRole('button', { name: 'Close' }).click();

  // The other host's alert is dismissed with a reason.
  const second = page
    .getByRole('row')
    .filter({ hasText: `Denied wires ${marker}: ${hostB}` })
    .first();
  await second.getByRole('button', { name: /^Open alert/ }).click();
  await drawer.getByRole('button', { name: 'Dismiss' }).click();
  const dismiss = page.getByRole('dialog', { name: 'Dismiss the alert' });
  await dismiss.getByRole('combobox', { name: 'Reason' }).click();
  await page.getByRole('option', { name: 'False positive' }).click();
  await dismiss.getByRole('button', { name: 'Dismiss' }).click();
  await expect(page.getByText('The alert is now Dismissed.')).toBeVisible();
  await drawer.getByRole('button', { name: 'Close' }).click();

  await page.getByRole('tab', { name: 'Dismissed' }).click();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `Denied wires ${marker}: ${hostB}` })
      .first(),
  ).toContainText('Dismissed');
  await page.getByRole('tab', { name: 'Escalated' }).click();
  await expect(
    page
      .getByRole('row')
      .filter({ hasText: `Denied wires ${marker}: ${hostA}` })
      .first(),
  ).toContainText('Escalated');

  // The incident shows the alert escalated to it.
  await page.goto(`${baseUrl()}/tickets/incident/${slug}`);
  await expect(page.getByRole('heading', { name: `${slug} Wire gateway denials ${marker}` })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: `Denied wires ${marker}: ${hostA}` })).toBeVisible();
});
