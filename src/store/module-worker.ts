import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Starts a worker thread on the module `name` beside the module at `base` (its `import.meta.url`):
 * the compiled `name.js` (tsc's output, or the bundle's entry of that name), or, where the sources
 * run as TypeScript (tsx, vitest), `name.ts` loaded through tsx's API (a worker does not inherit
 * the parent's loader).
 */
export function spawnModuleWorker(base: string, name: string, options: WorkerOptions): Worker {
  const js = new URL(`./${name}.js`, base);
  if (existsSync(js)) return new Worker(js, options);
  // The ES module build of `tsx/esm/api` (require.resolve would name the CommonJS one), from tsx's export map.
  const manifest = createRequire(import.meta.url).resolve('tsx/package.json');
  const exported = (JSON.parse(readFileSync(manifest, 'utf8')) as { exports: Record<string, { import: { default: string } }> }).exports['./esm/api'];
  const api = new URL(exported.import.default, pathToFileURL(manifest)).href;
  const source = new URL(`./${name}.ts`, base).href;
  return new Worker(`import(${JSON.stringify(api)}).then((tsx) => tsx.tsImport(${JSON.stringify(source)}, ${JSON.stringify(source)}))`, { ...options, eval: true });
}
