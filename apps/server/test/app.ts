import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buildApp, type App, type AppDeps } from '../src/app';
import type { Database } from '../src/db/client';
import { createSecretBox, type SecretBox } from '../src/platform/crypto';
import { JobRunner } from '../src/platform/jobs';
import { createTestDatabase } from './database';

export interface TestContext {
  app: App;
  database: Database;
  jobs: JobRunner;
  secrets: SecretBox;
  dataDir: string;
  close(): Promise<void>;
}

export interface TestAppOptions {
  config?: Partial<AppDeps['config']>;
  /** Start the job runner (e-mail is sent through it). */
  startJobs?: boolean;
  /** Ingest API limits (batch bytes, rate limit). */
  ingest?: AppDeps['ingest'];
}

/** The real app on a fresh database, without the web bundle, logging nothing. */
export async function createTestApp(
  configure?: (app: App) => void | Promise<void>,
  options: TestAppOptions = {},
): Promise<TestContext> {
  const database = await createTestDatabase();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-app-'));
  const jobs = new JobRunner(database, { pollingIntervalSeconds: 0.5 });
  const secrets = createSecretBox(randomBytes(32));
  const cleanUp = async () => {
    await jobs.stop();
    await database.close();
    await rm(dataDir, { recursive: true, force: true });
  };
  const app = await buildApp({
    config: { LOG_LEVEL: 'error', NODE_ENV: 'test', DATA_DIR: dataDir, ...options.config },
    database,
    jobs,
    secrets,
    webDist: '/nonexistent',
    logger: false,
    ingest: options.ingest,
  });
  try {
    await configure?.(app);
    await app.ready();
    if (options.startJobs) await jobs.start();
  } catch (error) {
    await app.close();
    await cleanUp();
    throw error;
  }
  return {
    app,
    database,
    jobs,
    secrets,
    dataDir,
    async close() {
      await app.close();
      await cleanUp();
    },
  };
}

/** Headers a browser page of the app sends with a state-changing call. */
export const browserHeaders = (cookie?: string) => ({
  'x-requested-with': 'XMLHttpRequest',
  ...(cookie && { cookie }),
});

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A call to an organisation's API (`/api/org/:orgId` + `path`) as a signed-in browser page. */
export const orgRequest = (
  ctx: TestContext,
  orgId: string,
  method: HttpMethod,
  path: string,
  user: { cookie: string },
  payload?: object,
) =>
  ctx.app.inject({
    method,
    url: `/api/org/${orgId}${path}`,
    headers: browserHeaders(user.cookie),
    ...(payload && { payload }),
  });

const MULTIPART_BOUNDARY = '----vigil-test-boundary-7Hq2xZ';

/** A multipart/form-data upload of files (each a `file` part) to an organisation's API. */
export const orgUpload = (
  ctx: TestContext,
  orgId: string,
  path: string,
  user: { cookie: string },
  files: { filename: string; content: string | Buffer; contentType?: string }[],
) => {
  async function* body() {
    for (const file of files) {
      yield Buffer.from(
        `--${MULTIPART_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${file.filename}"\r\n` +
          `Content-Type: ${file.contentType ?? 'application/octet-stream'}\r\n\r\n`,
      );
      yield Buffer.from(file.content);
      yield Buffer.from('\r\n');
    }
    yield Buffer.from(`--${MULTIPART_BOUNDARY}--\r\n`);
  }
  return ctx.app.inject({
    method: 'POST',
    url: `/api/org/${orgId}${path}`,
    headers: {
      ...browserHeaders(user.cookie),
      'content-type': `multipart/form-data; boundary=${MULTIPART_BOUNDARY}`,
    },
    payload: Readable.from(body()),
  });
};
