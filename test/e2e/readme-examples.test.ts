import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSections } from './readme/extract.js';
import { limiter, runDocSection } from './readme/run-doc.js';
import { runnableCommands } from './readme/runner.js';
import { BACKENDS } from './harness.js';

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
    it.concurrent(`${section.title} (README line ${section.line})`, () => slot(() => runDocSection(section, backend, COMMAND_TIMEOUT_MS)), 300_000);
  }
});
