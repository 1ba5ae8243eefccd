import { createHash } from 'node:crypto';
import { existsSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { threadId, Worker, type WorkerOptions } from 'node:worker_threads';
import { makeDirs } from '../../media/files.js';

/**
 * Starts a worker thread on the module `name` beside the module at `base` (its `import.meta.url`):
 * the compiled `name.js` (tsc's output, or the bundle's entry of that name), or, where the sources
 * run as TypeScript (tsx, vitest), `name.ts` bundled from the sources as they are now (a worker
 * does not inherit the parent's loader).
 */
export function spawnModuleWorker(base: string, name: string, options: WorkerOptions): Worker {
  const js = new URL(`./${name}.js`, base);
  if (existsSync(js)) return new Worker(js, options);
  return new Worker(pathToFileURL(bundledFromSources(fileURLToPath(new URL(`./${name}.ts`, base)))), options);
}

/**
 * The worker module `source` bundled with esbuild (a development dependency, as tsx is), as the
 * build bundles it for the bin: packages stay imports, so the file is written under the project's
 * node_modules (its .cache, left to grow as tool caches do), named by its content. A build costs
 * about 5 ms of esbuild's CPU (120 ms for the first in a process, which starts esbuild) against
 * about 340 ms more for a worker that loads tsx's loader and has it compile each source file.
 */
function bundledFromSources(source: string): string {
  const require = createRequire(import.meta.url);
  const esbuild = require('esbuild') as typeof import('esbuild');
  const code = esbuild.buildSync({ entryPoints: [source], bundle: true, write: false, format: 'esm', platform: 'node', target: 'node20', packages: 'external', logLevel: 'silent' }).outputFiles[0].text;
  const dir = join(dirname(dirname(require.resolve('esbuild/package.json'))), '.cache', 'confctl-workers');
  const file = join(dir, `${createHash('sha256').update(code).digest('hex').slice(0, 16)}.mjs`);
  if (!existsSync(file)) {
    makeDirs(dir);
    // Written aside and renamed, so another process never imports half a file.
    const aside = `${file}.${process.pid}.${threadId}`;
    writeFileSync(aside, code);
    renameSync(aside, file);
  }
  return file;
}
