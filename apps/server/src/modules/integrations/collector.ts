import { GetObjectCommand, ListObjectsV2Command, S3Client, type _Object } from '@aws-sdk/client-s3';
import { AssumeRoleCommand, STSClient } from '@aws-sdk/client-sts';
import type { S3LogsType } from '@vigil/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '../../db/client';
import type { JobRunner } from '../../platform/jobs';
import { ingestEventRows } from '../events/pipeline';
import { EventInputError, eventRow, INSERT_BATCH_SIZE, type NewEventRow } from '../events/store';
import { parseLogObject } from './log-parsers';
import {
  claimLogSource,
  finishLogSourcePoll,
  insertLogObject,
  listEnabledLogSourcesOfAllOrgs,
  readObjectKeys,
  type S3LogSourceRow,
} from './repo';

export const S3_POLL_JOB = 'integrations.s3-poll';
/** Objects one poll of a source reads at most; the rest wait for the next poll. */
export const S3_OBJECTS_PER_POLL = 200;
/** Larger objects are recorded as failed rather than read into memory. */
export const S3_OBJECT_MAX_BYTES = 64 * 1024 * 1024;
/** How long a poll may hold its source before another may take it. */
const POLL_HOLD_MS = 10 * 60_000;

export interface S3Settings {
  /** An S3-compatible endpoint instead of AWS (a local server, MinIO ...). */
  endpoint?: string;
  /** An STS-compatible endpoint instead of AWS's. */
  stsEndpoint?: string;
  region: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
}

/**
 * How the collector reaches S3: the server's own credentials (from the settings, else the SDK's
 * default chain) only call STS; buckets are read with the credentials of the source's assumed role.
 */
export interface S3Access {
  settings: S3Settings;
  sts: STSClient;
}

/** Temporary role credentials last this long (STS's minimum); a poll holds its source for less. */
const ROLE_SESSION_SECONDS = 900;

export function createS3Access(settings: S3Settings): S3Access {
  const sts = new STSClient({
    region: settings.region,
    ...(settings.stsEndpoint && { endpoint: settings.stsEndpoint }),
    ...(settings.accessKeyId &&
      settings.secretAccessKey && {
        credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
      }),
  });
  return { settings, sts };
}

/** The external id a customer's role trust policy must require: unique to the organisation. */
export const roleExternalId = (orgId: string) => orgId;

/** Why a source's role could not be assumed; recorded on the source with its catalogue key. */
class RoleNotAssumedError extends Error {
  readonly key = 'INTEGRATION_ROLE_NOT_ASSUMED';
}

/**
 * An S3 client holding the temporary credentials of the source's role, assumed with the
 * organisation's external id, so that a source reads only buckets its organisation's role may read.
 */
async function sourceClient(access: S3Access, source: S3LogSourceRow): Promise<S3Client> {
  if (!source.roleArn) throw new RoleNotAssumedError('The log source has no access role to assume');
  let credentials;
  try {
    ({ Credentials: credentials } = await access.sts.send(
      new AssumeRoleCommand({
        RoleArn: source.roleArn,
        ExternalId: roleExternalId(source.orgId),
        RoleSessionName: `vigil-log-source-${source.id}`,
        DurationSeconds: ROLE_SESSION_SECONDS,
      }),
    ));
  } catch (failure) {
    throw new RoleNotAssumedError(
      `The role ${source.roleArn} could not be assumed: ${(failure as Error).message || (failure as Error).name}`,
    );
  }
  if (!credentials?.AccessKeyId || !credentials.SecretAccessKey) {
    throw new RoleNotAssumedError(`The role ${source.roleArn} could not be assumed: no credentials`);
  }
  const { settings } = access;
  return new S3Client({
    region: settings.region,
    ...(settings.endpoint && { endpoint: settings.endpoint }),
    forcePathStyle: settings.forcePathStyle,
    credentials: {
      accessKeyId: credentials.AccessKeyId,
      secretAccessKey: credentials.SecretAccessKey,
      sessionToken: credentials.SessionToken,
    },
  });
}

/** The objects under the source's prefix it has not read yet (by key and ETag), oldest first. */
async function newObjects(db: Db, s3: S3Client, source: S3LogSourceRow): Promise<_Object[]> {
  const found: _Object[] = [];
  let token: string | undefined;
  do {
    const page = await s3.send(
      new ListObjectsV2Command({
        Bucket: source.bucket,
        Prefix: source.prefix || undefined,
        ContinuationToken: token,
      }),
    );
    const objects = (page.Contents ?? []).filter((object) => object.Key && !object.Key.endsWith('/'));
    const read = await readObjectKeys(
      db,
      source.orgId,
      source.id,
      objects.map((object) => object.Key!),
    );
    found.push(...objects.filter((object) => !read.has(`${object.Key}\n${object.ETag ?? ''}`)));
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token && found.length < S3_OBJECTS_PER_POLL);
  return found
    .sort((a, b) => (a.LastModified?.getTime() ?? 0) - (b.LastModified?.getTime() ?? 0))
    .slice(0, S3_OBJECTS_PER_POLL);
}

/** Reads one object into events and ingests them; answers the counts. */
async function readObject(
  db: Db,
  s3: S3Client,
  source: S3LogSourceRow,
  object: _Object,
  log?: FastifyBaseLogger,
): Promise<{ events: number; rejected: number }> {
  if ((object.Size ?? 0) > S3_OBJECT_MAX_BYTES) {
    throw new Error(`The object is larger than ${S3_OBJECT_MAX_BYTES} bytes`);
  }
  const answer = await s3.send(new GetObjectCommand({ Bucket: source.bucket, Key: object.Key! }));
  const body = Buffer.from(await answer.Body!.transformToByteArray());
  const parsed = parseLogObject(body, source.logsType as S3LogsType);
  const receivedAt = new Date();
  const rows: NewEventRow[] = [];
  let rejected = parsed.rejected;
  parsed.events.forEach((input, index) => {
    try {
      rows.push(
        eventRow(
          source.orgId,
          { ...input, fields: { ...input.fields, s3: { bucket: source.bucket, key: object.Key } } },
          receivedAt,
          index,
        ),
      );
    } catch (error) {
      if (!(error instanceof EventInputError)) throw error;
      rejected++;
    }
  });
  for (let start = 0; start < rows.length; start += INSERT_BATCH_SIZE) {
    await ingestEventRows(db, source.orgId, rows.slice(start, start + INSERT_BATCH_SIZE), log);
  }
  return { events: rows.length, rejected };
}

/**
 * One poll of a log source: lists the objects it has not read, reads each once (remembered by key and
 * ETag, with its event count or why it failed) and records progress and the last error on the source.
 * Answers null when another poll holds the source or it is disabled.
 */
export async function pollLogSource(
  db: Db,
  access: S3Access,
  orgId: string,
  sourceId: string,
  log?: FastifyBaseLogger,
  now = new Date(),
): Promise<{ objects: number; events: number; failed: number } | null> {
  const source = await claimLogSource(db, orgId, sourceId, now, new Date(now.getTime() + POLL_HOLD_MS));
  if (!source) return null;
  const outcome = {
    polledAt: now,
    objects: 0,
    failed: 0,
    events: 0,
    dataAt: null as Date | null,
    error: null as string | null,
    errorKey: null as string | null,
  };
  let s3: S3Client | undefined;
  try {
    s3 = await sourceClient(access, source);
    for (const object of await newObjects(db, s3, source)) {
      let counts = { events: 0, rejected: 0 };
      let error: string | null = null;
      try {
        counts = await readObject(db, s3, source, object, log);
      } catch (failure) {
        error = (failure as Error).message || String(failure);
        log?.warn({ err: failure, sourceId, key: object.Key }, 'S3 log object failed');
      }
      await insertLogObject(db, orgId, {
        sourceId,
        key: object.Key!,
        etag: object.ETag ?? '',
        size: object.Size ?? 0,
        events: counts.events,
        rejected: counts.rejected,
        error,
      });
      outcome.objects++;
      outcome.events += counts.events;
      if (error) {
        outcome.failed++;
        outcome.error = `${object.Key}: ${error}`;
      } else if (counts.events > 0) outcome.dataAt = new Date();
    }
  } catch (failure) {
    // The role was not assumed, or listing failed: no access to the bucket, no such bucket,
    // endpoint unreachable.
    outcome.error = (failure as Error).message || (failure as Error).name;
    if (failure instanceof RoleNotAssumedError) outcome.errorKey = failure.key;
    log?.warn({ err: failure, sourceId }, 'S3 log source poll failed');
  } finally {
    s3?.destroy();
  }
  await finishLogSourcePoll(db, orgId, sourceId, outcome);
  return outcome;
}

/** Polls every enabled log source of every organisation, one after another. */
export async function pollAllLogSources(db: Db, access: S3Access, log?: FastifyBaseLogger): Promise<void> {
  for (const source of await listEnabledLogSourcesOfAllOrgs(db)) {
    await pollLogSource(db, access, source.orgId, source.id, log);
  }
}

/**
 * The `integrations.s3-poll` job: every minute it polls every enabled source; sent with a source
 * (the "poll now" call) it polls that one.
 */
export function defineIntegrationJobs(jobs: JobRunner, db: Db, access: S3Access) {
  jobs.define<{ orgId?: string; sourceId?: string }>({
    name: S3_POLL_JOB,
    cron: '* * * * *',
    retry: { retryLimit: 0 },
    expireInSeconds: 900,
    handler: async (data) => {
      if (data.orgId && data.sourceId)
        await pollLogSource(db, access, data.orgId, data.sourceId, jobs.logger);
      else await pollAllLogSources(db, access, jobs.logger);
    },
  });
}
