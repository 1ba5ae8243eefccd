// `npm run bench:scale` (builds first): issue 21's scale scenario. It builds one tenant of
// --users users and --customers customers (default 1,000,000 each) with `admin seed`, a second
// tenant of 1,000 users and 1,000 customers, and copies the instance into an embedded PostgreSQL
// with `admin copy` (both commands timed wall-clock, unpinned: the whole machine). Then for each
// store it starts `serve --rate-limit off` pinned to one core and, from a client process pinned to
// another (bench/scale-client.js), measures every list class of bench/lib/scale-plan.js: --samples
// cold requests (each after a write to the same table) and as many warm ones, p50 and p99; then
// `GET /users/{id}` while 4 clients send cold `last_name` Contains lists back to back; and the
// server's peak RSS (VmHWM). Prints a Markdown table with the goals.
// Options (or environment): --users N (BENCH_SCALE_USERS), --customers N (BENCH_SCALE_CUSTOMERS,
// default: --users), --samples N (BENCH_SCALE_SAMPLES, default 20), --only REGEX (list classes
// whose name matches), --work DIR (where the data goes; default a temporary directory), --keep
// (leave the data behind). A quick check: `npm run bench:scale -- --users 20000`.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { listClasses, meetsGoal, noisyPaths } from './lib/scale-plan.js';
import { machine, peakRss, pinning } from './lib/proc.js';
import { startServer } from './lib/servers.js';
import { fixed, markdownTable, megabytes, percentile } from './lib/stats.js';
import { createDatabase } from './lib/postgres.js';
import { startPostgres } from '../test/pg/postgres-server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/confctl.js');
const CLIENT = join(root, 'bench/scale-client.js');
const API = '/api/public/v2.0';
const SMALL = 1_000;

const { values: opts } = parseArgs({
  options: { users: { type: 'string' }, customers: { type: 'string' }, samples: { type: 'string' }, only: { type: 'string' }, work: { type: 'string' }, keep: { type: 'boolean' } },
});
const count = (value, fallback) => {
  const n = Number(value ?? fallback);
  if (!Number.isInteger(n) || n < 1) throw new Error(`not a positive whole number: ${value}`);
  return n;
};
const USERS = count(opts.users ?? process.env.BENCH_SCALE_USERS, 1_000_000);
const CUSTOMERS = count(opts.customers ?? process.env.BENCH_SCALE_CUSTOMERS, USERS);
const SAMPLES = count(opts.samples ?? process.env.BENCH_SCALE_SAMPLES, 20);
const ONLY = opts.only ? new RegExp(opts.only) : undefined;
/** The head-of-line probe: up to this many `GET /users/{id}`, for at most HOL_SECONDS once 20 were answered. */
const PROBES = 200;
const HOL_SECONDS = 60;
/**
 * The embedded PostgreSQL's settings beyond the durable defaults: WAL room for the whole copy
 * (about 4.2 GB of WAL at 1M users and 1M customers), so no checkpoint is requested while it runs,
 * as docs/performance.md advises a user's server for a large `admin copy`.
 */
const POSTGRES_SETTINGS = { max_wal_size: '16GB' };

const pin = pinning();
const work = opts.work ?? mkdtempSync(join(tmpdir(), 'confctl-scale-'));
mkdirSync(work, { recursive: true });
const data = join(work, 'data');
const env = { ...process.env, NO_COLOR: '1', CONFCTL_CONFIG_DIR: join(work, 'config') };
delete env.NODE_EXTRA_CA_CERTS;
delete env.CONFCTL_DATABASE_URL;
const log = (text) => console.error(`[${new Date().toISOString().slice(11, 19)}] ${text}`);

/** Runs `confctl args…` to the end; answers its JSON output and wall-clock seconds. */
function confctl(args, extraEnv = {}) {
  const started = performance.now();
  const r = spawnSync(process.execPath, [BIN, ...args, '-o', 'json'], { env: { ...env, ...extraEnv }, cwd: root, encoding: 'utf8', maxBuffer: 1 << 24 });
  const seconds = (performance.now() - started) / 1000;
  if (r.status !== 0) throw new Error(`confctl ${args.join(' ')}: exit ${r.status}\n${r.stderr}`);
  return { out: r.stdout.trim() ? JSON.parse(r.stdout) : undefined, seconds };
}

/** Values the classes need from the data set, read once from the SQLite store: departments and stored emails and phone numbers. */
async function sampleData(tenantDomain) {
  const { openLocal } = await import('../dist/local/open.js');
  const { store } = openLocal(data, {});
  try {
    const tenant = store.tenants.list().find((t) => t.primary_domain === tenantDomain);
    const spread = (total) => Array.from({ length: SAMPLES * 2 }, (_, i) => Math.floor(((i * 7919) % (SAMPLES * 2)) * (total / (SAMPLES * 2))) + 1);
    const users = spread(USERS).map((id) => store.users.get(tenant.id, id)).filter(Boolean);
    const customers = spread(CUSTOMERS).map((id) => store.customers.get(tenant.id, id)).filter(Boolean);
    return {
      roles: store.roles.list(tenant.id),
      departmentIds: store.departments.list(tenant.id).map((d) => d.id),
      sampled: { userEmails: users.map((u) => u.email), customerEmails: customers.map((c) => c.email), contactNumbers: customers.map((c) => c.contact_number).filter(Boolean) },
      probeIds: users.map((u) => u.id),
    };
  } finally {
    store.close();
  }
}

/** The client process, pinned, running `jobs`; calls `onResult` with each job's result as it arrives. */
async function runClient(origin, headers, jobs, onResult) {
  const file = join(work, `jobs-${process.hrtime.bigint()}.json`);
  writeFileSync(file, JSON.stringify({ origin, headers, jobs }));
  const args = [CLIENT, file];
  const [command, ...rest] = pin.load.length ? [...pin.load, process.execPath, ...args] : [process.execPath, ...args];
  const child = spawn(command, rest, { stdio: ['ignore', 'pipe', 'inherit'] });
  const exited = once(child, 'exit');
  for await (const line of createInterface({ input: child.stdout })) onResult(JSON.parse(line));
  const [code] = await exited;
  if (code !== 0) throw new Error(`the client exited ${code}`);
}

const summary = (ms) => ({ p50: percentile(ms, 50), p99: percentile(ms, 99) });
const msText = (v) => (v < 10 ? fixed(v, 1) : Math.round(v).toLocaleString('en'));
const pair = (s) => (s ? `${msText(s.p50)} / ${msText(s.p99)}` : 'n/a');

/** Measures one store's server: every class, the head-of-line probe and the peak RSS. */
async function measureStore(label, started, { classes, probe, noisy, headers }) {
  const server = await started;
  const results = new Map();
  try {
    const jobs = classes.map((c) => ({ kind: 'class', ...c }));
    jobs.push({ kind: 'hol', name: 'hol', probe, noisy, clients: 4, seconds: HOL_SECONDS });
    await runClient(server.origin, headers, jobs, (r) => {
      if (r.name === 'hol') {
        results.set('hol', { probe: summary(r.probe), requests: r.probe.length, noisy: r.noisy });
        log(`${label}: GET /users/{id} beside 4 noisy clients p50/p99 ${pair(summary(r.probe))} ms (${r.probe.length} requests, ${r.noisy} noisy lists)`);
      } else {
        results.set(r.name, { cold: summary(r.cold), warm: summary(r.warm) });
        log(`${label}: ${r.name}: cold ${pair(summary(r.cold))}, warm ${pair(summary(r.warm))} ms`);
      }
    });
    results.set('rss', peakRss(server.pid));
    return results;
  } finally {
    await server.stop();
  }
}

const loadText = () => loadavg().map((l) => l.toFixed(1)).join(', ');
const loadBefore = loadText();
let postgres;
try {
  log(`building the data set in ${work}: ${USERS.toLocaleString('en')} users and ${CUSTOMERS.toLocaleString('en')} customers, plus a tenant of ${SMALL.toLocaleString('en')} each`);
  const { out: key } = confctl(['admin', 'init', '--data', data, '--no-profile']);
  const seeded = confctl(['admin', 'seed', '--data', data, '--users', String(USERS), '--customers', String(CUSTOMERS)]);
  log(`admin seed: ${fixed(seeded.seconds, 1)} s`);
  confctl(['admin', 'tenants', 'add', 'small.example', '--data', data]);
  confctl(['admin', 'seed', '--data', data, '--tenant', 'small.example', '--users', String(SMALL), '--customers', String(SMALL)]);
  const found = await sampleData(key.tenant);

  log('starting PostgreSQL and copying the instance in (admin copy)…');
  postgres = await startPostgres({ durable: true, settings: POSTGRES_SETTINGS });
  const database = await createDatabase(postgres.url, 'confctl_scale');
  const copied = confctl(['admin', 'copy', '--from', data, '--to', database, '--media-to', join(work, 'pg-media')]);
  log(`admin copy: ${fixed(copied.seconds, 1)} s`);

  const headers = { 'x-access-key-id': key.key_id, 'x-access-key-secret': key.secret };
  const liveOf = async (origin, table) => {
    const res = await fetch(`${origin}${API}/${table}?page_size=1`, { headers });
    if (res.status !== 200) throw new Error(`GET ${table}: ${res.status}`);
    return (await res.json()).total;
  };
  const names = await import('../dist/admin/seed/names.js');
  const serveArgs = [BIN, 'serve', '--port', '0', '--log', 'off', '--no-profile', '--rate-limit', 'off'];
  const stores = [
    ['SQLite', () => startServer({ prefix: pin.server, args: [...serveArgs, '--data', data], env, cwd: root })],
    ['PostgreSQL', () => startServer({ prefix: pin.server, args: serveArgs, env: { ...env, CONFCTL_DATABASE_URL: database, CONFCTL_DATA: join(work, 'pg-data'), CONFCTL_MEDIA_DIR: join(work, 'pg-media') }, cwd: root })],
  ];
  const measured = {};
  let classes;
  for (const [label, start] of stores) {
    const started = start();
    const { origin } = await started;
    if (!classes) {
      const [liveUsers, liveCustomers] = [await liveOf(origin, 'users'), await liveOf(origin, 'customers')];
      classes = listClasses({ users: USERS, customers: CUSTOMERS, liveUsers, liveCustomers, samples: SAMPLES, names, ...found }).filter((c) => !ONLY || ONLY.test(c.name));
    }
    log(`${label}: ${classes.length} list classes, ${SAMPLES} cold and ${SAMPLES} warm requests each`);
    const probe = Array.from({ length: PROBES }, (_, i) => `${API}/users/${found.probeIds[i % found.probeIds.length]}`);
    measured[label] = await measureStore(label, started, { classes, probe, noisy: noisyPaths(names, 1000), headers });
  }

  const labels = stores.map(([label]) => label);
  const goalText = (c) => (c.goal === 'short' ? 'cold p99 ≤ 500 ms, warm p99 ≤ 20 ms' : 'cold p99 ≤ 100 ms, warm p99 ≤ 20 ms');
  const verdict = (check) => labels.map((l) => `${l} ${check(l) ? 'met' : 'not met'}`).join(', ');
  const rows = classes.map((c) => [
    c.name,
    ...labels.flatMap((l) => [pair(measured[l].get(c.name).cold), pair(measured[l].get(c.name).warm)]),
    `${goalText(c)}: ${verdict((l) => meetsGoal(c.goal, measured[l].get(c.name).cold, measured[l].get(c.name).warm))}`,
  ]);
  const wide = (text, ...cells) => [text, ...cells, ...Array(labels.length * 2 - cells.length).fill('')];
  const hol = labels.map((l) => measured[l].get('hol').probe);
  rows.push([
    '`GET /users/{id}` while 4 clients send cold `last_name` Contains lists back to back (p50 / p99)',
    ...labels.flatMap((l, i) => [pair(hol[i]), `${measured[l].get('hol').requests} requests; ${measured[l].get('hol').noisy} lists meanwhile`]),
    `p99 ≤ 25 ms: ${verdict((l) => hol[labels.indexOf(l)].p99 <= 25)}`,
  ]);
  rows.push(['`serve` peak RSS (VmHWM)', ...labels.flatMap((l) => [megabytes(measured[l].get('rss')), '']), `≤ 150 MB: ${verdict((l) => (measured[l].get('rss') ?? Infinity) <= 150e6)}`]);
  rows.push([...wide(`\`admin seed --users ${USERS} --customers ${CUSTOMERS}\` (wall clock)`, `${fixed(seeded.seconds, 1)} s`), `≤ 60 s: ${seeded.seconds <= 60 ? 'met' : 'not met'}`]);
  rows.push([...wide('`admin copy` into PostgreSQL (wall clock)', '', '', `${fixed(copied.seconds, 1)} s`), `≤ 60 s: ${copied.seconds <= 60 ? 'met' : 'not met'}`]);

  const commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: root, encoding: 'utf8' }).trim();
  console.log(`Machine: ${machine()}; ${pin.note}. Load average before ${loadBefore}, after ${loadText()} (a shared machine: figures are noisy).`);
  console.log(`Commit: ${commit}; ${USERS.toLocaleString('en')} users and ${CUSTOMERS.toLocaleString('en')} customers in one tenant, ${SMALL.toLocaleString('en')} of each in another; page_size 15; ${SAMPLES} cold requests (each after a write to the same table) and ${SAMPLES} warm ones per class; latencies in ms, p50 / p99.\n`);
  console.log(markdownTable(['list class', ...labels.flatMap((l) => [`${l} cold`, `${l} warm`]), 'goal'], rows));
} finally {
  await postgres?.stop();
  if (!opts.keep) rmSync(work, { recursive: true, force: true });
}
