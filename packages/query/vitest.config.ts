import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'query',
    include: ['src/**/*.test.ts'],
    // The compiler tests start an in-memory PGlite, which takes a while on a cold machine.
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
