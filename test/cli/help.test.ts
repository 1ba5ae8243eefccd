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
