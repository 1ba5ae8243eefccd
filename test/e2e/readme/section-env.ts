import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Command } from './extract.js';

/** What a README section gets besides its server: fixtures, placeholders, a shell environment. */

export const FIXTURES = resolve(__dirname, 'fixtures');
const CLIENT = resolve(__dirname, '../cli-client.pl');

let perlFound: boolean | undefined;
/** Whether perl with the modules cli-client.pl loads is here (every Debian, Ubuntu and macOS has it). */
export function perlClient(): boolean {
  perlFound ??= spawnSync('perl', ['-MSocket', '-MCwd', '-e', '1'], { stdio: 'ignore' }).status === 0;
  return perlFound;
}

/** The instance's access key, standing in for the README's placeholders. */
export interface Key {
  keyId: string;
  secret: string;
}

/** `ak_` + 24 `X` is the key id, 48 `X` the secret. */
export function fillPlaceholders(text: string, key: Key): string {
  return text.replace(/\bak_X{24}\b/g, key.keyId).replace(/\bX{48}\b/g, key.secret);
}

/**
 * Copies into `cwd` the fixtures the commands name (as a whole file name: `customers.csv` is not
 * named by `new-customers.csv`); `secret.txt`, when named, holds the key's secret. Answers the
 * names provided.
 */
export function provideFixtures(commands: Command[], cwd: string, key: Key, fixtures = FIXTURES): string[] {
  const text = commands.map((c) => c.text).join('\n');
  const named = (name: string) => new RegExp(`(^|[^\\w.-])${name.replace(/\./g, '\\.')}($|[^\\w.-])`).test(text);
  const provided = readdirSync(fixtures).filter(named);
  for (const file of provided) copyFileSync(join(fixtures, file), join(cwd, file));
  if (named('secret.txt')) {
    writeFileSync(join(cwd, 'secret.txt'), `${key.secret}\n`, { mode: 0o600 });
    provided.push('secret.txt');
  }
  return provided;
}

/**
 * A shell environment on top of `base`: `home` as HOME (nothing reaches the real one), `confctl`
 * and `npx confctl` running `bin` with this node (other `npx` calls refused), and `true` as the
 * editor, so `--edit` runs and changes nothing. Writes the shims into `shimDir`.
 *
 * With `socket`, a command line other than a server's (`serve`, `webhooks listen`, which run the
 * bin) goes to the CLI runners through that socket (cli-socket.ts, cli-client.pl); without perl,
 * every command line runs the bin.
 */
export function sectionEnv(base: NodeJS.ProcessEnv, options: { bin: string; home: string; shimDir: string; socket?: string }): NodeJS.ProcessEnv {
  mkdirSync(options.shimDir, { recursive: true });
  mkdirSync(options.home, { recursive: true });
  const node = JSON.stringify(process.execPath);
  const bin = JSON.stringify(options.bin);
  const own = `exec ${node} ${bin} "$@"`;
  const run =
    options.socket && perlClient()
      ? `case " $* " in *" serve "*|*" webhooks listen "*) ${own} ;; esac\nexec perl ${JSON.stringify(CLIENT)} ${JSON.stringify(options.socket)} ${node} ${bin} "$@"`
      : own;
  shim(options.shimDir, 'confctl', run);
  shim(options.shimDir, 'npx', `if [ "$1" = confctl ]; then shift; ${run}; fi\necho "README test: only 'npx confctl' runs here, not 'npx $*'" >&2\nexit 127`);
  const env: NodeJS.ProcessEnv = { ...base, HOME: options.home, PATH: `${options.shimDir}:${base.PATH ?? ''}`, EDITOR: 'true' };
  for (const k of ['VISUAL', 'XDG_CONFIG_HOME', 'XDG_DATA_HOME']) delete env[k];
  return env;
}

function shim(dir: string, name: string, body: string): void {
  const file = join(dir, name);
  writeFileSync(file, `#!/bin/sh\n${body}\n`);
  chmodSync(file, 0o755);
}
