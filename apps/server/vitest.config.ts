import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    globalSetup: ['./test/global-setup.ts'],
    // Each file gets its own database and app (test/app.ts), and nothing here mocks modules, so the
    // files of one worker share its loaded modules instead of importing the server again per file
    // (that import was most of a small file's time).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
