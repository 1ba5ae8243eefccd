import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSections } from './readme/extract.js';
import { limiter, runDocSection } from './readme/run-doc.js';
import { runnableCommands } from './readme/runner.js';
import { BACKENDS } from './harness.js';

/** The tenant-as-code guide's examples run as the README's do: each section against its own fresh `serve --demo`, on each store. */
const GUIDE = resolve(__dirname, '../../docs/tenant-as-code.md');
const sections = extractSections(readFileSync(GUIDE, 'utf8'), 'docs/tenant-as-code.md').filter((s) => runnableCommands(s).length > 0);
const slot = limiter(3);

describe('docs/tenant-as-code.md', () => {
  it('has the runnable sections of the HR-sync story', () => {
    expect(sections.map((s) => s.title)).toEqual(['Export the tenant, plan it back', 'Edit, plan, apply', 'Conferences', 'The HR sync', 'Safety: problems, guards, stale plans, partial failure']);
  });
});

describe.each(BACKENDS)('docs/tenant-as-code.md examples against a fresh serve --demo on %s', (backend) => {
  for (const section of sections) {
    it.concurrent(`${section.title} (line ${section.line})`, () => slot(() => runDocSection(section, backend, 90_000)), 300_000);
  }
});
