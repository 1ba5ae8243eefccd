/**
 * PostgreSQL's SQLSTATEs of a transaction rolled back whole for losing a race with another one:
 * serialization_failure and deadlock_detected. A write meeting a snapshot restore deadlocks so:
 * the restore locks the data tables one by one, parents first, while a write holding a child
 * table's lock waits for its foreign key's lock on a parent the restore holds.
 */
const PG_ROLLED_BACK = new Set(['40001', '40P01']);

/**
 * True for SQLite's "database is locked" family (SQLITE_BUSY, _SNAPSHOT, _RECOVERY, _TIMEOUT).
 * By its code alone, so that the CLI's error lines can tell it without loading the driver.
 */
export function isSqliteBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * True for an error after which the whole attempt may simply run again, nothing having been
 * written: SQLite's busy family (another process holds the write lock) and PostgreSQL's
 * transactions rolled back for a race (`PG_ROLLED_BACK`). The server retries these (server/busy.ts).
 */
export function isBusyError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return isSqliteBusyError(err) || (typeof code === 'string' && PG_ROLLED_BACK.has(code));
}
