import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';

declare module 'vitest' {
  export interface ProvidedContext {
    /** File holding a migrated PGlite database (`dumpDataDir`), which each test database copies. */
    pgliteTemplate: string;
    /** Migrated database on the TEST_DATABASE_URL server that each test database is created from. */
    postgresTemplate: string;
  }
}

/**
 * Migrates one database per run; every test database starts as a copy of it instead of running
 * every migration again (see test/database.ts).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.config.env.VIGIL_TEST_DB === 'postgres') {
    const serverUrl = process.env.TEST_DATABASE_URL;
    if (!serverUrl) throw new Error('VIGIL_TEST_DB=postgres needs TEST_DATABASE_URL');
    const name = `vigil_template_${process.pid}_${randomBytes(4).toString('hex')}`;
    await adminQuery(serverUrl, `CREATE DATABASE ${name}`);
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const database = await openDatabase({ databaseUrl: url.toString() });
    await database.close();
    project.provide('postgresTemplate', name);
    return () => adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  }

  const folder = await mkdtemp(path.join(tmpdir(), 'vigil-test-template-'));
  const file = path.join(folder, 'pglite.tar');
  const database = await openDatabase({});
  await writeFile(file, Buffer.from(await (await database.pglite!.dumpDataDir('none')).arrayBuffer()));
  await database.close();
  project.provide('pgliteTemplate', file);
  return () => rm(folder, { recursive: true, force: true });
}

/** Runs one statement on the TEST_DATABASE_URL server (creating and dropping databases). */
export async function adminQuery(serverUrl: string, sql: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(sql);
  } finally {
    await admin.end();
  }
}
