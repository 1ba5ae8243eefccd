/**
 * Start-up stays fast by loading a package only on the path that needs it (ARCHITECTURE.md,
 * "Measured facts"). These tests run the built bin (the esbuild bundle) with loader hooks that
 * record every file it imports, and check which packages each kind of command loads: a package
 * counts as loaded when a bundle chunk holding its code loads (the build's metafile says which
 * chunk holds what) or when it loads from node_modules (the external ones). No timings.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const BIN = resolve(__dirname, '../../bin/confctl.js');
const HOOKS = pathToFileURL(resolve(__dirname, 'startup-hooks.mjs')).href;
const ROOT = resolve(__dirname, '../..');
/** esbuild's metafile of the bundle: each output chunk with its input files. */
const META = JSON.parse(readFileSync(join(ROOT, 'dist/bundle/meta.json'), 'utf8')) as { outputs: Record<string, { inputs: Record<string, unknown> }> };
const PACKAGE = /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)\//;

/** The packages whose code a loaded file holds: its own, or, for a bundle chunk, those bundled into it. */
function packagesOf(url: string): string[] {
  const file = fileURLToPath(url);
  const own = PACKAGE.exec(file);
  if (own) return [own[1]];
  const chunk = META.outputs[file.slice(ROOT.length + 1).split('\\').join('/')];
  return chunk ? Object.keys(chunk.inputs).flatMap((input) => PACKAGE.exec(input)?.[1] ?? []) : [];
}
const root = mkdtempSync(join(tmpdir(), 'confctl-startup-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

let runs = 0;

/** The node arguments, environment and record file to run `confctl ARGS` (no terminal, empty config directory). */
function probe(args: string[], extraEnv: Record<string, string>) {
  const out = join(root, `packages-${++runs}.txt`);
  const register = `import { register } from 'node:module'; register(${JSON.stringify(HOOKS)}, { data: { out: ${JSON.stringify(out)} } });`;
  const env: NodeJS.ProcessEnv = { ...process.env, CONFCTL_CONFIG_DIR: join(root, 'config'), NO_COLOR: '1', ...extraEnv };
  for (const k of ['CONFCTL_PROFILE', 'CONFCTL_BASE_URL', 'CONFCTL_DOMAIN', 'CONFCTL_KEY_ID', 'CONFCTL_KEY_SECRET', 'CONFCTL_OUTPUT']) {
    if (!(k in extraEnv)) delete env[k];
  }
  return { out, env, argv: ['--import', `data:text/javascript,${encodeURIComponent(register)}`, BIN, ...args] };
}

/** The packages the run recorded in `out`. */
function packagesIn(out: string): string[] {
  const urls = existsSync(out) ? readFileSync(out, 'utf8').split('\n').filter(Boolean) : [];
  return [...new Set(urls.flatMap(packagesOf))].sort();
}

/** Runs `confctl ARGS`; answers its exit code and the packages it loaded. */
function loaded(args: string[], extraEnv: Record<string, string> = {}): { code: number | null; stderr: string; packages: string[] } {
  const { out, env, argv } = probe(args, extraEnv);
  const r = spawnSync(process.execPath, argv, { env, encoding: 'utf8', input: '' });
  return { code: r.status, stderr: r.stderr, packages: packagesIn(out) };
}

/** `loaded` without blocking this process, for runs that talk to a server in it. */
async function loadedAsync(args: string[], extraEnv: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string; packages: string[] }> {
  const { out, env, argv } = probe(args, extraEnv);
  const child = spawn(process.execPath, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c) => (stdout += c));
  child.stderr.on('data', (c) => (stderr += c));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, stdout, stderr, packages: packagesIn(out) };
}

describe('packages loaded at start-up', () => {
  it('records what a command imports (the probe itself works)', () => {
    const r = loaded(['serve', '--help']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages).toContain('commander');
  });

  it('--version loads no package, not even commander', () => {
    const r = loaded(['--version']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages).toEqual([]);
  });

  it('version (the command) loads commander alone', () => {
    expect(loaded(['version']).packages).toEqual(['commander']);
  });

  it.each(['users', 'customers', 'conferences', 'recordings', 'events', 'api', 'doctor', 'profile', 'login', 'serve', 'admin', 'completion', 'webhooks', 'wait', 'mirror'])(
    '%s --help loads commander alone (no zod, conf, table or colour)',
    (noun) => {
      const r = loaded([noun, '--help']);
      expect(r.code, r.stderr).toBe(0);
      expect(r.packages).toEqual(['commander']);
    },
  );

  it('profile list loads conf but not zod', () => {
    const r = loaded(['profile', 'list', '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages).toContain('conf');
    expect(r.packages).not.toContain('zod');
  });

  it('webhooks verify loads commander alone: node:crypto verifies, no client, server or store', () => {
    const r = loaded(['webhooks', 'verify', '--secret', 's', '--max-age', '0']);
    expect(r.code).toBe(2); // empty stdin: nothing to verify
    expect(r.stderr).toContain('the capture has no header lines');
    expect(r.packages).toEqual(['commander']);
  });

  it('an API command reading the active profile does not load conf (it reads profiles.json itself); a write loads zod alone besides, to check its body', () => {
    const dir = join(root, 'config-api');
    mkdirSync(dir);
    const profile = { base_url: 'http://127.0.0.1:9/api/public/v2.0', key_id: 'ak_x', secret: 's' };
    writeFileSync(join(dir, 'profiles.json'), JSON.stringify({ active: 'p', profiles: { p: profile } }));
    const r = loaded(['customers', 'create', '--first-name', 'Ada', '--last-name', 'Lovelace', '--email', 'ada@example.com', '--dry-run'], { CONFCTL_CONFIG_DIR: dir });
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages).toEqual(['commander', 'zod']);
  });

  it('an API command that sends loads commander alone: the client is node:http, the server validates (no zod)', async () => {
    const server = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify({ message: 'OK', data: { id: 42, name: 'Ada' } }));
    });
    await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
    try {
      const r = await loadedAsync(['users', 'get', '42', '-o', 'json'], {
        CONFCTL_BASE_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/public/v2.0`,
        CONFCTL_KEY_ID: 'ak_x',
        CONFCTL_KEY_SECRET: 's',
      });
      expect(r.code, r.stderr).toBe(0);
      expect(r.stdout).toContain('"id": 42');
      expect(r.packages).toEqual(['commander']);
    } finally {
      server.close();
    }
  });
});

describe('packages an admin command loads', () => {
  it('admin keys list on a data directory loads the store but neither zod nor the server (nor conf)', () => {
    const data = join(root, 'data-admin');
    const init = spawnSync(process.execPath, [BIN, 'admin', 'init', '--data', data, '--no-profile', '-o', 'json'], { env: { ...process.env, CONFCTL_CONFIG_DIR: join(root, 'config-admin') }, encoding: 'utf8', input: '' });
    expect(init.status, init.stderr).toBe(0);
    const r = loaded(['admin', 'keys', 'list', '--data', data, '-o', 'json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.packages).toEqual(['better-sqlite3', 'commander']);
  });
});
