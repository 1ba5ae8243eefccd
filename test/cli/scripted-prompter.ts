import type { ChoicePrompter } from '../../src/cli/commands/conferences/prompt.js';

/** A prompter answering from a script by message prefix, recording every question it was asked. */
export function scripted(answers: Record<string, unknown>) {
  const asked: Array<{ kind: string; message: string; default?: unknown; choices?: unknown }> = [];
  const answer = (kind: string, q: { message: string; default?: unknown; choices?: unknown }) => {
    asked.push({ kind, ...q });
    const key = Object.keys(answers).find((k) => q.message.startsWith(k));
    if (key === undefined) return Promise.reject(new Error(`unexpected prompt: ${q.message}`));
    return Promise.resolve(answers[key]);
  };
  const prompter: ChoicePrompter = {
    input: (q) => answer('input', q) as Promise<string>,
    password: (q) => answer('password', q) as Promise<string>,
    select: <T>(q: { message: string; choices: Array<{ name: string; value: T }> }) => answer('select', q) as Promise<T>,
    confirm: (q) => answer('confirm', q) as Promise<boolean>,
  };
  return { prompter, asked };
}
