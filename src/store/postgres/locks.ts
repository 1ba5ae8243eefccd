/** Advisory locks: the names a unit serialises on (`AtomicOptions.locks`), held until its transaction ends. */
import type { Queryable } from './pool.js';

/** Waits, inside the transaction, for a lock named `name`: writers of the same name take turns until commit. */
export const lockName = (tx: Queryable, name: string) => tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);

/** Waits for each of `names` (a unit's locks), sorted: two units taking some of the same names cannot wait for each other. */
export async function lockNames(tx: Queryable, names: readonly string[] = []): Promise<void> {
  for (const name of [...new Set(names)].sort()) await lockName(tx, name);
}
