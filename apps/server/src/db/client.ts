import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import * as schema from './schema';

export type Schema = typeof schema;
/** The drizzle handle every repository receives; the same type over PGlite and PostgreSQL. */
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface Database {
  db: Db;
  kind: DatabaseKind;
  /** Set for the embedded database; the job runner shares it. */
  pglite?: PGlite;
  /** Set for a PostgreSQL server. */
  connectionString?: string;
  close(): Promise<void>;
}

const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseOptions {
  /** A PostgreSQL server; without it the embedded database is used. */
  databaseUrl?: string;
  /** Folder of the embedded database; without it the embedded database lives in memory. */
  dataDir?: string;
  /**
   * Told of a pooled connection that failed while idle (the server restarted, an administrator ended
   * it); the pool replaces it. Without a listener such an error would end the process.
   */
  onConnectionError?: (error: Error) => void;
  /**
   * Starts the embedded database from a copy of another one's folder (PGlite `dumpDataDir`) instead
   * of an empty one; the tests copy one migrated database rather than migrating a new one per file.
   */
  loadDataDir?: Blob;
}

/** Key of the advisory lock that keeps two starting servers from migrating at once. */
const MIGRATION_LOCK_KEY = 742_001;

async function migrateWithLock(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migratePg(drizzlePg({ client, casing: 'snake_case' }), { migrationsFolder });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}

/** Opens the database and applies every pending migration. */
export async function openDatabase(options: DatabaseOptions): Promise<Database> {
  if (options.databaseUrl) {
    const pool = new pg.Pool({ connectionString: options.databaseUrl, max: 10 });
    pool.on('error', (error) => options.onConnectionError?.(error));
    try {
      await migrateWithLock(pool);
    } catch (error) {
      await pool.end();
      throw error;
    }
    const db = drizzlePg({ client: pool, schema, casing: 'snake_case' });
    return {
      db: db as unknown as Db,
      kind: 'postgres',
      connectionString: options.databaseUrl,
      close: () => pool.end(),
    };
  }

  let dataDir: string | undefined;
  if (options.dataDir) {
    // PGlite creates its own folder but not the folders above it.
    dataDir = path.resolve(options.dataDir, 'pglite');
    await mkdir(path.dirname(dataDir), { recursive: true });
  }
  // pg_trgm backs substring search (asset free text); PostgreSQL servers ship it in contrib.
  const client = await PGlite.create(dataDir, {
    extensions: { pg_trgm },
    ...(options.loadDataDir && { loadDataDir: options.loadDataDir }),
  });
  const db = drizzlePglite({ client, schema, casing: 'snake_case' });
  try {
    await migratePglite(db, { migrationsFolder });
  } catch (error) {
    await client.close();
    throw error;
  }
  return { db: db as unknown as Db, kind: 'pglite', pglite: client, close: () => client.close() };
}
