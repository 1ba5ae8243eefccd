/** The action of `confctl admin import`: records from a file, all or nothing (a refused import lists every bad record; errors.ts). */
import type { CliContext } from '../../context.js';
import type { AdminCommon } from './flags.js';
import { readFileSync } from 'node:fs';
import { importRecords, IMPORT_KINDS, isImportKind } from '../../../admin/import.js';
import { UsageError } from '../../context.js';
import { plan, print } from './local.js';
import { withStore } from './store.js';

export type ImportOptions = AdminCommon & { kind: string; file: string; tenant?: string };

export async function importFile(options: ImportOptions, ctx: CliContext): Promise<void> {
  const { kind, file } = options;
  if (!isImportKind(kind)) throw new UsageError(`unknown kind '${kind}'`, `one of: ${Object.keys(IMPORT_KINDS).join(', ')}`);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new UsageError(`cannot read ${file}`);
  }
  await withStore(ctx, options.store, true, async ({ store, tenantOf }) => {
    const tenant = await tenantOf(options);
    const dryRun = options.globals.dryRun;
    const result = await importRecords(store, tenant.id, kind, text, { fileName: file, dryRun });
    if (dryRun) return plan(ctx, [`would import ${result.created} ${kind} into tenant ${tenant.primary_domain}`]);
    await print(ctx, options.globals, { ...result, tenant: tenant.primary_domain });
  });
}
