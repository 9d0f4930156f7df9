import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    unstubGlobals: true,
    // Mantine pages render slowly in jsdom on a busy two-core machine; the default 5 s is too tight.
    testTimeout: 20_000,
  },
});
