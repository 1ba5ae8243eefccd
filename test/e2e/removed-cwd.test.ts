import { spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { BIN, Sandbox } from './harness.js';

const box = new Sandbox();
afterAll(() => box.dispose());

/**
 * Node's recursive mkdir of a relative path loops for ever, at full CPU, once the working
 * directory is gone; an admin command creating `--data ./DIR` there used to spin until killed.
 */
it('a command whose working directory was removed ends at once with exit 2, creating nothing', () => {
  const work = join(box.root, 'work');
  mkdirSync(work);
  const script = `cd "$1" && rmdir "$1" && exec "$2" "$3" admin init --data ./suite`;
  const r = spawnSync('sh', ['-c', script, 'sh', work, process.execPath, BIN], { env: box.env(), encoding: 'utf8', timeout: 30_000 });
  expect(r.signal, 'killed by the timeout: the command did not end').toBeNull();
  expect(r.status).toBe(2);
  expect(r.stderr).toContain('error: the working directory no longer exists');
});
