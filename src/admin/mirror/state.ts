/**
 * A mirror's progress, kept in the target data directory as `mirror-state.json` (0600) so that
 * `--resume` continues where an interrupted run stopped: the stage and the next page to read,
 * the options it was started with (a resume must give the same), and for `--anonymize` a check
 * of the seed and the HMAC tags of the name words seen (never the words or the seed).
 */
import { existsSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import { writePrivateFile } from '../../media/files.js';

export const STATE_FILE = 'mirror-state.json';

export type Stage = 'users' | 'customers' | 'conferences' | 'done';

/** The options a mirror was started with: a resumed run must match them. */
export interface MirrorSettings {
  source: string;
  /** `--since` as given (`90d`). */
  since: string | null;
  limit_per_kind: number | null;
  anonymize: boolean;
  /** HMAC of a fixed text under the seed, to check a resume's `--seed`. */
  seed_check: string | null;
}

export interface MirrorState {
  version: 1;
  settings: MirrorSettings;
  /** The target's tenant the rows go to. */
  tenant_id: number;
  /** The `created_at` cutoff `since` stood for when the mirror began (kept for a resume). */
  since_at: string | null;
  stage: Stage;
  /** The next page of the stage's list to read. */
  page: number;
  /** Rows of the stage's kind taken so far (for `--limit-per-kind`). */
  taken: number;
  counts: Record<string, number>;
  name_tags: string[];
}

export function readState(dir: string): MirrorState | undefined {
  const file = path.join(dir, STATE_FILE);
  if (!existsSync(file)) return undefined;
  return JSON.parse(readFileSync(file, 'utf8')) as MirrorState;
}

/** Written to a temporary name and renamed: an interruption leaves the old state or the new. */
export function writeState(dir: string, state: MirrorState): void {
  const file = path.join(dir, STATE_FILE);
  writePrivateFile(`${file}.tmp`, `${JSON.stringify(state)}\n`);
  renameSync(`${file}.tmp`, file);
}

/** The first setting that differs between a run's and the saved ones, else undefined. */
export function settingsMismatch(saved: MirrorSettings, given: MirrorSettings): string | undefined {
  for (const key of Object.keys(saved) as (keyof MirrorSettings)[]) {
    if (saved[key] !== given[key]) return key === 'seed_check' ? 'seed' : key;
  }
  return undefined;
}
