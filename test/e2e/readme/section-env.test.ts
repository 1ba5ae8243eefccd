import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../harness.js';
import { extractSections } from './extract.js';
import { runnableCommands } from './runner.js';
import { FIXTURES, fillPlaceholders, provideFixtures, sectionEnv } from './section-env.js';

const key = { keyId: 'ak_abcdefghijklmnopqrstuvwx', secret: 's'.repeat(48) };

describe('a README section environment', () => {
  const root = mkdtempSync(join(tmpdir(), 'confctl-readme-env-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('fills the key placeholders', () => {
    const text = `confctl admin keys revoke ak_${'X'.repeat(24)}; echo ${'X'.repeat(48)}; echo ak_${'X'.repeat(23)}`;
    expect(fillPlaceholders(text, key)).toBe(`confctl admin keys revoke ${key.keyId}; echo ${key.secret}; echo ak_${'X'.repeat(23)}`);
  });

  it('copies the fixtures a section names, whole names only, and writes secret.txt with the secret', () => {
    const [section] = extractSections([
      '## S', '```sh', 'confctl users update 3 --work-hours @hours.json',
      'confctl customers create --from-file new-customers.csv', 'confctl profile add p --secret-stdin < secret.txt', '```',
    ].join('\n'));
    const cwd = join(root, 'fixtures');
    mkdirSync(cwd);
    expect(provideFixtures(runnableCommands(section), cwd, key).sort()).toEqual(['hours.json', 'new-customers.csv', 'secret.txt']);
    expect(readdirSync(cwd).sort()).toEqual(['hours.json', 'new-customers.csv', 'secret.txt']);
    expect(readFileSync(join(cwd, 'hours.json'))).toEqual(readFileSync(join(FIXTURES, 'hours.json')));
    expect(readFileSync(join(cwd, 'secret.txt'), 'utf8')).toBe(`${key.secret}\n`);
    expect(statSync(join(cwd, 'secret.txt')).mode & 0o777).toBe(0o600);
  });

  it('runs the built bin as confctl and npx confctl, refuses other npx calls, and keeps HOME and the editor its own', () => {
    const home = join(root, 'home');
    const env = sectionEnv({ PATH: process.env.PATH, VISUAL: 'vim', HOME: '/root' }, { bin: BIN, home, shimDir: join(root, 'bin') });
    expect(env).toMatchObject({ HOME: home, EDITOR: 'true' });
    expect(env.VISUAL).toBeUndefined();
    expect(existsSync(home)).toBe(true);
    const sh = (command: string) => spawnSync('sh', ['-c', command], { env, encoding: 'utf8' });
    const version = JSON.parse(readFileSync(join(BIN, '../../package.json'), 'utf8')).version;
    expect(sh('confctl --version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    expect(sh('npx confctl --version')).toMatchObject({ status: 0, stdout: `${version}\n` });
    const other = sh('npx cowsay hi');
    expect(other.status).toBe(127);
    expect(other.stderr).toContain("only 'npx confctl' runs here, not 'npx cowsay hi'");
  });
});
