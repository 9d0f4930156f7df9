import {
  AWS_ACCOUNT_ID_PATTERN,
  AWS_FIRST_FILE_WAIT_MINUTES,
  AZURE_STORAGE_ACCOUNT_PATTERN,
  GUID_PATTERN,
  IAM_ROLE_ARN_PATTERN,
  INTEGRATION_SECRET_FIELDS,
  INTEGRATION_STALE_HOURS,
  S3_BUCKET_PATTERN,
  isWellFormedUrl,
  type Integration,
  type IntegrationCreateInput,
  type IntegrationKind,
  type IntegrationStatus,
  type IntegrationUpdateInput,
  type S3LogObject,
  type S3LogSource,
  type S3LogSourceInput,
  type S3LogsType,
} from '@vigil/contracts';
import type { Db } from '../../db/client';
import { recordActivity } from '../../platform/audit/audit';
import type { SecretBox } from '../../platform/crypto';
import { AppError, conflict, validationFailed } from '../../platform/errors';
import { validateEntraCredentials, type EntraEndpoints } from './entra';
import {
  deleteIntegration,
  deleteLogSource,
  findAwsAccount,
  findIntegration,
  findIntegrationNamed,
  findLogSource,
  findLogSourceByBucket,
  insertIntegration,
  insertLogSource,
  listIntegrations,
  listLogSources,
  updateIntegration,
  updateLogSource,
  type IntegrationRow,
  type S3LogObjectRow,
  type S3LogSourceRow,
} from './repo';

export interface Actor {
  orgId: string;
  userId: string;
  ip?: string;
}

export interface IntegrationDeps {
  db: Db;
  secrets: SecretBox;
  entra: EntraEndpoints;
}

export const integrationNotFound = () =>
  new AppError('NotFoundException', 'INTEGRATION_NOT_FOUND', 'Integration not found');
export const logSourceNotFound = () =>
  new AppError('NotFoundException', 'S3_LOG_SOURCE_NOT_FOUND', 'Log source not found');

const iso = (value: Date | null) => (value ? value.toISOString() : null);
const HOUR_MS = 3_600_000;

/**
 * The status of something that collects data: an error wins; then data within 24 hours is RECEIVING,
 * older data STALE ("last received over 24 hours"); without data an AWS source still within its
 * first-file wait is WAITING_FIRST_FILE, otherwise NO_DATA.
 */
export function collectionStatus(
  item: { lastDataAt: Date | null; lastError: string | null; createdOn: Date },
  now: Date,
  firstFileWait: boolean,
): IntegrationStatus {
  if (item.lastError) return 'ERROR';
  if (item.lastDataAt) {
    return now.getTime() - item.lastDataAt.getTime() > INTEGRATION_STALE_HOURS * HOUR_MS
      ? 'STALE'
      : 'RECEIVING';
  }
  if (firstFileWait && now.getTime() - item.createdOn.getTime() < AWS_FIRST_FILE_WAIT_MINUTES * 60_000) {
    return 'WAITING_FIRST_FILE';
  }
  return 'NO_DATA';
}

function integrationStatus(row: IntegrationRow, now: Date): IntegrationStatus {
  if (row.kind === 'ENTRA_ID' && !row.lastError && row.lastValidatedAt) return 'VALIDATED';
  return collectionStatus(row, now, row.kind === 'AWS');
}

function secretsSet(row: IntegrationRow, secrets: SecretBox): Record<string, boolean> {
  const stored = row.secretsEncrypted ? (JSON.parse(secrets.open(row.secretsEncrypted)) as object) : {};
  return Object.fromEntries(
    INTEGRATION_SECRET_FIELDS[row.kind as IntegrationKind].map((field) => [
      field,
      Object.hasOwn(stored, field),
    ]),
  );
}

export function integrationJson(row: IntegrationRow, secrets: SecretBox, now = new Date()): Integration {
  return {
    id: row.id,
    kind: row.kind as IntegrationKind,
    name: row.name,
    settings: row.settings,
    secretsSet: secretsSet(row, secrets),
    status: integrationStatus(row, now),
    lastDataAt: iso(row.lastDataAt),
    lastError: row.lastError,
    lastValidatedAt: iso(row.lastValidatedAt),
    createdOn: row.createdOn.toISOString(),
    modifiedOn: row.modifiedOn.toISOString(),
  };
}

export function logSourceJson(row: S3LogSourceRow, now = new Date()): S3LogSource {
  return {
    id: row.id,
    integrationId: row.integrationId,
    bucket: row.bucket,
    roleArn: row.roleArn,
    prefix: row.prefix,
    logsType: row.logsType as S3LogsType,
    enabled: row.enabled,
    status: collectionStatus(row, now, true),
    objectsRead: row.objectsRead,
    eventsIngested: row.eventsIngested,
    failedObjects: row.failedObjects,
    lastPolledAt: iso(row.lastPolledAt),
    lastDataAt: iso(row.lastDataAt),
    lastError: row.lastError,
    lastErrorKey: row.lastErrorKey,
    createdOn: row.createdOn.toISOString(),
  };
}

export const logObjectJson = (row: S3LogObjectRow): S3LogObject => ({
  key: row.key,
  etag: row.etag,
  size: row.size,
  events: row.events,
  rejected: row.rejected,
  error: row.error,
  readAt: row.readAt.toISOString(),
});

/** The kind's own rules beyond the schema, each failure with its catalogue key and field. */
function checkSettings(input: IntegrationCreateInput | IntegrationUpdateInput) {
  const url = (field: string, value: string, key: 'INVALID_URI' | 'INVALID_BASE_URL') => {
    if (!isWellFormedUrl(value)) {
      throw validationFailed(key, `${value} is not a well-formed URL`, {
        field: `settings.${field}`,
        params: { value },
      });
    }
  };
  const guid = (field: string, value: string) => {
    if (!GUID_PATTERN.test(value)) {
      throw validationFailed('INVALID_GUID', `${field} is not a GUID`, {
        field: `settings.${field}`,
        params: { field },
      });
    }
  };
  switch (input.kind) {
    case 'AWS':
      if (!AWS_ACCOUNT_ID_PATTERN.test(input.settings.accountId)) {
        throw validationFailed('INVALID_CLOUD_ACCOUNT', 'The account id must be a 12-digit number', {
          field: 'settings.accountId',
        });
      }
      return;
    case 'AZURE':
      guid('subscriptionId', input.settings.subscriptionId);
      if (!AZURE_STORAGE_ACCOUNT_PATTERN.test(input.settings.storageAccount)) {
        throw validationFailed('INVALID_STORAGE_ACCOUNT', 'Invalid storage account name', {
          field: 'settings.storageAccount',
        });
      }
      return;
    case 'CRM':
      return url('instanceUrl', input.settings.instanceUrl, 'INVALID_BASE_URL');
    case 'APITURE':
      return url('url', input.settings.url, 'INVALID_URI');
    case 'FINXACT':
      return url('url', input.settings.url, 'INVALID_BASE_URL');
    case 'ENTRA_ID':
      guid('applicationId', input.settings.applicationId);
      guid('secretId', input.settings.secretId);
      return;
  }
}

async function checkUnique(db: Db, orgId: string, input: IntegrationCreateInput, exceptId?: string) {
  if (await findIntegrationNamed(db, orgId, input.kind, input.name, exceptId)) {
    throw conflict('INTEGRATION_NAME_TAKEN', 'An integration of this kind has this name', {
      field: 'name',
      params: { name: input.name },
    });
  }
  if (input.kind === 'AWS' && (await findAwsAccount(db, orgId, input.settings.accountId, exceptId))) {
    throw conflict('CLOUD_INTEGRATION_EXISTS', 'A cloud integration for this account exists', {
      field: 'settings.accountId',
      params: { accountId: input.settings.accountId },
    });
  }
}

const secretsOf = (
  input: IntegrationCreateInput | IntegrationUpdateInput,
): Record<string, string | null | undefined> => ('secrets' in input ? input.secrets : {});

/** What the audit log keeps: never a secret. */
const snapshot = (row: IntegrationRow) => ({ kind: row.kind, name: row.name, settings: row.settings });

/**
 * Entra ID credentials are checked before they are stored: the token request (login validation) and a
 * Graph call (graph validation).
 */
async function validateIfEntra(
  deps: IntegrationDeps,
  input: IntegrationCreateInput,
  secretValue: string | undefined,
): Promise<Date | null> {
  if (input.kind !== 'ENTRA_ID' || secretValue === undefined) return null;
  await validateEntraCredentials(deps.entra, {
    tenantId: input.settings.tenantId,
    applicationId: input.settings.applicationId,
    secretValue,
  });
  return new Date();
}

export async function createIntegration(
  deps: IntegrationDeps,
  actor: Actor,
  input: IntegrationCreateInput,
): Promise<Integration> {
  const { db, secrets } = deps;
  checkSettings(input);
  await checkUnique(db, actor.orgId, input);
  const given = secretsOf(input) as Record<string, string>;
  const validatedAt = await validateIfEntra(deps, input, given.secretValue);
  return db.transaction(async (tx) => {
    const row = await insertIntegration(tx, actor.orgId, {
      kind: input.kind,
      name: input.name,
      settings: input.settings,
      secretsEncrypted: Object.keys(given).length > 0 ? secrets.seal(JSON.stringify(given)) : null,
      lastValidatedAt: validatedAt,
    });
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.created',
      targetType: 'integration',
      targetId: row.id,
      details: { after: snapshot(row) },
      ip: actor.ip,
    });
    return integrationJson(row, secrets);
  });
}

export async function updateIntegrationOf(
  deps: IntegrationDeps,
  actor: Actor,
  id: string,
  input: IntegrationUpdateInput,
): Promise<Integration> {
  const { db, secrets } = deps;
  const existing = await findIntegration(db, actor.orgId, id);
  if (!existing) throw integrationNotFound();
  if (existing.kind !== input.kind) {
    throw validationFailed('GENERIC_INVALID_FIELD_VALUE', 'The kind of an integration cannot change', {
      field: 'kind',
      params: { field: 'kind', value: input.kind },
    });
  }
  checkSettings(input);
  await checkUnique(db, actor.orgId, input as IntegrationCreateInput, id);
  const stored = existing.secretsEncrypted
    ? (JSON.parse(secrets.open(existing.secretsEncrypted)) as Record<string, string>)
    : {};
  const replaced = Object.fromEntries(
    Object.entries(secretsOf(input)).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
  const merged = { ...stored, ...replaced };
  // Changed Entra ID settings or secret are validated again, with the stored secret when none is given.
  const entraChanged =
    input.kind === 'ENTRA_ID' &&
    (Object.keys(replaced).length > 0 ||
      JSON.stringify(existing.settings) !== JSON.stringify(input.settings));
  const validatedAt = entraChanged
    ? await validateIfEntra(deps, input as IntegrationCreateInput, merged.secretValue)
    : existing.lastValidatedAt;
  return db.transaction(async (tx) => {
    const row = (await updateIntegration(tx, actor.orgId, id, {
      name: input.name,
      settings: input.settings,
      secretsEncrypted: Object.keys(merged).length > 0 ? secrets.seal(JSON.stringify(merged)) : null,
      lastValidatedAt: validatedAt,
      ...(entraChanged && { lastError: null }),
      modifiedOn: new Date(),
    }))!;
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.updated',
      targetType: 'integration',
      targetId: row.id,
      details: {
        before: snapshot(existing),
        after: snapshot(row),
        ...(Object.keys(replaced).length > 0 && { secretsReplaced: Object.keys(replaced) }),
      },
      ip: actor.ip,
    });
    return integrationJson(row, secrets);
  });
}

/** Deletes an integration with its log sources and their read-object records. */
export async function deleteIntegrationOf(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteIntegration(tx, actor.orgId, id);
    if (!row) throw integrationNotFound();
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.deleted',
      targetType: 'integration',
      targetId: row.id,
      details: { before: snapshot(row) },
      ip: actor.ip,
    });
  });
}

/**
 * Validates a stored Entra ID integration again: the status becomes VALIDATED, or ERROR with the
 * failure's message, and the failure is answered.
 */
export async function revalidateEntra(deps: IntegrationDeps, actor: Actor, id: string): Promise<Integration> {
  const { db, secrets } = deps;
  const row = await findIntegration(db, actor.orgId, id);
  if (!row || row.kind !== 'ENTRA_ID') throw integrationNotFound();
  const stored = row.secretsEncrypted
    ? (JSON.parse(secrets.open(row.secretsEncrypted)) as Record<string, string>)
    : {};
  const settings = row.settings as { tenantId: string; applicationId: string };
  try {
    await validateEntraCredentials(deps.entra, { ...settings, secretValue: stored.secretValue ?? '' });
  } catch (error) {
    await updateIntegration(db, actor.orgId, id, { lastError: (error as Error).message });
    throw error;
  }
  const updated = (await updateIntegration(db, actor.orgId, id, {
    lastError: null,
    lastValidatedAt: new Date(),
  }))!;
  return integrationJson(updated, secrets);
}

export async function listIntegrationsOf(
  deps: IntegrationDeps,
  orgId: string,
  kind?: IntegrationKind,
): Promise<Integration[]> {
  const now = new Date();
  return (await listIntegrations(deps.db, orgId, kind)).map((row) => integrationJson(row, deps.secrets, now));
}

export async function getIntegration(deps: IntegrationDeps, orgId: string, id: string): Promise<Integration> {
  const row = await findIntegration(deps.db, orgId, id);
  if (!row) throw integrationNotFound();
  return integrationJson(row, deps.secrets);
}

// --- S3 log sources -------------------------------------------------------------------------

async function awsAccountOf(db: Db, orgId: string, id: string): Promise<IntegrationRow> {
  const row = await findIntegration(db, orgId, id);
  if (!row || row.kind !== 'AWS') throw integrationNotFound();
  return row;
}

async function checkLogSource(db: Db, orgId: string, input: S3LogSourceInput, exceptId?: string) {
  if (!S3_BUCKET_PATTERN.test(input.bucket)) {
    throw validationFailed('GENERIC_INVALID_FIELD_VALUE', 'Invalid bucket name', {
      field: 'bucket',
      params: { field: 'bucket', value: input.bucket },
    });
  }
  if (input.roleArn && !IAM_ROLE_ARN_PATTERN.test(input.roleArn)) {
    throw validationFailed('INVALID_CLOUD_ROLE', 'The role must be a full role ARN', { field: 'roleArn' });
  }
  if (await findLogSourceByBucket(db, orgId, input.bucket, exceptId)) {
    throw conflict('S3_BUCKET_IN_USE', 'The bucket is already used by a log source', {
      field: 'bucket',
      params: { bucket: input.bucket },
    });
  }
}

const sourceSnapshot = (row: S3LogSourceRow) => ({
  bucket: row.bucket,
  roleArn: row.roleArn,
  prefix: row.prefix,
  logsType: row.logsType,
  enabled: row.enabled,
});

export async function listLogSourcesOf(db: Db, orgId: string, integrationId: string): Promise<S3LogSource[]> {
  await awsAccountOf(db, orgId, integrationId);
  const now = new Date();
  return (await listLogSources(db, orgId, [integrationId])).map((row) => logSourceJson(row, now));
}

export async function createLogSource(
  db: Db,
  actor: Actor,
  integrationId: string,
  input: S3LogSourceInput,
): Promise<S3LogSource> {
  await awsAccountOf(db, actor.orgId, integrationId);
  await checkLogSource(db, actor.orgId, input);
  return db.transaction(async (tx) => {
    const row = await insertLogSource(tx, actor.orgId, {
      integrationId,
      bucket: input.bucket,
      roleArn: input.roleArn || null,
      prefix: input.prefix ?? '',
      logsType: input.logsType,
      enabled: input.enabled ?? true,
    });
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.log-source.created',
      targetType: 'integration',
      targetId: integrationId,
      details: { after: sourceSnapshot(row) },
      ip: actor.ip,
    });
    return logSourceJson(row);
  });
}

export async function updateLogSourceOf(
  db: Db,
  actor: Actor,
  id: string,
  input: S3LogSourceInput,
): Promise<S3LogSource> {
  const existing = await findLogSource(db, actor.orgId, id);
  if (!existing) throw logSourceNotFound();
  await checkLogSource(db, actor.orgId, input, id);
  return db.transaction(async (tx) => {
    const row = (await updateLogSource(tx, actor.orgId, id, {
      bucket: input.bucket,
      roleArn: input.roleArn || null,
      prefix: input.prefix ?? '',
      logsType: input.logsType,
      enabled: input.enabled ?? true,
      // A re-enabled or re-pointed source starts without the last failure.
      lastError: null,
      lastErrorKey: null,
    }))!;
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.log-source.updated',
      targetType: 'integration',
      targetId: row.integrationId,
      details: { before: sourceSnapshot(existing), after: sourceSnapshot(row) },
      ip: actor.ip,
    });
    return logSourceJson(row);
  });
}

export async function deleteLogSourceOf(db: Db, actor: Actor, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const row = await deleteLogSource(tx, actor.orgId, id);
    if (!row) throw logSourceNotFound();
    await recordActivity(tx, {
      orgId: actor.orgId,
      actorUserId: actor.userId,
      action: 'integration.log-source.deleted',
      targetType: 'integration',
      targetId: row.integrationId,
      details: { before: sourceSnapshot(row) },
      ip: actor.ip,
    });
  });
}
