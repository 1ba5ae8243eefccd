/** What every `confctl admin …` action shares: the opened data directory, the tenant, printing. */
import type { Command } from 'commander';
import { AdminError } from '../../../admin/errors.js';
import { ImportError } from '../../../admin/import.js';
import { findTenant, type LocalInstance, openLocal, openLocalForPlan } from '../../../local/open.js';
import type { TenantRecord } from '../../../store/types.js';
import { type CliContext, CliError, EXIT, globalOptions, outputFormat, UsageError } from '../../context.js';
import { listWriter, renderItem, type Row } from '../../output/index.js';
import { chooseDatabase } from '../database-choice.js';
import { followStoredClock } from './stored-clock.js';

export type Opts = Record<string, unknown>;

/** `admin events update` for the command `cmd` (its path below the program). */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) names.unshift(c.name());
  return names.join(' ');
}

/** A hint for an admin failure of `kind` in command `cmd`, as client errors have. */
function adminHint(kind: AdminError['kind'], cmd: Command): string {
  const path = commandPath(cmd);
  const lister = cmd.parent?.commands.find((c) => c.name() === 'list');
  switch (kind) {
    case 'not_found':
      return lister
        ? `'confctl ${commandPath(lister)}' lists what there is; --data, --database and --tenant choose the instance and tenant`
        : 'check the ids and paths; --data, --database and --tenant choose the instance and tenant';
    case 'conflict':
      return `the stored state does not allow this now; 'confctl ${path} --help' says what the command needs`;
    default:
      return `check the flags and values: 'confctl ${path} --help' shows what each takes`;
  }
}

/** An admin failure as the CLI reports it: not found 4, conflict 5, invalid 6, with a hint. */
export function adminFailure(err: AdminError, cmd: Command): CliError {
  const code = err.kind === 'not_found' ? EXIT.notFound : err.kind === 'conflict' ? EXIT.conflict : EXIT.validation;
  return new CliError(err.message, code, adminHint(err.kind, cmd));
}

/** A refused import as the CLI reports it: every bad record listed on stderr, exit 6. */
export function importFailure(ctx: CliContext, err: ImportError): CliError {
  for (const line of err.details()) ctx.streams.stderr.write(`  ${line}\n`);
  return new CliError(err.message, EXIT.validation, 'fix the listed records and run the import again');
}

/** `--dry-run` was given (only commands that print a plan take it). */
export const isDryRun = (cmd: Command): boolean => globalOptions(cmd).dryRun;

/** Prints a dry run's plan on stdout, a `would …` line each, and says on stderr that nothing changed. */
export function plan(ctx: CliContext, lines: string[]): void {
  for (const line of lines) ctx.streams.stdout.write(`${line}\n`);
  ctx.streams.stderr.write('dry run: nothing was changed\n');
}

/**
 * Runs `work` on the opened data directory and always closes it; admin errors become exit codes.
 * Under `--dry-run` a missing directory is planned against as an empty one, and not created.
 */
export async function withLocal<T>(ctx: CliContext, cmd: Command, work: (local: LocalInstance, opts: Opts) => T | Promise<T>): Promise<T> {
  const opts = cmd.opts<Opts>();
  const env = ctx.env as NodeJS.ProcessEnv;
  const data = opts.data as string | undefined;
  const media = opts.media as string | undefined;
  const local = isDryRun(cmd) ? openLocalForPlan(data, env, media) : openLocal(data, env, (m) => ctx.streams.stderr.write(`${m}\n`), media);
  const restoreClock = await followStoredClock(local.store);
  try {
    return await work(local, opts);
  } catch (err) {
    if (err instanceof AdminError) throw adminFailure(err, cmd);
    if (err instanceof ImportError) throw importFailure(ctx, err);
    throw err;
  } finally {
    restoreClock();
    local.store.close();
  }
}

/** The PostgreSQL database an admin command works on, or undefined for the SQLite data directory (see `chooseDatabase`). */
export function databaseUrl(ctx: CliContext, cmd: Command): string | undefined {
  const opts = cmd.opts<Opts>();
  return chooseDatabase({ data: opts.data as string | undefined, database: opts.database as string | undefined }, ctx.env);
}

export function tenantOf(local: LocalInstance, opts: Opts): TenantRecord {
  const tenant = findTenant(local.store, opts.tenant as string | undefined);
  if (tenant) return tenant;
  throw new CliError(
    opts.tenant ? `no tenant has the domain '${opts.tenant}'` : `the data directory ${local.layout.dir} has no tenant yet`,
    EXIT.notFound,
    opts.tenant ? "see 'confctl admin tenants list'" : "run 'confctl admin init' first",
  );
}

export function wholeNumber(flag: string, value: unknown): number {
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) throw new UsageError(`${flag} must be a whole number, not '${String(value)}'`);
  return Number(value);
}

/** `connectedAccounts` → `connected_accounts`, in nested objects too: admin output names keys as the API does. */
export function snakeKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(snakeKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)])) as T;
}

export async function print(ctx: CliContext, cmd: Command, item: Row): Promise<void> {
  const globals = globalOptions(cmd);
  await renderItem(ctx.streams, snakeKeys(item), { format: outputFormat(ctx, globals), fields: globals.fields, query: globals.query });
}

export async function printList(ctx: CliContext, cmd: Command, rows: Row[], columns: string[]): Promise<void> {
  const globals = globalOptions(cmd);
  const writer = listWriter(ctx.streams, { format: outputFormat(ctx, globals), fields: globals.fields, columns, query: globals.query });
  await writer.write(snakeKeys(rows));
  await writer.end();
}
