import { describe, expect, it } from 'vitest';
import { countInWindow, type WindowCounts } from '../../../src/store/postgres/shared.js';
import { migratedDatabase } from './databases.js';

/**
 * Runs `counts` (which counts in the database's current one-second window) until all of its
 * answers fall in one window: a run that straddles a second starts over in a fresh tenant.
 */
async function inOneWindow(counts: (run: number) => Promise<WindowCounts[][]>): Promise<WindowCounts[][]> {
  for (let run = 0; ; run++) {
    const answers = await counts(run);
    const windows = new Set(answers.flat().map((c) => Math.floor(c.nowMs / 1000)));
    if (windows.size === 1 || run === 10) return answers;
  }
}

describe('countInWindow', () => {
  it('counts n requests in one statement as n counted one after the other, the tenant only within the key limit', async () => {
    const env = await migratedDatabase();
    try {
      const [batch, next, otherKey] = await inOneWindow(async (run) => [
        await countInWindow(env.client, `key:a${run}`, `tenant:${run}`, 3, 5),
        await countInWindow(env.client, `key:a${run}`, `tenant:${run}`, 3, 2),
        await countInWindow(env.client, `key:b${run}`, `tenant:${run}`, 3, 2),
      ]);
      expect(batch.map((c) => [c.client, c.tenant])).toEqual([[1, 1], [2, 2], [3, 3], [4, 3], [5, 3]]);
      expect(next.map((c) => [c.client, c.tenant])).toEqual([[6, 3], [7, 3]]);
      expect(otherKey.map((c) => [c.client, c.tenant])).toEqual([[1, 4], [2, 5]]);
      const [sequential] = await inOneWindow(async (run) => [
        [
          ...(await countInWindow(env.client, `key:s${run}`, `tenant:s${run}`, 3)),
          ...(await countInWindow(env.client, `key:s${run}`, `tenant:s${run}`, 3)),
          ...(await countInWindow(env.client, `key:s${run}`, `tenant:s${run}`, 3)),
          ...(await countInWindow(env.client, `key:s${run}`, `tenant:s${run}`, 3)),
          ...(await countInWindow(env.client, `key:s${run}`, `tenant:s${run}`, 3)),
        ],
      ]);
      expect(sequential.map((c) => [c.client, c.tenant])).toEqual(batch.map((c) => [c.client, c.tenant]));
    } finally {
      await env.close();
    }
  });
});
