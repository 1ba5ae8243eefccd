import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSections, type Section } from './readme/extract.js';
import { describeFailure, runnableCommands, runSection } from './readme/runner.js';
import { fillPlaceholders, provideFixtures, sectionEnv } from './readme/section-env.js';
import { type Backend, BACKENDS, BIN, Sandbox } from './harness.js';

/**
 * Every runnable example of the README (```sh blocks; the README's "README examples" section
 * states the convention) runs against its own fresh `confctl serve --demo`, one server per
 * section, with the built bin standing in for `confctl` and `npx confctl`: once on each store
 * (on PostgreSQL without the `sh data-dir` blocks).
 */

const README = resolve(__dirname, '../../README.md');
/** Sections run this many at a time (each has its own server, data, config, home and directory). */
const PARALLEL = 3;
/** How long one example may run before its section stops (the README says 90 seconds). */
const COMMAND_TIMEOUT_MS = 90_000;

const sections = extractSections(readFileSync(README, 'utf8')).filter((s) => runnableCommands(s).length > 0);

describe('README examples', () => {
  it('finds the README examples', () => {
    expect(sections.map((s) => s.title)).toEqual(expect.arrayContaining(['Quick start', 'Users', 'Scripting']));
  });

  it('runs `npx confctl` from a clone without installing anything (Quick start)', () => {
    // A cache of its own, so a half-written shared npx cache cannot fail this; no scripts, so npx
    // does not run `prepare` (tsc) and rewrite dist/ under the other tests (dist/ is built already).
    const cache = mkdtempSync(join(tmpdir(), 'confctl-npx-'));
    try {
      const env = { ...process.env, npm_config_cache: cache, npm_config_ignore_scripts: 'true' };
      const r = spawnSync('npx', ['--no-install', 'confctl', '--version'], { cwd: resolve(__dirname, '../..'), env, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(resolve(__dirname, '../../package.json'), 'utf8')).version);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);
});

const slot = limiter(PARALLEL);
describe.each(BACKENDS)('README examples run against a fresh serve --demo on %s', (backend) => {
  const onDataDir = backend === 'sqlite';
  for (const section of sections.filter((s) => runnableCommands(s, onDataDir).length > 0)) {
    it.concurrent(`${section.title} (README line ${section.line})`, () => slot(() => runReadmeSection(section, backend)), 300_000);
  }
});

async function runReadmeSection(section: Section, backend: Backend): Promise<void> {
  const box = new Sandbox(backend);
  const onDataDir = backend === 'sqlite';
  try {
    const server = await box.serve(['--demo']);
    const profiles = JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8'));
    expect(profiles.active, 'the first serve --demo saves its key as the active profile local').toBe('local');
    const key = { keyId: profiles.profiles.local.key_id, secret: profiles.profiles.local.secret };
    expect(server.output().includes(key.secret), 'the first serve --demo prints the key it saved').toBe(true);

    const cwd = join(box.root, 'work');
    mkdirSync(cwd);
    provideFixtures(runnableCommands(section, onDataDir), cwd, key);
    const run = await runSection(section, {
      cwd,
      scratch: join(box.root, 'steps'),
      env: sectionEnv(box.env(), { bin: BIN, home: join(box.root, 'home'), shimDir: join(box.root, 'bin') }),
      substitute: (text) => fillPlaceholders(text, key),
      commandTimeoutMs: COMMAND_TIMEOUT_MS,
      onDataDir,
    });
    if (run.failure) throw new Error(describeFailure(section, run).replaceAll(key.secret, '****'));
    expect(run.steps).toHaveLength(runnableCommands(section, onDataDir).length);
  } finally {
    await box.dispose();
  }
}

/** Runs at most `n` of the given tasks at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((go) => waiting.push(go));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
