import type { Db } from '../db/client';
import { insertIntegration, insertLogSource } from '../modules/integrations/repo';

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
