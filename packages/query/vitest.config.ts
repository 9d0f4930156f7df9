import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'query',
    include: ['src/**/*.test.ts'],
  },
});
