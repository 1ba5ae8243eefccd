import { defineConfig } from 'vitest/config';

/** The unit tests `npm run mutate` runs against each mutant: those of the modules that hold the rules. */
export const MUTATE_TESTS = [
  'test/contract/permissions.test.ts',
  'test/contract/list-query.test.ts',
  'test/store/list-query.test.ts',
  'test/store/list-query-sql.test.ts',
  'test/store/list-totals.test.ts',
  'test/contract/validation.test.ts',
  'test/server/audit-validation.test.ts',
  'test/media/signing.test.ts',
  'test/server/attendees.test.ts',
  'test/server/users-list.test.ts',
  'test/server/audit-lists.test.ts',
  'test/server/pagination.test.ts',
  'test/server/rate-limit.test.ts',
  'test/server/rate-limiter.test.ts',
];

export default defineConfig({
  test: {
    include: MUTATE_TESTS,
    environment: 'node',
    testTimeout: 20_000,
  },
});
