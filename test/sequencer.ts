import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest in their tier, longest first (vitest times, 2026-11-28). Vitest
 * starts the files that took longest in its last run first, but a clean clone (CI) has no last
 * run and vitest starts the largest files first: the README examples, a short file, then started
 * last and the `e2e` tier took 273 against 231 s.
 */
export const LONGEST = [
  'test/e2e/readme-examples.test.ts',
  'test/store/contract-postgres.test.ts',
  'test/e2e/export.test.ts',
  'test/store/postgres/stamp-bounds.test.ts',
  'test/e2e/docs-tenant.test.ts',
  'test/e2e/tenant.test.ts',
];

/** The tiers in the order they run (vitest runs them one after another, in the order of their first file). */
const TIERS = ['unit', 'pg', 'e2e'];

/** Vitest's order, tier by tier, with the files named in LONGEST moved to the front of their tier. */
export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (file: TestSpecification) => {
      const at = LONGEST.indexOf(relative(file.project.config.root, file.moduleId).replaceAll('\\', '/'));
      return TIERS.indexOf(file.project.name) * (LONGEST.length + 1) + (at < 0 ? LONGEST.length : at);
    };
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}
