import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { expect, type APIRequestContext, type Page } from '@playwright/test';

/** Set by global-setup.ts for every worker. */
export const baseUrl = () => process.env.E2E_BASE_URL!;
export const demoPassword = () => process.env.E2E_PASSWORD!;

const basic = (email: string, password: string) =>
  `Basic ${Buffer.from(`${email}:${password}`).toString('base64')}`;

/** Signs in through the API; the page's context shares the session cookie. */
export async function signInThroughApi(request: APIRequestContext, email: string, password = demoPassword()) {
  const response = await request.post(`${baseUrl()}/api/user/login`, {
    headers: { authorization: basic(email, password), 'x-requested-with': 'XMLHttpRequest' },
  });
  expect(response.status()).toBe(200);
}

/** Signs in through the login page's e-mail, Next, password and Log in steps. */
export async function signInThroughPage(page: Page, email: string, password = demoPassword()) {
  await page.goto(`${baseUrl()}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

export async function orgIdOf(request: APIRequestContext, name: string): Promise<string> {
  const response = await request.get(`${baseUrl()}/api/orgs`);
  const { orgs } = (await response.json()) as { orgs: { id: string; name: string }[] };
  const org = orgs.find((entry) => entry.name === name);
  if (!org) throw new Error(`No organisation ${name}`);
  return org.id;
}

/** The text of the newest e-mail to `to` that the loopback SMTP server received. */
export async function readLatestMail(to: string, timeoutMs = 20_000): Promise<string> {
  const folder = process.env.E2E_MAIL_DIR!;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const files = (await readdir(folder))
      .filter((name) => name.startsWith(`${to.toLowerCase()}.`))
      .sort((a, b) => Number(a.split('.').at(-2)) - Number(b.split('.').at(-2)));
    if (files.length > 0) return readFile(path.join(folder, files.at(-1)!), 'utf8');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`No e-mail to ${to}`);
}
