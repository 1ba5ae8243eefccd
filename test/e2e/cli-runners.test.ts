import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { connect, refused } from '../server/socket-helpers.js';
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

  it('runs Sandbox.serve in a runner that takes SIGTERM as its process would, also after a command that hooked every signal', async () => {
    // After a command that loaded conf's atomic writes, which hook every signal for good: a runner
    // drops the handlers a command added, as a process of its own starts without them.
    expect((await box.run(['profile', 'add', 'hooked', '--domain', 'two.example.com', '--key-id', 'k2', '--secret-stdin'], { input: 's\n' })).code).toBe(0);
    const second = await box.serve(['--no-profile']);
    const socket = await connect(Number(new URL(second.baseUrl).port));
    const continued = new Promise<void>((done) => socket.once('data', () => done()));
    // A request whose body never comes keeps the drain waiting until the second SIGTERM.
    socket.write('POST /api/public/v2.0/customers HTTP/1.1\r\nHost: localhost\r\nContent-Length: 10\r\nExpect: 100-continue\r\n\r\n');
    await continued;
    const ended = new Promise<string | null>((done) => second.child.once('exit', (_code, signal) => done(signal)));
    second.child.kill('SIGTERM');
    await refused(Number(new URL(second.baseUrl).port));
    second.child.kill('SIGTERM');
    expect(await ended).toBe('SIGTERM');
    socket.destroy();

    const plain = await box.serve(['--no-profile']);
    expect(plain.child.pid).not.toBe(process.pid);
    const stopped = new Promise<[number | null, string | null]>((done) => plain.child.once('exit', (code, signal) => done([code, signal])));
    plain.child.kill('SIGTERM');
    expect(await stopped).toEqual([0, null]);
    expect(plain.output()).toContain('Stopped.');
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
