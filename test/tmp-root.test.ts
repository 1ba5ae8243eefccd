import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { memoryDir, sweep } from './tmp-root.js';
import { tempDir } from './tmp.js';

/** A pid that no process has: a child's, once it has exited. */
function deadPid(): number {
  return Number(spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' }).stdout);
}

describe('the run\u2019s temporary directory', () => {
  it.skipIf(!memoryDir())('is in memory where /dev/shm has room, open to all with the sticky bit as /tmp is', () => {
    expect(tmpdir()).toMatch(new RegExp(`^/dev/shm/confctl-tests-${process.ppid}-`));
    expect(statSync(tmpdir()).mode & 0o7777).toBe(0o1777);
  });

  it('is not in memory without room there', () => {
    expect(memoryDir(Number.MAX_SAFE_INTEGER)).toBeUndefined();
  });

  it('sweeps the directories of runs whose process is gone, and only those', () => {
    const parent = tempDir();
    const gone = join(parent, `confctl-tests-${deadPid()}-abc123`);
    const running = join(parent, `confctl-tests-${process.pid}-def456`);
    const other = join(parent, 'confctl-pg-ghi789');
    for (const dir of [gone, running, other]) mkdirSync(join(dir, 'inner'), { recursive: true });
    sweep(parent);
    expect([gone, running, other].map(existsSync)).toEqual([false, true, true]);
  });
});
