import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** The tiers whose files run longest, first (vitest.config.ts's project names). */
const TIERS = ['e2e', 'pg', 'unit'];

/**
 * The order the suite's files start in. With every file's duration from an earlier run (vitest's
 * cache, in a working copy), vitest's own order: the longest first. Without (a clean clone, as CI
 * runs it), vitest would start the largest files first, and some short-sized but long-running
 * e2e files (a doc's examples against two stores) then started last, with the other workers idle
 * at the end; here the e2e files go first, then the PostgreSQL ones, then the unit files, each
 * tier largest first, so the many short unit files fill the workers up at the end.
 */
export default class TiersFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const timed = files.every((f) => this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(this.ctx.config.root, f.moduleId)}`));
    if (timed) return bySize;
    const tier = (f: TestSpecification) => TIERS.indexOf(f.project.name);
    return bySize.sort((a, b) => tier(a) - tier(b));
  }
}
