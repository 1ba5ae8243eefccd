/**
 * The package as the README installs it: `npm pack`, then `npm install -g` of the tarball (here
 * into an empty prefix, `--prefix`, instead of npm's global one), then the bare `confctl` found
 * on the PATH from another directory: `--version`, `serve --port 0` and a client command (the
 * bundle, its external add-ons from the install's node_modules, Redoc's asset for /docs).
 * better-sqlite3 stays a real dependency. Its install script is skipped and the checkout's
 * compiled addon copied in when the versions match, so no 90 s compile; npm prefers its cache
 * (`npm ci` filled it) and uses the registry only for what is missing. Budget: 5 minutes.
 */
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import { get } from 'node:http';
import { delimiter, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Sandbox } from './harness.js';

const ROOT = resolve(__dirname, '../..');
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const BUDGET_MS = 300_000;

const sandbox = new Sandbox();
const prefix = join(sandbox.root, 'prefix');
const installed = join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', 'confctl');
/** A directory of its own, away from the clone and the prefix: the bare command must work anywhere. */
const elsewhere = join(sandbox.root, 'elsewhere');
let packed: string[] = [];
let serve: ChildProcess | undefined;

/** The environment with the prefix's bin directory first on the PATH, as a global install puts it there. */
const onPath = () => ({ ...sandbox.env(), PATH: `${join(prefix, 'bin')}${delimiter}${process.env.PATH ?? ''}` });

/** Runs the bare `confctl` from the PATH (its shebang picks node), in `elsewhere`. */
function confctl(args: string[]) {
  return spawnSync('confctl', args, { env: onPath(), cwd: elsewhere, encoding: 'utf8', input: '' });
}

const versionOf = (dir: string) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { version: string }).version;

beforeAll(() => {
  const npm = (args: string[], cwd: string) => execFileSync(NPM, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  // `--ignore-scripts`: `prepare` would rebuild dist/ under the other tests; the suite built it already.
  const [pack] = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', sandbox.root], ROOT)) as { filename: string; files: { path: string }[] }[];
  packed = pack.files.map((f) => f.path);
  mkdirSync(prefix);
  mkdirSync(elsewhere);
  npm(['install', '--global', '--prefix', prefix, '--ignore-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--omit=dev', join(sandbox.root, pack.filename)], prefix);
  const sqlite = join(installed, 'node_modules', 'better-sqlite3');
  const ours = join(ROOT, 'node_modules', 'better-sqlite3');
  if (versionOf(sqlite) === versionOf(ours)) cpSync(join(ours, 'build', 'Release', 'better_sqlite3.node'), join(sqlite, 'build', 'Release', 'better_sqlite3.node'));
  else npm(['rebuild', 'better-sqlite3', '--prefix', installed], installed);
}, BUDGET_MS);

afterAll(async () => {
  const child = serve;
  if (child && child.exitCode === null && child.signalCode === null) await new Promise((done) => child.once('exit', done).kill('SIGTERM'));
  await sandbox.dispose();
});

describe('the README gives this way onto the PATH', () => {
  it('npm pack, then npm install -g of the tarball; and warns against npx confctl outside the clone', () => {
    const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(readme).toContain('### Getting `confctl` on your PATH');
    const section = readme.slice(readme.indexOf('### Getting `confctl` on your PATH'));
    const text = section.slice(0, section.indexOf('\n## '));
    expect(text).toContain('npm pack');
    expect(text).toMatch(/npm install -g \.\/confctl-\S*\.tgz/);
    expect(text).not.toContain('npm link');
    expect(text).toMatch(/outside the clone[^.]*`npx confctl`|`npx confctl`[^.]*outside the clone/);
  });
});

describe('e2e: the packed package, installed into an empty prefix', () => {
  it('ships the bin, the bundle and the /docs asset, not the sources or the build metafile', () => {
    expect(packed).toEqual(expect.arrayContaining(['bin/confctl.js', 'dist/bundle/confctl.js', 'dist/assets/redoc.standalone.js', 'package.json', 'README.md', 'man/confctl.1', 'man/confctl-users-list.1']));
    expect(packed.filter((p) => p.startsWith('src/') || p.startsWith('test/') || p === 'dist/bundle/meta.json' || p.startsWith('dist/cli/'))).toEqual([]);
    expect(existsSync(join(prefix, 'bin', process.platform === 'win32' ? 'confctl.cmd' : 'confctl'))).toBe(true);
  });

  it('installs the man pages where man finds them: PREFIX/share/man/man1, one per command', () => {
    const man1 = join(prefix, 'share', 'man', 'man1');
    const pages = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[] }).man;
    expect(pages.length).toBeGreaterThan(40);
    for (const page of pages) expect(readFileSync(join(man1, page.slice('man/'.length)), 'utf8'), page).toBe(readFileSync(join(ROOT, page), 'utf8'));
    const man = spawnSync('man', ['--version'], { encoding: 'utf8' });
    if (man.status !== 0) return; // no man(1) on this machine: the files above are what it would read
    const shown = spawnSync('man', ['confctl-users-list'], { env: { ...onPath(), MANPATH: join(prefix, 'share', 'man'), MANPAGER: 'cat', MANWIDTH: '100' }, cwd: elsewhere, encoding: 'utf8' });
    expect(shown.status, shown.stderr).toBe(0);
    expect(shown.stdout).toMatch(/confctl users list \[options\]/);
  });

  it('the bare confctl on the PATH, run from another directory, prints the package version', () => {
    const r = confctl(['--version']);
    expect(r.error).toBeUndefined();
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(`${versionOf(ROOT)}\n`);
  });

  it('serve --port 0 listens, a client command reads from it, and /docs has its asset', async () => {
    serve = spawn('confctl', ['serve', '--port', '0', '--log', 'off'], { env: onPath(), cwd: elsewhere, stdio: ['ignore', 'pipe', 'pipe'] });
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
