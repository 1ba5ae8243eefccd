import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ownProcess, runInRunner } from './cli-runners.js';
import { Sandbox } from './harness.js';

/** The harness runs most command lines in runner processes (cli-runner.mjs): they answer what the bin answers in a process of its own. */
describe('e2e: the CLI runners', () => {
  const box = new Sandbox();
  afterAll(() => box.dispose());

  it.each([
    [['--help']],
    [['users', 'list', '--nope']],
    [['profile', 'list', '-o', 'json']],
    [['users', 'get', 'u1']],
    [['admin', 'tenants', 'list', '-o', 'json']],
    [['--version']],
  ])('confctl %j: the same exit code and output as its own process', async (args) => {
    const env = box.env();
    const alone = await box.spawnBin(args, env, '');
    const inRunner = await runInRunner(args, env, '');
    expect(inRunner).toEqual(alone);
    expect(alone.stdout + alone.stderr).not.toBe('');
  });

  it('feeds a command its stdin, and each command its own environment, several at once', async () => {
    const add = await box.run(['profile', 'add', 'p1', '--domain', 'one.example.com', '--key-id', 'k1', '--secret-stdin'], { input: 'never-printed\n' });
    expect(add.code, add.stderr).toBe(0);
    const saved = JSON.parse(readFileSync(join(box.configDir, 'profiles.json'), 'utf8'));
    expect(saved.profiles.p1.secret).toBe('never-printed');
    const other = new Sandbox();
    try {
      const [mine, theirs] = await Promise.all([box.json(['profile', 'list']), other.json(['profile', 'list'])]);
      expect(mine).toEqual([expect.objectContaining({ name: 'p1', key_id: 'k1', base_url: 'https://one.example.com/api/public/v2.0' })]);
      expect(theirs).toEqual([]);
    } finally {
      await other.dispose();
    }
  });

  it('gives servers and what node reads as it starts a process of their own', () => {
    expect(ownProcess(['serve', '--port', '0'], process.env)).toBe(true);
    expect(ownProcess(['--profile', 'x', 'webhooks', 'listen'], process.env)).toBe(true);
    expect(ownProcess(['webhooks', 'verify'], process.env)).toBe(false);
    expect(ownProcess(['users', 'list'], { ...process.env, TZ: 'Asia/Tokyo' })).toBe(true);
    expect(ownProcess(['users', 'list'], { ...process.env, NODE_OPTIONS: '--max-old-space-size=64' })).toBe(true);
    expect(ownProcess(['users', 'list'], { ...process.env, CONFCTL_OUTPUT: 'yaml' })).toBe(false);
  });
});
