import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type HttpMethod, orgRequest, type TestContext } from '../../../test/app';
import { startLocalEntraServer, type LocalEntraServer } from '../../../test/entra-server';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { integrations, s3LogSources } from './tables';

let ctx: TestContext;
let entra: LocalEntraServer;
let orgId: string;
let otherOrgId: string;
let editor: SeededUser;
let viewer: SeededUser;
let outsider: SeededUser;

const TENANT = '6f1c2a4e-9b7d-4c1e-8a2f-3d5e7f9a1b2c';
const APP_ID = '0a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d';
const SECRET_ID = '11111111-2222-4333-8444-555555555555';
const NO_GRAPH_APP_ID = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';
const ENTRA_SECRET = 'Qx8~entra-secret-value-001';

beforeAll(async () => {
  entra = await startLocalEntraServer();
  entra.register({ tenantId: TENANT, applicationId: APP_ID, secret: ENTRA_SECRET, graphPermission: true });
  entra.register({
    tenantId: TENANT,
    applicationId: NO_GRAPH_APP_ID,
    secret: ENTRA_SECRET,
    graphPermission: false,
  });
  ctx = await createTestApp(undefined, {
    config: { ENTRA_LOGIN_URL: entra.url, ENTRA_GRAPH_URL: entra.url },
  });
  const db = ctx.database.db;
  orgId = (await seedOrg(db)).id;
  otherOrgId = (await seedOrg(db)).id;
  editor = await seedUser(db, { homeOrgId: orgId, permissions: ['INTEGRATION_VIEW', 'INTEGRATION_EDIT'] });
  viewer = await seedUser(db, { homeOrgId: orgId, permissions: ['INTEGRATION_VIEW'] });
  outsider = await seedUser(db, {
    homeOrgId: otherOrgId,
    permissions: ['INTEGRATION_VIEW', 'INTEGRATION_EDIT'],
  });
});
afterAll(async () => {
  await ctx.close();
  await entra.close();
});

const call = (method: HttpMethod, path: string, user: SeededUser, payload?: object, org = orgId) =>
  orgRequest(ctx, org, method, path, user, payload);

interface IntegrationJson {
  id: string;
  kind: string;
  name: string;
  status: string;
  settings: Record<string, unknown>;
  secretsSet: Record<string, boolean>;
  lastValidatedAt: string | null;
  lastError: string | null;
}

const aws = (name: string, accountId: string, integrationType = 'CLOUDTRAIL') => ({
  kind: 'AWS',
  name,
  settings: { accountId, integrationType },
});

async function create(payload: object, user = editor, org = orgId) {
  const response = await call('POST', '/integrations', user, payload, org);
  expect(response.statusCode, response.body).toBe(201);
  return response.json() as IntegrationJson;
}

const errorOf = (response: { statusCode: number; json(): unknown }) => ({
  status: response.statusCode,
  ...(response.json() as { key: string; field?: string }),
});

describe('AWS accounts', () => {
  it('creates an account that waits up to 10 minutes for its first file, then shows no data or stale data', async () => {
    const account = await create(aws(' Production ', '123456789012'));
    expect(account).toMatchObject({
      kind: 'AWS',
      name: 'Production',
      status: 'WAITING_FIRST_FILE',
      settings: { accountId: '123456789012', integrationType: 'CLOUDTRAIL' },
      secretsSet: {},
    });
    const db = ctx.database.db;
    await db
      .update(integrations)
      .set({ createdOn: new Date(Date.now() - 11 * 60_000) })
      .where(eq(integrations.id, account.id));
    const after = await call('GET', `/integration/${account.id}`, viewer);
    expect(after.json()).toMatchObject({ status: 'NO_DATA' });
    await db
      .update(integrations)
      .set({ lastDataAt: new Date(Date.now() - 25 * 3_600_000) })
      .where(eq(integrations.id, account.id));
    expect((await call('GET', `/integration/${account.id}`, viewer)).json()).toMatchObject({
      status: 'STALE',
    });
    await db.update(integrations).set({ lastDataAt: new Date() }).where(eq(integrations.id, account.id));
    expect((await call('GET', `/integration/${account.id}`, viewer)).json()).toMatchObject({
      status: 'RECEIVING',
    });
  });

  it('refuses a missing or duplicate name, a malformed or duplicate account id and an unknown type', async () => {
    await create(aws('Load balancers', '210987654321', 'ELB'));
    const refusals = [
      [aws('', '111111111111'), 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [aws('x'.repeat(129), '111111111111'), 400, 'GENERIC_INVALID_FIELD_VALUE'],
      [aws('load BALANCERS', '111111111111'), 409, 'INTEGRATION_NAME_TAKEN'],
      [aws('Staging', '12345678901'), 400, 'INVALID_CLOUD_ACCOUNT'],
      [aws('Staging', '1234567890123'), 400, 'INVALID_CLOUD_ACCOUNT'],
      [aws('Staging', '12345678901a'), 400, 'INVALID_CLOUD_ACCOUNT'],
      [aws('Staging', '210987654321'), 409, 'CLOUD_INTEGRATION_EXISTS'],
      [aws('Staging', '111111111111', 'S3'), 400, 'GENERIC_INVALID_FIELD_VALUE'],
    ] as const;
    for (const [payload, status, key] of refusals) {
      const response = await call('POST', '/integrations', editor, payload);
      expect(
        { status: response.statusCode, key: (response.json() as { key: string }).key },
        JSON.stringify(payload),
      ).toEqual({
        status,
        key,
      });
    }
    // The same account id in another organisation is that organisation's own.
    await create(aws('Load balancers', '210987654321'), outsider, otherOrgId);
  });

  it('edits an account under the same rules and keeps other organisations and viewers out', async () => {
    const account = await create(aws('Audit', '333333333333'));
    const renamed = await call(
      'PUT',
      `/integration/${account.id}`,
      editor,
      aws('Audit logs', '333333333333', 'ELB'),
    );
    expect(renamed.json()).toMatchObject({ name: 'Audit logs', settings: { integrationType: 'ELB' } });
    expect(
      errorOf(await call('PUT', `/integration/${account.id}`, editor, aws('Audit logs', '123456789012'))),
    ).toMatchObject({
      status: 409,
      key: 'CLOUD_INTEGRATION_EXISTS',
      field: 'settings.accountId',
    });
    expect(
      (await call('PUT', `/integration/${account.id}`, viewer, aws('Mine', '333333333333'))).statusCode,
    ).toBe(403);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await call(
        method,
        `/integration/${account.id}`,
        outsider,
        aws('Theirs', '444444444444'),
        otherOrgId,
      );
      expect(errorOf(response)).toMatchObject({ status: 404, key: 'INTEGRATION_NOT_FOUND' });
    }
    expect((await call('DELETE', `/integration/${account.id}`, editor)).statusCode).toBe(204);
    expect(errorOf(await call('GET', `/integration/${account.id}`, viewer))).toMatchObject({ status: 404 });
  });
});

describe('S3 log sources', () => {
  it('adds sources with a full role ARN and a listed logs type, a bucket once', async () => {
    const account = await create(aws('Logs', '555555555555'));
    const add = (payload: object, id = account.id) =>
      call('POST', `/integration/${id}/log-sources`, editor, payload);
    const created = await add({
      bucket: 'bank-cloudtrail',
      roleArn: 'arn:aws:iam::555555555555:role/vigil-reader',
      logsType: 'CLOUDTRAIL',
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      bucket: 'bank-cloudtrail',
      logsType: 'CLOUDTRAIL',
      enabled: true,
      status: 'WAITING_FIRST_FILE',
      objectsRead: 0,
    });
    expect(errorOf(await add({ bucket: 'bank-cloudtrail', logsType: 'JSONL' }))).toMatchObject({
      status: 409,
      key: 'S3_BUCKET_IN_USE',
      field: 'bucket',
    });
    expect(
      errorOf(await add({ bucket: 'other-bucket', roleArn: 'vigil-reader', logsType: 'JSONL' })),
    ).toMatchObject({
      status: 400,
      key: 'INVALID_CLOUD_ROLE',
      field: 'roleArn',
    });
    expect(errorOf(await add({ bucket: 'other-bucket', logsType: 'SYSLOG' }))).toMatchObject({
      status: 400,
      key: 'GENERIC_INVALID_FIELD_VALUE',
    });
    expect(errorOf(await add({ bucket: 'Not_A_Bucket', logsType: 'JSONL' }))).toMatchObject({
      status: 400,
      field: 'bucket',
    });
    const entraOrAzure = await create({
      kind: 'AZURE',
      name: 'Tenant',
      settings: {
        subscriptionId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
        resourceGroup: 'rg',
        storageAccount: 'bankstorage',
      },
    });
    expect(errorOf(await add({ bucket: 'other-bucket', logsType: 'JSONL' }, entraOrAzure.id))).toMatchObject({
      status: 404,
      key: 'INTEGRATION_NOT_FOUND',
    });
    // The bucket is free again once its source is deleted; another organisation never sees the source.
    const sourceId = (created.json() as { id: string }).id;
    expect(
      errorOf(await call('DELETE', `/log-source/${sourceId}`, outsider, undefined, otherOrgId)),
    ).toMatchObject({
      status: 404,
      key: 'S3_LOG_SOURCE_NOT_FOUND',
    });
    expect((await call('GET', `/integration/${account.id}/log-sources`, viewer)).json()).toMatchObject({
      total: 1,
    });
    expect((await call('DELETE', `/log-source/${sourceId}`, editor)).statusCode).toBe(204);
    expect((await add({ bucket: 'bank-cloudtrail', logsType: 'DEFAULT' })).statusCode).toBe(201);
  });

  it('deleting an account deletes its sources', async () => {
    const account = await create(aws('Short lived', '666666666666'));
    await call('POST', `/integration/${account.id}/log-sources`, editor, {
      bucket: 'short-lived',
      logsType: 'JSONL',
    });
    await call('DELETE', `/integration/${account.id}`, editor);
    const rows = await ctx.database.db
      .select()
      .from(s3LogSources)
      .where(eq(s3LogSources.bucket, 'short-lived'));
    expect(rows).toEqual([]);
  });
});

describe('Azure, customer-relationship platform, Apiture and Finxact', () => {
  const azure = (settings: object) => ({
    kind: 'AZURE',
    name: 'Office 365',
    settings: {
      subscriptionId: '9a8b7c6d-5e4f-4a3b-9c2d-1e0f9a8b7c6d',
      resourceGroup: 'security-rg',
      storageAccount: 'banklogs01',
      alertOnNoData: true,
      noDataThresholdHours: 12,
      deletionEnabled: false,
      ...settings,
    },
  });

  it('validates Azure accounts', async () => {
    expect(await create(azure({}))).toMatchObject({
      kind: 'AZURE',
      settings: { alertOnNoData: true, noDataThresholdHours: 12 },
      status: 'NO_DATA',
    });
    expect(
      errorOf(
        await call('POST', '/integrations', editor, { ...azure({ subscriptionId: 'abc' }), name: 'B' }),
      ),
    ).toMatchObject({
      key: 'INVALID_GUID',
      field: 'settings.subscriptionId',
    });
    expect(
      errorOf(
        await call('POST', '/integrations', editor, { ...azure({ storageAccount: 'Bank_Logs' }), name: 'B' }),
      ),
    ).toMatchObject({
      key: 'INVALID_STORAGE_ACCOUNT',
    });
    expect(
      errorOf(
        await call('POST', '/integrations', editor, { ...azure({ noDataThresholdHours: 0 }), name: 'B' }),
      ),
    ).toMatchObject({
      status: 400,
    });
  });

  it('keeps client secrets encrypted, never answers them and keeps them when an edit leaves them out', async () => {
    const secret = 'finxact-client-secret-42';
    const finxact = {
      kind: 'FINXACT',
      name: 'Core',
      settings: { url: 'https://core.finxact.example/api', clientId: 'vigil', userRole: 'reader' },
      secrets: { clientSecret: secret },
    };
    const response = await call('POST', '/integrations', editor, finxact);
    expect(response.statusCode).toBe(201);
    expect(response.body).not.toContain(secret);
    const created = response.json() as IntegrationJson;
    expect(created.secretsSet).toEqual({ clientSecret: true });
    const [row] = await ctx.database.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(row!.secretsEncrypted).not.toContain(secret);
    expect(JSON.parse(ctx.secrets.open(row!.secretsEncrypted!))).toEqual({ clientSecret: secret });

    const edited = await call('PUT', `/integration/${created.id}`, editor, {
      ...finxact,
      name: 'Core banking',
      secrets: {},
    });
    expect(edited.json()).toMatchObject({ name: 'Core banking', secretsSet: { clientSecret: true } });
    const [kept] = await ctx.database.db.select().from(integrations).where(eq(integrations.id, created.id));
    expect(JSON.parse(ctx.secrets.open(kept!.secretsEncrypted!))).toEqual({ clientSecret: secret });
    await call('PUT', `/integration/${created.id}`, editor, {
      ...finxact,
      secrets: { clientSecret: 'replaced-secret' },
    });
    const [replaced] = await ctx.database.db
      .select()
      .from(integrations)
      .where(eq(integrations.id, created.id));
    expect(JSON.parse(ctx.secrets.open(replaced!.secretsEncrypted!))).toEqual({
      clientSecret: 'replaced-secret',
    });
    const list = await call('GET', '/integrations?kind=FINXACT', viewer);
    expect(list.body).not.toContain('secret-42');
    expect(list.body).not.toContain('replaced-secret');

    expect(
      errorOf(await call('POST', '/integrations', editor, { ...finxact, name: 'N', secrets: {} })),
    ).toMatchObject({ status: 400 });
    expect(
      errorOf(
        await call('POST', '/integrations', editor, {
          ...finxact,
          name: 'N',
          settings: { ...finxact.settings, url: 'core' },
        }),
      ),
    ).toMatchObject({ key: 'INVALID_BASE_URL', field: 'settings.url' });
    expect(
      errorOf(await call('PUT', `/integration/${created.id}`, editor, { ...finxact, kind: 'APITURE' })),
    ).toMatchObject({
      status: 400,
    });
  });

  it('needs a well-formed Apiture URL and a valid platform base URL', async () => {
    const apiture = (url: string) => ({
      kind: 'APITURE',
      name: `Apiture ${url.length}`,
      settings: { url, clientId: 'vigil' },
      secrets: { clientSecret: 's' },
    });
    for (const url of ['not a url', 'ftp://apiture.example', 'https://']) {
      expect(errorOf(await call('POST', '/integrations', editor, apiture(url)))).toMatchObject({
        status: 400,
        key: 'INVALID_URI',
        field: 'settings.url',
      });
    }
    await create(apiture('https://bank.apiture.example/banking'));
    const crm = {
      kind: 'CRM',
      name: 'Salesforce',
      settings: { instanceUrl: 'bank.my.salesforce', clientId: 'c' },
      secrets: { clientSecret: 's' },
    };
    expect(errorOf(await call('POST', '/integrations', editor, crm))).toMatchObject({
      key: 'INVALID_BASE_URL',
    });
    await create({ ...crm, settings: { ...crm.settings, instanceUrl: 'https://bank.my.salesforce.com' } });
  });
});

describe('Entra ID', () => {
  const entraInput = (applicationId: string, secretValue: string, name = 'Directory') => ({
    kind: 'ENTRA_ID',
    name,
    settings: { tenantId: TENANT, applicationId, secretId: SECRET_ID },
    secrets: { secretValue },
  });

  it('refuses credentials the token endpoint rejects (login validation) and stores nothing', async () => {
    expect(
      errorOf(await call('POST', '/integrations', editor, entraInput(APP_ID, 'wrong-secret'))),
    ).toMatchObject({
      status: 400,
      key: 'ENTRA_LOGIN_VALIDATION_FAILED',
    });
    const unknownTenant = entraInput(APP_ID, ENTRA_SECRET);
    unknownTenant.settings.tenantId = 'other-tenant.onmicrosoft.com';
    expect(errorOf(await call('POST', '/integrations', editor, unknownTenant))).toMatchObject({
      key: 'ENTRA_LOGIN_VALIDATION_FAILED',
    });
    expect((await call('GET', '/integrations?kind=ENTRA_ID', viewer)).json()).toMatchObject({ total: 0 });
  });

  it('refuses an application without Graph permission (graph validation)', async () => {
    expect(
      errorOf(await call('POST', '/integrations', editor, entraInput(NO_GRAPH_APP_ID, ENTRA_SECRET))),
    ).toMatchObject({
      status: 400,
      key: 'ENTRA_GRAPH_VALIDATION_FAILED',
    });
  });

  it('refuses malformed ids before asking Entra ID', async () => {
    expect(
      errorOf(await call('POST', '/integrations', editor, entraInput('not-a-guid', ENTRA_SECRET))),
    ).toMatchObject({
      key: 'INVALID_GUID',
      field: 'settings.applicationId',
    });
  });

  it('stores validated credentials, validates again on demand and on a changed secret', async () => {
    const created = await create(entraInput(APP_ID, ENTRA_SECRET));
    expect(created).toMatchObject({ status: 'VALIDATED', secretsSet: { secretValue: true } });
    expect(created.lastValidatedAt).not.toBeNull();
    const again = await call('POST', `/integration/${created.id}/validate`, editor);
    expect(again.json()).toMatchObject({ status: 'VALIDATED' });
    expect(
      errorOf(await call('PUT', `/integration/${created.id}`, editor, entraInput(APP_ID, 'a-wrong-secret'))),
    ).toMatchObject({ key: 'ENTRA_LOGIN_VALIDATION_FAILED' });
    // A rename alone does not ask Entra ID again and keeps the stored secret.
    const renamed = await call('PUT', `/integration/${created.id}`, editor, {
      ...entraInput(APP_ID, ENTRA_SECRET, 'Bank directory'),
      secrets: { secretValue: null },
    });
    expect(renamed.json()).toMatchObject({ name: 'Bank directory', status: 'VALIDATED' });
    expect((await call('POST', `/integration/${created.id}/validate`, viewer)).statusCode).toBe(403);
  });
});
