import { defineConfig } from 'vitest/config';

/**
 * One run covers every package. Server tests run once on PGlite and, when TEST_DATABASE_URL names a
 * PostgreSQL server, once more on that server (the test-database helper reads VIGIL_TEST_DB).
 */
const serverProject = (database: 'pglite' | 'postgres') => ({
  extends: './apps/server/vitest.config.ts',
  test: {
    name: `server:${database}`,
    root: './apps/server',
    env: { VIGIL_TEST_DB: database },
  },
});

export default defineConfig({
  test: {
    projects: [
      './packages/contracts',
      './packages/query',
      './apps/web',
      serverProject('pglite'),
      ...(process.env.TEST_DATABASE_URL ? [serverProject('postgres')] : []),
    ],
  },
});
