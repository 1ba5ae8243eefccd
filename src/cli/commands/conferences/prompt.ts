/**
 * Asks for the required conference fields that flags and `--data` left out (terminal only):
 * the account, picked from a user's conference accounts; the title; the public id, suggesting
 * a slug of the title; public or private.
 */
import type { ApiClient } from '../../../client/client.js';
import type { CliContext, Prompter } from '../../context.js';
import { UsageError } from '../../errors.js';
import { slug } from './body.js';

/**
 * The prompter plus the two questions `Prompter` lacks. A context's prompter may carry them
 * (tests script them); otherwise they come from @inquirer/prompts on the context's streams.
 */
export interface ChoicePrompter extends Prompter {
  select<T>(question: { message: string; choices: Array<{ name: string; value: T }> }): Promise<T>;
  confirm(question: { message: string; default?: boolean }): Promise<boolean>;
}

/** `ctx.prompter` with `select` and `confirm`; only call when `ctx.streams.canPrompt`. */
export function choicePrompter(ctx: CliContext): ChoicePrompter {
  const p = ctx.prompter as Prompter & Partial<ChoicePrompter>;
  // The streams are the real process streams whenever prompting is allowed.
  const io = { input: ctx.streams.stdin, output: ctx.streams.stderr as unknown as NodeJS.WritableStream };
  return {
    input: (q) => p.input(q),
    password: (q) => p.password(q),
    select: p.select ? (q) => p.select!(q) : async (q) => (await import('@inquirer/prompts')).select(q, io),
    confirm: p.confirm ? (q) => p.confirm!(q) : async (q) => (await import('@inquirer/prompts')).confirm(q, io),
  };
}

async function pickAccount(ask: ChoicePrompter, client: ApiClient): Promise<number> {
  const userId = (await ask.input({ message: 'User id of the account owner' })).trim();
  if (!/^[1-9]\d*$/.test(userId)) throw new UsageError(`user id must be a positive integer, not '${userId}'`, 'or give --account ID');
  const accounts = (await client.listUserConferenceAccounts(userId, { page_size: 100 })).data;
  if (!accounts.length) throw new UsageError(`user ${userId} has no online conference accounts`, 'give --account ID');
  return ask.select({
    message: 'Online conference account',
    choices: accounts.map((a) => ({ name: `${a.id}  ${a.name ?? ''}`.trimEnd(), value: a.id })),
  });
}

/** Fills the missing required fields of a create body in place, asking in a natural order. */
export async function promptMissing(body: Record<string, unknown>, ctx: CliContext, client: ApiClient): Promise<void> {
  const ask = choicePrompter(ctx);
  if (body.online_conference_account_id == null) body.online_conference_account_id = await pickAccount(ask, client);
  if (body.title == null) {
    const title = (await ask.input({ message: 'Title' })).trim();
    if (!title) throw new UsageError('a title is required', 'give --title TEXT');
    body.title = title;
  }
  if (body.public_id == null) {
    const suggested = slug(String(body.title));
    const id = (await ask.input({ message: 'Public id (letters, digits, - and _)', default: suggested || undefined })).trim() || suggested;
    if (!id) throw new UsageError('a public id is required', 'give --public-id ID');
    body.public_id = id;
  }
  if (body.is_public == null) body.is_public = await ask.confirm({ message: 'Public (anyone with the link may join)?', default: false });
}
