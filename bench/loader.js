// The load generator, run by the benchmark in its own process (pinned away from the server):
//   node bench/loader.js '<json config>'
// Config: { url, method, headers, body, uniqueEmail, paths, connections, pipelining, warmup, duration }.
// It loads the server for `warmup` seconds, prints `ready`, waits for a line on stdin (the
// benchmark reads the server's CPU time then), loads it for `duration` seconds and prints one JSON
// line with the measured window's figures. `uniqueEmail` makes every request's JSON body carry a
// new email address (for creations that must not collide); `paths` sends the requests to these
// paths in turn instead of the url's (a different user each request).
import autocannon from 'autocannon';
import { once } from 'node:events';
import { createInterface } from 'node:readline';

const config = JSON.parse(process.argv[2]);

/** Autocannon options for one phase; `phase` keeps emails of the warm-up and the window apart. */
function options(phase, duration) {
  let n = 0;
  const unique = config.uniqueEmail
    ? [{ setupRequest: (req) => ({ ...req, body: JSON.stringify({ ...config.body, email: `${phase}.${process.pid}.${n++}@bench.example.com` }) }) }]
    : config.paths
      ? [{ setupRequest: (req) => ({ ...req, path: config.paths[n++ % config.paths.length] }) }]
      : undefined;
  return {
    url: config.url,
    method: config.method ?? 'GET',
    headers: config.headers,
    body: config.body && !config.uniqueEmail ? JSON.stringify(config.body) : undefined,
    requests: unique,
    connections: config.connections,
    pipelining: config.pipelining,
    duration,
    // 500 requests in flight on a slow server (or a busy shared machine) wait seconds in its
    // queue: a slow answer is a figure, not a failure.
    timeout: 60,
  };
}

if (config.warmup > 0) await autocannon(options('warm', config.warmup));
process.stdout.write('ready\n');
const lines = createInterface({ input: process.stdin });
await once(lines, 'line');
lines.close();
const r = await autocannon(options('run', config.duration));
process.stdout.write(
  `${JSON.stringify({
    requests: r.requests.total,
    seconds: r.duration,
    rps: r.requests.total / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
  })}\n`,
);
