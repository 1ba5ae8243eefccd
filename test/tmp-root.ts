/**
 * Where a test run's temporary files go: in memory (`/dev/shm`) where the machine has room there,
 * else the system's temporary directory.
 *
 * The `unit` tier writes some 2 GB to temporary files (SQLite databases, their WAL and sort runs)
 * in about 52,000 writes and 8,000 flushes; on this machine class /tmp is ext4 on a virtual disk,
 * where each write and flush is work for the kernel and the hypervisor. Four of the SQLite-heavy
 * files together (the store contract, the bulk seed, the stamp bounds and the list spans), three
 * alternated runs each way: 21.6–22.4 s of wall time with their files in memory against 25.0–25.2 s
 * on disk, 38.6–39.2 s of CPU against 40.4–44.1. The run's peak in /dev/shm was 411 MB, its
 * PostgreSQL cluster included.
 */
import { accessSync, chmodSync, constants, mkdtempSync, readdirSync, rmSync, statfsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { running } from '../src/cli/commands/serve/process-running.js';

const SHM = '/dev/shm';
/** Free space /dev/shm must have to take a run's files: more than twice the most a run held there. */
const ROOM = 1 << 30;
/** A run's directory: `confctl-tests-<pid of its vitest>-<random>`. */
const runPrefix = (pid: number) => `confctl-tests-${pid}-`;
const RUN_DIR = /^confctl-tests-([1-9]\d*)-/;

/** /dev/shm when it is writable and has `room` bytes free, else undefined. */
export function memoryDir(room = ROOM): string | undefined {
  try {
    accessSync(SHM, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHM);
    return bavail * bsize >= room ? SHM : undefined;
  } catch {
    return undefined;
  }
}

/** Removes the directories in `parent` of runs whose process is gone (killed before its exit handler ran): they hold memory. */
export function sweep(parent: string): void {
  for (const name of readdirSync(parent)) {
    const pid = RUN_DIR.exec(name)?.[1];
    if (pid && !running(Number(pid))) rmSync(join(parent, name), { recursive: true, force: true });
  }
}

/**
 * Points TMPDIR (node's `tmpdir()`, SQLite's temporary files) at a directory of this run's own in
 * memory, for this process and every process it starts from now on (the vitest workers, the CLI and
 * `serve` they run), and removes it when this process exits. Open to all with the sticky bit, as
 * /tmp is: a cluster of PostgreSQL run as `nobody` may be made in it. Does nothing without room in
 * memory, or when this process already did it.
 */
export function useMemoryTmpdir(): void {
  const parent = memoryDir();
  if (!parent) return;
  const own = join(parent, runPrefix(process.pid));
  if (tmpdir().startsWith(own)) return;
  sweep(parent);
  const dir = mkdtempSync(own);
  chmodSync(dir, 0o1777);
  process.env.TMPDIR = dir;
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
}
