/** Running a markdown document's `sh` examples section by section (the README's, the guides' in docs/). */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Section } from './extract.js';
import { describeFailure, runnableCommands, runSection } from './runner.js';
import { fillPlaceholders, provideFixtures, sectionEnv } from './section-env.js';
import { type Backend, BIN, Sandbox } from '../harness.js';
import { serveCli } from '../cli-socket.js';

/** Runs one section of a document's examples against its own fresh `serve --demo` (on `backend`); throws naming the failing step. */
export async function runDocSection(section: Section, backend: Backend, commandTimeoutMs: number): Promise<void> {
  const box = new Sandbox(backend);
  const onDataDir = backend === 'sqlite';
  const cli = await serveCli(join(box.root, 'cli.sock'));
  try {
    const server = await box.serve(['--demo']);
    const profiles = JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8'));
    expect(profiles.active, 'the first serve --demo saves its key as the active profile local').toBe('local');
    const key = { keyId: profiles.profiles.local.key_id, secret: profiles.profiles.local.secret };
    expect(server.output().includes(key.secret), 'the first serve --demo prints the key it saved').toBe(true);

    const cwd = join(box.root, 'work');
    mkdirSync(cwd);
    provideFixtures(runnableCommands(section, onDataDir), cwd, key);
    const run = await runSection(section, {
      cwd,
      scratch: join(box.root, 'steps'),
      env: sectionEnv(box.env(), { bin: BIN, home: join(box.root, 'home'), shimDir: join(box.root, 'bin'), socket: cli.path }),
      substitute: (text) => fillPlaceholders(text, key),
      commandTimeoutMs,
      onDataDir,
    });
    if (run.failure) throw new Error(describeFailure(section, run).replaceAll(key.secret, '****'));
    expect(run.steps).toHaveLength(runnableCommands(section, onDataDir).length);
  } finally {
    await cli.close();
    await box.dispose();
  }
}

/** Runs at most `n` of the given tasks at once. */
export function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (task) => {
    if (active >= n) await new Promise<void>((go) => waiting.push(go));
    active++;
    try {
      return await task();
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}
