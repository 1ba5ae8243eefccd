// `npm run build && node bench/plan.js`: tenant as code at scale (issue 24). A data directory with
// BENCH_PLAN_USERS users (default 100,000; the bulk seeder: 5 % deleted, half without a time zone),
// served with `--rate-limit off`; `confctl export` writes them (BENCH_PLAN_FORMAT: json, the default,
// or yaml, export's own default),
// BENCH_PLAN_CHANGES users (default 1,000) get a new last name, and `confctl plan -f` plans them.
// Each step's wall time is printed beside the baseline of the same run, `confctl users list --all
// -o ndjson` (the same rows read with no planning), as a ratio; the issue's goal is a plan in under
// a minute. Run it with `node --cpu-prof` on the plan step (BENCH_PLAN_PROFILE=DIR) to see where
// the time goes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { dump, load } from 'js-yaml';
import { seedDataDir } from './lib/seed.js';
import { startServer } from './lib/servers.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(root, 'bin/confctl.js');
const USERS = Number(process.env.BENCH_PLAN_USERS ?? 100_000);
const CHANGES = Number(process.env.BENCH_PLAN_CHANGES ?? 1_000);
const FORMAT = process.env.BENCH_PLAN_FORMAT ?? 'json';
const PROFILE = process.env.BENCH_PLAN_PROFILE;

const work = mkdtempSync(join(tmpdir(), 'confctl-bench-plan-'));
/** Runs the bin with the bench key; answers its wall time in seconds and its output. */
function timed(args, env, nodeArgs = []) {
  const started = process.hrtime.bigint();
  const r = spawnSync(process.execPath, [...nodeArgs, BIN, ...args], { env, cwd: work, encoding: 'utf8', maxBuffer: 1 << 30 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (r.status !== 0 && !(args[0] === 'plan' && r.status === 2)) throw new Error(`confctl ${args.join(' ')} exited ${r.status}: ${r.stderr}`);
  return { seconds, stdout: r.stdout };
}

try {
  const data = join(work, 'data');
  console.error(`seeding ${USERS} users…`);
  const key = await seedDataDir(data, USERS);
  const server = await startServer({ prefix: [], args: [BIN, 'serve', '--data', data, '--port', '0', '--log', 'off', '--no-profile', '--rate-limit', 'off'], cwd: root });
  try {
    const env = { ...process.env, CONFCTL_CONFIG_DIR: join(work, 'config'), CONFCTL_BASE_URL: `${server.origin}/api/public/v2.0`, CONFCTL_KEY_ID: key.keyId, CONFCTL_KEY_SECRET: key.secret, NO_COLOR: '1' };
    delete env.NODE_EXTRA_CA_CERTS;
    const list = timed(['users', 'list', '--all', '--page-size', '100', '-o', 'ndjson'], env);
    const rows = list.stdout.split('\n').filter(Boolean).length;
    const exported = timed(['export', join(work, 'tenant'), '--kinds', 'users', '--format', FORMAT], env);
    const file = join(work, 'tenant', `users.${FORMAT}`);
    if (FORMAT !== 'json' && FORMAT !== 'yaml') throw new Error('BENCH_PLAN_FORMAT is json or yaml');
    const users = FORMAT === 'json' ? JSON.parse(readFileSync(file, 'utf8')) : load(readFileSync(file, 'utf8'));
    const editable = users.filter((u) => u.timezone && u.work_hours && u.role);
    for (const u of editable.slice(0, CHANGES)) u.last_name = `${u.last_name}-changed`;
    writeFileSync(file, FORMAT === 'json' ? JSON.stringify(users) : dump(users));
    const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE] : [];
    const planned = timed(['plan', '-f', join(work, 'tenant'), '-o', 'json', '--detailed-exitcode'], env, profile);
    const plan = JSON.parse(planned.stdout);
    const updates = plan.changes.filter((c) => c.action === 'update').length;
    if (updates !== Math.min(CHANGES, editable.length)) throw new Error(`the plan has ${updates} updates, not ${CHANGES}`);
    console.log(`| step (${rows} users, ${updates} changes, ${FORMAT}) | wall s | ratio to list --all |`);
    console.log('|---|---:|---:|');
    for (const [name, r] of [['users list --all (baseline)', list], ['export', exported], ['plan', planned]]) {
      console.log(`| ${name} | ${r.seconds.toFixed(1)} | ${(r.seconds / list.seconds).toFixed(2)} |`);
    }
    console.log(`goal: plan under 60 s: ${planned.seconds < 60 ? 'met' : 'NOT met'} (${planned.seconds.toFixed(1)} s)`);
  } finally {
    await server.stop();
  }
} finally {
  rmSync(work, { recursive: true, force: true });
}
