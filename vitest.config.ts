import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // One real PostgreSQL for the run (test/pg/postgres-server.ts), about a second to start.
    globalSetup: ['test/pg/global-setup.ts'],
  },
});
