import { describe, expect, it } from 'vitest';
import { extractSections } from './extract.js';
import { manualDocuments, ON_EACH_STORE, syntaxError } from './manual.js';

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
