// One measured window: the load generator (bench/loader.js) in its own pinned process against a
// running server, with the server's CPU time read from /proc just before and after the window.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { cpuSeconds, peakRss } from './proc.js';

const LOADER = fileURLToPath(new URL('../loader.js', import.meta.url));

/**
 * Resolves once the process `pid` has used under 2 ms of CPU in 100 ms: the warm-up's requests
 * still queued when it stopped (up to connections × pipelining of them, seconds of work for a slow
 * server) must not be billed to the measured window. Gives up waiting after 30 s.
 */
async function idle(pid) {
  const deadline = Date.now() + 30_000;
  let last = cpuSeconds(pid);
  while (Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const now = cpuSeconds(pid);
    if (now - last < 0.002) return;
    last = now;
  }
}

/**
 * Loads `server` ({ pid, origin }) with `request` ({ path, method, headers, body, uniqueEmail,
 * paths }) and answers requests/s, latency p50/p99 (ms), the server's CPU µs per request, its CPU
 * utilisation during the window (1 = one core) and its peak RSS so far. Any answer other than
 * 2xx, a socket error or a timeout fails the benchmark: a figure of failed requests means nothing.
 */
export async function measure(server, request, { prefix, connections, pipelining, warmup, duration }) {
  const config = { url: `${server.origin}${request.path}`, method: request.method, headers: request.headers, body: request.body, uniqueEmail: request.uniqueEmail, paths: request.paths, connections, pipelining, warmup, duration };
  const args = [LOADER, JSON.stringify(config)];
  const [command, ...rest] = prefix.length ? [...prefix, process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(command, rest, { stdio: ['pipe', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const { value, done } = await lines.next();
    if (done) throw new Error(`load generator exited ${(await exited)[0]} before reporting`);
    return value;
  };
  if ((await next()) !== 'ready') throw new Error('load generator did not report ready');
  await idle(server.pid);
  const cpuBefore = cpuSeconds(server.pid);
  const started = performance.now();
  child.stdin.end('go\n');
  const result = JSON.parse(await next());
  const wall = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.pid) - cpuBefore;
  await exited;
  if (result.requests === 0) throw new Error(`${request.method ?? 'GET'} ${request.path}: no request completed in ${duration} s`);
  if (result.non2xx || result.errors || result.timeouts) {
    throw new Error(`${request.method ?? 'GET'} ${request.path}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return {
    rps: result.rps,
    p50: result.p50,
    p99: result.p99,
    requests: result.requests,
    cpuMicros: (cpu * 1e6) / result.requests,
    utilisation: cpu / wall,
    rss: peakRss(server.pid),
  };
}
