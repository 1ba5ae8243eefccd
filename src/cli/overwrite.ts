/**
 * Consent before replacing what exists (a file a flag names, a saved profile). `--force` gives it;
 * on a terminal the user is asked; in a script it is a usage error (exit 2) saying how to allow
 * it. Commands call this before doing anything they cannot take back.
 */
import { existsSync } from 'node:fs';
import type { CliContext } from './context.js';
import { UsageError } from './errors.js';

/** Resolves when `what` (which exists) may be replaced; else throws a usage error with `hint`. */
export async function consentToReplace(ctx: CliContext, what: string, opts: { force: boolean; hint: string }): Promise<void> {
  if (opts.force) return;
  if (!ctx.streams.canPrompt) throw new UsageError(`${what} already exists; not replacing it`, opts.hint);
  const answer = await ctx.prompter.input({ message: `${what} already exists. Replace it? (y/N)`, default: 'N' });
  if (!/^y(es)?$/i.test(answer.trim())) throw new UsageError(`kept ${what}; nothing was changed`, opts.hint);
}

/** Consent to write `file` (named by `flag`) when it exists; `-` (stdout) never asks. */
export async function consentToOverwriteFile(ctx: CliContext, file: string | undefined, flag: string, force: boolean): Promise<void> {
  if (file === undefined || file === '-' || !existsSync(file)) return;
  await consentToReplace(ctx, `the file ${file}`, { force, hint: `give --force to replace it, or another ${flag} FILE` });
}

/** The `--force` flag of every command that may replace something. */
export const FORCE_FLAG = ['--force', 'replace an existing profile or file without asking'] as const;
