// Build step: bundles the CLI users run (bin/confctl.js) with esbuild into dist/bundle/: one entry,
// confctl.js, plus chunks that load only when a command imports them (`splitting`, ESM). Native
// add-ons stay external and load from node_modules (better-sqlite3 is a real dependency; the
// keyring binding is optional per platform). The metafile, written beside the bundle, tells the
// start-up test which packages each chunk holds; it is not shipped (package.json "files").
import { rmSync, writeFileSync } from 'node:fs';
import { build } from 'esbuild';

const OUT = 'dist/bundle';
/** Packages loaded from node_modules at run time: native add-ons, which cannot be bundled. */
export const EXTERNAL = ['better-sqlite3', '@napi-rs/keyring'];

rmSync(OUT, { recursive: true, force: true });
const result = await build({
  entryPoints: { confctl: 'src/cli/entry.ts' },
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  chunkNames: 'chunk-[hash]',
  metafile: true,
  minifySyntax: true,
  minifyWhitespace: true,
  legalComments: 'none',
  logLevel: 'warning',
  // Bundled CommonJS packages (commander, …) call require() for Node's built-ins; an ES module has
  // none. The real one is made on first use: making it costs start-up in every chunk.
  banner: { js: "import{createRequire as __cjsRequire}from'node:module';let __cjsReq;const require=(id)=>(__cjsReq??=__cjsRequire(import.meta.url))(id);" },
});
writeFileSync(`${OUT}/meta.json`, JSON.stringify(result.metafile));
