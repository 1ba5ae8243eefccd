import { describe, expect, it } from 'vitest';
import { extractSections } from './extract.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { anchorOf, anchorsIn, brokenLinks, manualDocuments, ON_EACH_STORE, ROOT, syntaxError } from './manual.js';

describe('the manual as the examples test reads it', () => {
  it('checks a no-test block for syntax only: a parse error is named, nothing runs', () => {
    const [s] = extractSections('## S\n```sh no-test\n# needs a container\ndocker run --rm postgres:18 && touch ran\n```\n```sh no-test\n# needs nothing\nif true; then echo\n```\n');
    expect(syntaxError(s.blocks[0])).toBe('');
    expect(syntaxError(s.blocks[1])).toMatch(/syntax error/);
  });

  it('reads README.md and every guide of docs/, not the generated reference, each on its stores', () => {
    const docs = manualDocuments();
    expect(docs[0].doc).toBe('README.md');
    expect(docs.every((d) => d.doc === 'README.md' || /^docs\/[^/]+\.md$/.test(d.doc))).toBe(true);
    for (const d of docs) expect(d.stores).toEqual(ON_EACH_STORE.has(d.doc) ? ['sqlite', 'postgres'] : ['sqlite']);
    expect(docs.flatMap((d) => d.sections).every((s) => s.doc === 'README' || s.doc.startsWith('docs/'))).toBe(true);
  });
});

describe('links of the manual', () => {
  it('anchors headings as GitHub does', () => {
    expect(anchorOf('Sending: `confctl admin webhooks`')).toBe('sending-confctl-admin-webhooks');
    expect(anchorOf('Scale benchmark (`npm run bench:scale`)')).toBe('scale-benchmark-npm-run-benchscale');
    expect(anchorOf("1. Find users, customers and conferences")).toBe('1-find-users-customers-and-conferences');
    expect([...anchorsIn('# A\n```sh\n# not a heading\n```\n## B c')]).toEqual(['a', 'b-c']);
  });

  it('names a link to a missing file or heading, not one in code, to the web, or into a skipped folder', () => {
    const dir = mkdtempSync(join(ROOT, '.links-'));
    try {
      writeFileSync(join(dir, 'a.md'), '# A\n## Here\n[ok](#here) [bad](#gone) [file](b.md) [web](https://x.test/y.md) [gen](gen/x.md)\n`[code](c.md)`\n```\n[fenced](d.md)\n```\n');
      const doc = relative(ROOT, join(dir, 'a.md'));
      expect(brokenLinks(doc, [relative(ROOT, join(dir, 'gen'))])).toEqual([`${doc}: #gone (no heading for #gone)`, `${doc}: b.md (no file ${relative(ROOT, join(dir, 'b.md'))})`]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('every relative link of the README and the guides leads to a file of the clone and a heading of it (the generated docs/commands/ aside)', () => {
    expect(manualDocuments().flatMap((d) => brokenLinks(d.doc, ['docs/commands/']))).toEqual([]);
  });
});
