/**
 * `confctl export DIR`: the tenant's managed state as desired-state files, one per kind
 * (users.yaml, customers.yaml, conferences.yaml), to edit by hand, keep in git and plan again.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { type Command, Option } from 'commander';
import { canExport, type ExportFormat, exportRecords, exportText } from '../../tenant/export.js';
import { KINDS, type Kind } from '../../tenant/model.js';
import { apiClient, type CliContext, globalOptions, type GlobalOptions, UsageError } from '../../context.js';
import { examples } from '../../help.js';
import { consentToReplace } from '../../overwrite.js';
import { makeDirs } from '../../../media/files.js';
import { readTenant } from './read.js';

export interface ExportOptions {
  dir: string;
  format: ExportFormat;
  kinds: Kind[];
  force: boolean;
  globals: GlobalOptions;
}

/** `--kinds users,customers` → kinds; all when absent. */
export function kindsOption(raw: unknown): Kind[] {
  if (typeof raw !== 'string') return [...KINDS];
  const kinds = raw.split(',').map((k) => k.trim()).filter(Boolean);
  const bad = kinds.filter((k) => !KINDS.includes(k as Kind));
  if (bad.length || !kinds.length) throw new UsageError(`--kinds takes ${KINDS.join(', ')} (comma-separated), not '${raw}'`);
  return KINDS.filter((k) => kinds.includes(k));
}

export async function runExport(opts: ExportOptions, ctx: CliContext): Promise<void> {
  const { client } = await apiClient(ctx, opts.globals);
  const names = opts.kinds.map((kind) => ({ kind, format: canExport(kind, opts.format) ? opts.format : ('yaml' as const) }));
  const files = names.map(({ kind, format }) => ({ kind, format, path: join(opts.dir, `${kind}.${format}`) }));
  const existing = files.filter((f) => existsSync(f.path)).map((f) => f.path);
  if (existing.length) await consentToReplace(ctx, existing.join(', '), { force: opts.force, hint: 'give --force to replace them, or another DIR' });
  const snapshot = await readTenant(client, { kinds: opts.kinds }, ctx);
  makeDirs(opts.dir);
  for (const f of files) {
    const records = exportRecords(snapshot, f.kind);
    await writeFile(f.path, exportText(records, f.kind, f.format));
    const note = f.format !== opts.format ? ` (${opts.format} cannot hold conferences' attendee lists)` : '';
    ctx.streams.stderr.write(`wrote ${f.path}: ${records.length} ${f.kind}${note}\n`);
  }
}

export function register(program: Command, ctx: CliContext, run = runExport): void {
  program
    .command('export')
    .description("Write the tenant's users, customers and not-ended conferences as desired-state files (YAML by default) to edit and plan")
    .argument('<dir>', 'directory to write users.yaml, customers.yaml and conferences.yaml into (made if missing)')
    .addOption(new Option('--format <format>', 'file format; csv holds users and customers (conferences stay YAML)').choices(['yaml', 'json', 'csv']).default('yaml'))
    .option('--kinds <list>', `kinds to export, comma-separated (default: ${KINDS.join(',')})`)
    .option('--force', 'replace existing files without asking')
    .addHelpText('after', examples('confctl export tenant/', 'confctl export tenant/ --format csv --kinds users,customers'))
    .action((dir: string, flags: { format: ExportFormat; kinds?: string; force?: boolean }, cmd: Command) =>
      run({ dir, format: flags.format, kinds: kindsOption(flags.kinds), force: Boolean(flags.force), globals: globalOptions(cmd) }, ctx),
    );
}
