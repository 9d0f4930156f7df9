import type { Db } from '../db/client';
import type { SecretBox } from '../platform/crypto';
import { insertAction, insertActionIntegration } from '../modules/integrations/action-repo';
import { insertIntegration, insertLogSource } from '../modules/integrations/repo';
import { insertTrigger } from '../modules/triggers/repo';
import { insertLargeWiresQuery } from './triggers';

export const DEMO_LOG_BUCKET = 'harbor-cloudtrail-logs';

/**
 * First Harbor's AWS production account with a CloudTrail log source, and its Office 365 account. The
 * log source is collected only when an S3 endpoint is configured (a local demo bucket); otherwise it
 * stays disabled, so that a demo never reaches out to AWS.
 */
export async function seedIntegrationsDemo(db: Db, harborOrgId: string, options: { collect: boolean }) {
  const account = await insertIntegration(db, harborOrgId, {
    kind: 'AWS',
    name: 'Harbor production',
    settings: { accountId: '402917365518', integrationType: 'CLOUDTRAIL' },
  });
  await insertLogSource(db, harborOrgId, {
    integrationId: account.id,
    bucket: DEMO_LOG_BUCKET,
    roleArn: 'arn:aws:iam::402917365518:role/vigil-log-reader',
    prefix: 'AWSLogs/402917365518/CloudTrail/',
    logsType: 'CLOUDTRAIL',
    enabled: options.collect,
  });
  await insertIntegration(db, harborOrgId, {
    kind: 'AZURE',
    name: 'Harbor Office 365',
    settings: {
      subscriptionId: '3f2b8c1d-7a64-4e0b-9d35-c1e8f4a7b260',
      resourceGroup: 'harbor-security',
      storageAccount: 'harboraudit01',
      alertOnNoData: true,
      noDataThresholdHours: 24,
      deletionEnabled: false,
    },
  });
}

/**
 * Prairie Credit Union's automated intervention: a Symxchange action integration, an action adding
 * warning code 104 to the account of a transfer, and a fraud trigger on large wires that runs it for
 * each alert. The platform's address is a reserved example name, so in a demo each run is recorded as
 * FAILED with the connection error rather than reaching a real bank.
 */
export async function seedActionsDemo(db: Db, secrets: SecretBox, prairieOrgId: string, createdBy: string) {
  await insertActionIntegration(db, prairieOrgId, {
    provider: 'SYMXCHANGE',
    apiBaseUrl: 'https://symxchange.prairiecu.example/api',
    authBaseUrl: 'https://symxchange.prairiecu.example',
    clientId: 'vigil-prairie',
    clientSecretEncrypted: secrets.seal('demo-symxchange-secret'),
  });
  const hold = await insertAction(db, prairieOrgId, {
    name: 'Fraud hold warning code',
    type: 'ADD_WARNING_CODE',
    provider: 'SYMXCHANGE',
    fields: ['fields.accountId'],
    multipleValues: 'SEND_ALL',
    warningCode: 104,
  });
  const wires = await insertLargeWiresQuery(db, prairieOrgId, createdBy);
  const now = Date.now();
  await insertTrigger(db, {
    orgId: prairieOrgId,
    domain: 'fraud',
    name: 'Large wire: hold the account',
    description: 'Every outgoing wire above 100,000 puts a fraud-hold warning code on its account.',
    type: 'EVERY_EVENT',
    savedQueryId: wires.id,
    intervalSeconds: 300,
    severity: 'HIGH',
    labels: ['payments'],
    actionIds: [hold.id],
    createdBy,
    nextRunAt: new Date(now + 5 * 60_000),
    lastWindowEnd: new Date(now),
  });
}
