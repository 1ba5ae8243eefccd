/**
 * `serve --pid-file FILE`: the server's process id, written once it listens and removed when it
 * stops, so a script that started it in the background can stop it (`kill "$(cat FILE)"`) even
 * when a wrapper (npm, npx, a shell) stands between it and the script's `$!`.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { CliError, EXIT } from '../../errors.js';
import { running } from './process-running.js';

/** The id in `file`, undefined when there is no file or no id in it. */
function pidIn(file: string): number | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^\s*(\d+)\s*$/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/**
 * Checked before anything is opened: a file naming a running process is exit 5 (that server may
 * still be serving); a stale one is replaced later, and `note` says so now.
 */
export function claimPidFile(file: string, note: (line: string) => void): void {
  const pid = pidIn(file);
  if (pid === undefined) return;
  if (running(pid)) {
    throw new CliError(`${file} names process ${pid}, which is running`, EXIT.conflict, `stop that server first (kill ${pid}), or give another --pid-file`);
  }
  note(`note: replacing the stale ${file} (process ${pid} is not running)`);
}

/** Writes this process's id, once the server listens. */
export function writePidFile(file: string): void {
  writeFileSync(file, `${process.pid}\n`);
}

/** Removes the file on exit, unless another process has written its own id there since. */
export function removePidFile(file: string): void {
  if (pidIn(file) === process.pid) rmSync(file, { force: true });
}
