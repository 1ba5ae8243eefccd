/**
 * The generated command reference as files: docs/commands/*.md, man/*.1 and package.json's "man"
 * list (npm installs the pages it names). `npm run docs:gen` writes them (scripts/docs-gen.ts); a
 * test compares them with what the code generates now (`referenceDrift`).
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { makeDirs } from '../../media/files.js';
import { manFile, manPage } from './man.js';
import { markdownFile, markdownIndex, markdownPage } from './markdown.js';
import { commandDocs } from './model.js';

export const DOCS_DIR = 'docs/commands';
export const MAN_DIR = 'man';

/** Every generated file, by its path from the repository's root. */
export async function referenceFiles(): Promise<Map<string, string>> {
  const docs = await commandDocs();
  const files = new Map<string, string>([[`${DOCS_DIR}/README.md`, markdownIndex(docs)]]);
  for (const doc of docs) {
    files.set(`${DOCS_DIR}/${markdownFile(doc.path)}`, markdownPage(doc));
    files.set(`${MAN_DIR}/${manFile(doc.path)}`, manPage(doc));
  }
  return files;
}

/** package.json's "man": every man page, sorted. */
export const manList = (files: ReadonlyMap<string, string>) => [...files.keys()].filter((p) => p.startsWith(`${MAN_DIR}/`)).sort();

/** The files now in the two generated directories, by path from `root`. */
async function filesOnDisk(root: string): Promise<Map<string, string>> {
  const found = new Map<string, string>();
  for (const dir of [DOCS_DIR, MAN_DIR]) {
    const names = await readdir(join(root, dir)).catch(() => []);
    for (const name of names.sort()) found.set(`${dir}/${name}`, await readFile(join(root, dir, name), 'utf8'));
  }
  return found;
}

const readManifest = async (root: string) => JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as Record<string, unknown>;

/** The manifest with "man" set to `man`, placed after "bin" when it is new. */
function withMan(manifest: Record<string, unknown>, man: string[]): Record<string, unknown> {
  if ('man' in manifest) return { ...manifest, man };
  return Object.fromEntries(Object.entries(manifest).flatMap(([key, value]) => (key === 'bin' ? [[key, value], ['man', man]] : [[key, value]])));
}

/** What is out of date under `root`, one line per file; empty when the reference matches the code. */
export async function referenceDrift(root: string): Promise<string[]> {
  const wanted = await referenceFiles();
  const found = await filesOnDisk(root);
  const drift: string[] = [];
  for (const [path, text] of wanted) if (found.get(path) !== text) drift.push(`${path}: ${found.has(path) ? 'out of date' : 'missing'}`);
  for (const path of found.keys()) if (!wanted.has(path)) drift.push(`${path}: no such command any more`);
  const man = (await readManifest(root)).man;
  if (JSON.stringify(man) !== JSON.stringify(manList(wanted))) drift.push('package.json: "man" does not list the man pages');
  return drift;
}

/** Writes the reference under `root`, removing pages of commands that are gone; answers how many files it wrote. */
export async function writeReference(root: string): Promise<number> {
  const wanted = await referenceFiles();
  const found = await filesOnDisk(root);
  for (const dir of [DOCS_DIR, MAN_DIR]) makeDirs(join(root, dir));
  for (const path of found.keys()) if (!wanted.has(path)) await rm(join(root, path));
  let written = 0;
  for (const [path, text] of wanted) {
    if (found.get(path) === text) continue;
    await writeFile(join(root, path), text);
    written++;
  }
  const manifest = await readManifest(root);
  const man = manList(wanted);
  if (JSON.stringify(manifest.man) !== JSON.stringify(man)) {
    await writeFile(join(root, 'package.json'), `${JSON.stringify(withMan(manifest, man), null, 2)}\n`);
    written++;
  }
  return written;
}
