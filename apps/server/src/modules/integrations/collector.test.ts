import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, orgRequest, type TestContext } from '../../../test/app';
import { seedOrg, seedUser, type SeededUser } from '../../../test/fixtures';
import { startLocalS3Server, type LocalS3Server } from '../../../test/s3-server';
import { searchEvents, waitForEvents } from '../../../test/shippers';
import { S3_POLL_JOB } from './collector';

let ctx: TestContext;
let s3: LocalS3Server;
let orgId: string;
let admin: SeededUser;
let accountId: string;

interface Tenant {
  orgId: string;
  user: SeededUser;
  accountId: string;
}
let bank: Tenant;
let otherBank: Tenant;

/** Org A's reader role: its trust policy requires org A's external id. */
const READER_ROLE = 'arn:aws:iam::123456789012:role/vigil-log-reader';
/** A role of org A that may read no bucket. */
const NARROW_ROLE = 'arn:aws:iam::123456789012:role/vigil-narrow';

const now = () => new Date().toISOString();

const cloudTrailFile = (user: string) =>
  gzipSync(
    JSON.stringify({
      Records: [
        {
          eventTime: now(),
          eventSource: 'signin.amazonaws.com',
          eventName: 'ConsoleLogin',
          sourceIPAddress: '198.51.100.7',
          userIdentity: { type: 'IAMUser', userName: user },
          awsRegion: 'us-east-1',
        },
        {
          eventTime: now(),
          eventSource: 's3.amazonaws.com',
          eventName: 'DeleteBucket',
          sourceIPAddress: '198.51.100.7',
          userIdentity: { type: 'IAMUser', userName: user },
        },
      ],
    }),
  );

beforeAll(async () => {
  // Small pages, so that listing follows continuation tokens.
  s3 = await startLocalS3Server({ maxKeys: 2 });
  // The server's own key may only call STS: the local S3 server refuses it on buckets.
  ctx = await createTestApp(undefined, {
    startJobs: true,
    config: {
      S3_ENDPOINT: s3.endpoint,
      STS_ENDPOINT: s3.endpoint,
      S3_FORCE_PATH_STYLE: true,
      S3_ACCESS_KEY_ID: 'test-key',
      S3_SECRET_ACCESS_KEY: 'test-secret',
    },
  });
  // Only "Poll now" polls here: a minute tick between two assertions would poll again and replace
  // the status the first poll left.
  await ctx.jobs.boss.unschedule(S3_POLL_JOB);
  const tenant = async (awsAccountId: string): Promise<Tenant> => {
    const id = (await seedOrg(ctx.database.db)).id;
    const user = await seedUser(ctx.database.db, {
      homeOrgId: id,
      permissions: ['INTEGRATION_VIEW', 'INTEGRATION_EDIT', 'EVENT_VIEW'],
    });
    const account = await orgRequest(ctx, id, 'POST', '/integrations', user, {
      kind: 'AWS',
      name: 'Production',
      settings: { accountId: awsAccountId, integrationType: 'CLOUDTRAIL' },
    });
    return { orgId: id, user, accountId: (account.json() as { id: string }).id };
  };
  bank = await tenant('123456789012');
  otherBank = await tenant('210987654321');
  ({ orgId, user: admin, accountId } = bank);
  s3.addRole({
    arn: READER_ROLE,
    externalId: orgId,
    buckets: ['bank-logs', 'fraud-feed', 'no-such-bucket'],
  });
  s3.addRole({ arn: NARROW_ROLE, externalId: orgId, buckets: [] });
});
afterAll(async () => {
  await ctx.close();
  await s3.close();
});

async function addSource(
  bucket: string,
  logsType: string,
  prefix = '',
  roleArn: string | null = READER_ROLE,
  { orgId, user, accountId }: Tenant = bank,
) {
  const response = await orgRequest(ctx, orgId, 'POST', `/integration/${accountId}/log-sources`, user, {
    bucket,
    logsType,
    prefix,
    roleArn,
  });
  expect(response.statusCode, response.body).toBe(201);
  return (response.json() as { id: string }).id;
}

async function pollNow(sourceId: string, { orgId, user }: Tenant = bank) {
  const response = await orgRequest(ctx, orgId, 'POST', `/log-source/${sourceId}/poll`, user);
  expect(response.statusCode).toBe(202);
}

async function sourceOf(sourceId: string, { orgId, user, accountId }: Tenant) {
  const response = await orgRequest(ctx, orgId, 'GET', `/integration/${accountId}/log-sources`, user);
  return (response.json() as { items: Record<string, unknown>[] }).items.find(
    (item) => item.id === sourceId,
  )!;
}

async function waitForSource(
  sourceId: string,
  done: (source: Record<string, unknown>) => boolean,
  tenant: Tenant = bank,
) {
  const until = Date.now() + 30_000;
  for (;;) {
    const source = await sourceOf(sourceId, tenant);
    if (done(source) || Date.now() > until) return source;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

describe('S3 log collection', () => {
  it('reads CloudTrail, ELB and JSON-lines objects once each and finds their events in search', async () => {
    s3.createBucket('bank-logs');
    s3.putObject('bank-logs', 'AWSLogs/123456789012/CloudTrail/a.json.gz', cloudTrailFile('alice'));
    s3.putObject(
      'bank-logs',
      'AWSLogs/123456789012/elasticloadbalancing/b.log',
      `https ${now()} app/web-lb/50dc6c495c0c9188 203.0.113.12:46532 10.0.0.66:443 0.001 0.002 0.000 200 200 34 366 "GET https://bank.example:443/login HTTP/1.1" "curl/8.0" ECDHE-RSA-AES128-GCM-SHA256 TLSv1.2\n`,
    );
    s3.putObject(
      'bank-logs',
      'app/c.jsonl',
      `{"timestamp":"${now()}","host":"core-01","message":"transfer approved","user":"bob"}\nnot json\n`,
    );
    s3.putObject('bank-logs', 'app/folder/', '');
    const sourceId = await addSource('bank-logs', 'DEFAULT');
    await pollNow(sourceId);

    const trail = await waitForEvents(ctx, admin, orgId, 'data_source:cloudtrail', 2);
    expect(trail.map((event) => event.message).sort()).toEqual([
      's3.amazonaws.com DeleteBucket',
      'signin.amazonaws.com ConsoleLogin',
    ]);
    expect(trail[0]).toMatchObject({ srcIp: '198.51.100.7', userName: 'alice' });
    const elb = await waitForEvents(ctx, admin, orgId, 'data_source:elb', 1);
    expect(elb[0]).toMatchObject({
      srcIp: '203.0.113.12',
      dstIp: '10.0.0.66',
      host: 'app/web-lb/50dc6c495c0c9188',
    });
    const app = await waitForEvents(ctx, admin, orgId, 'host:core-01', 1);
    expect(app[0]).toMatchObject({ message: 'transfer approved', userName: 'bob' });
    // The line that is not JSON is kept as a plain message in the default type.
    expect(await waitForEvents(ctx, admin, orgId, '"not json"', 1)).toHaveLength(1);

    const source = await waitForSource(sourceId, (item) => item.objectsRead === 3);
    expect(source).toMatchObject({
      objectsRead: 3,
      eventsIngested: 5,
      failedObjects: 0,
      status: 'RECEIVING',
      lastError: null,
    });
    const account = await orgRequest(ctx, orgId, 'GET', `/integration/${accountId}`, admin);
    expect(account.json()).toMatchObject({ status: 'RECEIVING' });

    // A second poll reads nothing again; a changed object (new ETag) and a new one are read.
    s3.putObject('bank-logs', 'AWSLogs/123456789012/CloudTrail/a.json.gz', cloudTrailFile('carol'));
    await pollNow(sourceId);
    await waitForSource(sourceId, (item) => item.objectsRead === 4);
    expect(await searchEvents(ctx, admin, orgId, 'data_source:cloudtrail')).toHaveLength(4);
    expect(await searchEvents(ctx, admin, orgId, 'host:core-01')).toHaveLength(1);
    const objects = await orgRequest(ctx, orgId, 'GET', `/log-source/${sourceId}/objects`, admin);
    expect(objects.json()).toMatchObject({ total: 4 });
  });

  it('parses the listed types and records objects it cannot read, with the error', async () => {
    s3.createBucket('fraud-feed');
    s3.putObject(
      'fraud-feed',
      'in/1.jsonl',
      `{"eventTime":"${now()}","ipAddress":"192.0.2.44","userId":"cust-9","reason":"velocity breach"}\n`,
    );
    s3.putObject('fraud-feed', 'in/2.json', Buffer.from([0x1f, 0x8b, 0x00, 0x01]));
    s3.putObject('fraud-feed', 'other/3.jsonl', `{"reason":"outside the prefix"}\n`);
    const sourceId = await addSource('fraud-feed', 'FRAUD_EVENT', 'in/');
    await pollNow(sourceId);
    const fraud = await waitForEvents(ctx, admin, orgId, 'data_source:fraud', 1);
    expect(fraud[0]).toMatchObject({ message: 'velocity breach', srcIp: '192.0.2.44', userName: 'cust-9' });
    const source = await waitForSource(sourceId, (item) => item.objectsRead === 2);
    expect(source).toMatchObject({ objectsRead: 2, failedObjects: 1, eventsIngested: 1, status: 'ERROR' });
    expect(String(source.lastError)).toContain('in/2.json');
    const failed = await orgRequest(
      ctx,
      orgId,
      'GET',
      `/log-source/${sourceId}/objects?failedOnly=true`,
      admin,
    );
    expect(failed.json()).toMatchObject({ total: 1, items: [{ key: 'in/2.json', events: 0 }] });
    expect(await searchEvents(ctx, admin, orgId, '"outside the prefix"')).toEqual([]);
  });

  it('shows an error on a source whose bucket cannot be listed', async () => {
    const sourceId = await addSource('no-such-bucket', 'JSONL');
    await pollNow(sourceId);
    const source = await waitForSource(sourceId, (item) => item.lastPolledAt !== null);
    expect(source).toMatchObject({ status: 'ERROR', objectsRead: 0 });
    expect(String(source.lastError)).toMatch(/bucket/i);
  });

  it("reads a bucket only through the source's role, assumed with its organisation's external id", async () => {
    s3.putObject('bank-logs', 'app/secret.jsonl', `{"timestamp":"${now()}","message":"other bank secret"}\n`);
    const stsCalls = () => s3.requests.filter((request) => request === 'POST /').length;
    const listsOf = (bucket: string) =>
      s3.requests.filter((request) => request.startsWith(`GET /${bucket}?`)).length;
    const callsBefore = stsCalls();
    const listsBefore = listsOf('bank-logs');

    // Org B points a source at org A's bucket with org A's role: STS refuses its external id.
    const stolen = await addSource('bank-logs', 'JSONL', '', READER_ROLE, otherBank);
    await pollNow(stolen, otherBank);
    const refused = await waitForSource(stolen, (item) => item.lastPolledAt !== null, otherBank);
    expect(refused).toMatchObject({
      status: 'ERROR',
      objectsRead: 0,
      eventsIngested: 0,
      lastErrorKey: 'INTEGRATION_ROLE_NOT_ASSUMED',
    });
    expect(String(refused.lastError)).toContain(READER_ROLE);
    expect(stsCalls()).toBe(callsBefore + 1);
    expect(listsOf('bank-logs')).toBe(listsBefore);
    expect(await searchEvents(ctx, otherBank.user, otherBank.orgId, '"other bank secret"')).toEqual([]);

    // Without a role nothing is read either: the server's own key only calls STS.
    const fraudListsBefore = listsOf('fraud-feed');
    const roleless = await addSource('fraud-feed', 'JSONL', '', null, otherBank);
    await pollNow(roleless, otherBank);
    expect(await waitForSource(roleless, (item) => item.lastPolledAt !== null, otherBank)).toMatchObject({
      status: 'ERROR',
      objectsRead: 0,
      lastErrorKey: 'INTEGRATION_ROLE_NOT_ASSUMED',
    });
    expect(listsOf('fraud-feed')).toBe(fraudListsBefore);
    expect(await searchEvents(ctx, otherBank.user, otherBank.orgId, '"velocity breach"')).toEqual([]);
  });

  it('records the error of a role that may not read the bucket', async () => {
    s3.createBucket('audit-archive');
    s3.putObject('audit-archive', 'a.jsonl', `{"message":"archived"}\n`);
    const sourceId = await addSource('audit-archive', 'JSONL', '', NARROW_ROLE);
    await pollNow(sourceId);
    const source = await waitForSource(sourceId, (item) => item.lastPolledAt !== null);
    expect(source).toMatchObject({ status: 'ERROR', objectsRead: 0, lastErrorKey: null });
    expect(String(source.lastError)).toMatch(/access denied/i);
    expect(await searchEvents(ctx, admin, orgId, 'archived')).toEqual([]);
  });
});
