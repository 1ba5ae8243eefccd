// Benchmarks, reported as ratios to baselines measured in the same run (never absolute targets):
//  - server: requests/second of confctl routes vs a bare node:http JSON server, same load generator
//  - start-up: wall time of confctl commands vs `node -e 0`
// Usage: npm run bench  (builds first). BENCH_REQUESTS and BENCH_RUNS scale the work.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { Pool } from 'undici';

const root = fileURLToPath(new URL('..', import.meta.url));
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 4000);
const RUNS = Number(process.env.BENCH_RUNS ?? 15);
const CONCURRENCY = 16;

async function startServer(kind) {
  const child = spawn(process.execPath, ['bench/servers.js', kind], { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(child.stdout, 'data');
  return { child, ...JSON.parse(String(line)) };
}

/** A different casing of `word` for every call, cycling through 2^length: each misses the server's cache of list totals (256 entries). */
let variant = 0;
const casing = (word) => () => [...word].map((c, i) => ((variant >> i) & 1 ? c.toUpperCase() : c)).join('') + (variant++, '');

/** Sends REQUESTS GETs with CONCURRENCY in flight; answers requests per second. `path` may be a function (a new path per request). */
async function load(port, path, headers) {
  const pool = new Pool(`http://127.0.0.1:${port}`, { connections: CONCURRENCY });
  let sent = 0;
  const worker = async () => {
    while (sent < REQUESTS) {
      sent++;
      const p = typeof path === 'function' ? path() : path;
      const res = await pool.request({ path: p, method: 'GET', headers: { host: 'localhost', ...headers } });
      await res.body.arrayBuffer();
      if (res.statusCode !== 200) throw new Error(`${p}: status ${res.statusCode}`);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker)); // warm-up
  sent = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  const seconds = (performance.now() - started) / 1000;
  await pool.close();
  return REQUESTS / seconds;
}

function median(values) {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** Median wall time (ms) of running `node ARGS` RUNS times, without the sandbox's extra CA certificates. */
function timeCommand(args, env) {
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const r = spawnSync(process.execPath, args, { cwd: root, env, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
    times.push(performance.now() - started);
  }
  return median(times);
}

const rows = [];
const bare = await startServer('bare');
const confctl = await startServer('confctl');
try {
  const baseline = await load(bare.port, '/', {});
  const auth = { 'x-access-key-id': confctl.keyId, 'x-access-key-secret': confctl.secret };
  const small = { host: 'small.test', 'x-access-key-id': confctl.smallKeyId, 'x-access-key-secret': confctl.smallSecret };
  const dept = (word) => { const v = casing(word); return () => `/api/public/v2.0/users?filter_attribute=department&filter_value=${v()}`; };
  // List totals are cached until a write: "total cached" rows repeat one query; "total counted"
  // rows vary the filter value's casing (same rows matched) so that every request counts.
  const routes = [
    ['GET /users/{id}', '/api/public/v2.0/users/4242'],
    ['GET /users (page of 15, total cached)', '/api/public/v2.0/users'],
    ['GET /users?email=… (indexed Equal)', '/api/public/v2.0/users?filter_attribute=email&filter_value=x@y.z'],
    ['GET /users?department=… (100k tenant, total counted)', dept('engineering')],
    ['GET /users (50-user tenant, total cached)', '/api/public/v2.0/users', small],
    ['GET /users?department=… (50-user tenant, total counted)', dept('engineering'), small],
    ['GET /openapi.json', '/api/public/v2.0/openapi.json'],
  ];
  rows.push(['server: bare node:http (baseline)', `${baseline.toFixed(0)} req/s`, '1.00']);
  for (const [name, path, headers = auth] of routes) {
    const rps = await load(confctl.port, path, headers);
    rows.push([`server: ${name}`, `${rps.toFixed(0)} req/s`, (rps / baseline).toFixed(rps / baseline < 0.1 ? 4 : 2)]);
  }
} finally {
  bare.child.kill('SIGTERM');
  confctl.child.kill('SIGTERM');
}

const env = { ...process.env, NO_COLOR: '1', CONFCTL_CONFIG_DIR: `${root}/.bench-config` };
delete env.NODE_EXTRA_CA_CERTS;
const nodeBaseline = timeCommand(['-e', '0'], env);
rows.push(['start-up: node -e 0 (baseline)', `${nodeBaseline.toFixed(1)} ms`, '1.00']);
for (const args of [['--version'], ['users', '--help'], ['profile', 'list']]) {
  const ms = timeCommand(['bin/confctl.js', ...args], env);
  rows.push([`start-up: confctl ${args.join(' ')}`, `${ms.toFixed(1)} ms`, (ms / nodeBaseline).toFixed(2)]);
}
spawnSync('rm', ['-rf', `${root}/.bench-config`]);

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'benchmark'.padEnd(width)}  ${'measured'.padStart(14)}  ratio to baseline`);
for (const [name, value, ratio] of rows) console.log(`${name.padEnd(width)}  ${value.padStart(14)}  ${ratio}`);
