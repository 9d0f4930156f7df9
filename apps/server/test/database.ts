import { randomBytes } from 'node:crypto';
import { openAsBlob } from 'node:fs';
import { inject } from 'vitest';
import { openDatabase, type Database } from '../src/db/client';
import { adminQuery } from './global-setup';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (VIGIL_TEST_DB=postgres) a new
 * database on the TEST_DATABASE_URL server, dropped again on close. Both start as a copy of the
 * database test/global-setup.ts migrated once for the run.
 */
export async function createTestDatabase(): Promise<Database> {
  if (process.env.VIGIL_TEST_DB !== 'postgres') {
    return openDatabase({ loadDataDir: await openAsBlob(inject('pgliteTemplate')) });
  }

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('VIGIL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `vigil_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(serverUrl, `CREATE DATABASE ${name} TEMPLATE ${inject('postgresTemplate')}`);

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      await adminQuery(serverUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    },
  };
}
