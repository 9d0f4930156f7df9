import { CreateBucketCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { expect, test } from '@playwright/test';
import { addLocalS3Role } from '../../server/test/s3-server';
import { baseUrl, signInThroughPage } from './support';

test('an S3 log source added in the browser collects its bucket, and the events are found in search', async ({
  page,
}) => {
  const marker = `s3marker${Date.now().toString(36)}`;
  const bucket = `e2e-${marker}`;
  const s3 = new S3Client({
    endpoint: process.env.E2E_S3_ENDPOINT,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'e2e-owner', secretAccessKey: 'e2e-owner-secret' },
  });
  await s3.send(new CreateBucketCommand({ Bucket: bucket }));
  const lines = [
    {
      timestamp: new Date().toISOString(),
      host: 'branch-07',
      user: 'teller7',
      message: `drawer opened ${marker}`,
    },
    {
      timestamp: new Date().toISOString(),
      host: 'branch-07',
      user: 'teller7',
      message: `drawer closed ${marker}`,
    },
  ];
  await s3.send(
    new PutObjectCommand({
      Bucket: bucket,
      Key: 'branch/2026/events.jsonl',
      Body: lines.map((line) => JSON.stringify(line)).join('\n'),
    }),
  );
  s3.destroy();

  await signInThroughPage(page, 'admin@firstharbor.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/settings/integrations`);
  const account = page.getByRole('row').filter({ hasText: 'Harbor production' });
  await expect(account).toContainText('402917365518');
  await account.getByRole('button', { name: 'Log sources of Harbor production' }).click();
  const drawer = page.getByRole('dialog', { name: 'S3 log sources of Harbor production' });
  await expect(drawer.getByRole('region', { name: 'harbor-cloudtrail-logs' })).toBeVisible();

  // A role given only by name is refused beside the field.
  await drawer.getByRole('button', { name: 'Add log source' }).click();
  const form = page.getByRole('dialog', { name: 'Add S3 log source' });
  await form.getByRole('textbox', { name: 'Bucket' }).fill(bucket);
  await form.getByRole('textbox', { name: 'Access role ARN' }).fill('log-reader');
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toContainText('The role must be a full role ARN');
  const roleArn = `arn:aws:iam::402917365518:role/${marker}`;
  await form.getByRole('textbox', { name: 'Access role ARN' }).fill(roleArn);
  // The customer's role trusts Vigil only with the external id the form shows.
  const externalId = await form.getByRole('textbox', { name: 'External id' }).inputValue();
  expect(externalId).not.toBe('');
  await form.getByRole('combobox', { name: 'Logs type' }).click();
  await page.getByRole('option', { name: 'JSONL' }).click();
  await form.getByRole('button', { name: 'Save' }).click();
  await expect(form).toBeHidden();

  const source = drawer.getByRole('region', { name: bucket });
  await expect(source).toContainText('Waiting for the first file');
  // Until the role exists, polling reads nothing and says why.
  await source.getByRole('button', { name: `Poll ${bucket} now` }).click();
  await expect(source).toContainText("The log source's access role could not be assumed", {
    timeout: 20_000,
  });
  await expect(source).toContainText('0 objects · 0 events · 0 failed');
  await addLocalS3Role(process.env.E2E_S3_ENDPOINT!, { arn: roleArn, externalId, buckets: [bucket] });
  await source.getByRole('button', { name: `Poll ${bucket} now` }).click();
  await expect(source).toContainText('1 objects · 2 events · 0 failed', { timeout: 20_000 });
  await expect(source).toContainText('Receiving');

  await page.goto(`${baseUrl()}/search?query=${marker}`);
  await expect(page.getByRole('row').filter({ hasText: marker })).toHaveCount(2);
});

test("Prairie's Symxchange action is listed and its fraud trigger's editor shows it attached", async ({
  page,
}) => {
  await signInThroughPage(page, 'admin@prairiecu.example');
  await expect(page).toHaveURL(/\/dashboards\/default/);
  await page.goto(`${baseUrl()}/settings/action-integrations`);
  await expect(page.getByRole('row').filter({ hasText: 'Fraud hold warning code' })).toBeVisible();

  await page.goto(`${baseUrl()}/fraud/triggers`);
  await page.getByRole('button', { name: 'Edit Large wire: hold the account' }).click();
  const dialog = page.getByRole('dialog', { name: 'Edit trigger' });
  await expect(dialog.getByText('Fraud hold warning code')).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
});
