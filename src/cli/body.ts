/** Request bodies from flags: one flag per writable field, `--data` for a whole body, `--clear`. */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { UsageError } from './errors.js';
import { parseWorkHours } from './work-hours.js';

/** A writable body field and how its flag value is read. */
export interface FieldFlag {
  key: string;
  /** `hours`: work hours as text (`mon-fri 09:00-17:00`) or JSON, see `work-hours.ts`. */
  kind: 'text' | 'integer' | 'json' | 'hours';
  description: string;
}

/** The flag of a body field: `first_name` → `--first-name`. */
export const flagOf = (key: string) => `--${key.replace(/_/g, '-')}`;
const attrOf = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/** Adds `--<field>` for each field, plus `--data` and (for updates) `--clear`. */
export function addBodyOptions(cmd: Command, fields: readonly FieldFlag[], opts: { clear: boolean }): Command {
  for (const f of fields) {
    const file = f.kind === 'json' || f.kind === 'hours';
    cmd.option(`${flagOf(f.key)} <${f.kind === 'json' ? 'json' : f.kind === 'hours' ? 'hours' : 'value'}>`, file ? `${f.description} (or @FILE)` : f.description);
  }
  cmd.option('--data <json>', "whole body as JSON, @FILE or - for stdin (field flags override its keys)");
  if (opts.clear) cmd.option('--clear <field>', 'send null for a field (repeatable)', (v: string, prev: string[] = []) => [...prev, v]);
  return cmd;
}

/** The body fields given as flags (and `--clear` as null), checked and typed; the only I/O is a JSON flag's `@FILE`. */
export function bodyFromFlags(flags: Record<string, unknown>, fields: readonly FieldFlag[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const field of (flags.clear as string[] | undefined) ?? []) {
    const key = field.replace(/-/g, '_');
    if (!fields.some((f) => f.key === key)) throw new UsageError(`cannot clear '${field}'`, `fields: ${fields.map((f) => f.key).join(', ')}`);
    body[key] = null;
  }
  for (const f of fields) {
    const raw = flags[attrOf(f.key)];
    if (typeof raw !== 'string') continue;
    if (f.kind === 'integer') {
      if (!/^-?\d+$/.test(raw)) throw new UsageError(`${flagOf(f.key)} must be an integer, not '${raw}'`);
      body[f.key] = Number(raw);
    } else if (f.kind === 'json' || f.kind === 'hours') {
      const flag = flagOf(f.key);
      const text = raw.startsWith('@') ? readFileArg(raw.slice(1), flag) : raw;
      body[f.key] = f.kind === 'json' ? parseJson(text, flag) : parseWorkHours(text, (t) => parseJson(t, flag));
    }
    else body[f.key] = raw;
  }
  return body;
}

export function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw new UsageError(`${what} is not valid JSON: ${(err as Error).message}`);
  }
}

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8');
  return text;
}

const unreadable = (flag: string, path: string, err: unknown) =>
  new UsageError(`cannot read ${flag} file ${path}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);

function readFileArg(path: string, flag: string): string {
  try {
    return readFileSync(path, 'utf8');
  } catch (err) {
    throw unreadable(flag, path, err);
  }
}

/** The text of a `--data`-style argument: itself, `@FILE`'s content, or stdin for `-`. */
export async function readText(arg: string, stdin: NodeJS.ReadableStream, flag = '--data'): Promise<string> {
  if (arg === '-') return readAll(stdin);
  if (!arg.startsWith('@')) return arg;
  try {
    return await readFile(arg.slice(1), 'utf8');
  } catch (err) {
    throw unreadable(flag, arg.slice(1), err);
  }
}

/** Reads `--data`: inline JSON, `@FILE` or `-` (stdin); it must be a JSON object. */
export async function readData(arg: string, stdin: NodeJS.ReadableStream): Promise<Record<string, unknown>> {
  const value = parseJson(await readText(arg, stdin), '--data');
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new UsageError('--data must be a JSON object');
  return value as Record<string, unknown>;
}
