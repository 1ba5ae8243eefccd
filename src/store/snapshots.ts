import type { Awaitable } from './port.js';
import { DATA_TABLES } from './tables.js';

/**
 * Snapshots: named copies of a whole instance's data kept beside it (every tenant's rows, the
 * webhook outbox and the invitations outbox, and the recording files as bytes), put back in one
 * transaction while `serve` runs. Not in a snapshot: the tables of `NOT_IN_SNAPSHOTS` (state
 * of the instance itself rather than data), and nothing outside the store (`instance.json`, the
 * client profiles, `serve`'s in-memory rate-limit windows).
 */

/** A snapshot as `list` shows it. */
export interface SnapshotInfo {
  name: string;
  created_at: string;
  /** The store's schema version when it was saved. */
  schema_version: number;
  /** Recording files held. */
  media_files: number;
}

/** A recording file held in a snapshot: its path below the media directory (`/`-separated) and its bytes. */
export interface SnapshotFile {
  path: string;
  content: Buffer;
}

/** Each store keeps its snapshots its own way (SQLite: a file each; PostgreSQL: a schema each). */
export interface SnapshotStore {
  /** Saves every snapshot table and `files` as `name`; an existing one is replaced only with `replace`. */
  save(name: string, files: readonly SnapshotFile[], createdAt: string, replace: boolean): Awaitable<SnapshotInfo>;
  /**
   * Checks the snapshot (it exists, its schema is this build's or older and upgradable), then
   * replaces every snapshot table's rows with its rows in one transaction that moves the change
   * tokens (every cache drawn from the store, in every process, drops what it holds). Answers
   * the snapshot's files, read before anything changed and passed to `checkFiles` (which may
   * throw to refuse the snapshot) before the rows change, for the caller to put in place.
   */
  restore(name: string, checkFiles?: (files: readonly SnapshotFile[]) => void): Awaitable<{ info: SnapshotInfo; files: SnapshotFile[] }>;
  list(): Awaitable<SnapshotInfo[]>;
  /** False when there was none of that name. */
  remove(name: string): Awaitable<boolean>;
}

export type SnapshotErrorKind = 'invalid_name' | 'not_found' | 'exists' | 'newer_schema' | 'older_schema' | 'unsupported';

/** A snapshot refused before anything changed. */
export class SnapshotError extends Error {
  constructor(
    readonly kind: SnapshotErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'SnapshotError';
  }
}

/** 1 to 40 letters, digits, `.`, `_` or `-`, starting with a letter or digit: a file name and a PostgreSQL identifier on every platform. */
export const SNAPSHOT_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;

/** Throws `SnapshotError('invalid_name')` for a name `SNAPSHOT_NAME` refuses (a path separator, `..`, spaces, too long). */
export function checkSnapshotName(name: string): string {
  if (!SNAPSHOT_NAME.test(name)) {
    throw new SnapshotError('invalid_name', `The snapshot name '${name}' is invalid: use 1 to 40 letters, digits, '.', '_' or '-', starting with a letter or digit.`);
  }
  return name;
}

/** The tables a snapshot holds and restores, parents before children (deleted in the reverse order). */
export const SNAPSHOT_TABLES = DATA_TABLES;

/**
 * The stores' other tables, which a restore leaves as they are, and why. A new table goes into
 * one of the two lists (the store contract suite fails until it does).
 */
export const NOT_IN_SNAPSHOTS: Readonly<Record<string, string>> = {
  confctl_settings: 'the instance secret signing recording links and join tokens (PostgreSQL; SQLite keeps it in instance.json)',
  confctl_rate_windows: 'rate-limit windows (PostgreSQL; SQLite keeps them in memory)',
  confctl_changes: 'the change counters, which only move forward so that caches notice the restore',
  confctl_schema: 'the schema version',
  sqlite_stat1: "the query planner's statistics",
  fault_rules: 'injected fault rules (admin faults): test controls, not data; a restore keeps the rules in force',
  instance_clock: 'the manual clock, which never moves backwards: a restore leaves it where it stands',
  users_text: "SQLite's trigram index of users' texts (trigram.ts): derived, its triggers rewrite it as a restore writes the rows",
  customers_text: "SQLite's trigram index of customers' texts, likewise",
  customers_city_country_text: "SQLite's trigram index of customers' city_country (trigram.ts), likewise",
  users_text_pending: "the users whose texts SQLite's trigram index may not hold yet (trigram.ts): derived, its triggers record them as a restore writes the rows",
  customers_text_pending: 'the customers whose texts the trigram index may not hold yet, likewise',
  list_counts: "rows per tenant of the counted lists (store/list-counts.ts): derived, its triggers count as a restore writes the rows",
  customer_texts: "PostgreSQL's table of the customers' folded texts (postgres/customer-texts.ts): derived, its triggers write it as a restore writes the rows",
  user_names: "PostgreSQL's table of the users' folded names (postgres/folded-texts.ts): derived, likewise",
  customer_emails: "PostgreSQL's table of the customers' folded e-mail addresses (postgres/folded-texts.ts): derived, likewise",
};
