import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { COMMANDS, createProgram } from '../../src/cli/main.js';
import { fake } from './helpers.js';

/** Every command path (groups and leaves), hidden ones and commander's implicit `help` left out. */
async function commandPaths(): Promise<string[][]> {
  const { ctx } = fake();
  const program = createProgram(ctx);
  for (const entry of Object.values(COMMANDS)) (await entry.load()).register(program, ctx);
  const paths: string[][] = [];
  const walk = (cmd: Command, path: string[]) => {
    for (const sub of cmd.commands) {
      if ((sub as unknown as { _hidden?: boolean })._hidden || sub.name() === 'help') continue;
      paths.push([...path, sub.name()]);
      walk(sub, [...path, sub.name()]);
    }
  };
  walk(program, []);
  return paths;
}

describe('help', () => {
  it('every command and command group ends its --help with an example in one format', async () => {
    const paths = await commandPaths();
    expect(paths.length).toBeGreaterThan(40);
    for (const path of paths) {
      const f = fake();
      expect(await f.run([...path, '--help']), path.join(' ')).toBe(0);
      const example = path[0] === 'completion' ? /\nInstall:\n {2}bash {2}\$ / : new RegExp(`\\nExamples?:\\n {2}\\$ (printf .* \\| )?confctl ${path[0]}`);
      expect(f.stdout(), path.join(' ')).toMatch(example);
    }
  });
});

describe('confctl --help', () => {
  it('ends with everyday examples, a pointer to serve --demo and to the manual, and the exit codes', async () => {
    for (const args of [['--help'], ['help'], []]) {
      const f = fake();
      const code = await f.run(args);
      const text = args.length ? f.stdout() : f.stderr();
      expect(code, args.join(' ')).toBe(args.length ? 0 : 2);
      const examples = /\nExamples:\n((?: {2}\$ .*\n)+)/.exec(text)?.[1].split('\n').filter(Boolean) ?? [];
      expect(examples.length, args.join(' ')).toBeGreaterThanOrEqual(4);
      expect(examples.some((l) => /^ {2}\$ confctl \w+ list /.test(l))).toBe(true);
      expect(examples.some((l) => /^ {2}\$ confctl \w+ create /.test(l))).toBe(true);
      expect(examples.some((l) => / -o json \| jq /.test(l))).toBe(true);
      expect(examples).toContain('  $ confctl serve --demo');
      expect(text).toMatch(/Try it locally: 'confctl serve --demo' runs a local instance with demo data/);
      expect(text).toContain("'man confctl'");
      expect(text).toContain('docs/commands/');
      expect(text).toMatch(/\nExit codes:\n {2}0 {4}success\n {2}1 {4}unexpected error, or a 5xx from the service\n[\s\S]* {2}8 {4}network error or timeout\n {2}130 {2}interrupted \(Ctrl-C\)\n/);
    }
  });

  it('its examples are commands that exist, with flags they take', async () => {
    const f = fake();
    await f.run(['--help']);
    const examples = (/\nExamples:\n((?: {2}\$ .*\n)+)/.exec(f.stdout())?.[1] ?? '').split('\n').filter(Boolean).map((l) => l.slice(4).split(' | ')[0]);
    for (const line of examples) {
      const words = line.split(' ').slice(1);
      const path = words.slice(0, words.findIndex((w) => w.startsWith('-')));
      const help = fake();
      expect(await help.run([...path, '--help']), line).toBe(0);
      for (const flag of words.filter((w) => w.startsWith('--'))) expect(help.stdout(), `${line}: ${flag}`).toContain(`${flag} `);
    }
  });
});
