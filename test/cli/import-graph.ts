/** A module graph read from TypeScript source text, and its cycles (import-cycles.test.ts). */

/** `from '…'` (import, import type, export … from) and `import('…')` (dynamic, or `typeof import`). */
const IMPORT = /\bfrom\s+'([^']+)'|\bimport\s*\(\s*'([^']+)'\s*\)/g;

/** The relative specifiers (`./x.js`, `../y.js`) the module text imports, in order. */
export function relativeImports(text: string): string[] {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2]).filter((spec) => spec.startsWith('.'));
}

/** The cycles a depth-first walk of `graph` (node → the nodes it imports) closes, each as its path; none only when it has none. */
export function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const cycles: string[][] = [];
  const done = new Set<string>();
  const stack: string[] = [];
  const visit = (node: string): void => {
    const at = stack.indexOf(node);
    if (at >= 0) {
      cycles.push([...stack.slice(at), node]);
      return;
    }
    if (done.has(node)) return;
    stack.push(node);
    for (const next of graph.get(node) ?? []) visit(next);
    stack.pop();
    done.add(node);
  };
  for (const node of [...graph.keys()].sort()) visit(node);
  return cycles;
}
