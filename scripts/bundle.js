// Build step: bundles the CLI users run (bin/confctl.js) with esbuild into dist/bundle/: the entry
// confctl.js (and serve's read worker), plus chunks that load only when a command imports them
// (`splitting`, ESM). Native add-ons stay external and load from node_modules (better-sqlite3 is a real dependency; the
// keyring binding is optional per platform). The metafile, written beside the bundle, tells the
// start-up test which packages each chunk holds; it is not shipped (package.json "files").
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { build } from 'esbuild';

const OUT = 'dist/bundle';
/** Packages loaded from node_modules at run time: native add-ons, which cannot be bundled, and the PostgreSQL driver (pg loads its optional native binding by require). */
export const EXTERNAL = ['better-sqlite3', 'pg', '@napi-rs/keyring'];

/** Whether a resolved file is CommonJS: `.cjs`, or `.js` whose nearest package.json is not `"type": "module"`. */
function isCommonJs(file) {
  if (file.endsWith('.cjs')) return true;
  if (!file.endsWith('.js')) return false;
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest)) return JSON.parse(readFileSync(manifest, 'utf8')).type !== 'module';
  }
  return true;
}

/**
 * Fails the build on `import('pkg')` of a CommonJS package: with splitting, its chunk exports only
 * `default`, so named exports that work under tsx and tsc would be undefined in the bundle. Such a
 * package is loaded through a small ES module that imports it statically (src/cli/output/cli-table3.ts).
 */
const noDynamicCommonJs = {
  name: 'no-dynamic-commonjs',
  setup(b) {
    b.onResolve({ filter: /^[^./]/ }, async (args) => {
      if (args.kind !== 'dynamic-import' || args.pluginData?.checked || args.path.startsWith('node:') || EXTERNAL.includes(args.path)) return undefined;
      const resolved = await b.resolve(args.path, { kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: { checked: true } });
      if (resolved.errors.length || !isCommonJs(resolved.path)) return resolved.errors.length ? { errors: resolved.errors } : resolved;
      return { errors: [{ text: `import('${args.path}') loads a CommonJS package: import it statically from a small ES module and import() that module instead` }] };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
const result = await build({
  // main.js, which the entry loads for every command but --version, is an entry of its own so that a
  // program can run confctl in its own process (runCli): the end-to-end tests' runner does.
  // The read worker `serve` starts (src/store/sqlite/read-pool.ts) and the bulk seed's index worker (src/store/sqlite/side-table.ts)
  // are loaded beside the chunks, as dist/bundle/read-worker.js and dist/bundle/side-index-worker.js.
  entryPoints: { confctl: 'src/cli/entry.ts', main: 'src/cli/main.ts', 'read-worker': 'src/store/sqlite/read-worker.ts', 'side-index-worker': 'src/store/sqlite/side-index-worker.ts' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  plugins: [noDynamicCommonJs],
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS packages (commander, …) call require() for Node's built-ins; an ES module has
  // none. The real one is made on first use: making it costs start-up in every chunk.
  banner: { js: "import{createRequire as __cjsRequire}from'node:module';let __cjsReq;const require=(id)=>(__cjsReq??=__cjsRequire(import.meta.url))(id);" },
});
writeFileSync(`${OUT}/meta.json`, JSON.stringify(result.metafile));
