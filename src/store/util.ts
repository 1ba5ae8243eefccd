import { createHash, randomBytes } from 'node:crypto';
import { instanceClock } from '../contract/clock.js';

let clockOverride: (() => string) | undefined;

/** The instance clock's time as stored: ISO 8601 UTC with milliseconds (string order = time order). */
export function nowIso(): string {
  return clockOverride ? clockOverride() : instanceClock().now().toISOString();
}

/**
 * Runs the synchronous `fn` with `nowIso` answering `clock()`, so seeders can stamp every row
 * with fixed times (better-sqlite3 is synchronous: nothing else runs meanwhile).
 */
export function withClock<T>(clock: () => string, fn: () => T): T {
  const previous = clockOverride;
  clockOverride = clock;
  try {
    return fn();
  } finally {
    clockOverride = previous;
  }
}

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * `length` base62 characters from crypto.randomBytes. Bytes >= 248 (= 4 * 62) are rejected, so
 * every character is equally likely (no modulo bias).
 */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b >= 248) continue;
      out += BASE62[b % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Hex SHA-256 digest, as stored for access key secrets. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** Offset of a 1-based page. */
export function pageOffset(page: { page_size: number; page_number: number }): number {
  return (page.page_number - 1) * page.page_size;
}

/** Maps a 0/1 SQLite integer to a boolean; null stays null. */
export function bool(v: unknown): boolean {
  return v === 1 || v === 1n || v === true;
}

/** Thrown when an update targets a row that does not exist in the tenant. */
export class NotFoundError extends Error {
  constructor(what: string, id: number | string) {
    super(`${what} ${id} does not exist`);
    this.name = 'NotFoundError';
  }
}

/** Thrown when a write would break a uniqueness rule: another writer got there first. */
export class UniqueViolation extends Error {
  constructor(readonly field: string) {
    super(`the ${field} is already taken`);
    this.name = 'UniqueViolation';
  }
}

/** Thrown by `ping` when the database's schema is not this build's: the instance is not ready. */
export class SchemaMismatch extends Error {
  constructor(found: number, expected: number) {
    super(`database schema version ${found}, this build needs ${expected}`);
    this.name = 'SchemaMismatch';
  }
}

/**
 * Thrown when the store cannot take a read now (SQLite's bounded pool of read workers is full,
 * or the worker running it died): nothing was written, and the same request may succeed after
 * `retryAfterSeconds`. The server answers 503 `Service busy, try again.` (decisions §2).
 */
export class StoreBusy extends Error {
  constructor(
    readonly retryAfterSeconds: number,
    reason: string,
  ) {
    super(reason);
    this.name = 'StoreBusy';
  }
}

/**
 * Runs a write, turning SQLite's UNIQUE failure into a `UniqueViolation` naming the first column
 * of the index (e.g. `email`). The callers check uniqueness first; this covers a concurrent
 * writer in another process (an admin import beside `serve`) between that check and the write.
 */
export function guardUnique<T>(write: () => T): T {
  try {
    return write();
  } catch (err) {
    const column = (err as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /UNIQUE constraint failed: \w+\.(\w+)/.exec((err as Error).message);
    if (column) throw new UniqueViolation(column[1]);
    throw err;
  }
}

/**
 * A database URL fit to print: the password replaced by `***` (`postgres://user:***@host/db`).
 * Anything that is not a URL is not printed at all.
 */
export function maskDatabaseUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.href;
  } catch {
    return 'postgres://(unparsable URL)';
  }
}
