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
 * file made (test/tmp.ts). In the `unit` tier, it holds one of the run's file slots
 * (test/file-slots.ts) from before the file's imports to after its last hook.
 */
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { constants } from 'node:os';
import { afterAll, inject } from 'vitest';
import { removeTempDirs } from './tmp.js';

/** How long a file waits for a slot before failing: far longer than any unit file runs. */
const SLOT_WAIT_MS = 5 * 60_000;

/** Connects to the run's file slots at `path` and resolves once granted one. */
async function takeSlot(path: string): Promise<Socket> {
  const socket = connect(path);
  const wait = AbortSignal.timeout(SLOT_WAIT_MS);
  try {
    await once(socket, 'data', { signal: wait });
  } catch (err) {
    socket.destroy();
    throw new Error(`No file slot (test/file-slots.ts) within ${SLOT_WAIT_MS / 1000} s: ${(err as Error).message}`);
  }
  // The slot must not keep the worker alive; it is held as long as the socket is open. Once the
  // run ends, vitest's main process closes it: nothing to report then.
  socket.unref();
  socket.on('error', () => {});
  return socket;
}

/**
 * This worker's slot, kept on `globalThis` as the worker's files share it: a file that ended
 * without its hooks (it failed to load) leaves it held, and the worker's next file keeps it.
 */
const slotKey = Symbol.for('confctl.test.fileSlot');
const worker = globalThis as typeof globalThis & { [slotKey]?: Promise<Socket> };
const slots = inject('fileSlots');
if (slots) {
  await (worker[slotKey] ??= takeSlot(slots).catch((err: unknown) => {
    delete worker[slotKey];
    throw err;
  }));
}

const signals = Object.keys(constants.signals) as NodeJS.Signals[];
const before = new Map(signals.map((s) => [s, new Set(process.rawListeners(s))]));
await import('conf');
for (const signal of signals) {
  for (const listener of process.rawListeners(signal)) {
    if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener as () => void);
  }
}

afterAll(removeTempDirs);
// Registered before the file's own hooks, so it runs after them (vitest runs `afterAll`s in reverse).
afterAll(async () => {
  const slot = worker[slotKey];
  if (!slot) return;
  delete worker[slotKey];
  (await slot).destroy();
});
