// Starting and stopping the processes under test: each runs pinned (see proc.js `pinning`), and
// the benchmark reads its CPU time and peak RSS through its pid (taskset execs, keeping the pid).
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1, for tools that cannot pick one themselves. */
export async function freePort() {
  const probe = createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening');
  const { port } = probe.address();
  probe.close();
  await once(probe, 'close');
  return port;
}

/** Resolves once `url` answers anything over HTTP; rejects after `timeoutMs` or if `child` exits first. */
async function answering(url, child, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.spawnargs.join(' ')} exited ${child.exitCode}`);
    try {
      await (await fetch(url)).arrayBuffer();
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Starts `node args…` behind `prefix` (taskset or nothing). Ready when stdout prints `Listening on
 * URL` (confctl serve and the bare server; the origin is taken from it) or, given `probeUrl`, when
 * that URL answers. Answers { pid, origin, stop }.
 */
export async function startServer({ prefix, args, env = process.env, cwd, probeUrl, timeoutMs = 60_000 }) {
  const [command, ...rest] = prefix.length ? [...prefix, process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(command, rest, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const collect = (chunk) => {
    if (output.length < 20_000) output += chunk;
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'close');
    }
  };
  try {
    const origin = probeUrl
      ? (await answering(probeUrl, child, timeoutMs), new URL(probeUrl).origin)
      : await new Promise((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`no "Listening on" within ${timeoutMs} ms`)), timeoutMs);
          child.stdout.on('data', () => {
            const match = /Listening on (http:\/\/[^/\s]+)/.exec(output);
            if (match) {
              clearTimeout(timer);
              resolve(match[1]);
            }
          });
          child.on('exit', (code) => reject(new Error(`exited ${code}`)));
        });
    return { pid: child.pid, origin, stop };
  } catch (err) {
    await stop();
    throw new Error(`${args.join(' ')}: ${err.message}\n${output}`);
  }
}
