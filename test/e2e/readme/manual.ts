import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { type Block, extractSections, type Section } from './extract.js';
import type { Backend } from '../harness.js';

/**
 * The manual whose examples run in the tests: README.md and the guides docs/*.md (not the
 * generated reference in docs/commands/). Each document's sections run once, against `serve` on
 * SQLite; the guides about the store run once on each store (the development guide says so).
 */

export const ROOT = resolve(__dirname, '../../..');

/** The guides whose examples are about the store: they run on SQLite and on PostgreSQL. */
export const ON_EACH_STORE: ReadonlySet<string> = new Set([
  'docs/administration-and-backups.md',
  'docs/instances-and-postgresql.md',
  'docs/webhooks.md',
]);

/** Guides with a test file of their own, which runs their examples (docs-tenant.test.ts, on each store). */
export const OWN_TEST: ReadonlySet<string> = new Set(['docs/tenant-as-code.md']);

export interface ManualDocument {
  /** The path from the repository's root, as failures name it. */
  doc: string;
  sections: Section[];
  stores: readonly Backend[];
}

/** README.md, then the guides of docs/ by name. */
export function manualDocuments(): ManualDocument[] {
  const guides = readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`);
  return ['README.md', ...guides].map((doc) => ({
    doc,
    sections: extractSections(readFileSync(join(ROOT, doc), 'utf8'), doc === 'README.md' ? 'README' : doc),
    stores: ON_EACH_STORE.has(doc) ? ['sqlite', 'postgres'] : ['sqlite'],
  }));
}

/** Answers bash's complaint about a block's text (`bash -n`: parsed, nothing run), or '' when it parses. */
export function syntaxError(block: Block): string {
  const r = spawnSync('bash', ['--noprofile', '--norc', '-n'], { input: block.source, encoding: 'utf8' });
  return r.status === 0 ? '' : r.stderr.trim() || `bash -n exited ${r.status}`;
}
