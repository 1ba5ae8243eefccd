/**
 * The package as users install it: `npm pack`, the tarball installed into an empty prefix, then
 * `confctl --version`, `confctl serve --port 0` and a client command run from that install (the
 * bundle, its external add-ons from the install's node_modules, Redoc's asset for /docs).
 * better-sqlite3 stays a real dependency. Its install script is skipped and the checkout's
 * compiled addon copied in when the versions match, so no 90 s compile; npm prefers its cache
 * (`npm ci` filled it) and uses the registry only for what is missing. Budget: 5 minutes.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

const ROOT = resolve(__dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const BUDGET_MS = 300_000;

const sandbox = new Sandbox();
const prefix = join(sandbox.root, 'prefix');
const installed = join(prefix, 'node_modules', 'confctl');
let packed: string[] = [];
let serve: ChildProcess | undefined;

/** Runs the installed confctl (through node, as the bin's shebang would). */
function confctl(args: string[]) {
  return spawnSync(process.execPath, [join(installed, 'bin', 'confctl.js'), ...args], { env: sandbox.env(), encoding: 'utf8', input: '' });
}

const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(() => {
  const npm = (args: string[], cwd: string) => execFileSync(NPM, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // `--ignore-scripts`: `prepare` would rebuild dist/ under the other tests; the suite built it already.
  const [pack] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', sandbox.root], ROOT)) as { filename: string; files: { path: string }[] }[];
  packed = pack.files.map((f) => f.path);
  mkdirSync(prefix);
  npm(['install', '--prefix', prefix, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', join(sandbox.root, pack.filename)], prefix);
  const sqlite = join(prefix, 'node_modules', 'better-sqlite3');
  const ours = join(ROOT, 'node_modules', 'better-sqlite3');
  if (versionOf(sqlite) === versionOf(ours)) cpSync(join(ours, 'build', 'Release', 'better_sqlite3.node'), join(sqlite, 'build', 'Release', 'better_sqlite3.node'));
  else npm(['rebuild', 'better-sqlite3', '--prefix', prefix], prefix);
}, BUDGET_MS);

afterAll(async () => {
  const child = serve;
  if (child && child.exitCode === null && child.signalCode === null) await new Promise((done) => child.once('exit', done).kill('SIGTERM'));
  await sandbox.dispose();
});

describe('e2e: the packed package, installed into an empty prefix', () => {
  it('ships the bin, the bundle and the /docs asset, not the sources or the build metafile', () => {
    expect(packed).toEqual(expect.arrayContaining(['bin/confctl.js', 'dist/bundle/confctl.js', 'dist/assets/redoc.standalone.js', 'package.json', 'README.md']));
    expect(packed.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p === 'dist/bundle/meta.json' || p.startsWith('dist/cli/'))).toEqual([]);
    expect(existsSync(join(prefix, 'node_modules', '.bin', process.platform === 'win32' ? 'confctl.cmd' : 'confctl'))).toBe(true);
  });

  it('confctl --version prints the package version', () => {
    const r = confctl(['--version']);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${versionOf(ROOT)}\n`);
  });

  it('serve --port 0 listens, a client command reads from it, and /docs has its asset', async () => {
    serve = spawn(process.execPath, [join(installed, 'bin', 'confctl.js'), 'serve', '--port', '0', '--log', 'off'], { env: sandbox.env(), stdio: ['ignore', 'pipe', 'pipe'] });
    const baseUrl = await new Promise<string>((done, fail) => {
      let out = '';
      const collect = (d: Buffer) => {
        out += d.toString();
        const m = /Listening on (\S+)/.exec(out);
        if (m) done(m[1]);
      };
      serve?.stdout?.on('data', collect);
      serve?.stderr?.on('data', collect);
      serve?.once('exit', (code) => fail(new Error(`serve exited ${code}: ${out}`)));
    });
    const r = confctl(['customers', 'list', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual([]);
    const status = await new Promise<number | undefined>((done, fail) => get(`${new URL(baseUrl).origin}/docs/redoc.standalone.js`, (res) => done(res.resume().statusCode)).on('error', fail));
    expect(status).toBe(200);
  });
});
