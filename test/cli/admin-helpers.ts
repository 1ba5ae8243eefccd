import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Prompter } from '../../src/cli/context.js';
import { openLocalSync } from '../at-once.js';
import { type Fake, fake } from './helpers.js';

/** A fake context whose data directory (`CONFCTL_DATA`) is a fresh temp directory. */
export interface AdminFake extends Fake {
  dataDir: string;
  /** Runs `confctl ARGS -o json` and parses what it printed; fails on a non-zero exit. */
  json: <T = any>(args: string[]) => Promise<T>;
  /** Reads the data directory's store directly (to check what was, or was not, written). */
  inspect: <T>(read: (local: ReturnType<typeof openLocalSync>) => T) => T;
  dispose: () => void;
}

export function adminFake(opts: { tty?: boolean; env?: Record<string, string>; prompter?: Prompter; stdin?: string } = {}): AdminFake {
  const dataDir = join(mkdtempSync(join(tmpdir(), 'confctl-admin-')), 'data');
  const f = fake({ ...opts, env: { CONFCTL_DATA: dataDir, ...opts.env } });
  return {
    ...f,
    dataDir,
    async json(args) {
      const before = f.stdout().length;
      const code = await f.run([...args, '-o', 'json']);
      if (code !== 0) throw new Error(`confctl ${args.join(' ')} exited ${code}: ${f.stderr()}`);
      return JSON.parse(f.stdout().slice(before));
    },
    inspect(read) {
      const local = openLocalSync(dataDir, {});
      try {
        return read(local);
      } finally {
        local.store.close();
      }
    },
    dispose() {
      rmSync(join(dataDir, '..'), { recursive: true, force: true });
      rmSync(f.configDir, { recursive: true, force: true });
    },
  };
}
