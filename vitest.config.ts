import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    setupFiles: ['test/setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    // SQLite files and child processes: a small pool keeps a 2-core CI machine responsive.
    maxWorkers: 2,
  },
});
