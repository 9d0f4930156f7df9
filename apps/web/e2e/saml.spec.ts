import { expect, test } from '@playwright/test';
import { baseUrl, orgIdOf, signInThroughApi } from './support';

const idp = () =>
  JSON.parse(process.env.E2E_IDP!) as { entryPoint: string; issuer: string; certificate: string };

test('a user of a bank with single sign-on signs in at its identity provider', async ({
  page,
  playwright,
}) => {
  // The provider administrator configures First Harbor's identity provider through the API.
  const admin = await playwright.request.newContext();
  await signInThroughApi(admin, 'admin@vigil.example');
  const orgId = await orgIdOf(admin, 'First Harbor Bank');
  const created = await admin.post(`${baseUrl()}/api/org/${orgId}/sso/saml-providers`, {
    headers: { 'x-requested-with': 'XMLHttpRequest' },
    data: {
      name: 'First Harbor Entra ID',
      entryPoint: idp().entryPoint,
      idpIssuer: idp().issuer,
      idpCert: idp().certificate,
      emailDomains: ['firstharbor.example'],
    },
  });
  expect(created.status()).toBe(201);
  const providerId = (await created.json()).id as string;

  try {
    await page.goto(`${baseUrl()}/login`);
    await page.getByLabel('E-mail').fill('compliance@firstharbor.example');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect(page.getByText(/First Harbor Entra ID/)).toBeVisible();
    // The redirect page waits 2 seconds, the identity provider posts back, the server signs in.
    await expect(page).toHaveURL(/\/dashboards\/default/, { timeout: 15_000 });
    await expect(page.getByRole('heading', { name: 'Dashboards' })).toBeVisible();
    const me = await page.request.get(`${baseUrl()}/api/user`);
    expect((await me.json()).emails).toEqual([{ email: 'compliance@firstharbor.example' }]);
  } finally {
    await admin.delete(`${baseUrl()}/api/org/${orgId}/sso/saml-providers/${providerId}`, {
      headers: { 'x-requested-with': 'XMLHttpRequest' },
    });
    await admin.dispose();
  }
});
