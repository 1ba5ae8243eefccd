import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { keepHeapSmall } from '../../src/cli/commands/serve/memory.js';

const MODULE = fileURLToPath(new URL('../../src/cli/commands/serve/memory.ts', import.meta.url));

/**
 * In a Node process of its own (V8's flags are process-wide): optionally keeps the heap small,
 * optionally then starts a worker thread (as `serve`'s read pool does) and waits until it runs,
 * then allocates as a busy server does: objects kept in a ring of `ring`, so each survives the
 * collections that come while `ring` more are made, and then dies. Answers whether it was applied
 * and the largest size of the heap space `space` seen, sampled every `every` objects.
 */
function peakSpace(space: 'new_space' | 'old_space', ring: number, every: number, apply: boolean, nodeArgs: string[] = [], worker = false): { applied: boolean; mb: number } {
  const script = `
    import { getHeapSpaceStatistics } from 'node:v8';
    import { Worker } from 'node:worker_threads';
    import { once } from 'node:events';
    import { keepHeapSmall } from ${JSON.stringify(MODULE)};
    const applied = ${apply} ? keepHeapSmall() : false;
    const worker = ${worker} ? new Worker('setInterval(() => {}, 1000)', { eval: true }) : undefined;
    if (worker) await once(worker, 'online');
    const ring = new Array(${ring});
    let largest = 0;
    for (let i = 0; i < 2000000; i++) {
      ring[i % ring.length] = { i, text: 'request ' + i, parts: [i, i + 1] };
      if (i % ${every} === 0) largest = Math.max(largest, getHeapSpaceStatistics().find((s) => s.space_name === '${space}').space_size);
    }
    await worker?.terminate();
    console.log(JSON.stringify({ applied, mb: largest / 2 ** 20 }));`;
  const out = execFileSync(process.execPath, [...nodeArgs, '--import', 'tsx', '--input-type=module', '-e', script], {
    encoding: 'utf8',
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  return JSON.parse(out);
}

/** The young generation under many short-lived objects, a share of them alive at each scavenge. */
function youngGeneration(apply: boolean, nodeArgs: string[] = [], worker = false): { applied: boolean; newSpaceMb: number } {
  const { applied, mb } = peakSpace('new_space', 20000, 10000, apply, nodeArgs, worker);
  return { applied, newSpaceMb: mb };
}

/** The old generation under objects that survive a few scavenges and then die (as requests queued across turns do). */
function oldGeneration(apply: boolean): { applied: boolean; oldSpaceMb: number } {
  const { applied, mb } = peakSpace('old_space', 200000, 50000, apply);
  return { applied, oldSpaceMb: mb };
}

describe('keepHeapSmall', () => {
  it('stops the young generation growing under allocation, where V8 alone grows it', () => {
    const grown = youngGeneration(false);
    const kept = youngGeneration(true);
    // V8 alone grows it to two 16 MiB semi-spaces; kept, it stays at what it had when the growth
    // stopped (here 4 MiB: loading tsx and the module has grown it once already).
    expect(grown.newSpaceMb).toBeGreaterThanOrEqual(16);
    expect(kept.applied).toBe(true);
    expect(kept.newSpaceMb).toBeLessThanOrEqual(4);
  });

  it("keeps it small after a worker thread started (V8 resets the growth factor as it makes the worker's isolate)", () => {
    const kept = youngGeneration(true, [], true);
    expect(kept.applied).toBe(true);
    expect(kept.newSpaceMb).toBeLessThanOrEqual(4);
  });

  it('lets the old generation grow by half of what survived each full collection, where V8 alone lets it grow further', () => {
    const grown = oldGeneration(false);
    const kept = oldGeneration(true);
    // Measured: about 162 MiB at V8's own factor against 99.
    expect(kept.applied).toBe(true);
    expect(kept.oldSpaceMb).toBeLessThan(grown.oldSpaceMb * 0.85);
  });

  it('leaves a heap sized by the user alone', () => {
    expect(keepHeapSmall(['--max-semi-space-size=8'], '')).toBe(false);
    expect(keepHeapSmall([], '--min-semi-space-size=4 --enable-source-maps')).toBe(false);
    expect(keepHeapSmall([], '--semi-space-growth-factor=4')).toBe(false);
    expect(keepHeapSmall(['--max-old-space-size=512'], '')).toBe(false);
    expect(keepHeapSmall([], '--heap-growing-percent=20')).toBe(false);
    const sized = youngGeneration(true, ['--max-semi-space-size=8']);
    expect(sized.applied).toBe(false);
    expect(sized.newSpaceMb).toBeGreaterThanOrEqual(8);
  });
});
