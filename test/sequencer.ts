import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The two files far longer than any other of their tier (vitest times, 2026-11-28), started first
 * in their tier. Vitest starts the files that took longest in its last run first, but a clean
 * clone (CI) has no last run and vitest starts the largest files first: the README examples, a
 * short file, then started last and the `e2e` tier took 273 against 231 s. Naming more of the long
 * e2e files here started CPU-heavy files together, and they all ran slower (the tier's files
 * 733 against 681 s of vitest time, one clean-clone run each).
 */
export const LONGEST = ['test/store/contract-postgres.test.ts', 'test/e2e/readme-examples.test.ts'];

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
