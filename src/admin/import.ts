/**
 * `confctl admin import KIND FILE`: bulk insert of the records the API cannot create.
 *
 * All or nothing: every record is validated (its form, then its references and uniqueness
 * against the tenant and the rest of the file) before anything is written; any bad record makes
 * `importRecords` throw an `ImportError` listing every bad record, and nothing is written.
 * Validation and the writes run inside one store transaction, so no concurrent writer can slip
 * between the checks and the inserts. A record with form errors is not checked for references.
 */
import { orderErrors, parseWith, type FieldErrors } from '../contract/validation.js';
import type { Store } from '../store/types.js';
import { IMPORT_KINDS, ImportContext, type ImportKind, type KindSpec } from './import-kinds.js';
import { ImportError, readRecords, type ImportRowError } from './records.js';

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
 * Imports the records of `text` (a JSON array or NDJSON, see `records.ts`) as `kind` into the
 * tenant. `fileName` names the file in errors. Returns how many records were created.
 */
export function importRecords(store: Store, tenantId: number, kind: ImportKind, text: string, options: { fileName: string }): ImportResult {
  const spec: KindSpec | undefined = IMPORT_KINDS[kind];
  if (!spec) throw new TypeError(`Unknown import kind: ${String(kind)}`);
  const { format, records, bad } = readRecords(text, options.fileName);
  const order = shapeKeys(spec.schema);

  return store.transaction(() => {
    const ctx = new ImportContext(store, tenantId);
    const rows: ImportRowError[] = [...bad];
    const valid: unknown[] = [];
    for (const record of records) {
      let errors: FieldErrors;
      if (record.value === null || typeof record.value !== 'object' || Array.isArray(record.value)) {
        errors = { record: ['The record must be a JSON object.'] };
      } else {
        const parsed = parseWith(spec.schema, record.value, 'record');
        if (parsed.ok) {
          errors = {};
          spec.check(parsed.value, ctx, errors);
          valid.push(parsed.value);
        } else {
          errors = parsed.errors;
        }
      }
      if (Object.keys(errors).length) rows.push({ line: record.line, errors: orderErrors(errors, order) });
    }
    if (rows.length) {
      rows.sort((a, b) => a.line - b.line);
      throw new ImportError(options.fileName, format, format === 'json' ? 'record' : 'line', rows);
    }
    for (const row of valid) spec.write(row, ctx);
    return { kind, created: valid.length };
  });
}
