import { availableParallelism } from 'node:os';
import { configDefaults, defineConfig } from 'vitest/config';
import { LongestFirst } from './test/sequencer.js';
import { useMemoryTmpdir } from './test/tmp-root.js';

/**
 * The suite in three tiers, one vitest run for `npm test` (`--project NAME` for one tier):
 * - `unit`: every test file not below, without PostgreSQL (`npm run test:unit`, the quick loop);
 * - `pg`: the files that use PostgreSQL, on one server for the run with a migrated template
 *   database that each test copies (test/pg); a file lands here by its path;
 * - `e2e`: test/e2e, which runs the built CLI and `serve`, on either store.
 * A test in `unit` that asks for PostgreSQL fails saying where to put it (test/pg/database.ts).
 */
const POSTGRES = [
  'test/pg/**/*.test.ts',
  'test/store/postgres/**/*.test.ts',
  'test/**/*postgres*.test.ts',
  'test/**/*database*.test.ts',
  // `admin copy` runs each case on SQLite and on PostgreSQL.
  'test/admin/copy.test.ts',
  'test/cli/admin-copy.test.ts',
  // Each case on a data directory and on a database (describe.each(BACKENDS)).
  'test/cli/admin-webhooks.test.ts',
  'test/cli/admin-events.test.ts',
  'test/cli/admin-lookup.test.ts',
  'test/cli/admin-dry-run.test.ts',
  'test/cli/admin-output.test.ts',
  'test/admin/trigger.test.ts',
  'test/admin/meeting-links.test.ts',
  'test/admin/events.test.ts',
  'test/admin/seed/demo.test.ts',
];
const E2E = ['test/e2e/**/*.test.ts'];

// NODE_EXTRA_CA_CERTS (set on some machines, this one's and its CI's included) makes every node
// start read a bundle of certificates: 62 ms of CPU for `node -e 0` against 23 ms without. The
// suite starts a node for every file and most of its children are nodes, all talking to local
// servers only; the test of the variable itself (test/e2e/client-tls.test.ts) sets it.
delete process.env.NODE_EXTRA_CA_CERTS;
// The run's temporary files in memory where there is room (test/tmp-root.ts says why).
useMemoryTmpdir();
const postgres = ['test/pg/global-setup.ts'];
const WORKERS = availableParallelism() + 1;

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Vitest's default is one worker fewer than the cores: one on a 2-core machine, so files ran one
    // after the other. The e2e files wait on what they start (serve, the CLI, rate-limit windows),
    // so one worker more than the cores keeps both cores busy there, as in the pg tier, whose files
    // wait on PostgreSQL; the unit files run at most one per core all the same (test/file-slots.ts).
    maxWorkers: WORKERS,
    // As many workers at least as at most: with fewer, tinypool ends a worker that falls idle, and
    // when no file is isolated it can hand that worker the next file as it ends it ("Terminating
    // worker thread", the run aborted).
    minWorkers: WORKERS,
    // Worker processes are kept from file to file: a fresh process and fresh imports for each of the
    // 198 unit files took 214 of the unit tier's 478 s of worker time (208 s of wall, 70-76 s
    // without). The unit and pg files also share their imports (test/unit-setup.ts says what else
    // they share; the pg tier: 132 -> 112 s, one PostgreSQL connection per worker for making test
    // databases instead of one per file). The e2e files import afresh (their project's `isolate`):
    // sharing measured slower there (487 against 591 s, its children's CPU higher). With the pool not
    // isolating, vitest runs the tiers one after another, each on all workers.
    poolOptions: { forks: { isolate: false } },
    // The longest files start first, also in a clean clone (test/sequencer.ts).
    sequence: { sequencer: LongestFirst },
    projects: [
      { extends: true, test: { name: 'unit', include: ['test/**/*.test.ts'], exclude: [...configDefaults.exclude, ...POSTGRES, ...E2E], globalSetup: ['test/file-slots.ts'], setupFiles: ['test/unit-setup.ts'] } },
      { extends: true, test: { name: 'pg', include: POSTGRES, exclude: [...configDefaults.exclude, ...E2E], globalSetup: postgres, setupFiles: ['test/unit-setup.ts'] } },
      { extends: true, test: { name: 'e2e', include: E2E, globalSetup: postgres, poolOptions: { forks: { isolate: true } } } },
    ],
  },
});
