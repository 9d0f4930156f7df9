import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../test/database';
import { seedOrg, seedUser } from '../../test/fixtures';
import { startLocalS3Server, type LocalS3Server } from '../../test/s3-server';
import type { Database } from '../db/client';
import { createS3Access, pollAllLogSources } from '../modules/integrations/collector';
import { listIntegrations, listLogSources } from '../modules/integrations/repo';
import { randomBytes } from 'node:crypto';
import { createSecretBox } from '../platform/crypto';
import { listActionIntegrations, listActions } from '../modules/integrations/action-repo';
import { triggers as triggerTable } from '../modules/triggers/tables';
import { DEMO_LOG_BUCKET, seedActionsDemo, seedIntegrationsDemo } from './integrations';

let database: Database;
let s3: LocalS3Server;
beforeAll(async () => {
  database = await createTestDatabase();
  s3 = await startLocalS3Server();
});
afterAll(async () => {
  await database.close();
  await s3.close();
});

describe('demo integrations', () => {
  it('give First Harbor an AWS account whose CloudTrail source is left alone without an S3 endpoint', async () => {
    const orgId = (await seedOrg(database.db)).id;
    await seedIntegrationsDemo(database.db, orgId, { collect: false });
    const integrations = await listIntegrations(database.db, orgId);
    expect(integrations.map((row) => [row.kind, row.name])).toEqual([
      ['AWS', 'Harbor production'],
      ['AZURE', 'Harbor Office 365'],
    ]);
    const [source] = await listLogSources(database.db, orgId);
    expect(source).toMatchObject({ bucket: DEMO_LOG_BUCKET, logsType: 'CLOUDTRAIL', enabled: false });
    const access = createS3Access({
      endpoint: s3.endpoint,
      stsEndpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
    });
    await pollAllLogSources(database.db, access);
    expect(s3.requests).toEqual([]);
    access.sts.destroy();
  });

  it('collect the demo bucket when an S3 endpoint is configured', async () => {
    const orgId = (await seedOrg(database.db)).id;
    await seedIntegrationsDemo(database.db, orgId, { collect: true });
    const [source] = await listLogSources(database.db, orgId);
    expect(source).toMatchObject({ enabled: true });
  });

  it('give Prairie a Symxchange action integration and a fraud trigger that runs its action', async () => {
    const orgId = (await seedOrg(database.db)).id;
    const secrets = createSecretBox(randomBytes(32));
    await seedActionsDemo(
      database.db,
      secrets,
      orgId,
      (await seedUser(database.db, { homeOrgId: orgId, permissions: [] })).id,
    );
    const [integration] = await listActionIntegrations(database.db, orgId);
    expect(integration).toMatchObject({ provider: 'SYMXCHANGE', clientId: 'vigil-prairie' });
    expect(secrets.open(integration!.clientSecretEncrypted)).toBe('demo-symxchange-secret');
    const [action] = await listActions(database.db, orgId);
    expect(action).toMatchObject({
      type: 'ADD_WARNING_CODE',
      fields: ['fields.accountId'],
      warningCode: 104,
    });
    const triggers = await database.db.select().from(triggerTable).where(eq(triggerTable.orgId, orgId));
    expect(triggers.map((row) => [row.domain, row.name, row.actionIds])).toEqual([
      ['fraud', 'Large wire: hold the account', [action!.id]],
    ]);
  });
});
