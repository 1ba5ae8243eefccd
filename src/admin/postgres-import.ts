/**
 * `admin import KIND FILE --database`: the importer of import.ts on the PostgreSQL store, with
 * its rules, messages and result. All or nothing as on SQLite: the first pass checks every record
 * outside any transaction; then one transaction takes the locks the kind names (the e-mails of
 * users or customers, the tenant's departments: the names the units of work use, so writers of
 * the same key take turns), checks the records against stored data again and writes them with
 * their webhook deliveries (`events.created`), or writes nothing.
 */
import { inTransaction } from '../store/postgres/pool.js';
import { pgStepStore } from '../store/postgres/step-store.js';
import { lockName } from '../store/postgres/units.js';
import { type ImportKind, type ImportResult, planImport } from './import.js';
import { runStepsAsync } from './steps.js';
import type { PgTarget } from './postgres-changes.js';

/**
 * Imports the records of `text` as `kind` into the tenant (see `importRecords`). With `dryRun`
 * everything runs, the second pass included, and the transaction is rolled back: the answer is
 * what would have been created.
 */
export async function importRecordsPg(
  target: PgTarget,
  tenantId: number,
  kind: ImportKind,
  text: string,
  options: { fileName: string; dryRun?: boolean },
): Promise<ImportResult> {
  const plan = planImport(tenantId, kind, text, options);
  const { valid, write } = plan.afterFirst(await runStepsAsync(pgStepStore(target.pool), plan.first));
  // Sorted, so two imports locking some of the same names cannot wait for each other.
  const locks = [...new Set(valid.flatMap(({ value }) => plan.spec.locks?.(value, tenantId) ?? []))].sort();
  const undo = new Error('dry run: roll back');
  let result: ImportResult | undefined;
  try {
    await inTransaction(target.pool, async (tx) => {
      for (const name of locks) await lockName(tx, name);
      result = await runStepsAsync(pgStepStore(tx), write);
      if (options.dryRun) throw undo;
    });
  } catch (err) {
    if (err !== undo) throw err;
  }
  return result!;
}
