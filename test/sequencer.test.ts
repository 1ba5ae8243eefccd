import { describe, expect, it } from 'vitest';
import type { TestSpecification, Vitest } from 'vitest/node';
import TiersFirst from './sequencer.js';

/** A file of `tier` with `size` bytes and, when given, a duration from an earlier run. */
interface Fake {
  tier: string;
  path: string;
  size: number;
  ms?: number;
}

function sequencer(fakes: Fake[]): { sort: () => Promise<string[]> } {
  const byKey = new Map(fakes.map((f) => [`${f.tier}:${f.path}`, f]));
  const ctx = {
    config: { root: '/repo' },
    cache: {
      getFileTestResults: (key: string) => {
        const f = byKey.get(key);
        return f?.ms === undefined ? undefined : { duration: f.ms, failed: false };
      },
      getFileStats: (key: string) => ({ size: byKey.get(key)!.size }),
    },
  } as unknown as Vitest;
  const specs = fakes.map((f) => ({ project: { name: f.tier }, moduleId: `/repo/${f.path}` }) as unknown as TestSpecification);
  return { sort: async () => (await new TiersFirst(ctx).sort(specs)).map((s) => s.moduleId.slice('/repo/'.length)) };
}

describe('the order the suite starts its files in', () => {
  it('without durations (a clean clone): e2e, then pg, then unit files, each tier largest first', async () => {
    const order = await sequencer([
      { tier: 'unit', path: 'test/big-unit.test.ts', size: 90_000 },
      { tier: 'pg', path: 'test/pg-small.test.ts', size: 2_000 },
      { tier: 'e2e', path: 'test/e2e/small.test.ts', size: 3_000 },
      { tier: 'unit', path: 'test/small-unit.test.ts', size: 1_000 },
      { tier: 'e2e', path: 'test/e2e/big.test.ts', size: 40_000 },
      { tier: 'pg', path: 'test/pg-big.test.ts', size: 50_000 },
    ]).sort();
    expect(order).toEqual(['test/e2e/big.test.ts', 'test/e2e/small.test.ts', 'test/pg-big.test.ts', 'test/pg-small.test.ts', 'test/big-unit.test.ts', 'test/small-unit.test.ts']);
  });

  it("with every file's duration from an earlier run: the longest first, whatever its tier", async () => {
    const order = await sequencer([
      { tier: 'e2e', path: 'test/e2e/quick.test.ts', size: 40_000, ms: 900 },
      { tier: 'unit', path: 'test/slow-unit.test.ts', size: 1_000, ms: 12_000 },
      { tier: 'pg', path: 'test/pg.test.ts', size: 5_000, ms: 3_000 },
    ]).sort();
    expect(order).toEqual(['test/slow-unit.test.ts', 'test/pg.test.ts', 'test/e2e/quick.test.ts']);
  });
});
