/**
 * No import cycle under src/cli/commands (issue 22 item 3): a command's register module imports
 * its `run` module and the option types beside it, never the other way round. The graph is read
 * from the source text, type-only imports included, so a cycle through types fails here too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { findCycles, relativeImports } from './import-graph.js';

const ROOT = path.resolve('src/cli/commands');

/**
 * Files whose own imports are not counted, each closing a cycle through a type it imports from the
 * module that loads it: issue 22 item 1 rewrites them (the port). Remove an entry when its file
 * goes or stops doing so; the test fails on an entry whose file is gone.
 */
const EXEMPT_IMPORTERS = [
  // `import type { ServeOptions } from './index.js'`, and serve/run.ts loads it for `--database`.
  'serve/postgres.ts',
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

describe('import graph', () => {
  it('finds the specifiers of static, type-only, re-exporting and dynamic imports, and only relative ones', () => {
    const text = [
      "import type { A } from './a.js';",
      "import { b } from '../b.js';",
      "export * from './c.js';",
      "export { d } from './d.js';",
      "const e = await import('./e.js');",
      "type F = typeof import('./f.js');",
      "import { g } from 'commander';",
      "import {\n  h,\n  i,\n} from './h.js';",
    ].join('\n');
    expect(relativeImports(text)).toEqual(['./a.js', '../b.js', './c.js', './d.js', './e.js', './f.js', './h.js']);
  });

  it('finds a cycle, and none in a graph without one', () => {
    expect(findCycles(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']], ['d', ['a']]]))).toEqual([['a', 'b', 'c', 'a']]);
    expect(findCycles(new Map([['a', ['b', 'c']], ['b', ['c']], ['c', []]]))).toEqual([]);
  });
});

describe('src/cli/commands', () => {
  it('has no import cycle, type-only imports included', () => {
    const files = sourceFiles(ROOT);
    expect(files.length).toBeGreaterThan(50);
    for (const exempt of EXEMPT_IMPORTERS) expect(files).toContain(path.join(ROOT, exempt));
    const graph = new Map(
      files
        .filter((file) => !EXEMPT_IMPORTERS.includes(path.relative(ROOT, file)))
        .map((file) => [
          path.relative(ROOT, file),
          relativeImports(readFileSync(file, 'utf8'))
            .map((spec) => path.resolve(path.dirname(file), spec.replace(/\.js$/, '.ts')))
            .filter((target) => target.startsWith(`${ROOT}${path.sep}`))
            .map((target) => path.relative(ROOT, target)),
        ]),
    );
    expect(findCycles(graph)).toEqual([]);
  });
});
