/**
 * `--edit`: a JSON object opened in the user's editor. The editor is `$VISUAL`, else `$EDITOR`,
 * else `vi`; it runs through the shell (so `EDITOR="code --wait"` works) on a temp file of mode
 * 0600. Without a terminal (stdin and stdout) it runs only when `$VISUAL`/`$EDITOR` is set
 * explicitly (scripts and tests use a non-interactive editor that way). A failed editor, invalid
 * JSON or an edit that `check` refuses keeps the file and names it, so no work is lost.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { shellQuote } from '../../client/curl.js';
import type { Env } from '../../config/profiles.js';
import { CliError, EXIT, type Streams, UsageError } from '../context.js';

/** The editor command line to run, or a usage error when none may run here. */
export function editorCommand(env: Env, streams: Streams): string {
  const chosen = env.VISUAL || env.EDITOR;
  if (chosen) return chosen;
  if (!streams.canPrompt) throw new UsageError('--edit needs a terminal on stdin and stdout', 'or set VISUAL or EDITOR to an editor that runs without one');
  return 'vi';
}

function run(command: string): Promise<number> {
  return new Promise((done, fail) => {
    const child = spawn(command, { shell: true, stdio: 'inherit' });
    child.on('error', fail);
    child.on('exit', (code, signal) => done(code ?? (signal ? 128 : 1)));
  });
}

/**
 * Opens `value` as pretty JSON in the editor; answers the edited object once the editor exits.
 * `check` answers why an edited object cannot be sent (undefined when it can).
 */
export async function editJson(
  value: Record<string, unknown>,
  name: string,
  env: Env,
  streams: Streams,
  check: (edited: Record<string, unknown>) => string | undefined = () => undefined,
): Promise<Record<string, unknown>> {
  const editor = editorCommand(env, streams);
  const dir = await mkdtemp(join(tmpdir(), 'confctl-edit-'));
  const file = join(dir, `${name}.json`);
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  const code = await run(`${editor} ${shellQuote(file)}`);
  if (code !== 0) throw new CliError(`the editor (${editor}) exited with code ${code}; nothing sent`, EXIT.unexpected, `the file is kept: ${file}`);
  const text = await readFile(file, 'utf8');
  let edited: unknown;
  try {
    edited = JSON.parse(text);
  } catch (err) {
    throw new UsageError(`the edited JSON is not valid (${(err as Error).message}); nothing sent`, `your edit is kept in ${file}; fix it and pass it with --data @${file}`);
  }
  if (!edited || typeof edited !== 'object' || Array.isArray(edited)) {
    throw new UsageError('the edited JSON must be an object; nothing sent', `your edit is kept in ${file}`);
  }
  const problem = check(edited as Record<string, unknown>);
  if (problem) throw new UsageError(`${problem}; nothing sent`, `your edit is kept in ${file}; fix it and pass it with --data @${file}`);
  await rm(dir, { recursive: true, force: true });
  return edited as Record<string, unknown>;
}
