/**
 * The desired-state files of `plan -f` and `apply -f`: each path a directory (its kind files:
 * users.yaml, customers.csv, conferences.yaml, …) or a file named after its kind. Read here; parsed
 * and checked by the pure core (src/tenant/).
 */
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { desiredOf } from '../../tenant/desired.js';
import { fileKind, KIND_FILE_HINT, type RawRecord, readRecordsOf } from '../../tenant/files.js';
import type { Desired, Kind, Problem } from '../../tenant/model.js';
import { UsageError } from '../../errors.js';

export interface DesiredState {
  desired: Partial<Record<Kind, Desired[]>>;
  problems: Problem[];
  /** The files read, in order. */
  sources: string[];
}

/** The kind files `paths` name (a directory stands for its kind files), or exit 2 naming what is not one. */
async function kindFiles(paths: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const path of paths) {
    let isDir: boolean;
    try {
      isDir = (await stat(path)).isDirectory();
    } catch (err) {
      throw new UsageError(`cannot read ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
    }
    if (!isDir) {
      if (!fileKind(basename(path))) throw new UsageError(`cannot tell the kind of ${path}`, KIND_FILE_HINT);
      files.push(path);
      continue;
    }
    const found = (await readdir(path)).filter((name) => fileKind(name)).sort().map((name) => join(path, name));
    if (!found.length) throw new UsageError(`no desired-state files in ${path}`, KIND_FILE_HINT);
    files.push(...found);
  }
  return files;
}

/** Reads and checks the desired state of `paths`; the problems are every one found. */
export async function readDesiredState(paths: readonly string[]): Promise<DesiredState> {
  const files = await kindFiles(paths);
  const problems: Problem[] = [];
  const raws = new Map<Kind, RawRecord[]>();
  for (const file of files) {
    const { kind, format } = fileKind(basename(file))!;
    if (format === 'csv' && kind === 'conferences') {
      problems.push({ file, message: 'conferences are written as YAML or JSON (their attendees are a list), not CSV' });
      continue;
    }
    const text = await readFile(file, 'utf8');
    raws.set(kind, [...(raws.get(kind) ?? []), ...readRecordsOf({ name: file, text }, format, problems)]);
  }
  const desired: Partial<Record<Kind, Desired[]>> = {};
  for (const [kind, records] of raws) desired[kind] = desiredOf(kind, records, problems);
  return { desired, problems, sources: files };
}
