/** What every `confctl admin …` action shares: its flags' parsing and printing (the store: store.ts). */
import { type CliContext, type GlobalOptions, outputFormat, UsageError } from '../../context.js';
import { listWriter, renderItem, type Row } from '../../output/index.js';

/** The options of a command that has none of its own. */
export type NoOptions = Record<string, never>;

/** Prints a dry run's plan on stdout, a `would …` line each, and says on stderr that nothing changed. */
export function plan(ctx: CliContext, lines: string[]): void {
  for (const line of lines) ctx.streams.stdout.write(`${line}\n`);
  ctx.streams.stderr.write('dry run: nothing was changed\n');
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
export function isPlainText(ctx: CliContext, globals: GlobalOptions): boolean {
  return outputFormat(ctx, globals) === 'table' && !globals.fields;
}

export async function print(ctx: CliContext, globals: GlobalOptions, item: Row): Promise<void> {
  await renderItem(ctx.streams, snakeKeys(item), { format: outputFormat(ctx, globals), fields: globals.fields, query: globals.query });
}

export async function printList(ctx: CliContext, globals: GlobalOptions, rows: Row[], columns: string[]): Promise<void> {
  const writer = listWriter(ctx.streams, { format: outputFormat(ctx, globals), fields: globals.fields, columns, query: globals.query });
  await writer.write(snakeKeys(rows));
  await writer.end();
}
