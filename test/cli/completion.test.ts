import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { COMMANDS } from '../../src/cli/main.js';
import { fake } from './helpers.js';
import { tempDir } from '../tmp.js';

const BIN = resolve(__dirname, '../../bin/confctl.js');
const has = (shell: string) => spawnSync(shell, ['-c', 'exit 0']).status === 0;

async function script(shell: string): Promise<string> {
  const f = fake();
  expect(await f.run(['completion', shell])).toBe(0);
  return f.stdout();
}

/** A `confctl` on PATH (the built bin) with two saved profiles, for dynamic profile names. */
let dir: string;
let env: NodeJS.ProcessEnv;
beforeAll(() => {
  dir = tempDir('confctl-compl-');
  const bin = join(dir, 'bin');
  execFileSync('mkdir', [bin]);
  writeFileSync(join(bin, 'confctl'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`);
  chmodSync(join(bin, 'confctl'), 0o755);
  env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, CONFCTL_CONFIG_DIR: join(dir, 'config') };
  for (const name of ['staging', 'prod']) {
    execFileSync(join(bin, 'confctl'), ['profile', 'add', name, '--domain', `${name}.test`, '--key-id', 'ak_x', '--secret-stdin'], { env, input: 's\n' });
  }
});

describe('completion bash', () => {
  let file: string;
  beforeAll(async () => {
    file = join(dir, 'confctl.bash');
    writeFileSync(file, await script('bash'));
  });

  /** COMPREPLY after `confctl WORDS<TAB>` (the last word is the one being completed). */
  const complete = (...words: string[]): string[] => {
    const array = ['confctl', ...words].map((w) => `'${w}'`).join(' ');
    const code = `source '${file}'; COMP_WORDS=(${array}); COMP_CWORD=${words.length}; _confctl; printf '%s\\n' "\${COMPREPLY[@]}"`;
    return execFileSync('bash', ['-c', code], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
  };

  it('is valid bash', () => {
    expect(spawnSync('bash', ['-n', file]).status).toBe(0);
  });

  it('completes commands, subcommands and flags', () => {
    expect(complete('cust')).toEqual(['customers']);
    expect(complete('users', 'li')).toEqual(['list']);
    expect(complete('conferences', 'attendees', '')).toEqual(['list', 'add', 'remove', 'join-link']);
    expect(complete('admin', 'keys', 'r')).toEqual(['revoke']);
    expect(complete('users', 'list', '--s')).toEqual(['--show-secret', '--sort']);
    expect(complete('--profile', 'x', 'users', 'list', '--with')).toEqual(['--with-trashed']);
    expect(complete('')).toContain('doctor');
  });

  it('completes flag values: choices, and saved profile names from `confctl profile names`', () => {
    expect(complete('users', 'list', '-o', 'j')).toEqual(['json']);
    expect(complete('--profile', '')).toEqual(['prod', 'staging']);
    expect(complete('--profile', 'st')).toEqual(['staging']);
    expect(complete('profile', 'use', '')).toEqual(['prod', 'staging']);
    expect(complete('completion', '')).toEqual(['bash', 'zsh', 'fish']);
  });

  it('a flag value is not taken for a subcommand', () => {
    // `--fields users` must not make `users` the command: the next word still completes top level.
    expect(complete('--fields', 'users', 'cust')).toEqual(['customers']);
  });

  it('every command of main.ts loads a module that registers it (how the tree loads them)', async () => {
    for (const entry of Object.values(COMMANDS)) expect(typeof (await entry.load()).register).toBe('function');
    expect(complete('').sort()).toEqual([...Object.keys(COMMANDS)].sort());
  });
});

describe('completion zsh and fish', () => {
  const TOP = Object.keys(COMMANDS);

  describe.skipIf(!has('zsh'))(`zsh${has('zsh') ? '' : ' (skipped: zsh is not installed)'}`, () => {
    let file: string;
    beforeAll(async () => {
      file = join(dir, '_confctl');
      writeFileSync(file, await script('zsh'));
    });
    /**
     * What `_confctl` offers after `confctl WORDS<TAB>`: the script runs in zsh for real, with the
     * completion system's builtins stood in for (`compadd` prints its candidates, which zsh itself
     * would then match against the typed prefix; `_files` prints FILES).
     */
    const complete = (...words: string[]): string[] => {
      const array = ['confctl', ...words].map((w) => `'${w}'`).join(' ');
      const code = `compdef() { :; }; compadd() { [ "$1" = -- ] && shift; print -l -- "$@"; }; _files() { print FILES; }; source '${file}'; words=(${array}); CURRENT=${words.length + 1}; _confctl`;
      return execFileSync('zsh', ['-c', code], { env, encoding: 'utf8' }).split('\n').filter(Boolean);
    };

    it('passes zsh -n', () => {
      expect(spawnSync('zsh', ['-n', file]).status).toBe(0);
    });

    it('offers commands, subcommands, flags, choices and saved profiles', () => {
      expect(complete('us').sort()).toEqual([...TOP].sort());
      expect(complete('conferences', 'attendees', '')).toEqual(['list', 'add', 'remove', 'join-link']);
      expect(complete('users', 'list', '--s')).toEqual(expect.arrayContaining(['--sort', '--show-secret', '--with-trashed']));
      expect(complete('users', 'list', '-o', 'j')).toEqual(['table', 'json', 'yaml', 'csv', 'ndjson']);
      expect(complete('--profile', '').sort()).toEqual(['prod', 'staging']);
      expect(complete('admin', 'recordings', 'finish', '1', '--file', '')).toEqual(['FILES']);
    });
  });

  describe.skipIf(!has('fish'))(`fish${has('fish') ? '' : ' (skipped: fish is not installed)'}`, () => {
    let file: string;
    beforeAll(async () => {
      file = join(dir, 'confctl.fish');
      writeFileSync(file, await script('fish'));
    });
    /** Fish's own completion of the command line `confctl LINE` (`complete -C`), candidates only. */
    const complete = (line: string): string[] =>
      execFileSync('fish', ['--no-config', '-c', `source '${file}'; complete -C '${line}'`], { env, encoding: 'utf8' })
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);

    it('passes fish -n', () => {
      expect(spawnSync('fish', ['-n', file]).status).toBe(0);
    });

    it('completes commands, subcommands, flags, choices and saved profiles', () => {
      expect(complete('confctl us')).toEqual(['users']);
      expect(complete('confctl conferences attendees ').sort()).toEqual(['add', 'join-link', 'list', 'remove']);
      expect(complete('confctl users list --with')).toEqual(['--with-trashed']);
      expect(complete('confctl users list -o j')).toEqual(['json']);
      expect(complete('confctl --profile ').sort()).toEqual(['prod', 'staging']);
      expect(complete('confctl profile use st')).toEqual(['staging']);
    });
  });

  it('zsh and fish scripts hold the tree and the dynamic profile lookup', async () => {
    const zsh = await script('zsh');
    expect(zsh.startsWith('#compdef confctl\n')).toBe(true);
    expect(zsh).toContain("'users') echo 'list create get update accounts connected-accounts' ;;");
    expect(zsh).toContain('compdef _confctl confctl');
    const fish = await script('fish');
    expect(fish).toContain("complete -c confctl -n '__confctl_at '\\''users'\\''' -a 'list'");
    expect(fish).toContain("complete -c confctl  -l profile -x -a '(__confctl_profiles)'");
    expect(fish).toContain('command confctl profile names');
  });

  it('an unknown shell is exit 2', async () => {
    const f = fake();
    expect(await f.run(['completion', 'tcsh'])).toBe(2);
  });
});
