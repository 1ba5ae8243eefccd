// CLI timings: wall time of short commands (median of many runs) and a streaming `users list
// --all` (rows per second and the CLI's peak RSS).
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { median } from './stats.js';
import { peakRss } from './proc.js';

/** Median wall time in ms of `node …args` over `runs` runs; a run that fails stops the benchmark. */
export function medianWallMs(args, { env, cwd, runs }) {
  const times = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
    times.push(performance.now() - started);
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  }
  return median(times);
}

const GNU_TIME = '/usr/bin/time';

/**
 * Runs `node …args` behind `prefix`, counting the lines it writes (without keeping them), and
 * answers { lines, seconds, rss }. The peak RSS comes from GNU time's %M where installed, else from
 * polling /proc/<pid>/status (VmHWM) every 20 ms.
 */
export async function streamLines(args, { env, cwd, prefix }) {
  const timeFile = join(tmpdir(), `confctl-bench-time-${process.pid}`);
  const gnuTime = existsSync(GNU_TIME) ? [GNU_TIME, '-f', '%M', '-o', timeFile] : [];
  const [command, ...rest] = [...prefix, ...gnuTime, process.execPath, ...args];
  const started = performance.now();
  const child = spawn(command, rest, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  let stderr = '';
  let polled;
  const poll = gnuTime.length ? undefined : setInterval(() => (polled = peakRss(child.pid) ?? polled), 20);
  child.stdout.on('data', (chunk) => {
    for (let i = chunk.indexOf(10); i !== -1; i = chunk.indexOf(10, i + 1)) lines++;
  });
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const [code] = await once(child, 'close');
  const seconds = (performance.now() - started) / 1000;
  clearInterval(poll);
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited ${code}: ${stderr}`);
  const rss = gnuTime.length ? Number(readFileSync(timeFile, 'utf8').trim().split('\n').pop()) * 1024 : polled;
  rmSync(timeFile, { force: true });
  return { lines, seconds, rss };
}

