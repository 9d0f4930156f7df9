import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { openDatabase, type Database } from '../src/db/client';
import { orgs } from '../src/modules/orgs/tables';
import { users } from '../src/modules/users/tables';
import { createTestDatabase } from './database';
import { freePort, spawnServer, waitForHealth } from './server-process';

const onServer = process.env.VIGIL_TEST_DB === 'postgres';
let dataDir: string;
let serverDatabase: Database | undefined;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'vigil-process-'));
  if (onServer) serverDatabase = await createTestDatabase();
});
afterAll(async () => {
  await serverDatabase?.close();
  await rm(dataDir, { recursive: true, force: true });
});

const databaseEnv = (): Record<string, string> =>
  onServer ? { DATABASE_URL: serverDatabase!.connectionString!, DATA_DIR: dataDir } : { DATA_DIR: dataDir };

/** Reads what the stopped server left behind, as a restart would. */
async function countRows() {
  const database = onServer ? serverDatabase! : await openDatabase({ dataDir });
  try {
    return {
      orgs: (await database.db.select().from(orgs)).length,
      users: (await database.db.select().from(users)).length,
    };
  } finally {
    if (!onServer) await database.close();
  }
}

describe('the server process', () => {
  it('stops at start-up with a message naming a malformed variable', async () => {
    const server = spawnServer({ ...databaseEnv(), DEMO_DATA: 'perhaps', PORT: 'eighty' }, 0);
    expect(await server.exited).toBe(78);
    expect(server.output()).toContain('DEMO_DATA');
    expect(server.output()).toContain('PORT');
  });

  it('starts, prints the sign-in details, stops cleanly on SIGTERM and keeps its data for the next start', async () => {
    const port = await freePort();
    const first = spawnServer({ ...databaseEnv(), DEMO_PASSWORD: 'demo-password-1' }, port);
    expect(await waitForHealth(first)).toMatchObject({
      status: 'ok',
      database: onServer ? 'postgres' : 'pglite',
    });
    const page = await fetch(`${first.url}/api/org/not-an-org/user/permissions`);
    expect(page.status).toBe(401);
    // The banner follows the start of the job runner, just after the port opens.
    await vi.waitFor(() => expect(first.output()).toMatch(/Administrator: admin@vigil\.example/), {
      timeout: 60_000,
    });
    expect(first.output()).toMatch(/Administrator password \(shown once\): \S{16}/);
    expect(first.output()).not.toContain('demo-password-1');
    expect(await first.stop('SIGTERM')).toBe(0);

    const afterFirst = await countRows();
    expect(afterFirst.orgs).toBeGreaterThanOrEqual(3);

    const second = spawnServer({ ...databaseEnv(), DEMO_PASSWORD: 'demo-password-1' }, port);
    await waitForHealth(second);
    await vi.waitFor(() => expect(second.output()).toContain('Vigil is running'), { timeout: 60_000 });
    expect(second.output()).not.toContain('shown once');
    expect(await second.stop('SIGINT')).toBe(0);
    expect(await countRows()).toEqual(afterFirst);
  }, 180_000); // two full starts of the server, each writing the demo data on first start
});
