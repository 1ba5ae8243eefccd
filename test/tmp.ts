import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

/**
 * Removes the directories `tempDir` made. test/unit-setup.ts runs it after each test file: this
 * module is loaded once per worker (the unit and pg files share their imports), so a hook it
 * registered itself would belong to the first file that imported it alone, and the directories of
 * every later file in that worker were left behind (some 650 a run).
 */
export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

/** A fresh temporary directory, removed after the test file that made it (removeTempDirs). */
export function tempDir(prefix = 'confctl-test-'): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
