/** What every `confctl admin …` action shares: its flags' parsing and printing (the store: store.ts). */
import type { Command } from 'commander';
import { type CliContext, globalOptions, outputFormat, UsageError } from '../../context.js';
import { listWriter, renderItem, type Row } from '../../output/index.js';
import { chooseDatabase } from '../database-choice.js';

/**
 * What an admin command's `run` gets besides its typed options: the context, and the command it
 * ran as, whose global options it prints with and whose `--data`/`--database` choose the store
 * (withStore, databaseUrl).
 */
export interface AdminDeps {
  ctx: CliContext;
  cmd: Command;
}

/** The options of a command that has none of its own. */
export type NoOptions = Record<string, never>;

/** `--dry-run` was given (only commands that print a plan take it). */
export const isDryRun = (cmd: Command): boolean => globalOptions(cmd).dryRun;

/** Prints a dry run's plan on stdout, a `would …` line each, and says on stderr that nothing changed. */
export function plan(ctx: CliContext, lines: string[]): void {
  for (const line of lines) ctx.streams.stdout.write(`${line}\n`);
  ctx.streams.stderr.write('dry run: nothing was changed\n');
}

/** The PostgreSQL database an admin command works on, or undefined for the SQLite data directory (see `chooseDatabase`). */
export function databaseUrl(ctx: CliContext, cmd: Command): string | undefined {
  const { data, database } = cmd.opts<{ data?: string; database?: string }>();
  return chooseDatabase({ data, database }, ctx.env);
}

export function wholeNumber(flag: string, value: unknown): number {
  if (typeof value !== 'string' || !/^[0-9]+$/.test(value)) throw new UsageError(`${flag} must be a whole number, not '${String(value)}'`);
  return Number(value);
}

/** A conference or recording id: a whole number JavaScript holds exactly, else exit 2. */
export function idArg(value: string, what: string): number {
  if (!/^[0-9]+$/.test(value) || !Number.isSafeInteger(Number(value))) throw new UsageError(`${what} must be a whole number, not '${value}'`);
  return Number(value);
}

/** `connectedAccounts` → `connected_accounts`, in nested objects too: admin output names keys as the API does. */
export function snakeKeys<T>(value: T): T {
  if (Array.isArray(value)) return value.map(snakeKeys) as T;
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`), snakeKeys(v)])) as T;
}

/** A new secret is shown as plain lines on a terminal, unless `--fields` picks what to print. */
export function isPlainText(ctx: CliContext, cmd: Command): boolean {
  const globals = globalOptions(cmd);
  return outputFormat(ctx, globals) === 'table' && !globals.fields;
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
