// `npm run bench:snapshot`: restoring a snapshot of the demo data set on SQLite (issue 25: at most
// 300 ms), while `serve --demo --test-controls` runs. Each round first changes the state through
// the API (a customer added, so the restore has rows to put back), then restores: over HTTP
// (`POST /_confctl/snapshots/clean/restore`, what a test harness calls between tests) and with
// `confctl admin snapshot restore` (a process of its own beside serve). The figures are medians of
// BENCH_SNAPSHOT_ROUNDS rounds (default 15), each beside its baseline of the same run: an API
// write (`POST /customers`) for the HTTP restore, `confctl version` (the CLI's start-up) for the
// command. Profile the server with BENCH_SNAPSHOT_PROFILE=DIR (node --cpu-prof).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from './lib/servers.js';
import { fixed, median } from './lib/stats.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/confctl.js');
const ROUNDS = Number(process.env.BENCH_SNAPSHOT_ROUNDS ?? 15);
const PROFILE = process.env.BENCH_SNAPSHOT_PROFILE;
const TOKEN = 'bench-snapshot-control-token-0123456789';

const work = mkdtempSync(join(tmpdir(), 'confctl-bench-snapshot-'));
const data = join(work, 'data');
const env = { ...process.env, CONFCTL_CONFIG_DIR: join(work, 'config'), CONFCTL_DATA: data, NO_COLOR: '1' };
// Every node start here would read the sandbox's certificate bundle (≈ 80 ms): nothing here needs it.
delete env.NODE_EXTRA_CA_CERTS;

/** Runs the bin; answers its wall time in milliseconds and its output. */
function confctl(args) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [BIN, ...args], { env, cwd: work, encoding: 'utf8' });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (r.status !== 0) throw new Error(`confctl ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { ms, stdout: r.stdout };
}

async function timed(work) {
  const started = process.hrtime.bigint();
  const res = await work();
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (res.status !== 200) throw new Error(`answered ${res.status}: ${await res.text()}`);
  await res.arrayBuffer();
  return ms;
}

try {
  const key = JSON.parse(confctl(['admin', 'init', '--no-profile', '-o', 'json']).stdout);
  confctl(['admin', 'seed', '--demo']);
  writeFileSync(join(work, 'token'), TOKEN);
  const prefix = PROFILE ? [process.execPath, '--cpu-prof', `--cpu-prof-dir=${PROFILE}`] : [];
  const server = await startServer({
    prefix: [],
    args: [...prefix.slice(1), BIN, 'serve', '--port', '0', '--log', 'off', '--no-profile', '--rate-limit', 'off', '--test-controls', '--control-token-file', join(work, 'token')],
    env,
    cwd: work,
  });
  try {
    const api = `${server.origin}/api/public/v2.0`;
    const headers = { 'x-access-key-id': key.key_id, 'x-access-key-secret': key.secret, 'content-type': 'application/json' };
    const control = { 'X-Confctl-Control-Token': TOKEN };
    let n = 0;
    const addCustomer = () =>
      fetch(`${api}/customers`, { method: 'POST', headers, body: JSON.stringify({ first_name: 'Bench', last_name: `R${++n}`, email: `bench${n}@example.com`, contact_number: null, address: null }) });
    await timed(() => fetch(`${server.origin}/_confctl/snapshots/clean`, { method: 'POST', headers: control }));

    const rounds = { write: [], http: [], version: [], cli: [] };
    for (let i = 0; i < ROUNDS; i++) {
      rounds.write.push(await timed(addCustomer));
      rounds.http.push(await timed(() => fetch(`${server.origin}/_confctl/snapshots/clean/restore`, { method: 'POST', headers: control })));
      await timed(addCustomer);
      rounds.version.push(confctl(['version']).ms);
      rounds.cli.push(confctl(['admin', 'snapshot', 'restore', 'clean', '-o', 'json']).ms);
    }
    const m = Object.fromEntries(Object.entries(rounds).map(([k, v]) => [k, median(v)]));
    console.log(`demo data set on SQLite, median of ${ROUNDS} rounds (goal: restore ≤ 300 ms)`);
    console.log(`  POST /_confctl/snapshots/clean/restore  ${fixed(m.http, 1)} ms   (POST /customers ${fixed(m.write, 1)} ms: ${fixed(m.http / m.write, 1)}×)`);
    console.log(`  confctl admin snapshot restore clean    ${fixed(m.cli, 1)} ms   (confctl version ${fixed(m.version, 1)} ms: ${fixed(m.cli / m.version, 2)}×)`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
