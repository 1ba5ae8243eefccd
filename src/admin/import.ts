/**
 * `confctl admin import KIND FILE`: bulk insert of the records the API cannot create.
 *
 * All or nothing: every record is validated (its form, then its references and uniqueness
 * against the tenant and the rest of the file) before anything is written; any bad record makes
 * `importRecords` throw an `ImportError` listing every bad record, and nothing is written.
 * The checks against stored data run again inside the one transaction that writes, so no
 * concurrent writer can slip between them and the inserts. A record with form errors is not
 * checked for references.
 */
import { orderErrors, parseWith, type FieldErrors } from '../contract/validation.js';
import type { Awaitable, DataStore } from '../store/port.js';
import { andThen } from '../store/steps.js';
import { IMPORT_KINDS, ImportContext, type ImportKind, type KindSpec } from './import-kinds.js';
import type { Steps } from './steps.js';
import { ImportError, readRecords, type ImportRecord, type ImportRowError } from './records.js';

export { IMPORT_KINDS, type ImportKind } from './import-kinds.js';
export { ImportError, type ImportRowError, type ImportFormat } from './records.js';

export interface ImportResult {
  kind: ImportKind;
  created: number;
}

/** True for a kind name `importRecords` accepts. */
export function isImportKind(kind: string): kind is ImportKind {
  return Object.hasOwn(IMPORT_KINDS, kind);
}

function shapeKeys(schema: unknown): string[] {
  const shape = (schema as { shape?: Record<string, unknown> }).shape;
  return shape ? Object.keys(shape) : [];
}

/**
 * Every record's form, references and uniqueness (reads only). Answers the well-formed records
 * (parsed) and the errors of the bad ones, sorted by line.
 */
function* check(tenantId: number, spec: KindSpec, records: readonly ImportRecord[], order: string[]): Steps<{ valid: ImportRecord[]; rows: ImportRowError[] }> {
  const ctx = new ImportContext(tenantId);
  const rows: ImportRowError[] = [];
  const valid: ImportRecord[] = [];
  for (const record of records) {
    let errors: FieldErrors;
    if (record.value === null || typeof record.value !== 'object' || Array.isArray(record.value)) {
      errors = { record: ['The record must be a JSON object.'] };
    } else {
      const parsed = parseWith(spec.schema, record.value, 'record');
      if (parsed.ok) {
        errors = {};
        yield* spec.check(parsed.value, ctx, errors);
        valid.push({ line: record.line, value: parsed.value });
      } else {
        errors = parsed.errors;
      }
    }
    if (Object.keys(errors).length) rows.push({ line: record.line, errors: orderErrors(errors, order) });
  }
  return { valid, rows };
}

/**
 * An import as both stores run it: `first` is the first pass (`check`) on every record, to run
 * outside the writing transaction; `write` the second, cheap pass inside it, which checks the
 * valid records against stored data again and writes them, or throws the `ImportError`.
 */
export interface ImportPlan {
  spec: KindSpec;
  first: Steps<{ valid: ImportRecord[]; rows: ImportRowError[] }>;
  /** Throws the `ImportError` of the first pass, if any record was bad; else answers the second pass's steps. */
  afterFirst(first: { valid: ImportRecord[]; rows: ImportRowError[] }): { valid: ImportRecord[]; write: Steps<ImportResult> };
}

/** Reads `text` (a JSON array or NDJSON, see `records.ts`) as `kind` records for the tenant, and plans their import. */
export function planImport(tenantId: number, kind: ImportKind, text: string, options: { fileName: string }): ImportPlan {
  const spec: KindSpec | undefined = IMPORT_KINDS[kind];
  if (!spec) throw new TypeError(`Unknown import kind: ${String(kind)}`);
  const { format, records, bad } = readRecords(text, options.fileName);
  const order = shapeKeys(spec.schema);
  const fail = (rows: ImportRowError[]) => {
    rows.sort((a, b) => a.line - b.line);
    return new ImportError(options.fileName, format, format === 'json' ? 'record' : 'line', rows);
  };
  function* write(valid: ImportRecord[]): Steps<ImportResult> {
    const ctx = new ImportContext(tenantId);
    const rows: ImportRowError[] = [];
    for (const { line, value } of valid) {
      const errors: FieldErrors = {};
      yield* spec!.check(value, ctx, errors);
      if (Object.keys(errors).length) rows.push({ line, errors: orderErrors(errors, order) });
    }
    if (rows.length) throw fail(rows);
    for (const { value } of valid) yield* spec!.write(value, ctx);
    return { kind, created: valid.length };
  }
  return {
    spec,
    first: check(tenantId, spec, records, order),
    afterFirst(first) {
      if (bad.length || first.rows.length) throw fail([...bad, ...first.rows]);
      return { valid: first.valid, write: write(first.valid) };
    },
  };
}

/**
 * Imports the records of `text` (a JSON array or NDJSON, see `records.ts`) as `kind` into the
 * tenant. `fileName` names the file in errors. Returns how many records were created.
 *
 * Validation runs first, outside any transaction, so `serve` keeps writing meanwhile; the checks
 * against stored data (references, uniqueness) run again inside the one unit that writes (taking
 * the locks the kind names: the names the API's units take, so writers of one key take turns),
 * since another writer may have committed in between. Only that second, cheap pass holds locks.
 * With `dryRun` the unit runs and is rolled back: the answer is what would have been created.
 */
export function importRecords(store: DataStore, tenantId: number, kind: ImportKind, text: string, options: ImportOptions): Awaitable<ImportResult> {
  const plan = planImport(tenantId, kind, text, options);
  return andThen(store.readSteps(plan.first), (first) => {
    const { valid, write } = plan.afterFirst(first);
    const locks = valid.flatMap(({ value }) => plan.spec.locks?.(value, tenantId) ?? []);
    return store.atomic(write, { locks, dryRun: options.dryRun });
  });
}

export interface ImportOptions {
  fileName: string;
  dryRun?: boolean;
}
