// What the benchmark reads about processes and the machine: CPU time and peak RSS from /proc,
// core pinning with taskset, and the machine's description for the table.
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { cpuTicksFromStat, statusField } from './stats.js';

/** Clock ticks per second, the unit of /proc/<pid>/stat's utime and stime (100 on Linux unless configured otherwise). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** CPU time (user + system) a process has used so far, in seconds. */
export function cpuSeconds(pid) {
  return cpuTicksFromStat(readFileSync(`/proc/${pid}/stat`, 'utf8')) / CLOCK_TICKS;
}

/** A process's peak resident set (VmHWM) in bytes, or undefined where /proc cannot tell. */
export function peakRss(pid) {
  try {
    return statusField(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmHWM');
  } catch {
    return undefined;
  }
}

/**
 * Command prefixes that pin the server and the load generator to different cores: the server on
 * the last core, the generator on the others. Empty prefixes (no pinning) on a single core or
 * without `taskset`; `note` says which case applies.
 */
export function pinning() {
  const cores = os.availableParallelism();
  const hasTaskset = process.platform === 'linux' && spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  if (cores < 2 || !hasTaskset) {
    return { server: [], load: [], note: cores < 2 ? 'not pinned (one core)' : 'not pinned (no taskset)' };
  }
  const last = cores - 1;
  const others = last === 1 ? '0' : `0-${last - 1}`;
  return { server: ['taskset', '-c', String(last)], load: ['taskset', '-c', others], note: `server on core ${last}, load generator on core ${others}` };
}

/** CPU model, core count, Node version and OS, for the table's heading. */
export function machine() {
  const cpus = os.cpus();
  return `${cpus[0]?.model.trim() ?? 'unknown CPU'}, ${os.availableParallelism()} cores, Node ${process.version}, ${os.type()} ${os.release()}`;
}
