/**
 * vitest globalSetup of the `unit` tier: slots that let at most one of its files per core run at
 * a time, though the run has one worker more than the cores (vitest.config.ts).
 *
 * The extra worker is for the tiers whose files wait: the `e2e` files on rate-limit windows,
 * retries and drains, the `pg` files on PostgreSQL, which does their work in its own processes.
 * The `unit` files keep their cores busy themselves, and a third one beside them only makes the
 * processes take turns: three runs each way of that tier alone here, with slots and without, took
 * 85, 93 and 106 s against 89, 114 and 110 s, and 147-190 against 171-219 s of CPU. The `pg` tier
 * showed no difference within its noise (five runs each way, alternated: 103-126 against
 * 107-128 s, each way faster in turn). Vitest has one worker count for the run, so the `unit`
 * files ask for a slot in their set-up (test/unit-setup.ts) and hold it until their last hook.
 *
 * A slot is a connection to a Unix socket served here, in vitest's main process: it is granted
 * with a line `go`, and freed when the worker closes it or ends, so a worker that dies frees its
 * slot.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The Unix socket of the run's file slots. */
    fileSlots: string;
  }
}

/** Serves `slots` slots on a socket in a temporary directory of its own. */
export async function serveSlots(slots: number): Promise<{ path: string; close: () => Promise<void> }> {
  const dir = mkdtempSync(join(tmpdir(), 'confctl-slots-'));
  const path = join(dir, 'slots.sock');
  const waiting: Socket[] = [];
  const holding = new Set<Socket>();
  const grant = () => {
    while (holding.size < slots && waiting.length > 0) {
      const next = waiting.shift()!;
      holding.add(next);
      next.write('go\n');
    }
  };
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.on('close', () => {
      holding.delete(socket);
      const at = waiting.indexOf(socket);
      if (at >= 0) waiting.splice(at, 1);
      grant();
    });
    waiting.push(socket);
    grant();
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(path, resolve));
  const close = async () => {
    for (const socket of [...waiting, ...holding]) socket.destroy();
    await new Promise((resolve) => server.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  };
  return { path, close };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const { path, close } = await serveSlots(availableParallelism());
  project.provide('fileSlots', path);
  return close;
}
