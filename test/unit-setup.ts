/**
 * Set-up of the `unit` and `pg` tiers (vitest.config.ts), whose files share worker processes.
 *
 * `conf` (profiles) writes through `atomically`, which, through `when-exit`, hooks every signal
 * when it loads and answers one by sending the process that signal again. A test that emits a
 * synthetic SIGINT or SIGTERM to stop an in-process `serve` or `webhooks listen` would then kill
 * its worker, and with it the files that share it; and a file that counts the process's SIGINT
 * listeners would count one that an earlier file's import left. So `conf` is loaded here, once
 * per worker, and the signal listeners its load added are taken off: the signal listeners a test
 * sees are its own code's.
 *
 * It runs before each file, so it also removes, after each file, the temporary directories that
 * file made (test/tmp.ts).
 */
import { constants } from 'node:os';
import { afterAll } from 'vitest';
import { removeTempDirs } from './tmp.js';

const signals = Object.keys(constants.signals) as NodeJS.Signals[];
const before = new Map(signals.map((s) => [s, new Set(process.rawListeners(s))]));
await import('conf');
for (const signal of signals) {
  for (const listener of process.rawListeners(signal)) {
    if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as () => void);
  }
}

afterAll(removeTempDirs);
