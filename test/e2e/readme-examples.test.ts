import { chmodSync, copyFileSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractSections, type Section } from './readme/extract.js';
import { describeFailure, runnableCommands, runSection } from './readme/runner.js';
import { BIN, Sandbox } from './harness.js';

/**
 * Every runnable example of the README (```sh blocks; see the README's Development section for
 * the convention) runs against its own fresh `confctl serve --demo`, one section at a time per
 * server, with the built bin standing in for `confctl` and `npx confctl`.
 */

const README = resolve(__dirname, '../../README.md');
const FIXTURES = resolve(__dirname, 'readme/fixtures');
/** Placeholders the README may write for the sandbox's access key. */
const KEY_ID_PLACEHOLDER = /\bak_X{24}\b/g;
const SECRET_PLACEHOLDER = /\bX{48}\b/g;
/** Sections run this many at a time (each has its own server, data, config, home and directory). */
const PARALLEL = 3;

const sections = extractSections(readFileSync(README, 'utf8')).filter((s) => runnableCommands(s).length > 0);

describe('README examples run against a fresh serve --demo', () => {
  it('finds the README examples', () => {
    expect(sections.map((s) => s.title)).toEqual(expect.arrayContaining(['Quick start', 'Users', 'Scripting']));
  });

  const slot = limiter(PARALLEL);
  for (const section of sections) {
    it.concurrent(`${section.title} (README line ${section.line})`, () => slot(() => runReadmeSection(section)), 300_000);
  }
});

async function runReadmeSection(section: Section): Promise<void> {
  const box = new Sandbox();
  try {
    await box.serve(['--demo']);
    const profiles = JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8'));
    expect(profiles.active, 'the first serve --demo saves its key as the active profile local').toBe('local');
    const { key_id: keyId, secret } = profiles.profiles.local;

    const cwd = join(box.root, 'work');
    const home = join(box.root, 'home');
    mkdirSync(cwd);
    mkdirSync(home);
    provideFixtures(section, cwd, secret);
    const run = await runSection(section, {
      cwd,
      scratch: join(box.root, 'steps'),
      env: commandEnv(box, home),
      substitute: (text) => text.replace(KEY_ID_PLACEHOLDER, keyId).replace(SECRET_PLACEHOLDER, secret),
      timeoutMs: 240_000,
    });
    if (run.failure) throw new Error(describeFailure(section, run));
    expect(run.steps).toHaveLength(runnableCommands(section).length);
  } finally {
    await box.dispose();
  }
}

/** Copies the fixtures a section names into its directory; `secret.txt` holds the sandbox's secret. */
function provideFixtures(section: Section, cwd: string, secret: string): void {
  const text = runnableCommands(section).map((c) => c.text).join('\n');
  const names = (name: string) => new RegExp(`(^|[^\\w.-])${name.replace(/[.]/g, '\\.')}($|[^\\w.-])`).test(text);
  for (const file of readdirSync(FIXTURES)) {
    if (names(file)) copyFileSync(join(FIXTURES, file), join(cwd, file));
  }
  if (names('secret.txt')) writeFileSync(join(cwd, 'secret.txt'), `${secret}\n`, { mode: 0o600 });
}

/**
 * The sandbox's environment, a home of its own (nothing reaches the real one), `confctl` and
 * `npx confctl` running the built bin, and `true` as the editor (`--edit` then changes nothing).
 */
function commandEnv(box: Sandbox, home: string): NodeJS.ProcessEnv {
  const bin = join(box.root, 'bin');
  mkdirSync(bin);
  const node = JSON.stringify(process.execPath);
  const target = JSON.stringify(BIN);
  writeFileSync(join(bin, 'confctl'), `#!/bin/sh\nexec ${node} ${target} "$@"\n`);
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\nif [ "$1" = confctl ]; then shift; exec ${node} ${target} "$@"; fi\necho "README test: only 'npx confctl' runs here, not 'npx $*'" >&2\nexit 127\n`,
  );
  chmodSync(join(bin, 'confctl'), 0o755);
  chmodSync(join(bin, 'npx'), 0o755);
  const env = box.env({ HOME: home, PATH: `${bin}:${process.env.PATH}`, EDITOR: 'true' });
  delete env.VISUAL;
  delete env.XDG_CONFIG_HOME;
  delete env.XDG_DATA_HOME;
  return env;
}

/** Runs at most `n` of the given tasks at once. */
function limiter(n: number): <T>(task: () => Promise<T>) => Promise<T> {
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
