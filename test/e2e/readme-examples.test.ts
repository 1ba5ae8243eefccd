import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { limiter, runDocSection } from './readme/run-doc.js';
import { runnableCommands } from './readme/runner.js';
import { manualDocuments, OWN_TEST, ROOT, syntaxError } from './readme/manual.js';
import { BACKENDS } from './harness.js';

/**
 * Every runnable example of the manual (README.md and docs/*.md; ```sh blocks, by the convention
 * the development guide states) runs against its own fresh `confctl serve --demo`, one server per
 * section, with the built CLI standing in for `confctl` and `npx confctl` (cli-client.pl): on SQLite, and the
 * guides about the store on PostgreSQL too (without their `sh data-dir` blocks). The `sh no-test`
 * blocks (a container, a system package, the network, a server left running) are parsed by
 * `bash -n`.
 */

/** Sections run this many at a time (each has its own server, data, config, home and directory). */
const PARALLEL = 3;
/** How long one example may run before its section stops (the development guide says 90 seconds). */
const COMMAND_TIMEOUT_MS = 90_000;

const documents = manualDocuments();

describe('the manual', () => {
  it('finds the README and the guides, and their examples', () => {
    const titles = (doc: string) => documents.find((d) => d.doc === doc)?.sections.filter((s) => runnableCommands(s).length > 0).map((s) => s.title) ?? [];
    expect(titles('README.md')).toEqual(expect.arrayContaining(['Quick start', '1. Find users, customers and conferences', '10. Get help and completion']));
    expect(titles('docs/users-customers-conferences.md')).toEqual(expect.arrayContaining(['Users', 'Work hours', 'Customers']));
    expect(titles('docs/output-and-scripting.md')).toEqual(expect.arrayContaining(['Scripting', 'Filter syntax']));
    expect(titles('docs/administration-and-backups.md')).toEqual(expect.arrayContaining(['Local administration', 'Backups']));
    expect(documents.map((d) => d.doc)).toEqual(expect.arrayContaining(['README.md', 'docs/tenant-as-code.md', 'docs/webhooks.md']));
  });

  it('every sh no-test block parses as shell (bash -n), with its reason as its first line', () => {
    const blocks = documents.flatMap((d) => d.sections.flatMap((s) => s.blocks.filter((b) => !b.runs).map((b) => ({ where: `${d.doc} line ${b.line}`, b }))));
    expect(blocks.length).toBeGreaterThan(0);
    expect(blocks.map(({ where, b }) => [where, syntaxError(b)]).filter(([, e]) => e)).toEqual([]);
  });

  it('runs `npx confctl` from a clone without installing anything (Quick start)', () => {
    // A cache of its own, so a half-written shared npx cache cannot fail this; no scripts, so npx
    // does not run `prepare` (tsc) and rewrite dist/ under the other tests (dist/ is built already).
    const cache = mkdtempSync(join(tmpdir(), 'confctl-npx-'));
    try {
      const env = { ...process.env, npm_config_cache: cache, npm_config_ignore_scripts: 'true' };
      const r = spawnSync('npx', ['--no-install', 'confctl', '--version'], { cwd: ROOT, env, encoding: 'utf8', timeout: 60_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout.trim()).toBe(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).version);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 90_000);
});

const slot = limiter(PARALLEL);
describe.each(BACKENDS)('the manual\'s examples run against a fresh serve --demo on %s', (backend) => {
  const onDataDir = backend === 'sqlite';
  for (const { doc, sections } of documents.filter((d) => !OWN_TEST.has(d.doc) && d.stores.includes(backend))) {
    for (const section of sections.filter((s) => runnableCommands(s, onDataDir).length > 0)) {
      it.concurrent(`${doc}: ${section.title} (line ${section.line})`, () => slot(() => runDocSection(section, backend, COMMAND_TIMEOUT_MS)), 300_000);
    }
  }
});
