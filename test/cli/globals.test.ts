import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import type { Command, Option } from 'commander';
import { afterEach, describe, expect, it } from 'vitest';
import { COMMANDS, createProgram } from '../../src/cli/main.js';
import { COMMAND_GLOBALS, commandPath, type GlobalName } from '../../src/cli/globals.js';
import { adminFake } from './admin-helpers.js';
import { fake, type Fake } from './helpers.js';

const fakes: Fake[] = [];
function tracked(): Fake {
  const f = fake();
  fakes.push(f);
  return f;
}
afterEach(() => {
  for (const f of fakes.splice(0)) rmSync(f.configDir, { recursive: true, force: true });
});

/** The program with every command module loaded, and every runnable command in it. */
async function wholeTree(): Promise<{ program: Command; leaves: Command[] }> {
  const { ctx } = tracked();
  const program = createProgram(ctx);
  for (const entry of Object.values(COMMANDS)) (await entry.load()).register(program, ctx);
  const leaves: Command[] = [];
  const walk = (cmd: Command) => {
    for (const sub of cmd.commands) {
      if (sub.name() === 'help') continue;
      if (sub.commands.length) walk(sub);
      else leaves.push(sub);
    }
  };
  walk(program);
  return { program, leaves };
}

/** The global options of the program (the version flag is the program's own). */
const globalsOf = (program: Command) => program.options.filter((o) => o.attributeName() !== 'version');

/** Arguments that get `cmd` past commander's own checks: its required arguments and mandatory options. */
function minimalArgs(cmd: Command): string[] {
  const args = cmd.registeredArguments.filter((a) => a.required).map((a) => a.argChoices?.[0] ?? '1');
  for (const o of cmd.options.filter((x) => x.mandatory)) args.push(o.long!, '1');
  return args;
}

const VALUES: Partial<Record<GlobalName, string>> = { profile: 'p', output: 'json', fields: 'id', query: 'id', timeout: '5', baseUrl: 'http://127.0.0.1:1' };
const given = (o: Option) => (o.required || o.optional ? [o.long!, VALUES[o.attributeName() as GlobalName] ?? '1'] : [o.long!]);

/** The `Global Options:` section of a help text (empty when there is none). */
function globalSection(help: string): string {
  const at = help.indexOf('Global Options:');
  if (at < 0) return '';
  const rest = help.slice(at);
  const end = rest.search(/\n\n/);
  return end < 0 ? rest : rest.slice(0, end);
}

describe('global options per command', () => {
  it('every command has a row in the table, and every row is a command', async () => {
    const { leaves } = await wholeTree();
    const paths = leaves.map(commandPath);
    expect(paths.length).toBeGreaterThan(40);
    expect(paths.filter((p) => !(p in COMMAND_GLOBALS))).toEqual([]);
    expect(Object.keys(COMMAND_GLOBALS).filter((p) => !paths.includes(p))).toEqual([]);
  });

  it("each command's help lists exactly the globals it takes, and -o wherever it prints", async () => {
    const { program, leaves } = await wholeTree();
    for (const leaf of leaves) {
      const path = commandPath(leaf);
      const f = tracked();
      expect(await f.run([...path.split(' '), '--help']), path).toBe(0);
      const section = globalSection(f.stdout());
      for (const option of globalsOf(program)) {
        const listed = new RegExp(`(^|\\n)\\s+(-\\w, )?${option.long}\\b`).test(section);
        expect(listed, `${path} ${option.long}`).toBe(COMMAND_GLOBALS[path].includes(option.attributeName() as GlobalName));
      }
      expect(section).not.toMatch(/--version/);
    }
  });

  it('every command rejects each global it does not take (exit 2, naming it) before doing anything', async () => {
    const { program, leaves } = await wholeTree();
    let rejections = 0;
    for (const leaf of leaves) {
      const path = commandPath(leaf);
      for (const option of globalsOf(program)) {
        if (COMMAND_GLOBALS[path].includes(option.attributeName() as GlobalName)) continue;
        const f = tracked();
        const args = [...path.split(' '), ...minimalArgs(leaf), ...given(option)];
        expect(await f.run(args), args.join(' ')).toBe(2);
        expect(f.stderr(), args.join(' ')).toContain(`error: ${option.long} does not apply to 'confctl ${path}'`);
        expect(f.stdout(), args.join(' ')).toBe('');
        rejections++;
      }
    }
    expect(rejections).toBeGreaterThan(100);
  });

  it('no help text, of any command or group, and not the README or a guide of docs/, cites internal documents (the README links the repository\'s own ARCHITECTURE.md)', async () => {
    const { program } = await wholeTree();
    const INTERNAL = /decisions|§|interface\.md|ARCHITECTURE/;
    const paths: string[][] = [[]];
    const walk = (cmd: Command, path: string[]) =>
      cmd.commands.filter((c) => c.name() !== 'help').forEach((c) => (paths.push([...path, c.name()]), walk(c, [...path, c.name()])));
    walk(program, []);
    for (const path of paths) {
      const f = tracked();
      expect(await f.run([...path, '--help']), path.join(' ')).toBe(0);
      expect(f.stdout(), path.join(' ')).not.toMatch(INTERNAL);
    }
    // The README may link the repository's own ARCHITECTURE.md (it ships in the clone), and the
    // development guide too, from docs/; nothing internal.
    const own = '[ARCHITECTURE.md](ARCHITECTURE.md)';
    const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
    expect(readme).toContain(own);
    expect(existsSync(new URL('../../ARCHITECTURE.md', import.meta.url))).toBe(true);
    expect(readme.replaceAll(own, '')).not.toMatch(INTERNAL);
    const guides = readdirSync(new URL('../../docs/', import.meta.url)).filter((f) => f.endsWith('.md'));
    expect(guides.length).toBeGreaterThan(10);
    for (const guide of guides) {
      const text = readFileSync(new URL(`../../docs/${guide}`, import.meta.url), 'utf8');
      expect(text.replaceAll('[ARCHITECTURE.md](../ARCHITECTURE.md)', ''), `docs/${guide}`).not.toMatch(INTERNAL);
    }
  });

  it('environment variables never make a local command fail', async () => {
    const env = { CONFCTL_PROFILE: 'ghost', CONFCTL_BASE_URL: 'not a url', CONFCTL_DOMAIN: 'nowhere.invalid', CONFCTL_KEY_ID: 'ak_env', CONFCTL_KEY_SECRET: 'env-secret' };
    const f = adminFake({ env });
    try {
      for (const args of [
        ['admin', 'init', '--no-profile'],
        ['admin', 'tenants', 'add', 'acme.test'],
        ['admin', 'tenants', 'list'],
        ['admin', 'keys', 'list'],
        ['admin', 'roles', 'list'],
        ['admin', 'seed', '--users', '2', '--dry-run'],
        ['profile', 'add', 'acme', '--domain', 'acme.test', '--key-id', 'ak_1', '--secret', 's'],
        ['profile', 'list'],
        ['profile', 'use', 'acme'],
        ['completion', 'bash'],
        ['version'],
      ]) {
        expect(await f.run(args), `${args.join(' ')}: ${f.stderr()}`).toBe(0);
      }
    } finally {
      f.dispose();
    }
  });

  it('rejects a global given before the command name too', async () => {
    const f = tracked();
    expect(await f.run(['--dry-run', 'users', 'list'])).toBe(2);
    expect(f.stderr()).toContain("error: --dry-run does not apply to 'confctl users list'");
  });

  it('--show-secret without --dry-run is a usage error', async () => {
    const f = tracked();
    expect(await f.run(['customers', 'create', '--show-secret', '--first-name', 'A'])).toBe(2);
    expect(f.stderr()).toContain('--show-secret goes only with --dry-run');
  });
});

describe('version', () => {
  const expected = `${JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version}\n`;
  for (const args of [['--version'], ['-v'], ['version']]) {
    it(`${args.join(' ')} prints the version`, async () => {
      const f = tracked();
      expect(await f.run(args)).toBe(0);
      expect(f.stdout()).toBe(expected);
    });
  }
});

describe('combinations that would do nothing are refused (exit 2, before any request)', () => {
  it.each([
    [['users', 'list', '--raw', '--fields', 'bogus'], '--fields does nothing with --raw'],
    [['users', 'get', '1', '--raw', '--fields', 'id'], '--fields does nothing with --raw'],
    [['users', 'list', '--raw', '-o', 'csv'], '--raw prints the envelope as json or yaml, not csv'],
    [['users', 'get', '1', '--raw', '-o', 'table'], '--raw prints the envelope as json or yaml, not table'],
  ])('%j', async (args, message) => {
    const f = tracked();
    expect(await f.run(args)).toBe(2);
    expect(f.stderr()).toContain(`error: ${message}`);
    expect(f.agent.requests).toEqual([]);
  });
});
