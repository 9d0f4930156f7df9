import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type Database } from '../src/db/client';

/**
 * A fresh, migrated database for one test file: in-memory PGlite, or (VIGIL_TEST_DB=postgres) a new
 * database on the TEST_DATABASE_URL server, dropped again on close.
 */
export async function createTestDatabase(): Promise<Database> {
  if (process.env.VIGIL_TEST_DB !== 'postgres') return openDatabase({});

  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('VIGIL_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `vigil_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();

  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const database = await openDatabase({ databaseUrl: url.toString() });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
