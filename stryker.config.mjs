// Mutation testing of the modules that hold the rules (`npm run mutate`; not part of `npm test`).
// Each mutant runs only the unit tests listed in vitest.mutate.config.ts, two runners (a 2-core
// machine). Incremental: a rerun tests only mutants whose code or tests changed. The report lands in reports/mutation/.
/** @type {import('@stryker-mutator/api/core').PartialStrykerOptions} */
export default {
  testRunner: 'vitest',
  vitest: { configFile: 'vitest.mutate.config.ts', related: false },
  coverageAnalysis: 'perTest',
  concurrency: 2,
  ignoreStatic: true,
  // A loaded machine slows every run; a short timeout would restart runners for nothing.
  timeoutMS: 60_000,
  incremental: true,
  incrementalFile: 'reports/stryker-incremental.json',
  mutate: [
    'src/contract/permissions.ts',
    'src/contract/list-query.ts',
    'src/store/list-query.ts',
    'src/contract/validation.ts',
    'src/media/signing.ts',
    // addAttendees: the maximum and the all-or-nothing rule.
    'src/server/handlers/attendees.ts:38-57',
    'src/server/pagination.ts',
    // Last: its rules are being reworked (unauthenticated requests count per address).
    'src/server/rate-limit.ts',
  ],
  ignorePatterns: ['dist', 'bench', 'reports', '.stryker-tmp', '*.log'],
  reporters: ['clear-text', 'progress-append-only', 'html'],
  thresholds: { high: 90, low: 80, break: 80 },
  tempDirName: '.stryker-tmp',
};
